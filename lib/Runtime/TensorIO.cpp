//===- TensorIO.cpp - .npy and ONNX TensorProto files ----------------------===//
#include "dlc/Runtime/TensorIO.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace dlc;
using llvm::StringRef;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// .npy
//===----------------------------------------------------------------------===//

static std::optional<DType> dtypeFromDescr(StringRef descr) {
  if (descr == "<f4") return DType::F32;
  if (descr == "<f2") return DType::F16;
  if (descr == "<f8") return DType::F64;
  if (descr == "|i1" || descr == "<i1") return DType::I8;
  if (descr == "<i4") return DType::I32;
  if (descr == "<i8") return DType::I64;
  if (descr == "|b1" || descr == "<b1") return DType::I1;
  return std::nullopt;
}

static StringRef descrOf(DType type) {
  switch (type) {
  case DType::F32:
  case DType::BF16: return "<f4";
  case DType::F16: return "<f2";
  case DType::F64: return "<f8";
  case DType::I8: return "|i1";
  case DType::I32: return "<i4";
  case DType::I64: return "<i8";
  case DType::I1: return "|b1";
  }
  return "";
}

/// Value of `key` in the header dict: the text after "'key':" up to the next
/// top-level comma or closing brace.
static std::optional<StringRef> headerField(StringRef header, StringRef key) {
  size_t pos = header.find(("'" + key + "'").str());
  if (pos == StringRef::npos)
    return std::nullopt;
  StringRef rest = header.drop_front(pos + key.size() + 2).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  rest = rest.ltrim();
  if (rest.starts_with("(")) {
    size_t close = rest.find(')');
    if (close == StringRef::npos)
      return std::nullopt;
    return rest.substr(0, close + 1);
  }
  size_t end = rest.find_first_of(",}");
  return rest.substr(0, end).trim();
}

llvm::Expected<Tensor> dlc::parseNpy(StringRef bytes) {
  if (!bytes.starts_with("\x93NUMPY"))
    return makeError("not a .npy file (bad magic)");
  if (bytes.size() < 10)
    return makeError("truncated .npy header");
  unsigned major = static_cast<unsigned char>(bytes[6]);
  size_t headerLen, offset;
  if (major == 1) {
    headerLen = static_cast<unsigned char>(bytes[8]) |
                (static_cast<unsigned char>(bytes[9]) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return makeError("truncated .npy header");
    headerLen = 0;
    for (int i = 3; i >= 0; --i)
      headerLen = (headerLen << 8) | static_cast<unsigned char>(bytes[8 + i]);
    offset = 12;
  } else {
    return makeError("unsupported .npy format version " + llvm::Twine(major));
  }
  if (bytes.size() < offset + headerLen)
    return makeError("truncated .npy header");
  StringRef header = bytes.substr(offset, headerLen);
  std::optional<StringRef> descr = headerField(header, "descr");
  std::optional<StringRef> fortran = headerField(header, "fortran_order");
  std::optional<StringRef> shapeText = headerField(header, "shape");
  if (!descr || !fortran || !shapeText)
    return makeError("malformed .npy header: " + header.trim());
  StringRef d = descr->trim("'\"");
  std::optional<DType> dtype = dtypeFromDescr(d);
  if (!dtype)
    return makeError("unsupported .npy dtype '" + d +
                     "' (supported: <f4 <f2 <f8 |i1 <i4 <i8 |b1)");
  if (*fortran != "False")
    return makeError("Fortran-ordered .npy arrays are not supported");
  Shape shape;
  llvm::SmallVector<StringRef> dims;
  shapeText->trim("() ").split(dims, ',', -1, /*KeepEmpty=*/false);
  for (StringRef dim : dims) {
    int64_t v;
    if (dim.trim().getAsInteger(10, v) || v < 0)
      return makeError("malformed .npy shape " + *shapeText);
    shape.push_back(v);
  }
  int64_t width = dtypeBytes(*dtype);
  std::optional<int64_t> count = checkedNumElements(shape);
  size_t have = bytes.size() - offset - headerLen;
  if (!count || static_cast<uint64_t>(*count) > have / width)
    return makeError("truncated .npy data: shape " + formatShape(shape) +
                     " needs " +
                     (count ? llvm::Twine(*count * width) : llvm::Twine("too many")) +
                     " bytes, file has " + llvm::Twine(have));
  Tensor tensor(*dtype, shape);
  const char *data = bytes.data() + offset + headerLen;
  for (int64_t i = 0; i < tensor.size(); ++i)
    tensor.data[i] = decodeElement(*dtype, data + i * width);
  return tensor;
}

std::string dlc::serializeNpy(const Tensor &tensor) {
  DType fileType = tensor.dtype == DType::BF16 ? DType::F32 : tensor.dtype;
  std::string shape = "(";
  for (int64_t d : tensor.shape)
    shape += std::to_string(d) + ", ";
  if (tensor.shape.size() > 1)
    shape.resize(shape.size() - 2);
  else if (tensor.shape.size() == 1)
    shape.pop_back(); // "(3,)"
  shape += ")";
  std::string header = "{'descr': '" + descrOf(fileType).str() +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  int64_t width = dtypeBytes(fileType);
  size_t start = out.size();
  out.resize(start + tensor.size() * width);
  for (int64_t i = 0; i < tensor.size(); ++i)
    encodeElement(fileType, tensor.data[i], &out[start + i * width]);
  return out;
}

//===----------------------------------------------------------------------===//
// ONNX TensorProto (protobuf wire format, decoded directly)
//===----------------------------------------------------------------------===//

namespace {
/// A bounds-checked reader of protobuf wire format.
class WireReader {
public:
  explicit WireReader(StringRef bytes) : data(bytes) {}
  bool done() const { return pos >= data.size(); }

  bool varint(uint64_t &value) {
    value = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      if (pos >= data.size())
        return false;
      uint8_t b = data[pos++];
      value |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80))
        return true;
    }
    return false;
  }
  bool fixed(unsigned width, uint64_t &value) {
    if (data.size() - pos < width)
      return false;
    value = 0;
    std::memcpy(&value, data.data() + pos, width);
    pos += width;
    return true;
  }
  bool bytes(StringRef &value) {
    uint64_t len;
    if (!varint(len) || len > data.size() - pos)
      return false;
    value = data.substr(pos, len);
    pos += len;
    return true;
  }
  bool skip(unsigned wireType) {
    uint64_t v;
    StringRef s;
    switch (wireType) {
    case 0: return varint(v);
    case 1: return fixed(8, v);
    case 2: return bytes(s);
    case 5: return fixed(4, v);
    default: return false;
    }
  }

