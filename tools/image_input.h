// Image files as model inputs: decode (PNG/JPEG/BMP via stb), resize the shorter side, centre-crop to the
// model's input size, scale, normalize per channel, and lay out as float32 NCHW.
#pragma once

#include <string>
#include <vector>

#include "engine/graph.h"
#include "engine/tensor.h"

namespace cnnx::tools {

struct ImagePreprocess {
  int64_t height = 224, width = 224;    // the crop fed to the model
  int64_t resize_shorter = 256;         // the shorter side is resized to this before cropping
  std::vector<float> mean{0.485f, 0.456f, 0.406f};  // after scaling, per channel
  std::vector<float> std{0.229f, 0.224f, 0.225f};
  float scale = 1.f / 255.f;
  bool bgr = false;                     // channel order the model expects
};

// The preprocessing for the graph's image input `input_id`: sizes from its shape, then the model's
// metadata (cnnx.input_size, cnnx.resize_size, cnnx.mean, cnnx.std, cnnx.scale, cnnx.channel_order),
// then ImageNet defaults (resize 256/224 of the crop, ImageNet mean/std).
ImagePreprocess image_preprocess_for(const Graph& graph, int input_id);

// True for file names cnnx decodes as images (.png .jpg .jpeg .bmp).
bool is_image_file(const std::string& path);

// Decodes and preprocesses the images into one [N, 3, H, W] float32 batch. Refuses unreadable files,
// images of 0 pixels and images over 64 megapixels (before decoding allocates).
Tensor load_images(const std::vector<std::string>& paths, const ImagePreprocess& p);

}  // namespace cnnx::tools
