//===- TensorIOTest.cpp - .npy and TensorProto I/O -------------------------===//
#include "dlc/Runtime/TensorIO.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"
#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace dlc;

static std::string errorOf(llvm::Expected<Tensor> t) {
  if (t)
    return "";
  return llvm::toString(t.takeError());
}

TEST(Npy, RoundTripsEveryDType) {
  for (DType type : {DType::F32, DType::F16, DType::F64, DType::I8, DType::I32,
                     DType::I64, DType::I1}) {
    Tensor t = randomTensor(type, {2, 3}, 7);
    llvm::Expected<Tensor> back = parseNpy(serializeNpy(t));
    ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
    EXPECT_EQ(back->dtype, type);
    EXPECT_EQ(back->shape, t.shape);
    EXPECT_EQ(back->data, t.data) << dtypeName(type).str();
  }
}

TEST(Npy, HeaderIsAlignedAndScalarShapesWork) {
  Tensor scalar(DType::F32, {});
  scalar.data[0] = 2.5;
  std::string bytes = serializeNpy(scalar);
  EXPECT_EQ((bytes.size() - 4) % 64, 0u); // header padded to 64 bytes
  llvm::Expected<Tensor> back = parseNpy(bytes);
  ASSERT_TRUE(static_cast<bool>(back));
  EXPECT_TRUE(back->shape.empty());
  EXPECT_EQ(back->data[0], 2.5);
  Tensor vec(DType::I32, {3});
  EXPECT_NE(serializeNpy(vec).find("(3,)"), std::string::npos);
}

TEST(Npy, RejectsBadFiles) {
  EXPECT_NE(errorOf(parseNpy("hello")).find("bad magic"), std::string::npos);
  std::string good = serializeNpy(Tensor(DType::F32, {4, 4}));
  EXPECT_NE(errorOf(parseNpy(good.substr(0, good.size() - 3))).find("truncated"),
            std::string::npos);
  EXPECT_NE(errorOf(parseNpy(good.substr(0, 20))).find("truncated"),
            std::string::npos);
  std::string u8 = good;
  u8.replace(u8.find("<f4"), 3, "|u1");
  EXPECT_NE(errorOf(parseNpy(u8)).find("unsupported .npy dtype"),
            std::string::npos);
}

/// A TensorProto with dims {2}, data_type FLOAT and packed float_data.
static std::string floatProto() {
  std::string s;
  s += '\x08'; s += '\x02';             // dims: 2
  s += '\x10'; s += '\x01';             // data_type: FLOAT
  s += '\x22'; s += '\x08';             // float_data, 8 bytes
  float v[2] = {1.5f, -2.0f};
  s.append(reinterpret_cast<char *>(v), 8);
  s += '\x42'; s += '\x01'; s += 'x';   // name: "x"
  return s;
}

TEST(TensorProto, ParsesFloatData) {
  std::string name;
  llvm::Expected<Tensor> t = parseTensorProto(floatProto(), &name);
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(name, "x");
  EXPECT_EQ(t->shape, (Shape{2}));
  EXPECT_EQ(t->data, (std::vector<double>{1.5, -2.0}));
}

TEST(TensorProto, ParsesRawInt64Data) {
  std::string s = "\x08\x03\x10\x07\x4a\x18";
  int64_t v[3] = {-1, 0, 42};
  s.append(reinterpret_cast<char *>(v), 24);
  llvm::Expected<Tensor> t = parseTensorProto(s);
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->dtype, DType::I64);
  EXPECT_EQ(t->data, (std::vector<double>{-1, 0, 42}));
}

TEST(TensorProto, ReadsUint8AsI32) {
  std::string u8("\x08\x02\x10\x02\x4a\x02\x05\xff", 8); // UINT8 [5, 255]
  llvm::Expected<Tensor> t = parseTensorProto(u8);
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->dtype, DType::I32);
  EXPECT_EQ(t->data, (std::vector<double>{5, 255}));
}

TEST(TensorProto, RejectsTruncatedAndUnsupported) {
  std::string p = floatProto();
  EXPECT_NE(errorOf(parseTensorProto(p.substr(0, 7))).find("truncated"),
            std::string::npos);
  std::string u16("\x08\x01\x10\x04\x4a\x02\x05\x00", 8); // UINT16
  EXPECT_NE(errorOf(parseTensorProto(u16)).find("UINT16"), std::string::npos);
  std::string short_("\x08\x04\x10\x01\x22\x04\x00\x00\x80\x3f", 10);
  EXPECT_NE(errorOf(parseTensorProto(short_)).find("need 4"), std::string::npos);
}

TEST(Tensor, RoundsToElementTypes) {
  EXPECT_EQ(roundToDType(DType::I8, 130.7), -126.0);
  EXPECT_EQ(roundToDType(DType::I32, -3.9), -3.0);
  EXPECT_EQ(roundToDType(DType::I1, 0.2), 1.0);
  EXPECT_EQ(roundToDType(DType::F16, 1.0 + 1.0 / 4096), 1.0);
  EXPECT_EQ(roundToDType(DType::BF16, 1.00390625), 1.0); // ties to even
  EXPECT_EQ(roundToDType(DType::F32, 0.1), static_cast<double>(0.1f));
}

