//===- GPUEmulatorTest.cpp - the GPU emulator on hand-written kernels ------===//
//
// Kernels small enough to read, each checking one thing the emulator must
// get right for its verdicts on dlc's kernels to mean anything: a missing
// barrier shows, warps shuffle, cp.async copies land at their wait (and
// only aligned),
// ldmatrix hands each lane its words, and deadlocks, accesses outside a
// buffer and unknown ops are errors.
//
//===----------------------------------------------------------------------===//
#include "dlc/Runtime/GPUEmulator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <numeric>

using namespace mlir;
using namespace dlc;

namespace {

/// A module whose @main launches kernel @k::@f on one block of `threads`
/// threads, with an input and an output of 64 i32 each; `body` is the
/// kernel's (arguments %in and %out, shared memory %s of 64 i32, %t the
/// thread's index).
std::string module(int threads, const std::string &body) {
  return "module attributes {gpu.container_module} {\n"
         "  func.func @main(%in: memref<64xi32>, %out: memref<64xi32>) {\n"
         "    %one = arith.constant 1 : index\n"
         "    %n = arith.constant " + std::to_string(threads) + " : index\n"
         "    gpu.launch_func @k::@f blocks in (%one, %one, %one) threads in (%n, %one, %one)"
         " args(%in : memref<64xi32>, %out : memref<64xi32>)\n"
         "    return\n"
         "  }\n"
         "  gpu.module @k {\n"
         "    gpu.func @f(%in: memref<64xi32>, %out: memref<64xi32>)"
         " workgroup(%s : memref<64xi32, #gpu.address_space<workgroup>>) kernel {\n"
         "      %t = gpu.thread_id x\n"
         "      %c0 = arith.constant 0 : index\n"
         "      %c1 = arith.constant 1 : index\n"
         "      %c64 = arith.constant 64 : index\n" +
         body +
         "      gpu.return\n"
         "    }\n"
         "  }\n"
         "}\n";
}

/// Thread t stores its input in shared memory, then reads its neighbour's.
std::string rotate(bool barrier) {
  return "      %v = memref.load %in[%t] : memref<64xi32>\n"
         "      memref.store %v, %s[%t] : memref<64xi32, #gpu.address_space<workgroup>>\n" +
         std::string(barrier ? "      gpu.barrier\n" : "") +
         "      %next = arith.addi %t, %c1 : index\n"
         "      %m = arith.remui %next, %c64 : index\n"
         "      %w = memref.load %s[%m] : memref<64xi32, #gpu.address_space<workgroup>>\n"
         "      memref.store %w, %out[%t] : memref<64xi32>\n";
}

class GPUEmulator : public ::testing::Test {
protected:
  GPUEmulator() {
    registry.insert<func::FuncDialect, arith::ArithDialect, gpu::GPUDialect,
                    memref::MemRefDialect, scf::SCFDialect, NVVM::NVVMDialect,
                    LLVM::LLVMDialect, math::MathDialect>();
    context = std::make_unique<MLIRContext>(registry);
    input = Tensor(DType::I32, {64});
    std::iota(input.data.begin(), input.data.end(), 100.0);
  }

  /// The output of running `ir`'s @main on `input`, or the error's message.
  std::variant<Tensor, std::string> run(const std::string &ir) {
    OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(ir, context.get());
    if (!m)
      return std::string("parse error");
    llvm::Expected<std::vector<Tensor>> outputs = emulateGPU(*m, "main", {input});
    if (!outputs)
      return llvm::toString(outputs.takeError());
    return outputs->front();
  }

  DialectRegistry registry;
  std::unique_ptr<MLIRContext> context;
  Tensor input;
};

/// Expects `out` to be the emulator's error, mentioning each of `parts`.
void expectError(const std::variant<Tensor, std::string> &out,
                 std::initializer_list<std::string> parts) {
  ASSERT_TRUE(std::holds_alternative<std::string>(out)) << *parts.begin();
  for (const std::string &part : parts)
    EXPECT_NE(std::get<std::string>(out).find(part), std::string::npos)
        << std::get<std::string>(out);
}

} // namespace

TEST_F(GPUEmulator, BarrierOrdersSharedMemory) {
  auto out = run(module(64, rotate(/*barrier=*/true)));
  ASSERT_TRUE(std::holds_alternative<Tensor>(out)) << std::get<std::string>(out);
  for (int t = 0; t < 64; ++t)
    EXPECT_EQ(std::get<Tensor>(out).data[t], 100 + (t + 1) % 64) << "thread " << t;
}

