#include "classify/image_input.h"

#include <stb/stb_image.h>
#include <stb/stb_image_resize.h>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <sstream>

#include "api/tools_facade.h"

namespace cnnx {

namespace {

constexpr int64_t kMaxPixels = int64_t(64) << 20;

std::vector<float> parse_floats(const std::string& text, const std::string& what) {
  std::vector<float> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    char* end = nullptr;
    float v = std::strtof(item.c_str(), &end);
    require(end != item.c_str() && *end == '\0' && std::isfinite(v), what, ": '", item, "' is not a number");
    out.push_back(v);
  }
  return out;
}

float parse_scale(const std::string& text) {
  // "1/255" or "0.0039".
  size_t slash = text.find('/');
  if (slash == std::string::npos) return parse_floats(text, "cnnx.scale").at(0);
  float num = parse_floats(text.substr(0, slash), "cnnx.scale").at(0);
  float den = parse_floats(text.substr(slash + 1), "cnnx.scale").at(0);
  require(den != 0, "cnnx.scale: division by zero");
  return num / den;
}

// The size a PNG or BMP header declares, read directly: stb refuses headers too large to decode without
// saying so, and a user should learn why. False when the header is neither or is cut short.
bool declared_size(FILE* f, int64_t& w, int64_t& h) {
  unsigned char b[26] = {};
  std::fseek(f, 0, SEEK_SET);
  size_t n = std::fread(b, 1, sizeof b, f);
  std::fseek(f, 0, SEEK_SET);
  auto be32 = [&](int i) { return int64_t(b[i]) << 24 | int64_t(b[i + 1]) << 16 | int64_t(b[i + 2]) << 8 | b[i + 3]; };
  auto le32 = [&](int i) { return int64_t(int32_t(uint32_t(b[i]) | uint32_t(b[i + 1]) << 8 | uint32_t(b[i + 2]) << 16 | uint32_t(b[i + 3]) << 24)); };
  if (n >= 24 && std::memcmp(b, "\x89PNG\r\n\x1a\n", 8) == 0 && std::memcmp(b + 12, "IHDR", 4) == 0) {
    w = be32(16);
    h = be32(20);
    return true;
  }
  if (n >= 26 && b[0] == 'B' && b[1] == 'M') {
    w = std::abs(le32(18));
    h = std::abs(le32(22));  // negative height: a top-down BMP
    return true;
  }
  return false;
}

// The preprocessing the model asks for (image_input.h) for its input `v`, before overrides; a detector's
// (`detection`: the whole image, values in [0, 1], its size from [3, H, W] or [N, 3, H, W]) or a classifier's.
ImagePreprocess graph_preprocess(const Model& model, const TensorSpec& v, bool detection) {
  ImagePreprocess p;
  if (detection) {
    p.whole = true;
    p.height = p.width = 0;
    p.mean = {0, 0, 0};
    p.std = {1, 1, 1};
  }
  const std::map<std::string, std::string> meta = model_report(model).metadata;
  auto find = [&](const char* key) -> const std::string* {
    auto it = meta.find(key);
    return it == meta.end() ? nullptr : &it->second;
  };
  bool sized = false;
  const size_t rank = v.shape_known ? v.shape.size() : 0;
  if ((rank == 4 || (detection && rank == 3)) && v.shape[rank - 2] > 0 && v.shape[rank - 1] > 0) {
    p.height = v.shape[rank - 2];
    p.width = v.shape[rank - 1];
    sized = true;
  }
  if (const std::string* s = find("cnnx.input_size"); s && !sized) {
    std::vector<float> hw = parse_floats(*s, "cnnx.input_size");
    require(hw.size() == 2 && hw[0] >= 1 && hw[1] >= 1, "cnnx.input_size must be 'H,W', got '", *s, "'");
    p.height = int64_t(hw[0]);
    p.width = int64_t(hw[1]);
  }
  p.resize_shorter = int64_t(std::lround(double(std::min(p.height, p.width)) * 256.0 / 224.0));
  if (const std::string* s = find("cnnx.resize_size"); s && !detection) {
    std::vector<float> r = parse_floats(*s, "cnnx.resize_size");
    require(r.size() == 1 && r[0] >= 1, "cnnx.resize_size must be one positive number, got '", *s, "'");
    p.resize_shorter = int64_t(r[0]);
  }
  if (const std::string* s = find("cnnx.mean")) p.mean = parse_floats(*s, "cnnx.mean");
  if (const std::string* s = find("cnnx.std")) p.std = parse_floats(*s, "cnnx.std");
  if (const std::string* s = find("cnnx.scale")) p.scale = parse_scale(*s);
  if (const std::string* s = find("cnnx.channel_order")) p.bgr = *s == "BGR";
  return p;
}

// The settings load_image can work with; an error names the one that is not.
void check_preprocess(const ImagePreprocess& p) {
  require(p.mean.size() == 3 && p.std.size() == 3, "mean and std need 3 values (one per channel), got ",
          p.mean.size(), " and ", p.std.size());
  for (float s : p.std) require(s != 0, "std values must not be 0");
  if (p.whole && p.height == 0 && p.width == 0) return;  // the image's own size
  require(p.height >= 1 && p.width >= 1 && p.height * p.width <= kMaxPixels, "image size ", p.height, "x", p.width,
          " is out of range");
  if (p.whole) return;  // nothing is cropped
  require(p.resize_shorter >= std::min(p.height, p.width) && p.resize_shorter <= 1 << 15, "resize size ",
          p.resize_shorter, " must be at least the crop size and at most 32768");
}

}  // namespace

