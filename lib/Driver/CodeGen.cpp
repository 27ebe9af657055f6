//===- CodeGen.cpp - machine code for a module lowered to LLVM ------------===//
#include "CodeGen.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Support/Shape.h"
#include "dlc/Transforms/TargetDescription.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <atomic>
#include <mutex>
#include <thread>

using namespace mlir;
using namespace dlc;

/// The host's code generators, once per process.
static void initializeHostTarget() {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

std::string dlc::hostTargetIdentity() {
  std::string id = llvm::sys::getHostCPUName().str() + ":";
  for (const auto &f : llvm::sys::getHostCPUFeatures())
    if (f.second)
      id += f.first().str() + ",";
  return id;
}

/// LLVM's optimizer at O3 for `tm`, with full-width vectors (x86 tunings
/// such as znver4/5 prefer 256-bit vectors, which splits the register tiles
/// of the vectorized kernels in two and spills them) and without loop
/// unrolling: dlc's kernels come out of MLIR already register-tiled and
/// unrolled where it pays, and LLVM's unroller turned their loops into basic
/// blocks so large that the machine scheduler's quadratic dependency graphs
/// took most of the compile time (ResNet-50: 6.6 s -> 1.6 s cold, latency
/// unchanged; bench/compile_time.py).
static void optimize(llvm::Module &m, llvm::TargetMachine *tm, llvm::OptimizationLevel level) {
  for (llvm::Function &f : m)
    if (!f.isDeclaration()) {
      f.addFnAttr("prefer-vector-width", "512");
      f.addFnAttr("min-legal-vector-width", "512");
    }
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = false;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm, tuning);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  (level == llvm::OptimizationLevel::O0 ? pb.buildO0DefaultPipeline(level)
                                        : pb.buildPerModuleDefaultPipeline(level))
      .run(m, mam);
}

/// For every C entry point `_mlir_ciface_NAME`, `_mlir__mlir_ciface_NAME(void
/// **args)`: calls it with `*args[i]` as argument i (what MLIR's
/// ExecutionEngine calls packed arguments).
static void addPackedEntryPoints(llvm::Module &m) {
  SmallVector<llvm::Function *> entries;
  for (llvm::Function &f : m)
    if (!f.isDeclaration() && f.getName().starts_with("_mlir_ciface_"))
      entries.push_back(&f);
  llvm::IRBuilder<> b(m.getContext());
  llvm::Type *ptr = b.getPtrTy();
  for (llvm::Function *f : entries) {
    auto *wrapper = llvm::Function::Create(
        llvm::FunctionType::get(b.getVoidTy(), {ptr}, /*isVarArg=*/false),
        llvm::GlobalValue::ExternalLinkage, "_mlir_" + f->getName(), m);
    b.SetInsertPoint(llvm::BasicBlock::Create(m.getContext(), "entry", wrapper));
    SmallVector<llvm::Value *> args;
    for (auto [i, arg] : llvm::enumerate(f->args())) {
      llvm::Value *slot = b.CreateGEP(ptr, wrapper->getArg(0), b.getInt64(i));
      args.push_back(b.CreateLoad(arg.getType(), b.CreateLoad(ptr, slot)));
    }
    llvm::Value *result = b.CreateCall(f, args);
    if (!result->getType()->isVoidTy()) {
      llvm::Value *slot = b.CreateGEP(ptr, wrapper->getArg(0), b.getInt64(f->arg_size()));
      b.CreateStore(result, b.CreateLoad(ptr, slot));
    }
    b.CreateRetVoid();
  }
}

/// The definitions `roots` use, directly or through others, not crossing
/// into those `stop` names (they stay declarations).
static llvm::SmallPtrSet<const llvm::GlobalValue *, 16>
definitionsReached(ArrayRef<const llvm::GlobalValue *> roots,
                   function_ref<bool(const llvm::GlobalValue *)> stop) {
  llvm::SmallPtrSet<const llvm::GlobalValue *, 16> reached;
  llvm::SmallPtrSet<const llvm::Constant *, 32> seenConstants;
  SmallVector<const llvm::User *> work;
  auto visit = [&](const llvm::Value *v) {
    if (auto *gv = dyn_cast<llvm::GlobalValue>(v)) {
      if (!gv->isDeclaration() && !stop(gv) && reached.insert(gv).second)
        work.push_back(gv);
    } else if (auto *c = dyn_cast<llvm::Constant>(v)) {
      if (seenConstants.insert(c).second)
        work.push_back(c);
    }
  };
  for (const llvm::GlobalValue *root : roots)
    if (reached.insert(root).second)
      work.push_back(root);
  while (!work.empty()) {
    const llvm::User *u = work.pop_back_val();
    if (auto *f = dyn_cast<llvm::Function>(u)) {
      for (const llvm::Instruction &i : llvm::instructions(f))
        for (const llvm::Value *op : i.operands())
          visit(op);
    } else if (auto *g = dyn_cast<llvm::GlobalVariable>(u)) {
      if (g->hasInitializer())
        visit(g->getInitializer());
    } else if (!isa<llvm::GlobalValue>(u)) {
      for (const llvm::Value *op : u->operands())
        visit(op);
    }
  }
  return reached;
}

