//===- TensorIOTest.cpp - .npy and TensorProto I/O -------------------------===//
#include "dlc/Runtime/TensorIO.h"

#include "gtest/gtest.h"

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

TEST(Tensor, ComparesWithTolerances) {
  Tensor a(DType::F32, {2}), b(DType::F32, {2});
  a.data = {1.0, 2.0};
  b.data = {1.0, 2.001};
  EXPECT_FALSE(compareTensors(a, b, 1e-5, 1e-5).match);
  EXPECT_TRUE(compareTensors(a, b, 1e-2, 0).match);
  Tensor c(DType::F32, {3});
  EXPECT_FALSE(compareTensors(a, c, 1, 1).reason.empty());
}