bool is_image_file(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp";
}

namespace {

ImagePreprocess preprocess_for(const Model& model, size_t input, const ImageOverrides& o, bool detection) {
  require(input < model.inputs().size(), "the model has no input number ", input);
  ImagePreprocess p = graph_preprocess(model, model.inputs()[input], detection);
  if (!o.size.empty()) {
    require(o.size.size() <= 2 && o.size[0] > 0 && o.size.back() > 0, "--size takes S or H,W");
    p.height = o.size[0];
    p.width = o.size.back();
    p.resize_shorter = std::max(p.resize_shorter, std::min(p.height, p.width));
  }
  if (!o.mean.empty()) p.mean = o.mean;
  if (!o.std.empty()) p.std = o.std;
  require(p.mean.size() == 3, "mean needs 3 values (one per channel), got ", p.mean.size());
  require(p.std.size() == 3, "std needs 3 values (one per channel), got ", p.std.size());
  check_preprocess(p);
  return p;
}

}  // namespace

ImagePreprocess image_preprocess_for(const Model& model, size_t input, const ImageOverrides& o) {
  return preprocess_for(model, input, o, false);
}

ImagePreprocess detection_preprocess_for(const Model& model, size_t input, const ImageOverrides& o) {
  return preprocess_for(model, input, o, true);
}

namespace {

using Pixels = std::unique_ptr<unsigned char, void (*)(void*)>;

// The file's pixels as 8-bit RGB, w x h; every way a file can fail is a cnnx::Error naming it.
Pixels decode_rgb(const std::string& path, int& w, int& h) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status link = fs::symlink_status(path, ec), target = fs::status(path, ec);
  if (fs::is_symlink(link) && !fs::exists(target)) fail("'", path, "' is a broken symbolic link");
  // Opening a FIFO or a device would block or read without end.
  if (fs::exists(target) && !fs::is_regular_file(target)) fail("'", path, "' is not a regular file");
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!file) fail("cannot open image '", path, "': ", std::strerror(errno));
  int c = 0;
  if (!stbi_info_from_file(file.get(), &w, &h, &c)) {
    const std::string why = stbi_failure_reason() ? stbi_failure_reason() : "unknown format";
    int64_t dw = 0, dh = 0;
    if (declared_size(file.get(), dw, dh)) {
      if (dw == 0 || dh == 0) fail("'", path, "' has no pixels");
      if (dw * dh > kMaxPixels) fail("'", path, "' declares ", dw, "x", dh, " pixels, over the limit of 64 megapixels");
    }
    fail("'", path, "' is not a readable PNG, JPEG or BMP image (", why, ")");
  }
  require(w > 0 && h > 0, "'", path, "' has no pixels");
  require(int64_t(w) * h <= kMaxPixels, "'", path, "' declares ", w, "x", h,
          " pixels, over the limit of 64 megapixels");
  // stbi_info_from_file leaves the file position where it was.
  Pixels bytes(stbi_load_from_file(file.get(), &w, &h, &c, 3), stbi_image_free);
  if (!bytes) fail("cannot decode '", path, "': ", stbi_failure_reason() ? stbi_failure_reason() : "corrupt data");
  return bytes;
}