TEST_F(GPUEmulator, MissingBarrierReadsWhatNobodyWrote) {
  // Thread 0 runs to its end before thread 1 stores: it reads shared memory
  // as a GPU leaves it (0xff bytes: -1), not its neighbour's value.
  auto out = run(module(64, rotate(/*barrier=*/false)));
  ASSERT_TRUE(std::holds_alternative<Tensor>(out)) << std::get<std::string>(out);
  EXPECT_EQ(std::get<Tensor>(out).data[0], -1);
}

TEST_F(GPUEmulator, ShufflesSumAWarp) {
  std::string body = "      %x0 = arith.index_cast %t : index to i32\n"
                     "      %w = arith.constant 32 : i32\n";
  for (int k = 0, offset = 16; offset >= 1; ++k, offset /= 2)
    body += "      %o" + std::to_string(k) + " = arith.constant " + std::to_string(offset) +
            " : i32\n"
            "      %y" + std::to_string(k) + ", %ok" + std::to_string(k) +
            " = gpu.shuffle xor %x" + std::to_string(k) + ", %o" + std::to_string(k) +
            ", %w : i32\n"
            "      %x" + std::to_string(k + 1) + " = arith.addi %x" + std::to_string(k) +
            ", %y" + std::to_string(k) + " : i32\n";
  body += "      memref.store %x5, %out[%t] : memref<64xi32>\n";
  auto out = run(module(32, body));
  ASSERT_TRUE(std::holds_alternative<Tensor>(out)) << std::get<std::string>(out);
  for (int t = 0; t < 32; ++t)
    EXPECT_EQ(std::get<Tensor>(out).data[t], 31 * 32 / 2) << "lane " << t;
}

/// One thread's cp.async of 16 bytes from `in` plus `skew` bytes to `s`:
/// it stores s[1] into out[0] before the copy's wait_group and into out[1]
/// after it.
std::string asyncCopy(int64_t skew) {
  return R"(
      %skew = arith.constant )" + std::to_string(skew) + R"( : index
      %pin0 = memref.extract_aligned_pointer_as_index %in : memref<64xi32> -> index
      %pin = arith.addi %pin0, %skew : index
      %pin64 = arith.index_cast %pin : index to i64
      %src = llvm.inttoptr %pin64 : i64 to !llvm.ptr<1>
      %ps = memref.extract_aligned_pointer_as_index %s : memref<64xi32, #gpu.address_space<workgroup>> -> index
      %ps64 = arith.index_cast %ps : index to i64
      %dst = llvm.inttoptr %ps64 : i64 to !llvm.ptr<3>
      nvvm.cp.async.shared.global %dst, %src, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
      nvvm.cp.async.commit.group
      %before = memref.load %s[%c1] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %before, %out[%c0] : memref<64xi32>
      nvvm.cp.async.wait.group 0
      %after = memref.load %s[%c1] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %after, %out[%c1] : memref<64xi32>
)";
}

TEST_F(GPUEmulator, AsyncCopiesLandAtTheirWait) {
  // 16 bytes (4 values) copied into shared memory: not there before the
  // wait_group, there after it.
  auto out = run(module(1, asyncCopy(/*skew=*/0)));
  ASSERT_TRUE(std::holds_alternative<Tensor>(out)) << std::get<std::string>(out);
  EXPECT_EQ(std::get<Tensor>(out).data[0], -1);
  EXPECT_EQ(std::get<Tensor>(out).data[1], 101);
}

TEST_F(GPUEmulator, MisalignedAsyncCopyIsAnError) {
  // (4 bytes on: in bounds, but not on a 16-byte boundary)
  expectError(run(module(1, asyncCopy(/*skew=*/4))),
              {"nvvm.cp.async.shared.global", "copies 16 bytes from or to an address not "
                                              "aligned to 16", "thread (0, 0, 0)"});
}