/// Whether `f` is a root of the part for the glue around the kernels: a
/// definition that is no kernel and not local (local functions, such as a
/// kernel's OpenMP regions, go where they are called; as roots they were
/// compiled again into the glue's part).
static bool isGlueRoot(const llvm::Function &f, const llvm::StringSet<> &kernels) {
  return !f.isDeclaration() && !f.hasLocalLinkage() && !kernels.contains(f.getName());
}

/// Whether splitting would copy a global the code writes (a model's
/// workspace) into more than one part, each copy a global of its own, or into
/// none (one no function reaches, such as llvm.global_ctors).
static bool splitBreaksWritableGlobal(const llvm::Module &whole, const llvm::StringSet<> &kernels) {
  llvm::DenseMap<const llvm::GlobalValue *, int> parts;
  auto shared = [&](const llvm::SmallPtrSetImpl<const llvm::GlobalValue *> &reached) {
    return llvm::any_of(reached, [&](const llvm::GlobalValue *gv) {
      auto *var = dyn_cast<llvm::GlobalVariable>(gv);
      return var && !var->isConstant() && ++parts[var] > 1;
    });
  };
  SmallVector<const llvm::GlobalValue *> rest;
  for (const llvm::Function &f : whole) {
    if (isGlueRoot(f, kernels))
      rest.push_back(&f);
    if (!kernels.contains(f.getName()))
      continue;
    auto reached = definitionsReached({&f}, [&](const llvm::GlobalValue *gv) {
      return gv != &f && kernels.contains(gv->getName());
    });
    if (shared(reached))
      return true;
  }
  if (shared(definitionsReached(
          rest, [&](const llvm::GlobalValue *gv) { return kernels.contains(gv->getName()); })))
    return true;
  return llvm::any_of(whole.globals(), [&](const llvm::GlobalVariable &g) {
    return !g.isDeclaration() && !g.isConstant() && !parts.count(&g);
  });
}

/// Declarations nobody uses, dropped so that a part's IR names only what it
/// calls.
static void dropUnusedDeclarations(llvm::Module &m) {
  for (llvm::Function &f : llvm::make_early_inc_range(m.functions()))
    if (f.isDeclaration() && f.use_empty())
      f.eraseFromParent();
  for (llvm::GlobalVariable &g : llvm::make_early_inc_range(m.globals()))
    if (g.isDeclaration() && g.use_empty())
      g.eraseFromParent();
}

static std::string bitcodeOf(const llvm::Module &m) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  llvm::WriteBitcodeToFile(m, os);
  return bytes;
}

/// A part of `m`'s bitcode and its SHA-256: the bitcode is the whole module
/// (printing it as text for the digest took longer than compiling small
/// kernels).
static ObjectPart partOf(const llvm::Module &m) {
  std::string bitcode = bitcodeOf(m);
  llvm::SHA256 hash;
  hash.update(bitcode);
  return {llvm::toHex(hash.final(), /*LowerCase=*/true), std::move(bitcode), ""};
}