// The w x h RGB pixels resized to rw x rh, as floats (HWC).
std::vector<float> resized_rgb(const std::string& path, const Pixels& bytes, int w, int h, int rw, int rh) {
  std::vector<float> src(size_t(w) * size_t(h) * 3);
  for (size_t i = 0; i < src.size(); ++i) src[i] = float(bytes.get()[i]);
  // stb_image_resize filters even at scale 1 (its downsampling filter, Mitchell, is not interpolating): an
  // image already at the size is taken as it is.
  if (rw == w && rh == h) return src;
  std::vector<float> resized(size_t(rw) * size_t(rh) * 3);
  require(stbir_resize_float(src.data(), w, h, 0, resized.data(), rw, rh, 0, 3) == 1, "cannot resize '", path, "'");
  return resized;
}

// The H x W window at (top, left) of the rw-wide HWC `resized`, scaled and normalized into CHW `chw`.
void normalize_window(const std::vector<float>& resized, int64_t rw, int64_t top, int64_t left, const ImagePreprocess& p,
                      float* chw) {
  const int64_t H = p.height, W = p.width;
  for (int64_t ch = 0; ch < 3; ++ch) {
    const int64_t src_ch = p.bgr ? 2 - ch : ch;
    for (int64_t y = 0; y < H; ++y)
      for (int64_t x = 0; x < W; ++x) {
        float v = resized[size_t(((top + y) * rw + (left + x)) * 3 + src_ch)] * p.scale;
        chw[(ch * H + y) * W + x] = (v - p.mean[size_t(ch)]) / p.std[size_t(ch)];
      }
  }
}

}  // namespace

void load_image(const std::string& path, const ImagePreprocess& p, float* chw) {
  check_preprocess(p);
  require(!p.whole, "load_image crops: use load_whole_image for a detector's preprocessing");
  int w = 0, h = 0;
  const Pixels bytes = decode_rgb(path, w, h);
  // Resize so the shorter side is resize_shorter, then crop the centre H x W.
  const int64_t H = p.height, W = p.width;
  const double ratio = double(p.resize_shorter) / double(std::min(w, h));
  const int rw = std::max<int>(int(W), int(std::lround(w * ratio)));
  const int rh = std::max<int>(int(H), int(std::lround(h * ratio)));
  normalize_window(resized_rgb(path, bytes, w, h, rw, rh), rw, (rh - H) / 2, (rw - W) / 2, p, chw);
}

Tensor load_whole_image(const std::string& path, const ImagePreprocess& p, int64_t& width, int64_t& height) {
  check_preprocess(p);
  require(p.whole, "load_whole_image takes a detector's preprocessing (detection_preprocess_for)");
  int w = 0, h = 0;
  const Pixels bytes = decode_rgb(path, w, h);
  width = w;
  height = h;
  ImagePreprocess q = p;
  if (q.height == 0) {
    q.height = h;
    q.width = w;
  }
  Tensor chw(DType::f32, {3, q.height, q.width});
  normalize_window(resized_rgb(path, bytes, w, h, int(q.width), int(q.height)), q.width, 0, 0, q, chw.data<float>());
  return chw;
}

Tensor load_images(const std::vector<std::string>& paths, const ImagePreprocess& p) {
  check_preprocess(p);
  const int64_t H = p.height, W = p.width;
  Tensor batch(DType::f32, {int64_t(paths.size()), 3, H, W});
  for (size_t n = 0; n < paths.size(); ++n) load_image(paths[n], p, batch.data<float>() + int64_t(n) * 3 * H * W);
  return batch;
}

}  // namespace cnnx