// The fast f16/bf16 rounding gives APFloat's bits on every kind of double:
// ties, the largest finite values and what rounds past them, subnormals
// and what rounds to zero or to the least subnormal, infinities, NaN, -0.
TEST(Tensor, NarrowsFloatsAsAPFloat) {
  struct Format {
    const llvm::fltSemantics &sem;
    int mant, exp;
  };
  std::vector<double> values = {0.0, -0.0, INFINITY, -INFINITY, 1.0, 1.00390625, 1.01171875,
                                65504.0, 65520.0, 65519.99, 3.3895313892515355e38,
                                3.4e38, 1e300, 5.9604644775390625e-8, 2.98023223876953125e-8,
                                2.98023223876953126e-8, 9.18354961579912e-41, 4.6e-41,
                                std::ldexp(1.0, -134), std::ldexp(1.5, -134), 1e-320};
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> mantissa(-2.0, 2.0);
  std::uniform_int_distribution<int> exponent(-150, 130);
  for (int i = 0; i < 200000; ++i)
    values.push_back(std::ldexp(mantissa(random), exponent(random)));
  // Halfway between neighbours of either format, and just off it.
  for (int i = 0; i < 2000; ++i) {
    double x = std::ldexp(std::floor(std::abs(mantissa(random)) * 1024) + 0.5, exponent(random));
    values.insert(values.end(), {x, std::nextafter(x, 0.0), std::nextafter(x, INFINITY)});
  }
  for (Format f : {Format{llvm::APFloat::IEEEhalf(), 10, 5}, Format{llvm::APFloat::BFloat(), 7, 8}})
    for (double x : values) {
      llvm::APFloat expected(x);
      bool lost;
      expected.convert(f.sem, llvm::APFloat::rmNearestTiesToEven, &lost);
      uint64_t bits = narrowFloatBits(x, f.mant, f.exp);
      ASSERT_EQ(bits, expected.bitcastToAPInt().getZExtValue()) << x << " mant " << f.mant;
      double back = widenFloatBits(bits, f.mant, f.exp);
      EXPECT_TRUE(back == expected.convertToDouble() ||
                  (std::isnan(back) && expected.isNaN()))
          << x;
    }
  EXPECT_TRUE(std::isnan(roundToDType(DType::BF16, NAN)));
}

// Widening builds the double's bits: every one of the 65536 f16 and bf16
// values (subnormals, infinities and NaNs with either sign) as APFloat's.
TEST(Tensor, WidensEveryHalfAsAPFloat) {
  struct Format {
    const llvm::fltSemantics &sem;
    int mant, exp;
  };
  for (Format f : {Format{llvm::APFloat::IEEEhalf(), 10, 5}, Format{llvm::APFloat::BFloat(), 7, 8}})
    for (uint64_t bits = 0; bits < 65536; ++bits) {
      llvm::APFloat expected(f.sem, llvm::APInt(16, bits));
      bool lost;
      expected.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
      double got = widenFloatBits(bits, f.mant, f.exp);
      if (expected.isNaN()) {
        ASSERT_TRUE(std::isnan(got)) << bits;
        ASSERT_EQ(std::signbit(got), expected.isNegative()) << bits;
        continue;
      }
      ASSERT_EQ(llvm::bit_cast<uint64_t>(got),
                expected.bitcastToAPInt().getZExtValue()) << bits << " mant " << f.mant;
    }
}

// The float conversions FoldConstant computes with: f16 and bf16 to f32 for
// every value, and f32 to f16 and bf16 as narrowFloatBits rounds, on every
// f32 bit pattern near each exponent's ends, on ties and their neighbours,
// and on one in 251 elsewhere.
TEST(Tensor, ConvertsHalvesThroughFloat) {
  for (uint32_t h = 0; h < 65536; ++h) {
    float got = f32FromF16Bits(static_cast<uint16_t>(h));
    double expected = widenFloatBits(h, 10, 5);
    ASSERT_TRUE(got == expected || (std::isnan(got) && std::isnan(expected))) << h;
    ASSERT_EQ(std::signbit(got), std::signbit(expected)) << h;
    float bf = f32FromBF16Bits(static_cast<uint16_t>(h));
    double bfExpected = widenFloatBits(h, 7, 8);
    ASSERT_TRUE(bf == bfExpected || (std::isnan(bf) && std::isnan(bfExpected))) << h;
  }
  auto check = [](uint32_t f) {
    double x = llvm::bit_cast<float>(f);
    ASSERT_EQ(f16FromF32Bits(f), narrowFloatBits(x, 10, 5)) << std::hex << f;
    ASSERT_EQ(bf16FromF32Bits(f), narrowFloatBits(x, 7, 8)) << std::hex << f;
  };
  for (uint64_t f = 0; f <= 0xffffffffu; f += 251)
    check(static_cast<uint32_t>(f));
  for (uint32_t sign : {0u, 0x80000000u})
    for (uint32_t e = 0; e < 256; ++e)
      for (uint32_t m = 0; m < 4096; ++m) {
        check(sign | (e << 23) | m);
        check(sign | (e << 23) | (0x7fffff - m));
        // Ties of either type (and of f16's subnormals) and their neighbours.
        for (uint32_t d : {0x7ffu, 0x800u, 0x801u})
          check(sign | (e << 23) | ((m * 0x800 + d) & 0x7fffff));
      }
}

TEST(Tensor, ComparesWithTolerances) {
  Tensor a(DType::F32, {2}), b(DType::F32, {2});
  a.data = {1.0, 2.0};
  b.data = {1.0, 2.001};
  EXPECT_FALSE(compareTensors(a, b, 1e-5, 1e-5).match);
  EXPECT_TRUE(compareTensors(a, b, 1e-2, 0).match);
  Tensor c(DType::F32, {3});
  EXPECT_FALSE(compareTensors(a, c, 1, 1).reason.empty());
}