/// `whole`'s kernel `name` alone: external, with private copies of the
/// definitions it uses, its private names numbered in order (so that the
/// same kernel in another model has the same IR), named after its digest.
/// Its `summary` (what it computes) goes beside it as the string
/// `dlc_summary_DIGEST`, outside the digest, for profiles to name it by.
/// Returns the part and that name.
static std::pair<ObjectPart, std::string> kernelPart(const llvm::Module &whole,
                                                     const llvm::Function &kernel,
                                                     const llvm::StringSet<> &kernels,
                                                     llvm::StringRef summary) {
  auto reached = definitionsReached({&kernel}, [&](const llvm::GlobalValue *gv) {
    return gv != &kernel && kernels.contains(gv->getName());
  });
  llvm::ValueToValueMapTy map;
  std::unique_ptr<llvm::Module> part = llvm::CloneModule(
      whole, map, [&](const llvm::GlobalValue *gv) { return reached.contains(gv); });
  dropUnusedDeclarations(*part);
  // Declarations in the order of their names, not of the whole module's
  // first uses (another kernel of another model declaring an intrinsic
  // first would change this kernel's bitcode, its attribute groups
  // numbered by first use, and so its digest).
  SmallVector<llvm::Function *> declarations;
  for (llvm::Function &f : *part)
    if (f.isDeclaration())
      declarations.push_back(&f);
  llvm::sort(declarations, [](llvm::Function *a, llvm::Function *b) {
    return a->getName() < b->getName();
  });
  for (llvm::Function *f : declarations) {
    f->removeFromParent();
    part->getFunctionList().push_back(f);
  }
  auto *root = cast<llvm::Function>(map[&kernel]);
  int64_t n = 0;
  for (llvm::GlobalValue &gv : part->global_values())
    if (!gv.isDeclaration() && &gv != root) {
      gv.setLinkage(llvm::GlobalValue::InternalLinkage);
      gv.setName("__dlc_private_" + std::to_string(n++));
    }
  root->setLinkage(llvm::GlobalValue::ExternalLinkage);
  root->setName("__dlc_kernel");
  std::string digest = partOf(*part).irDigest;
  std::string name = "dlc_kernel_" + digest.substr(0, 16);
  root->setName(name);
  if (!summary.empty()) {
    llvm::Constant *text =
        llvm::ConstantDataArray::getString(part->getContext(), summary, /*AddNull=*/false);
    new llvm::GlobalVariable(*part, text->getType(), /*isConstant=*/true,
                             llvm::GlobalValue::ExternalLinkage, text,
                             "dlc_summary_" + digest.substr(0, 16));
  }
  return {ObjectPart{digest, bitcodeOf(*part), ""}, name};
}

llvm::Expected<std::vector<ObjectPart>> dlc::splitForCodegen(ModuleOp module, bool perKernel) {
  llvm::StringSet<> kernels;
  llvm::StringMap<std::string> summaries;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>())
    if (!func.isExternal() && func->hasAttr("dlc.kernel")) {
      kernels.insert(func.getSymName());
      if (auto summary = func->getAttrOfType<StringAttr>("dlc.kernel_summary"))
        summaries[func.getSymName()] = summary.str();
    }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> whole = translateModuleToLLVMIR(module, context, "dlc");
  if (!whole)
    return llvm::createStringError("translation to LLVM IR failed");
  addPackedEntryPoints(*whole);
  if (!perKernel || kernels.empty() || splitBreaksWritableGlobal(*whole, kernels))
    return std::vector<ObjectPart>{partOf(*whole)};

  std::vector<ObjectPart> parts;
  llvm::StringMap<std::string> finalNames; // kernel -> its digest name
  llvm::StringSet<> digests;
  for (llvm::Function &f : *whole)
    if (!f.isDeclaration() && kernels.contains(f.getName())) {
      auto [part, name] = kernelPart(*whole, f, kernels, summaries.lookup(f.getName()));
      finalNames[f.getName()] = name;
      // Two kernels that lower to the same IR are one object.
      if (digests.insert(part.irDigest).second)
        parts.push_back(std::move(part));
    }
  // The rest (entry points, the model's own functions) calls the kernels by
  // their digest names.
  // Kernels that lowered to the same IR have one name: the later ones'
  // calls go to the first.
  SmallVector<const llvm::GlobalValue *> roots;
  llvm::StringMap<llvm::Function *> named;
  for (llvm::Function &f : llvm::make_early_inc_range(*whole)) {
    auto it = finalNames.find(f.getName());
    if (it == finalNames.end()) {
      if (isGlueRoot(f, kernels))
        roots.push_back(&f);
      continue;
    }
    auto [first, inserted] = named.try_emplace(it->second, &f);
    if (inserted) {
      f.setName(it->second);
    } else {
      f.replaceAllUsesWith(first->second);
      f.eraseFromParent();
    }
  }
  auto isKernel = [&](const llvm::GlobalValue *gv) {
    return gv->getName().starts_with("dlc_kernel_");
  };
  auto reached = definitionsReached(roots, isKernel);
  llvm::ValueToValueMapTy map;
  std::unique_ptr<llvm::Module> rest = llvm::CloneModule(
      *whole, map, [&](const llvm::GlobalValue *gv) { return reached.contains(gv); });
  dropUnusedDeclarations(*rest);
  parts.push_back(partOf(*rest));
  parts.back().kernel = false;
  return parts;
}

