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
  // Detection (detection_preprocess_for): the whole image resized to height x width, its aspect ratio not kept
  // and nothing cropped (resize_shorter unused), so a box maps back by the two axes' ratios; 0 x 0 keeps the
  // image's own size.
  bool whole = false;
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

// The preprocessing for a detector's image input number `input` ([3, H, W] or [N, 3, H, W]): the whole image
// (ImagePreprocess::whole) resized to the input's H x W, else to the model's cnnx.input_size, else left at its
// own size; values in [0, 1] (scale 1/255, mean 0, std 1: what torchvision's detectors and YOLO exports take)
// unless the model's metadata or `overrides` say otherwise, as image_preprocess_for reads them.
ImagePreprocess detection_preprocess_for(const Model& model, size_t input, const ImageOverrides& overrides = {});

// True for file names cnnx decodes as images (.png .jpg .jpeg .bmp, any case).
bool is_image_file(const std::string& path);

// Decodes and preprocesses one image into `chw`, 3 * p.height * p.width floats. A file that cannot be
// opened, is not a PNG/JPEG/BMP, is corrupt, has 0 pixels or declares over 64 megapixels (refused before
// decoding allocates) is a cnnx::Error naming the file and saying why.
void load_image(const std::string& path, const ImagePreprocess& p, float* chw);

// Decodes and preprocesses one image as a detector takes it (p.whole): a [3, H, W] float32 tensor, H x W as
// p says (the image's own size when p's is 0 x 0). Sets `width` and `height` to the image's own size. Errors as
// load_image's.
Tensor load_whole_image(const std::string& path, const ImagePreprocess& p, int64_t& width, int64_t& height);

// The images as one [N, 3, H, W] float32 batch, in order; the first bad file is a cnnx::Error.
Tensor load_images(const std::vector<std::string>& paths, const ImagePreprocess& p);

}  // namespace cnnx
