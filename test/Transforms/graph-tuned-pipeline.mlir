# --dlc-pipeline=tuned:DB: the best record for the model's structure
# fingerprint is replayed; which record wins; every error. (dlc-tune's own
# test, test/tools/dlc-tune.test, replays what it measured.)
RUN: rm -rf %t && mkdir -p %t && cd %t
RUN: dlc-zoo resnet18 --image=32 -o resnet.mlirbc
RUN: dlc-zoo bert_tiny --seq=16 -o bert.mlirbc
RUN: dlc-opt resnet.mlirbc --dlc-pipeline=list:FuseOps --dlc-pass-ledger=resnet.ledger -o /dev/null

# Confirmed records made here win over newer unconfirmed ones made here,
# which win over confirmed ones made on another CPU.
RUN: %python %S/Inputs/make_tuning_db.py resnet.ledger db.jsonl host=other,confirmed=1,sequence=FoldConstant+FuseOps host=here,confirmed=1,sequence=SimplifyInference+FuseOps host=here,confirmed=0,sequence=FuseOps
RUN: dlc-opt resnet.mlirbc '--dlc-pipeline=tuned:db.jsonl;explain' --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=EXPLAIN
EXPLAIN: tuned: db.jsonl, record of day 1 (test candidate 1, dlc test)
EXPLAIN-NEXT: tuned: latency 0.900x O3 [0.850, 0.950] over 15 rounds, compile time 0.800x O3, objective latency
EXPLAIN-NEXT: tuned: list:SimplifyInference,FuseOps
EXPLAIN: graph-simplify-inference:
EXPLAIN: graph-tuned-pipeline: passes-replayed 2
RUN: dlc-opt resnet.mlirbc --dlc-pipeline=tuned:db.jsonl | FileCheck %s --check-prefix=REPLAYED
REPLAYED-NOT: graph.batch_norm
REPLAYED: graph.fused

RUN: %python %S/Inputs/make_tuning_db.py resnet.ledger elsewhere.jsonl host=other,confirmed=0,sequence=FuseOps host=other,confirmed=1,sequence=FoldConstant+FuseOps
RUN: dlc-opt resnet.mlirbc '--dlc-pipeline=tuned:elsewhere.jsonl;explain' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ELSEWHERE
ELSEWHERE: tuned: elsewhere.jsonl, record of day 1 (test candidate 1, dlc test), measured on another CPU (Other CPU)
ELSEWHERE: tuned: list:FoldConstant,FuseOps

# dlc-run takes it too.
RUN: dlc-run resnet.mlirbc --target=cpu --pipeline=tuned:db.jsonl --input=random:seed=1 | FileCheck %s --check-prefix=EXECUTED
EXECUTED: output 0: f32[1x1000]

# A last line cut short (a tuner killed while writing) is not a record.
RUN: cp db.jsonl cut.jsonl && printf '{"v": 1, "kind": "be' >> cut.jsonl
RUN: dlc-opt resnet.mlirbc '--dlc-pipeline=tuned:cut.jsonl;explain' -o /dev/null 2>&1 | FileCheck %s --check-prefix=CUT
CUT: tuned: list:SimplifyInference,FuseOps

# The sequence no longer ends where it did when tuned: a warning.
RUN: %python %S/Inputs/make_tuning_db.py resnet.ledger moved.jsonl host=here,confirmed=1,sequence=FuseOps,ir_after=0000
RUN: dlc-opt resnet.mlirbc --dlc-pipeline=tuned:moved.jsonl -o /dev/null 2>&1 | FileCheck %s --check-prefix=MOVED
MOVED: warning: graph-tuned-pipeline: the sequence from moved.jsonl now ends at another graph than when it was tuned (with dlc test): its figures may no longer hold; run dlc-tune again