llvm::Error dlc::compileParts(llvm::MutableArrayRef<ObjectPart> parts, unsigned threads) {
  initializeHostTarget();
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return tmBuilder.takeError();
  tmBuilder->setRelocationModel(llvm::Reloc::PIC_);
  tmBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  SmallVector<size_t> todo;
  for (auto [i, part] : llvm::enumerate(parts))
    if (part.object.empty())
      todo.push_back(i);
  // Largest first, so that the last to finish are small.
  llvm::sort(todo, [&](size_t a, size_t b) { return parts[a].bitcode.size() > parts[b].bitcode.size(); });
  // Workers with a target machine each, taking the next part until none is
  // left.
  std::vector<std::string> errors;
  std::mutex errorsMutex;
  auto fail = [&](std::string message) {
    std::lock_guard<std::mutex> lock(errorsMutex);
    errors.push_back(std::move(message));
  };
  std::atomic<size_t> next{0};
  auto work = [&] {
    auto tm = tmBuilder->createTargetMachine();
    if (!tm) {
      fail(llvm::toString(tm.takeError()));
      return;
    }
    for (size_t t; (t = next++) < todo.size();) {
      ObjectPart &part = parts[todo[t]];
      llvm::LLVMContext context;
      auto m = llvm::parseBitcodeFile(llvm::MemoryBufferRef(part.bitcode, "part"), context);
      if (!m) {
        fail(llvm::toString(m.takeError()));
        continue;
      }
      (*m)->setDataLayout((*tm)->createDataLayout());
      (*m)->setTargetTriple((*tm)->getTargetTriple());
      // The glue around the kernels (calls, allocations, views) is quick to
      // run and was slow to compile at O3: one long block of calls with
      // every memref descriptor spelled out.
      (*tm)->setOptLevel(part.kernel ? llvm::CodeGenOptLevel::Aggressive : llvm::CodeGenOptLevel::None);
      // Instruction selection at None turns fast isel on in the target
      // machine, and it would stay on for the kernels this worker compiles
      // next.
      (*tm)->setFastISel(!part.kernel);
      optimize(**m, tm->get(), part.kernel ? llvm::OptimizationLevel::O3 : llvm::OptimizationLevel::O1);
      llvm::raw_string_ostream os(part.object);
      llvm::buffer_ostream out(os);
      llvm::legacy::PassManager codegen;
      if ((*tm)->addPassesToEmitFile(codegen, out, nullptr, llvm::CodeGenFileType::ObjectFile)) {
        fail("the target cannot emit object files");
        continue;
      }
      codegen.run(**m);
    }
  };
  std::vector<std::thread> workers;
  for (unsigned i = 1; i < std::min<size_t>(std::max(1u, threads), todo.size()); ++i)
    workers.emplace_back(work);
  work();
  for (std::thread &w : workers)
    w.join();
  for (const std::string &e : errors)
    if (!e.empty())
      return llvm::createStringError("code generation: " + e);
  return llvm::Error::success();
}

/// The C type of a buffer's elements.
static const char *cType(DType t) {
  switch (t) {
  case DType::F32: return "float";
  case DType::F64: return "double";
  case DType::F16:
  case DType::BF16: return "uint16_t";
  case DType::I8:
  case DType::I1: return "int8_t";
  case DType::I32: return "int32_t";
  case DType::I64: return "int64_t";
  }
  return "void";
}

