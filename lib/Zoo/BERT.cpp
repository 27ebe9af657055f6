//===- BERT.cpp - BERT encoders with a question-answering head -------------===//
//
// Devlin et al., "BERT: Pre-training of Deep Bidirectional Transformers":
// word + position + token-type embeddings, layer norm, N post-norm encoder
// layers (multi-head self-attention with an additive mask, GELU FFN), and a
// span (start/end logits) head as in BertForQuestionAnswering.
//
//===----------------------------------------------------------------------===//
#include "ModelBuilder.h"

#include <cmath>

using namespace mlir;
using namespace dlc::zoo;

static Value attention(ModelBuilder &m, Value x, Value mask,
                       const std::string &name, const BertConfig &cfg,
                       int64_t batch, int64_t seq) {
  int64_t heads = cfg.heads, dh = cfg.hidden / cfg.heads;
  auto split = [&](Value v, const std::string &n) { // [B,L,H] -> [B*h,L,dh]
    v = m.reshape(v, {batch, seq, heads, dh}, n + ".view");
    v = m.transpose(v, {0, 2, 1, 3}, n + ".permute");
    return m.reshape(v, {batch * heads, seq, dh}, n + ".flatten");
  };
  Value q = split(m.dense(x, name + ".self.query", cfg.hidden), name + ".self.query");
  Value k = split(m.dense(x, name + ".self.key", cfg.hidden), name + ".self.key");
  Value v = split(m.dense(x, name + ".self.value", cfg.hidden), name + ".self.value");
  Value scores = m.op(dlc::graph::BatchMatmulOp::getOperationName(), name + ".self.scores", {q, k},
                      {m.attr("transpose_b", m.builder().getBoolAttr(true))});
  scores = m.reshape(scores, {batch, heads, seq, seq}, name + ".self.scores.view");
  scores = m.mul(scores, m.scalar(1.0 / std::sqrt(static_cast<double>(dh))),
                 name + ".self.scale");
  scores = m.add(scores, mask, name + ".self.mask");
  Value probs = m.op(dlc::graph::SoftmaxOp::getOperationName(), name + ".self.softmax", scores,
                     {m.i64("axis", -1)});
  probs = m.reshape(probs, {batch * heads, seq, seq}, name + ".self.probs.flatten");
  Value ctx = m.op(dlc::graph::BatchMatmulOp::getOperationName(), name + ".self.context", {probs, v});
  ctx = m.reshape(ctx, {batch, heads, seq, dh}, name + ".self.context.view");
  ctx = m.transpose(ctx, {0, 2, 1, 3}, name + ".self.context.permute");
  ctx = m.reshape(ctx, {batch, seq, cfg.hidden}, name + ".self.context.merge");
  Value out = m.dense(ctx, name + ".output.dense", cfg.hidden);
  return m.layerNorm(m.add(out, x, name + ".output.residual"),
                     name + ".output.LayerNorm", 1e-12);
}

llvm::Expected<OwningOpRef<ModuleOp>>
dlc::zoo::buildBert(MLIRContext &ctx, const ZooOptions &o, const BertConfig &cfg) {
  if (o.seq < 1 || o.seq > cfg.maxPositions)
    return llvm::createStringError("bert: --seq must be in [1, " +
                                   std::to_string(cfg.maxPositions) + "], got " +
                                   std::to_string(o.seq));
  ModelBuilder m(ctx, o.seed);
  auto i64 = IntegerType::get(&ctx, 64);
  auto ids = RankedTensorType::get({o.batch, o.seq}, i64);
  SmallVector<Value> args = m.begin({{"input_ids", ids, {{0, cfg.vocab}}},
                                     {"token_type_ids", ids, {{0, 2}}},
                                     {"attention_mask", ids, {{1, 2}}}});
  int64_t b = o.batch, l = o.seq, h = cfg.hidden;

  // Embeddings.
  Value words = m.op(dlc::graph::GatherOp::getOperationName(), "embeddings.word_embeddings",
                     {m.param("embeddings.word_embeddings.weight", {cfg.vocab, h}, 0.1),
                      args[0]});
  Value positions = m.op(
      dlc::graph::SliceOp::getOperationName(), "embeddings.position_ids",
      m.param("embeddings.position_embeddings.weight", {cfg.maxPositions, h}, 0.1),
      {m.ints("starts", {0, 0}), m.ints("ends", {l, h}), m.ints("steps", {1, 1})});
  Value types = m.op(dlc::graph::GatherOp::getOperationName(), "embeddings.token_type_embeddings",
                     {m.param("embeddings.token_type_embeddings.weight", {2, h}, 0.1),
                      args[1]});
  Value x = m.add(m.add(words, positions, "embeddings.add_positions"), types,
                  "embeddings.add_types");
  x = m.layerNorm(x, "embeddings.LayerNorm", 1e-12);

  // Additive mask: 0 where attended, -10000 where masked; [B, 1, 1, L].
  Value mask = m.op(dlc::graph::CastOp::getOperationName(), "extended_attention_mask", args[2], {},
                    RankedTensorType::get({b, l}, Float32Type::get(&ctx)));
  mask = m.mul(m.op(dlc::graph::SubOp::getOperationName(), "extended_attention_mask.invert",
                    {m.scalar(1.0), mask}),
               m.scalar(-10000.0), "extended_attention_mask.scale");
  mask = m.reshape(mask, {b, 1, 1, l}, "extended_attention_mask.view");

  for (int64_t i = 0; i < cfg.layers; ++i) {
    std::string name = "encoder.layer." + std::to_string(i);
    x = attention(m, x, mask, name + ".attention", cfg, b, l);
    Value inner = m.op(dlc::graph::GeluOp::getOperationName(), name + ".intermediate.gelu",
                       m.dense(x, name + ".intermediate.dense", cfg.ffn));
    Value out = m.dense(inner, name + ".output.dense", h);
    x = m.layerNorm(m.add(out, x, name + ".output.residual"),
                    name + ".output.LayerNorm", 1e-12);
  }

  // Question answering: start and end logits per token.
  Value logits = m.dense(x, "qa_outputs", 2);
  auto f32 = Float32Type::get(&ctx);
  auto half = RankedTensorType::get({b, l, 1}, f32);
  SmallVector<Value> parts = m.ops(dlc::graph::SplitOp::getOperationName(), "qa_outputs.split", logits,
                                   {m.i64("axis", 2)}, {half, half}, 2);
  Value start = m.op(dlc::graph::SqueezeOp::getOperationName(), "start_logits", parts[0], {m.ints("axes", {2})});
  Value end = m.op(dlc::graph::SqueezeOp::getOperationName(), "end_logits", parts[1], {m.ints("axes", {2})});
  return m.finish({start, end});
}