private:
  StringRef data;
  size_t pos = 0;
};
} // namespace

/// Appends the values of a repeated numeric field, packed or not.
/// `width` is 0 for varints, else 4 or 8 bytes.
static bool readRepeated(WireReader &r, unsigned wireType, unsigned width,
                         std::vector<uint64_t> &out) {
  uint64_t v;
  if (wireType == 2) {
    StringRef packed;
    if (!r.bytes(packed))
      return false;
    WireReader inner(packed);
    while (!inner.done()) {
      if (!(width ? inner.fixed(width, v) : inner.varint(v)))
        return false;
      out.push_back(v);
    }
    return true;
  }
  if (!(width ? r.fixed(width, v) : r.varint(v)))
    return false;
  out.push_back(v);
  return true;
}

static std::optional<DType> dtypeFromOnnx(uint64_t code) {
  switch (code) {
  case 1: return DType::F32;
  case 2: return DType::I32; // UINT8: no unsigned types, values held in i32
  case 3: return DType::I8;
  case 6: return DType::I32;
  case 7: return DType::I64;
  case 9: return DType::I1;
  case 10: return DType::F16;
  case 11: return DType::F64;
  case 16: return DType::BF16;
  default: return std::nullopt;
  }
}

static const char *onnxTypeName(uint64_t code) {
  static const char *names[] = {"UNDEFINED", "FLOAT",  "UINT8",   "INT8",
                                "UINT16",    "INT16",  "INT32",   "INT64",
                                "STRING",    "BOOL",   "FLOAT16", "DOUBLE",
                                "UINT32",    "UINT64", "COMPLEX64",
                                "COMPLEX128", "BFLOAT16"};
  return code < std::size(names) ? names[code] : "unknown";
}