llvm::Error dlc::writeCHeader(StringRef headerPath, StringRef entry, StringRef symbol,
                              FunctionType signature, StringRef bufferNote) {
  // Descriptors built from plain buffers.
  std::error_code ec;
  llvm::raw_fd_ostream h(headerPath, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError(headerPath.str() + ": cannot write: " + ec.message());
  std::string name = entry.str();
  h << "/* Generated by dlc: the C entry point of @" << name << ". */\n"
    << "#pragma once\n#include <stdint.h>\n\n";
  SmallVector<Type> all(signature.getInputs());
  llvm::append_range(all, signature.getResults());
  h << "/* " << bufferNote << ":\n";
  for (auto [i, type] : llvm::enumerate(all)) {
    auto rt = cast<RankedTensorType>(type);
    DType dt = *dtypeOf(rt.getElementType());
    h << " *   " << (i < signature.getNumInputs() ? "input " : "output ")
      << (i < signature.getNumInputs() ? i : i - signature.getNumInputs()) << ": "
      << cType(dt) << "[" << rt.getNumElements() << "]  (" << dtypeName(dt) << " "
      << formatShape(rt.getShape()) << ")\n";
  }
  h << " */\n";
  h << "enum { " << name << "_num_inputs = " << signature.getNumInputs() << ", "
    << name << "_num_outputs = " << signature.getNumResults() << " };\n\n";
  h << "void _mlir_ciface_" << symbol << "(";
  for (size_t i = 0; i < all.size(); ++i)
    h << (i ? ", " : "") << "void *";
  h << ");\n\n";
  h << "static inline int " << name << "_run(void *const inputs[], void *const outputs[]) {\n";
  for (auto [i, type] : llvm::enumerate(all)) {
    auto rt = cast<RankedTensorType>(type);
    int64_t rank = rt.getRank();
    bool isIn = i < signature.getNumInputs();
    std::string ptr = isIn ? "inputs[" + std::to_string(i) + "]"
                           : "outputs[" + std::to_string(i - signature.getNumInputs()) + "]";
    h << "  struct { void *allocated, *aligned; int64_t offset";
    if (rank)
      h << ", sizes[" << rank << "], strides[" << rank << "]";
    h << "; } d" << i << " = {" << ptr << ", " << ptr << ", 0";
    if (rank) {
      h << ", {";
      for (int64_t d = 0; d < rank; ++d)
        h << (d ? ", " : "") << rt.getDimSize(d);
      h << "}, {";
      Shape strides = rowMajorStrides(rt.getShape());
      for (int64_t d = 0; d < rank; ++d)
        h << (d ? ", " : "") << strides[d];
      h << "}";
    }
    h << "};\n";
  }
  h << "  _mlir_ciface_" << symbol << "(";
  for (size_t i = 0; i < all.size(); ++i)
    h << (i ? ", " : "") << "&d" << i;
  h << ");\n  return 0;\n}\n";
  h.close();
  return llvm::Error::success();
}

llvm::Error dlc::writeObject(ModuleOp module, StringRef objectPath) {
  // One object: the program links it whole.
  llvm::Expected<std::vector<ObjectPart>> parts = splitForCodegen(module, /*perKernel=*/false);
  if (!parts)
    return parts.takeError();
  if (llvm::Error e = compileParts(*parts, 1))
    return e;
  std::error_code ec;
  llvm::raw_fd_ostream obj(objectPath, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError(objectPath.str() + ": cannot write: " + ec.message());
  obj << parts->front().object;
  return llvm::Error::success();
}

llvm::Error dlc::linkShared(StringRef sharedPath, StringRef objectPath,
                            ArrayRef<StringRef> libraries) {
  auto cc = llvm::sys::findProgramByName("cc");
  if (!cc)
    return llvm::createStringError("--emit=shared needs a C compiler (cc) on PATH");
  SmallVector<StringRef> args{*cc, "-shared", "-o", sharedPath, objectPath};
  llvm::append_range(args, libraries);
  std::string err;
  if (llvm::sys::ExecuteAndWait(*cc, args, std::nullopt, {}, 0, 0, &err) != 0)
    return llvm::createStringError("linking " + sharedPath.str() + " failed: " + err);
  return llvm::Error::success();
}

llvm::Error dlc::checkPartitionBackends(mlir::ModuleOp module,
                                        llvm::ArrayRef<llvm::StringRef> backends,
                                        llvm::StringRef compiler) {
  for (auto func : module.getOps<mlir::func::FuncOp>()) {
    auto backend = func->getAttrOfType<mlir::StringAttr>(kBackendAttr);
    if (!backend || llvm::is_contained(backends, backend.getValue()))
      continue;
    std::vector<std::string> quoted;
    for (llvm::StringRef b : backends)
      quoted.push_back("'" + b.str() + "'");
    return llvm::createStringError("function @" + func.getSymName().str() +
                                   " is a partition for backend '" + backend.getValue().str() +
                                   "'; the " + compiler.str() + " backend compiles only " +
                                   llvm::join(quoted, " and ") + " partitions");
  }
  return llvm::Error::success();
}
