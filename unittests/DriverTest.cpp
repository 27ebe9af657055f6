//===- DriverTest.cpp - what compiling leaves behind ------------------------===//
#include "dlc/Driver/CPUCompiler.h"
#include "dlc/Runtime/Model.h"

#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

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
