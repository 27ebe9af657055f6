//===- TuningDatabase.cpp - pass sequences measured by dlc-tune ------------===//
#include "dlc/Transforms/TuningDatabase.h"
#include "dlc/Transforms/PassRegistry.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace dlc;

/// The layout version of a line; a reader refuses others.
static constexpr int64_t kVersion = 1;

std::string TuningRecord::spec() const {
  return sequence.empty() ? "none" : "list:" + llvm::join(sequence, ",");
}

std::string TuningRecord::sequencePrecision(llvm::ArrayRef<std::string> sequence) {
  for (llvm::StringRef item : sequence) {
    if (item.split('{').first != "ToMixedPrecision")
      continue;
    for (llvm::StringRef setting : passItemOptions(item))
      if (auto [key, value] = setting.split('='); key == "type")
        return value.str();
    return "f16";
  }
  return "f32";
}

static llvm::json::Value toJSON(const TuningRecord &r) {
  llvm::json::Object o{
      {"v", kVersion},
      {"kind", r.kind},
      {"run", r.runId},
      {"model", llvm::json::Object{{"path", r.model},
                                   {"structure", r.structure},
                                   {"weights", r.weights}}},
      {"classes", llvm::json::Array(r.classes)},
      {"strategy", r.strategy},
      {"index", r.index},
      {"sequence", llvm::json::Array(r.sequence)},
      {"precision", r.precision},
      {"ir_after", r.irAfter},
      {"status", r.status},
      {"compile_ms", llvm::json::Object{{"graph_passes", r.graphPassesMs},
                                        {"lowering", r.loweringMs},
                                        {"codegen", r.codegenMs},
                                        {"total", r.compileMs}}},
      {"latency", llvm::json::Object{{"p50_ms", r.p50Ms},
                                     {"cv", r.cv},
                                     {"samples", r.samples},
                                     {"vs_o3", llvm::json::Object{{"median", r.latencyRatio},
                                                                  {"low", r.latencyLow},
                                                                  {"high", r.latencyHigh},
                                                                  {"rounds", r.rounds}}}}},
      {"compile_vs_o3", r.compileRatio},
      {"objective", r.objective},
      {"score", r.score},
      {"threads", r.threads},
      {"provenance", llvm::json::Object{{"host_cpu", r.hostCpu},
                                        {"dlc_version", r.dlcVersion},
                                        {"llvm_version", r.llvmVersion},
                                        {"date", r.date}}}};
  if (!r.error.empty())
    o["error"] = r.error;
  if (r.sameGraphAs >= 0)
    o["same_graph_as"] = r.sameGraphAs;
  if (r.kind == "best")
    o["confirmed"] = r.confirmed;
  return o;
}

llvm::Error dlc::appendTuningRecord(llvm::StringRef path, const TuningRecord &record) {
  std::string line;
  llvm::raw_string_ostream(line) << toJSON(record) << "\n";
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Append);
  if (ec)
    return llvm::createStringError(path.str() + ": cannot append to the tuning database: " +
                                   ec.message());
  os.SetUnbuffered(); // the line in one write
  os << line;
  os.close();
  if (os.has_error())
    return llvm::createStringError(path.str() + ": cannot append to the tuning database: " +
                                   os.error().message());
  return llvm::Error::success();
}