llvm::Expected<Tensor> dlc::parseTensorProto(StringRef bytes, std::string *name,
                                             bool uint16IsBF16) {
  WireReader r(bytes);
  std::vector<uint64_t> dims, words32, words64, floatBits, doubleBits;
  uint64_t dataType = 0;
  StringRef raw;
  bool hasRaw = false, external = false;
  while (!r.done()) {
    uint64_t key;
    if (!r.varint(key))
      return makeError("truncated or malformed TensorProto");
    unsigned field = key >> 3, wire = key & 7;
    bool ok = true;
    StringRef s;
    switch (field) {
    case 1: ok = readRepeated(r, wire, 0, dims); break;
    case 2: ok = r.varint(dataType); break;
    case 4: ok = readRepeated(r, wire, 4, floatBits); break;
    case 5: ok = readRepeated(r, wire, 0, words32); break;
    case 7: ok = readRepeated(r, wire, 0, words64); break;
    case 8:
      ok = r.bytes(s);
      if (ok && name)
        *name = s.str();
      break;
    case 9: ok = r.bytes(raw); hasRaw = true; break;
    case 10: ok = readRepeated(r, wire, 8, doubleBits); break;
    case 11: ok = readRepeated(r, wire, 0, words64); break;
    case 14: {
      uint64_t location;
      ok = r.varint(location);
      external = location == 1;
      break;
    }
    default: ok = r.skip(wire); break;
    }
    if (!ok)
      return makeError("truncated or malformed TensorProto (field " +
                       llvm::Twine(field) + ")");
  }
  if (external)
    return makeError("TensorProto with external data is not supported");
  if (dataType == 4 && uint16IsBF16) // the same bits, see the declaration
    dataType = 16;
  std::optional<DType> dtype = dtypeFromOnnx(dataType);
  if (!dtype)
    return makeError("unsupported TensorProto data_type " +
                     llvm::Twine(dataType) + " (" + onnxTypeName(dataType) + ")");
  Shape shape;
  for (uint64_t d : dims) {
    if (static_cast<int64_t>(d) < 0)
      return makeError("TensorProto has a negative dimension");
    shape.push_back(static_cast<int64_t>(d));
  }
  std::optional<int64_t> count = checkedNumElements(shape);
  if (!count)
    return makeError("TensorProto dims " + formatShape(shape) +
                     " have too many elements");
  size_t n = *count;
  auto countError = [&](size_t have) {
    return makeError("TensorProto holds " + llvm::Twine(have) +
                     " values but its dims " + formatShape(shape) + " need " +
                     llvm::Twine(n));
  };
  bool uint8 = dataType == 2;
  int64_t width = uint8 ? 1 : dtypeBytes(*dtype);
  size_t have = hasRaw ? raw.size() / width
                : *dtype == DType::F32 ? floatBits.size()
                : *dtype == DType::F64 ? doubleBits.size()
                : *dtype == DType::I64 ? words64.size()
                                       : words32.size();
  if (have != n || (hasRaw && raw.size() % width))
    return countError(have);
  Tensor tensor(*dtype, shape);
  if (hasRaw) {
    for (size_t i = 0; i < n; ++i)
      tensor.data[i] = uint8 ? static_cast<uint8_t>(raw[i])
                             : decodeElement(*dtype, raw.data() + i * width);
    return tensor;
  }
  switch (*dtype) {
  case DType::F32:
    for (size_t i = 0; i < n; ++i) {
      uint32_t bits = static_cast<uint32_t>(floatBits[i]);
      tensor.data[i] = decodeElement(DType::F32, reinterpret_cast<char *>(&bits));
    }
    break;
  case DType::F64:
    for (size_t i = 0; i < n; ++i)
      tensor.data[i] = decodeElement(DType::F64,
                                     reinterpret_cast<char *>(&doubleBits[i]));
    break;
  case DType::I64:
    for (size_t i = 0; i < n; ++i)
      tensor.data[i] = static_cast<double>(static_cast<int64_t>(words64[i]));
    break;
  case DType::F16:
  case DType::BF16:
    for (size_t i = 0; i < n; ++i) {
      uint16_t bits = static_cast<uint16_t>(words32[i]);
      tensor.data[i] = decodeElement(*dtype, reinterpret_cast<char *>(&bits));
    }
    break;
  default: // int32_data carries i8, i32 and bool
    for (size_t i = 0; i < n; ++i)
      tensor.data[i] = roundToDType(
          *dtype, static_cast<double>(static_cast<int32_t>(words32[i])));
    break;
  }
  return tensor;
}

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

llvm::Expected<Tensor> dlc::readTensorFile(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError(path + ": cannot read: " + buffer.getError().message());
  StringRef bytes = (*buffer)->getBuffer();
  StringRef ext = llvm::sys::path::extension(path);
  llvm::Expected<Tensor> tensor =
      ext == ".pb" ? parseTensorProto(bytes)
      : ext == ".npy"
          ? parseNpy(bytes)
          : llvm::Expected<Tensor>(makeError(
                "unknown tensor file extension '" + ext +
                "' (use .npy or an ONNX TensorProto .pb)"));
  if (!tensor)
    return makeError(path + ": " + llvm::toString(tensor.takeError()));
  return tensor;
}

llvm::Error dlc::writeNpyFile(StringRef path, const Tensor &tensor) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return makeError(path + ": cannot write: " + ec.message());
  os << serializeNpy(tensor);
  os.close();
  if (os.has_error())
    return makeError(path + ": write failed");
  return llvm::Error::success();
}