/// A thread's 16-byte vector load from the input at element `skew` / 4
/// (plus `skew` % 4 bytes) and its store into element 4 of the output.
std::string vectorLoad(int64_t skew) {
  return R"(
      %skew = arith.constant )" + std::to_string(skew) + R"( : index
      %pin0 = memref.extract_aligned_pointer_as_index %in : memref<64xi32> -> index
      %pin = arith.addi %pin0, %skew : index
      %pin64 = arith.index_cast %pin : index to i64
      %src = llvm.inttoptr %pin64 : i64 to !llvm.ptr<1>
      %v = llvm.load %src {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
      %pout = memref.extract_aligned_pointer_as_index %out : memref<64xi32> -> index
      %c16 = arith.constant 16 : index
      %at = arith.addi %pout, %c16 : index
      %at64 = arith.index_cast %at : index to i64
      %dst = llvm.inttoptr %at64 : i64 to !llvm.ptr<1>
      llvm.store %v, %dst {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
)";
}

TEST_F(GPUEmulator, VectorLoadsAndStoresMoveWholeChunks) {
  // (elements 4 to 7 of the input into 4 to 7 of the output)
  auto out = run(module(1, vectorLoad(/*skew=*/16)));
  ASSERT_TRUE(std::holds_alternative<Tensor>(out)) << std::get<std::string>(out);
  for (int64_t k = 4; k < 8; ++k)
    EXPECT_EQ(std::get<Tensor>(out).data[k], 100 + k);
}

TEST_F(GPUEmulator, MisalignedVectorLoadIsAnError) {
  expectError(run(module(1, vectorLoad(/*skew=*/4))),
              {"llvm.load", "loads 16 bytes at an address not aligned to 16", "thread (0, 0, 0)"});
}

TEST_F(GPUEmulator, VectorLoadOutsideEveryBufferIsAnError) {
  // (1 GiB past the input: no buffer of the run is there)
  expectError(run(module(1, vectorLoad(/*skew=*/int64_t(1) << 30))),
              {"llvm.load", "loads 16 bytes outside every buffer", "thread (0, 0, 0)"});
}

/// A warp's ldmatrix of two 8 x 8 matrices of 16-bit values from the 64
/// words in shared memory (16 rows of 4 words), lane l giving the address
/// of row 15 - l % 16 plus `misalign` bytes (`transposed`: ldmatrix.trans);
/// each lane stores its words of the first and second matrix at l and
/// l + 32.
std::string loadMatrices(int64_t misalign, bool transposed = false) {
  return R"(
      %c32 = arith.constant 32 : index
      %v0 = memref.load %in[%t] : memref<64xi32>
      memref.store %v0, %s[%t] : memref<64xi32, #gpu.address_space<workgroup>>
      %t32 = arith.addi %t, %c32 : index
      %v1 = memref.load %in[%t32] : memref<64xi32>
      memref.store %v1, %s[%t32] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c15 = arith.constant 15 : index
      %c16 = arith.constant 16 : index
      %l16 = arith.remui %t, %c16 : index
      %row = arith.subi %c15, %l16 : index
      %bytes = arith.muli %row, %c16 : index
      %skew = arith.constant )" +
         std::to_string(misalign) + R"( : index
      %offset = arith.addi %bytes, %skew : index
      %ps = memref.extract_aligned_pointer_as_index %s : memref<64xi32, #gpu.address_space<workgroup>> -> index
      %at = arith.addi %ps, %offset : index
      %at64 = arith.index_cast %at : index to i64
      %p = llvm.inttoptr %at64 : i64 to !llvm.ptr<3>
      %m = nvvm.ldmatrix %p {num = 2 : i32, layout = #nvvm.mma_layout<)" +
         std::string(transposed ? "col" : "row") + R"(>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
      %m0 = llvm.extractvalue %m[0] : !llvm.struct<(i32, i32)>
      %m1 = llvm.extractvalue %m[1] : !llvm.struct<(i32, i32)>
      memref.store %m0, %out[%t] : memref<64xi32>
      memref.store %m1, %out[%t32] : memref<64xi32>
)";
}

TEST_F(GPUEmulator, LdmatrixGivesEachLaneItsWords) {
  auto out = run(module(32, loadMatrices(/*misalign=*/0)));
  ASSERT_TRUE(std::holds_alternative<Tensor>(out)) << std::get<std::string>(out);
  // Lane l: word l % 4 of row l / 4 of each matrix, whose address lane
  // l / 4 (first) or 8 + l / 4 (second) gave: rows 15 - l / 4 and 7 - l / 4.
  for (int l = 0; l < 32; ++l) {
    EXPECT_EQ(std::get<Tensor>(out).data[l], 100 + 4 * (15 - l / 4) + l % 4) << "lane " << l;
    EXPECT_EQ(std::get<Tensor>(out).data[l + 32], 100 + 4 * (7 - l / 4) + l % 4)
        << "lane " << l;
  }
}