/// The record of one line, or why it is not one.
static llvm::Expected<TuningRecord> fromJSON(const llvm::json::Value &value) {
  const llvm::json::Object *o = value.getAsObject();
  if (!o)
    return llvm::createStringError("expected a JSON object");
  std::optional<int64_t> version = o->getInteger("v");
  if (version != kVersion)
    return llvm::createStringError("expected \"v\": " + std::to_string(kVersion) +
                                   " (a record of another dlc-tune version?)");
  TuningRecord r;
  auto str = [](const llvm::json::Object *obj, llvm::StringRef key) {
    return obj ? obj->getString(key).value_or("").str() : std::string();
  };
  auto num = [](const llvm::json::Object *obj, llvm::StringRef key, double fallback = 0) {
    return obj ? obj->getNumber(key).value_or(fallback) : fallback;
  };
  auto strings = [](const llvm::json::Array *a, std::vector<std::string> &out) {
    for (const llvm::json::Value &v : a ? *a : llvm::json::Array())
      if (std::optional<llvm::StringRef> s = v.getAsString())
        out.push_back(s->str());
      else
        return false;
    return true;
  };
  r.kind = str(o, "kind");
  const llvm::json::Object *model = o->getObject("model");
  r.model = str(model, "path");
  r.structure = str(model, "structure");
  r.weights = str(model, "weights");
  if (r.kind.empty() || r.structure.empty())
    return llvm::createStringError("expected \"kind\" and \"model\": {\"structure\": ...}");
  const llvm::json::Array *sequence = o->getArray("sequence");
  if (!sequence || !strings(sequence, r.sequence))
    return llvm::createStringError("expected \"sequence\": an array of pass names");
  if (!strings(o->getArray("classes"), r.classes))
    return llvm::createStringError("expected \"classes\": an array of strings");
  r.precision = str(o, "precision");
  if (r.precision.empty())
    r.precision = TuningRecord::sequencePrecision(r.sequence);
  r.runId = str(o, "run");
  r.strategy = str(o, "strategy");
  r.index = o->getInteger("index").value_or(0);
  r.irAfter = str(o, "ir_after");
  r.status = str(o, "status");
  r.error = str(o, "error");
  const llvm::json::Object *compile = o->getObject("compile_ms");
  r.graphPassesMs = num(compile, "graph_passes");
  r.loweringMs = num(compile, "lowering");
  r.codegenMs = num(compile, "codegen");
  r.compileMs = num(compile, "total");
  const llvm::json::Object *latency = o->getObject("latency");
  r.p50Ms = num(latency, "p50_ms");
  r.cv = num(latency, "cv");
  r.samples = static_cast<int64_t>(num(latency, "samples"));
  const llvm::json::Object *ratio = latency ? latency->getObject("vs_o3") : nullptr;
  r.latencyRatio = num(ratio, "median", 1);
  r.latencyLow = num(ratio, "low", 1);
  r.latencyHigh = num(ratio, "high", 1);
  r.rounds = static_cast<int64_t>(num(ratio, "rounds"));
  r.compileRatio = num(o, "compile_vs_o3", 1);
  r.objective = str(o, "objective");
  r.score = num(o, "score", 1);
  r.sameGraphAs = o->getInteger("same_graph_as").value_or(-1);
  r.confirmed = o->getBoolean("confirmed").value_or(false);
  r.threads = o->getInteger("threads").value_or(1);
  const llvm::json::Object *prov = o->getObject("provenance");
  r.hostCpu = str(prov, "host_cpu");
  r.dlcVersion = str(prov, "dlc_version");
  r.llvmVersion = str(prov, "llvm_version");
  r.date = str(prov, "date");
  return r;
}

llvm::Expected<std::vector<TuningRecord>> dlc::readTuningDatabase(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(path.str() + ": cannot read the tuning database: " +
                                   buffer.getError().message());
  std::vector<TuningRecord> records;
  llvm::StringRef text = (*buffer)->getBuffer();
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (auto [i, line] : llvm::enumerate(lines)) {
    if (line.trim().empty())
      continue;
    // The last line of a file that does not end with a newline was cut
    // short (a tuner killed while writing): it is not a record yet.
    bool unterminated = i + 1 == lines.size() && !text.ends_with("\n");
    auto where = [&, i = i](const llvm::Twine &why) {
      return llvm::createStringError(path.str() + ":" + std::to_string(i + 1) +
                                     ": not a tuning record: " + why.str());
    };
    llvm::Expected<llvm::json::Value> json = llvm::json::parse(line);
    if (!json && unterminated) {
      llvm::consumeError(json.takeError());
      break;
    }
    if (!json)
      return where(llvm::toString(json.takeError()));
    llvm::Expected<TuningRecord> record = fromJSON(*json);
    if (!record && unterminated) {
      llvm::consumeError(record.takeError());
      break;
    }
    if (!record)
      return where(llvm::toString(record.takeError()));
    records.push_back(std::move(*record));
  }
  return records;
}

const TuningRecord *dlc::findTunedRecord(llvm::ArrayRef<TuningRecord> records,
                                         llvm::StringRef structure, llvm::StringRef hostCpu,
                                         llvm::StringRef precision) {
  // The latest of the best tier: confirmed here, here, confirmed, any.
  const TuningRecord *tiers[4] = {};
  for (const TuningRecord &r : records) {
    if (r.kind != "best" || r.structure != structure || r.status != "ok" ||
        r.precision != precision)
      continue;
    bool here = r.hostCpu == hostCpu;
    tiers[here && r.confirmed ? 0 : here ? 1 : r.confirmed ? 2 : 3] = &r;
  }
  for (const TuningRecord *r : tiers)
    if (r)
      return r;
  return nullptr;
}
