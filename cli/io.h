// Arrays in and out of files, through Halide's halide_image_io.h. A .npy file follows numpy's
// and PyTorch's convention (C order: shape (C, H, W) is Halide's (x, y, c)); PNG is 8-bit
// (x, y[, c]) in [0, 1].
#pragma once

#include <string>

#include "HalideBuffer.h"

namespace fuselab::cli {

Halide::Runtime::Buffer<float> read_array(const std::string &path);  // throws Error
void write_array(Halide::Runtime::Buffer<float> &buf,
                 const std::string &path);  // throws Error; atomic

}  // namespace fuselab::cli