# A record computes in the precision its sequence names: tuned:DB replays
# the latest f32 one, tuned:DB;mixed=bf16 the bf16 one (dlc-tune --mixed=bf16).
RUN: %python %S/Inputs/make_tuning_db.py resnet.ledger mixed.jsonl host=here,confirmed=1,sequence=FuseOps host=here,confirmed=1,sequence=ToMixedPrecision{type=bf16}+FoldConstant+FuseOps
RUN: dlc-opt resnet.mlirbc '--dlc-pipeline=tuned:mixed.jsonl;explain' -o /dev/null 2>&1 | FileCheck %s --check-prefix=F32
F32: tuned: list:FuseOps
RUN: dlc-opt resnet.mlirbc '--dlc-pipeline=tuned:mixed.jsonl;mixed=bf16;explain' 2>&1 | FileCheck %s --check-prefix=BF16
BF16: tuned: list:ToMixedPrecision{type=bf16},FoldConstant,FuseOps
BF16: graph.conv2d {{.*}}bf16
# The other order: the f32 record is the latest, bf16 is still replayed
# when asked for.
RUN: %python %S/Inputs/make_tuning_db.py resnet.ledger reversed.jsonl host=here,confirmed=1,sequence=ToMixedPrecision{type=bf16}+FoldConstant+FuseOps host=here,confirmed=1,sequence=FuseOps
RUN: dlc-opt resnet.mlirbc '--dlc-pipeline=tuned:reversed.jsonl;mixed=bf16;explain' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BF16-SEQ
BF16-SEQ: tuned: list:ToMixedPrecision{type=bf16},FoldConstant,FuseOps
RUN: dlc-opt resnet.mlirbc '--dlc-pipeline=tuned:reversed.jsonl;explain' -o /dev/null 2>&1 | FileCheck %s --check-prefix=F32
# A bf16 run in which nothing beat O3 records O3's f32 sequence as its
# best: the record says the run's precision (bf16), so it does not replace
# the f32 tuning.
RUN: %python %S/Inputs/make_tuning_db.py resnet.ledger o3best.jsonl host=here,confirmed=1,sequence=FuseOps,precision=f32 host=here,confirmed=1,sequence=SimplifyInference+FuseOps,precision=bf16
RUN: dlc-opt resnet.mlirbc '--dlc-pipeline=tuned:o3best.jsonl;explain' -o /dev/null 2>&1 | FileCheck %s --check-prefix=F32
RUN: dlc-opt resnet.mlirbc '--dlc-pipeline=tuned:o3best.jsonl;mixed=bf16;explain' -o /dev/null 2>&1 | FileCheck %s --check-prefix=O3-BEST
O3-BEST: tuned: list:SimplifyInference,FuseOps
RUN: %python %S/Inputs/make_tuning_db.py resnet.ledger bf16.jsonl host=here,confirmed=1,sequence=ToMixedPrecision{type=bf16}+FuseOps
RUN: not dlc-opt resnet.mlirbc --dlc-pipeline=tuned:bf16.jsonl -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONLY-BF16
ONLY-BF16: error: graph-tuned-pipeline: bf16.jsonl has no tuned sequence for this model in f32, only in bf16: replay one with 'tuned:bf16.jsonl;mixed=bf16', or run dlc-tune on it
# f32 is what the message suggests where the file has it: no precision given up.
RUN: not dlc-run resnet.mlirbc --target=cpu '--pipeline=tuned:mixed.jsonl;mixed=f16' 2>&1 | FileCheck %s --check-prefix=NO-F16
NO-F16: error: graph-tuned-pipeline: mixed.jsonl has no tuned sequence for this model in f16, only in bf16 and f32: replay one with tuned:mixed.jsonl, or run dlc-tune --mixed=f16 on it
RUN: not dlc-opt resnet.mlirbc '--dlc-pipeline=tuned:mixed.jsonl;mixed=f8' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MIXED-TYPE
MIXED-TYPE: mixed=f8: expected mixed=f16 or mixed=bf16
RUN: not dlc-opt resnet.mlirbc --pass-pipeline='builtin.module(graph-tuned-pipeline{db=mixed.jsonl mixed=f8})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MIXED-PASS
MIXED-PASS: error: graph-tuned-pipeline: mixed=f8: expected f16 or bf16

# Errors.
RUN: not dlc-opt resnet.mlirbc --dlc-pipeline=tuned:nothing.jsonl -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-DB
NO-DB: error: graph-tuned-pipeline: nothing.jsonl: cannot read the tuning database
RUN: not dlc-opt bert.mlirbc --dlc-pipeline=tuned:db.jsonl -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-RECORD
RUN: not dlc-run bert.mlirbc --target=cpu --pipeline=tuned:db.jsonl 2>&1 | FileCheck %s --check-prefix=NO-RECORD
NO-RECORD: error: graph-tuned-pipeline: db.jsonl has no tuned sequence for this model (structure fingerprint {{[0-9a-f]+}}; the file holds 3 records of 1 other model): run dlc-tune on it first, or use auto
RUN: cp db.jsonl bad.jsonl && echo '{"v": 1, "kind": "best"}' >> bad.jsonl && echo >> bad.jsonl
RUN: not dlc-opt resnet.mlirbc --dlc-pipeline=tuned:bad.jsonl -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-LINE
BAD-LINE: error: graph-tuned-pipeline: bad.jsonl:4: not a tuning record: expected "kind" and "model": {"structure": ...}
RUN: echo 'not json' > notjson.jsonl
RUN: not dlc-opt resnet.mlirbc --dlc-pipeline=tuned:notjson.jsonl -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOT-JSON
NOT-JSON: error: graph-tuned-pipeline: notjson.jsonl:1: not a tuning record: {{.*}}
RUN: echo '{"v": 2, "kind": "best"}' > v2.jsonl
RUN: not dlc-opt resnet.mlirbc --dlc-pipeline=tuned:v2.jsonl -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERSION
VERSION: error: graph-tuned-pipeline: v2.jsonl:1: not a tuning record: expected "v": 1 (a record of another dlc-tune version?)
RUN: %python %S/Inputs/make_tuning_db.py resnet.ledger stale.jsonl host=here,confirmed=1,sequence=NoSuchPass+FuseOps
RUN: not dlc-opt resnet.mlirbc --dlc-pipeline=tuned:stale.jsonl -o /dev/null 2>&1 | FileCheck %s --check-prefix=STALE-PASS
STALE-PASS: error: graph-tuned-pipeline: stale.jsonl: the recorded sequence does not run in this dlc: unknown pass 'NoSuchPass'
RUN: not dlc-opt resnet.mlirbc '--dlc-pipeline=tuned:db.jsonl;disable=FuseOps' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TUNED-FIELDS
TUNED-FIELDS: disable=, require= and classes= do not apply to tuned: it replays the sequence dlc-tune recorded
RUN: not dlc-opt resnet.mlirbc --dlc-pipeline=tuned: -o /dev/null 2>&1 | FileCheck %s --check-prefix=TUNED-PATH
TUNED-PATH: tuned:: expected the path of a tuning database, without spaces, commas, braces or quotes
RUN: not dlc-opt resnet.mlirbc --pass-pipeline='builtin.module(graph-tuned-pipeline)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-DB-OPTION
NO-DB-OPTION: graph-tuned-pipeline: db= (the tuning database dlc-tune wrote) is required