TEST_F(GPUEmulator, TransposedLdmatrixGivesEachLaneAColumnsPair) {
  auto out = run(module(32, loadMatrices(/*misalign=*/0, /*transposed=*/true)));
  ASSERT_TRUE(std::holds_alternative<Tensor>(out)) << std::get<std::string>(out);
  // Element e of row r (16-bit halves of the words 100 + i): the low half
  // of word 4 r + e / 2, 100 + 4 r + e / 2 for an even e, else 0. Lane l:
  // element l / 4 of rows 2 (l % 4) and 2 (l % 4) + 1 of each matrix, the
  // first in the low half; matrix m's row r is at 15 - 8 m - r.
  auto element = [](int r, int e) { return e % 2 ? 0 : 100 + 4 * r + e / 2; };
  for (int l = 0; l < 32; ++l)
    for (int m = 0; m < 2; ++m) {
      int r = 15 - 8 * m - 2 * (l % 4);
      EXPECT_EQ(std::get<Tensor>(out).data[l + 32 * m],
                element(r, l / 4) + 65536.0 * element(r - 1, l / 4))
          << "lane " << l << ", matrix " << m;
    }
}

TEST_F(GPUEmulator, LdmatrixOfAMisalignedRowIsAnError) {
  expectError(run(module(32, loadMatrices(/*misalign=*/4))),
              {"nvvm.ldmatrix", "not 16-byte aligned", "thread (0, 0, 0)"});
}

TEST_F(GPUEmulator, LdmatrixOfPartOfAWarpIsAnError) {
  expectError(run(module(16, loadMatrices(/*misalign=*/0))),
              {"nvvm.ldmatrix", "only ldmatrix of a full warp is emulated"});
}

TEST_F(GPUEmulator, LdmatrixOutsideEveryBufferIsAnError) {
  expectError(run(module(32, loadMatrices(/*misalign=*/int64_t(1) << 40))),
              {"nvvm.ldmatrix", "reads a row outside every buffer", "thread (0, 0, 0)"});
}

