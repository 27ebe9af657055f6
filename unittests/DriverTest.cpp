//===- DriverTest.cpp - what compiling leaves behind ------------------------===//
#include "../lib/Driver/CodeGen.h"
#include "dlc/Driver/CPUCompiler.h"
#include "dlc/Runtime/Model.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <cstring>
#include <string>

using namespace mlir;
using namespace dlc;

namespace {
/// The bytes of every dense_resource payload the context holds.
size_t payloadBytes(MLIRContext &context) {
  size_t bytes = 0;
  DenseResourceElementsHandle::getManagerInterface(&context).getBlobManager().getBlobMap(
      [&](const llvm::StringMap<DialectResourceBlobManager::BlobEntry> &blobs) {
        for (const auto &entry : blobs)
          if (const AsmResourceBlob *blob = entry.getValue().getBlob())
            bytes += blob->getData().size();
      });
  return bytes;
}

/// A dense layer whose 64x64 weight the CPU backend stores transposed: a
/// payload each compile writes.
std::string denseModel() {
  std::string weights;
  for (int i = 0; i < 64 * 64; ++i)
    weights += (i ? ", " : "") + std::to_string(i % 97) + ".0";
  return "func.func @main(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {\n"
         "  %w = graph.constant dense<[" + weights + "]> : tensor<4096xf32>\n"
         "  %r = graph.reshape %w : (tensor<4096xf32>) -> tensor<64x64xf32>\n"
         "  %y = graph.dense %x, %r : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>\n"
         "  return %y : tensor<8x64xf32>\n"
         "}\n";
}
} // namespace

TEST(Driver, CompilesLeaveNoPayloads) {
  DialectRegistry registry;
  registerModelDialects(registry);
  registerCPUCompilerDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(denseModel(), &context);
  ASSERT_TRUE(module);
  size_t before = payloadBytes(context);
  for (int i = 0; i < 3; ++i) {
    auto exe = compileForCPU(*module, "main", "O3");
    ASSERT_TRUE(static_cast<bool>(exe)) << llvm::toString(exe.takeError());
  }
  // The folded and transposed weights died with the compiles' copies.
  EXPECT_EQ(payloadBytes(context), before);
}

namespace {
/// x + w, w a 64x128 f32 weight (w[i] = i / 4) as a blob aligned to 64.
std::string addWeightModel() {
  std::string hex = "0x40000000"; // the blob's alignment, little-endian
  for (int i = 0; i < 64 * 128; ++i) {
    float f = i / 4.0f;
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    for (int byte = 0; byte < 4; ++byte)
      hex += llvm::utohexstr((bits >> (8 * byte) & 0xff) | 0x100).substr(1);
  }
  return "func.func @main(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {\n"
         "  %w = graph.constant dense_resource<w> : tensor<64x128xf32>\n"
         "  %y = graph.add %x, %w : (tensor<64x128xf32>, tensor<64x128xf32>) -> "
         "tensor<64x128xf32>\n"
         "  return %y : tensor<64x128xf32>\n"
         "}\n"
         "{-#\n  dialect_resources: {\n    builtin: {\n      w: \"" +
         hex + "\"\n    }\n  }\n#-}\n";
}
} // namespace

TEST(Driver, ReadsWeightsWhereTheModelFileHasThem) {
  DialectRegistry registry;
  registerModelDialects(registry);
  registerCPUCompilerDialects(registry);
  MLIRContext context(registry);
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("dlc-driver-test", "mlirbc", path));
  llvm::FileRemover remover(path);
  {
    OwningOpRef<ModuleOp> text = parseSourceString<ModuleOp>(addWeightModel(), &context);
    ASSERT_TRUE(text);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    ASSERT_TRUE(succeeded(writeBytecodeToFile(*text, os)));
  }
  auto source = std::make_shared<llvm::SourceMgr>();
  OwningOpRef<ModuleOp> module = loadModel(path, context, source);
  ASSERT_TRUE(module);
  auto inPlace = compileForCPU(*module, "main", "none", 1, nullptr, 0, nullptr, source);
  ASSERT_TRUE(static_cast<bool>(inPlace)) << llvm::toString(inPlace.takeError());
  auto copied = compileForCPU(*module, "main", "none");
  ASSERT_TRUE(static_cast<bool>(copied)) << llvm::toString(copied.takeError());
  EXPECT_EQ((*inPlace)->compileTimes().weightBytesInPlace, 64 * 128 * 4);
  EXPECT_EQ((*inPlace)->compileTimes().weightBytesCopied, 0);
  EXPECT_EQ((*copied)->compileTimes().weightBytesInPlace, 0);
  EXPECT_EQ((*copied)->compileTimes().weightBytesCopied, 64 * 128 * 4);
  // The executable holds the file's buffer: the caller's module and source
  // manager may go.
  module = nullptr;
  source.reset();
  Tensor x(DType::F32, {64, 128});
  x.data.assign(x.data.size(), 1.0);
  for (auto *exe : {inPlace->get(), copied->get()}) {
    llvm::Expected<std::vector<Tensor>> y = exe->run({x});
    ASSERT_TRUE(static_cast<bool>(y)) << llvm::toString(y.takeError());
    for (int64_t i : {int64_t(0), int64_t(777), int64_t(64 * 128 - 1)})
      EXPECT_EQ(y->front().data[i], 1.0 + i / 4.0);
  }
}

/// The names of the functions `part` defines.
static std::vector<std::string> definedFunctions(const ObjectPart &part) {
  llvm::LLVMContext context;
  auto m = llvm::parseBitcodeFile(llvm::MemoryBufferRef(part.bitcode, "part"), context);
  EXPECT_TRUE(static_cast<bool>(m)) << llvm::toString(m.takeError());
  std::vector<std::string> names;
  if (m)
    for (const llvm::Function &f : **m)
      if (!f.isDeclaration())
        names.push_back(f.getName().str());
  return names;
}

// A kernel's local functions (its OpenMP regions) go into the kernel's part
// only: compiled again into the rest, they cost code generation time and
// nothing calls them there.
TEST(Driver, KernelLocalFunctionsStayWithTheKernel) {
  DialectRegistry registry;
  registerCPUCompilerDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    llvm.func internal @region(%p: !llvm.ptr) {
      llvm.return
    }
    llvm.func @kernel(%p: !llvm.ptr) attributes {dlc.kernel = "k"} {
      llvm.call @region(%p) : (!llvm.ptr) -> ()
      llvm.return
    }
    llvm.func @main(%p: !llvm.ptr) {
      llvm.call @kernel(%p) : (!llvm.ptr) -> ()
      llvm.return
    }
  )mlir", &context);
  ASSERT_TRUE(module);
  auto parts = splitForCodegen(*module, /*perKernel=*/true);
  ASSERT_TRUE(static_cast<bool>(parts)) << llvm::toString(parts.takeError());
  ASSERT_EQ(parts->size(), 2u);
  ASSERT_TRUE(parts->front().kernel);
  std::vector<std::string> kernel = definedFunctions(parts->front());
  EXPECT_EQ(kernel.size(), 2u); // the kernel and its region
  ASSERT_FALSE(parts->back().kernel);
  EXPECT_EQ(definedFunctions(parts->back()), std::vector<std::string>{"main"});
}
