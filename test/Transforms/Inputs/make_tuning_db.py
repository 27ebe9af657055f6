"""Writes a tuning database of `best` records for the model whose pass ledger
is LEDGER (its structure fingerprint: the first pass's "before"):

    make_tuning_db.py LEDGER OUT RECORD...

Each RECORD is `host=here|other,confirmed=0|1,sequence=A+B+C[,ir_after=X]
[,precision=T]` (the precision the run tuned for; without it the record has
no such field, as records of dlc before it had); records are written in the
order given (the later, the newer)."""
import json
import sys

ledger, out, *specs = sys.argv[1:]
structure = json.load(open(ledger))["passes"][0]["fingerprint_before"]["structure"]
here = ""
for line in open("/proc/cpuinfo"):
    if line.startswith("model name"):
        here = line.split(":", 1)[1].strip()
        break
with open(out, "w") as f:
    for i, spec in enumerate(specs):
        fields = dict(item.split("=", 1) for item in spec.split(","))
        record = {
            "v": 1, "kind": "best", "run": f"test-{i}", "index": i,
            "model": {"path": "model", "structure": structure, "weights": ""},
            "classes": [], "strategy": "test", "status": "ok",
            "sequence": fields["sequence"].split("+"),
            "ir_after": fields.get("ir_after", ""),
            "confirmed": fields["confirmed"] == "1",
            "latency": {"vs_o3": {"median": 0.9, "low": 0.85, "high": 0.95, "rounds": 15}},
            "compile_vs_o3": 0.8, "objective": "latency", "score": 0.9,
            "provenance": {"host_cpu": here if fields["host"] == "here" else "Other CPU",
                           "dlc_version": "test", "llvm_version": "22", "date": f"day {i}"},
        }
        if "precision" in fields:
            record["precision"] = fields["precision"]
        f.write(json.dumps(record) + "\n")