TEST_F(GPUEmulator, DivergentBarrierIsADeadlock) {
  auto out = run(module(32, R"(
      %c16 = arith.constant 16 : index
      %low = arith.cmpi ult, %t, %c16 : index
      scf.if %low {
        gpu.barrier
      } else {
        %x = arith.constant 1 : i32
        %w = arith.constant 32 : i32
        %y, %ok = gpu.shuffle xor %x, %x, %w : i32
      }
)"));
  expectError(out, {"deadlock", "kernel @f, block (0, 0, 0), thread (16, 0, 0)"});
}

TEST_F(GPUEmulator, AccessOutsideABufferIsAnError) {
  auto out = run(module(64, R"(
      %next = arith.addi %t, %c1 : index
      %v = memref.load %in[%next] : memref<64xi32>
      memref.store %v, %out[%t] : memref<64xi32>
)"));
  expectError(out, {"thread (63, 0, 0)", "index 64 of dimension 0 is outside [0, 64)"});
}

TEST_F(GPUEmulator, UnknownOpIsAnError) {
  auto out = run(module(1, R"(
      %x = arith.constant 1.0 : f32
      %y = gpu.subgroup_reduce add %x : (f32) -> f32
)"));
  expectError(out, {"'gpu.subgroup_reduce'", "does not know this op"});
}

TEST_F(GPUEmulator, BarrierSkippedByExitedThreadsIsAnError) {
  // bar.sync is aligned: threads 32 to 63 exit without reaching it.
  auto out = run(module(64, R"(
      %c32 = arith.constant 32 : index
      %low = arith.cmpi ult, %t, %c32 : index
      scf.if %low {
        gpu.barrier
      }
)"));
  expectError(out, {"waits at this barrier, thread 32 has exited"});
}

TEST_F(GPUEmulator, CollapsedColumnKeepsItsStride) {
  // A column of an 8 x 8 view collapsed to a vector: its stride is the
  // rows', whatever the size-1 dimension's.
  auto out = run(module(1, R"(
      %rows = memref.reinterpret_cast %in to offset: [0], sizes: [8, 8], strides: [8, 1] : memref<64xi32> to memref<8x8xi32>
      %column = memref.subview %rows[0, 3] [8, 1] [1, 1] : memref<8x8xi32> to memref<8x1xi32, strided<[8, 1], offset: 3>>
      %v = memref.collapse_shape %column [[0, 1]] : memref<8x1xi32, strided<[8, 1], offset: 3>> into memref<8xi32, strided<[8], offset: 3>>
      %c2 = arith.constant 2 : index
      %x = memref.load %v[%c2] : memref<8xi32, strided<[8], offset: 3>>
      memref.store %x, %out[%c0] : memref<64xi32>
)"));
  ASSERT_TRUE(std::holds_alternative<Tensor>(out)) << std::get<std::string>(out);
  EXPECT_EQ(std::get<Tensor>(out).data[0], 100 + 2 * 8 + 3);
}

TEST_F(GPUEmulator, ReverseOrderShowsAMissingBarrierTheOtherWay) {
  // Thread t reads thread t - 1's store: in order, every store has happened;
  // last first, thread 63 reads before thread 62 stores.
  std::string body = "      %v = memref.load %in[%t] : memref<64xi32>\n"
                     "      memref.store %v, %s[%t] : memref<64xi32, #gpu.address_space<workgroup>>\n"
                     "      %prev = arith.addi %t, %c64 : index\n"
                     "      %p1 = arith.subi %prev, %c1 : index\n"
                     "      %m = arith.remui %p1, %c64 : index\n"
                     "      %w = memref.load %s[%m] : memref<64xi32, #gpu.address_space<workgroup>>\n"
                     "      memref.store %w, %out[%t] : memref<64xi32>\n";
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(module(64, body), context.get());
  ASSERT_TRUE(m);
  GPUEmulatorOptions reverse;
  reverse.reverse = true;
  auto inOrder = emulateGPU(*m, "main", {input});
  auto lastFirst = emulateGPU(*m, "main", {input}, reverse);
  ASSERT_TRUE(static_cast<bool>(inOrder) && static_cast<bool>(lastFirst));
  EXPECT_EQ(inOrder->front().data[63], 162);  // thread 62 stored first
  EXPECT_EQ(lastFirst->front().data[63], -1); // not yet
}

/// A kernel body and the error it must give.
struct BadKernel {
  int threads;
  const char *body, *message;
};

TEST_F(GPUEmulator, BadKernelsAreErrors) {
  const BadKernel cases[] = {
      {1, R"(
      %z = arith.constant 0 : index
      %q = arith.divui %t, %z : index
)",
       "division by zero"},
      {1, R"(
      %min = arith.constant -2147483648 : i32
      %m1 = arith.constant -1 : i32
      %q = arith.divsi %min, %m1 : i32
)",
       "signed division overflows"},
      {32, R"(
      %c16 = arith.constant 16 : index
      %low = arith.cmpi ult, %t, %c16 : index
      scf.if %low {
        %x = arith.constant 1 : i32
        %o = arith.constant 16 : i32
        %w = arith.constant 32 : i32
        %y, %ok = gpu.shuffle xor %x, %o, %w : i32
      }
)",
       "reads lane 16, which has exited or is not in the block"},
      {1, R"(
      %b = memref.alloc() : memref<4xf32>
      memref.dealloc %b : memref<4xf32>
      memref.dealloc %b : memref<4xf32>
)",
       "frees a buffer that is not allocated"},
      {1, R"(
      %v = arith.constant dense<1.0> : vector<2xf32>
      %w = arith.addf %v, %v : vector<2xf32>
)",
       "vector arithmetic is not emulated"},
      {2048, "", "launches more than 1024 threads a block"},
  };
  for (const BadKernel &c : cases) {
    expectError(run(module(c.threads, c.body)), {c.message});
  }
}

TEST_F(GPUEmulator, MissingEntryIsAnError) {
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(module(1, ""), context.get());
  ASSERT_TRUE(m);
  llvm::Expected<std::vector<Tensor>> outputs = emulateGPU(*m, "nope", {input});
  ASSERT_FALSE(static_cast<bool>(outputs));
  EXPECT_EQ(llvm::toString(outputs.takeError()), "GPU emulator: no function @nope to run");
}
