// The files a folder run classifies (`cnnx run MODEL DIR_OR_FILES...`, cnnx.classify, the Dask classify).
#pragma once

#include <string>
#include <vector>

namespace cnnx {

// Every argument that is a folder is replaced by all the files below it, recursively, each folder's entries
// sorted by name, so the order is deterministic; anything else (a file, a broken symbolic link, a path that
// does not exist) stays as it is, in the order given. Not filtered by type: every file is reported on (see
// classify_files). Symbolic links to folders are listed but not entered (a link cycle cannot loop; an image
// is never reached twice through them); a folder that cannot be listed is kept as itself, so classifying it
// reports why.
std::vector<std::string> collect_files(const std::vector<std::string>& dirs_or_files);

// Why `path`, one of collect_files' results, cannot be an image, before any decoding: a folder (one that
// could not be listed, or a symbolic link to one), or a name without an image extension (.png .jpg .jpeg
// .bmp). "" when it may be one; decoding says the rest (unreadable, corrupt, empty, too large).
std::string not_an_image(const std::string& path);

}  // namespace cnnx
