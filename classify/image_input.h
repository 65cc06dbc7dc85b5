// Image files as model inputs: decode (PNG/JPEG/BMP via stb), resize the shorter side, centre-crop to the
// model's input size, scale, normalize per channel, and lay out as float32 NCHW. The decoder is an
// implementation detail: no stb type or header appears here.
#pragma once

#include <string>
#include <vector>

#include "api/cnnx.h"

namespace cnnx {

struct ImagePreprocess {
  int64_t height = 224, width = 224;    // the crop fed to the model
  int64_t resize_shorter = 256;         // the shorter side is resized to this before cropping
  std::vector<float> mean{0.485f, 0.456f, 0.406f};  // after scaling, per channel
  std::vector<float> std{0.229f, 0.224f, 0.225f};
  float scale = 1.f / 255.f;
  bool bgr = false;                     // channel order the model expects
};

// What a user may override on the command line (cnnx run --size, --mean, --std); empty keeps the model's.
struct ImageOverrides {
  std::vector<int64_t> size;  // {H, W} or {S}
  std::vector<float> mean, std;
};

// The preprocessing for the model's image input number `input`: sizes from its shape, then the model's
// metadata (cnnx.input_size, cnnx.resize_size, cnnx.mean, cnnx.std, cnnx.scale, cnnx.channel_order),
// then ImageNet defaults (resize 256/224 of the crop, ImageNet mean/std); `overrides` last. A malformed
// metadata value or override, or a result load_image cannot work with (a crop over 64 megapixels, a resize
// under the crop or over 32768, a std of 0), is a cnnx::Error naming it.
ImagePreprocess image_preprocess_for(const Model& model, size_t input, const ImageOverrides& overrides = {});

// True for file names cnnx decodes as images (.png .jpg .jpeg .bmp, any case).
bool is_image_file(const std::string& path);

// Decodes and preprocesses one image into `chw`, 3 * p.height * p.width floats. A file that cannot be
// opened, is not a PNG/JPEG/BMP, is corrupt, has 0 pixels or declares over 64 megapixels (refused before
// decoding allocates) is a cnnx::Error naming the file and saying why.
void load_image(const std::string& path, const ImagePreprocess& p, float* chw);

// The images as one [N, 3, H, W] float32 batch, in order; the first bad file is a cnnx::Error.
Tensor load_images(const std::vector<std::string>& paths, const ImagePreprocess& p);

}  // namespace cnnx
