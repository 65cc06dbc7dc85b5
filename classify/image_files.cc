#include "classify/image_files.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "classify/image_input.h"

namespace cnnx {

namespace fs = std::filesystem;

namespace {

void walk(const fs::path& folder, std::vector<std::string>& out) {
  std::error_code ec;
  std::vector<fs::path> entries;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) entries.push_back(it->path());
  if (ec) {
    out.push_back(folder.string());  // reported by not_an_image
    return;
  }
  std::sort(entries.begin(), entries.end());
  for (const fs::path& entry : entries) {
    if (fs::is_directory(fs::symlink_status(entry, ec)))
      walk(entry, out);
    else
      out.push_back(entry.string());
  }
}

}  // namespace

std::vector<std::string> collect_files(const std::vector<std::string>& dirs_or_files) {
  std::vector<std::string> files;
  for (const std::string& arg : dirs_or_files) {
    std::error_code ec;
    if (fs::is_directory(fs::status(arg, ec)))
      walk(arg, files);
    else
      files.push_back(arg);
  }
  return files;
}

std::string not_an_image(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(fs::status(path, ec))) {
    if (fs::is_symlink(fs::symlink_status(path, ec))) return "'" + path + "' is a link to a folder (not followed)";
    fs::directory_iterator it(path, ec);
    return "cannot list the folder '" + path + "': " + (ec ? ec.message() : "it changed while being read");
  }
  if (!is_image_file(path)) return "'" + path + "' is not an image file (.png .jpg .jpeg .bmp)";
  return "";
}

}  // namespace cnnx
