// Arrays in and out of files, read and written here (no halide_image_io):
//  - .npy: numpy's and PyTorch's C order, so shape (C, H, W) is Halide's (x, y, c). Read: format
//    versions 1.0, 2.0 and 3.0, dtype little-endian float32 ('<f4') only (where the caller asks
//    for the storage type, also float16 '<f2' and bfloat16 as its bits, '<u2', widened exactly to
//    float32 values), C order, ranks 1 to 4,
//    every extent at least 1, at most 2^31 - 1 elements, and exactly the data the header
//    promises (a truncated file and one with trailing bytes are both refused). Written: version
//    1.0, numpy's own header layout (padded with spaces to a multiple of 64 bytes, ending in '\n'),
//    in float32 or, narrowed to nearest even, float16 or bfloat16 ('<u2' of its bits).
//  - PNG (libpng): 8- or 16-bit gray, gray + alpha, RGB and RGBA, and palette and 1/2/4-bit gray,
//    which are expanded to 8 bits (palette to RGB; a tRNS chunk becomes an alpha channel). Values
//    are in [0, 1]; a one-channel image is 2-D (x, y), others (x, y, c). Bad CRCs (in any chunk),
//    truncation, corrupt compressed data and palette indexes past the palette are refused; other
//    ancillary chunks are skipped, as are bytes after IEND. Written: 8-bit, values clamped to
//    [0, 1]; NaN is refused.
// Each reader checks everything it can before it allocates: sizes against Halide's limit
// (2^31 - 1 elements), against what this process may allocate (physical memory, or less under
// ulimit -v / -d), and against the bytes the file holds. Every failure is a fuselab::Error whose
// message names the file ("cannot read PATH: ..."); nothing aborts.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "HalideBuffer.h"

namespace fuselab {

enum class Format { npy, png };

// The format a path's extension names (.npy or .png, any case); false for others.
bool format_of(const std::string &path, Format *format);

// By the path's extension. Opens the file read-only, and refuses what is not a readable regular
// file (a directory, a FIFO, a device) without opening it.
// With `dtype`, a .npy file may also hold float16 or bfloat16 bits ('<u2'); *dtype says which
// ("float32", "float16", "bfloat16"). Without it, only float32 is read.
Halide::Runtime::Buffer<float> read_array(const std::string &path,
                                          std::string *dtype = nullptr);  // throws Error
// Atomic: written to a new file beside `path`, then renamed over it (OutputFile). `dtype`: the
// .npy's storage type (a PNG takes float32 values only).
void write_array(const Halide::Runtime::Buffer<float> &buf, const std::string &path,
                 const std::string &dtype = "float32");

// The same on open streams (any FILE *, fmemopen's included), from the current position to the
// end of the stream, which must be seekable. `name` stands for the file in messages.
Halide::Runtime::Buffer<float> read_npy(FILE *f, const std::string &name,
                                        std::string *dtype = nullptr);
Halide::Runtime::Buffer<float> read_png(FILE *f, const std::string &name);
void write_npy(const Halide::Runtime::Buffer<float> &buf, FILE *f, const std::string &name,
               const std::string &dtype = "float32");
void write_png(const Halide::Runtime::Buffer<float> &buf, FILE *f, const std::string &name);

// Throws "cannot read PATH: ..." unless the path names a readable regular file.
void check_input_path(const std::string &path);
// Throws "cannot write PATH: ..." unless an array of these extents (Halide order) can be stored
// in the format that path's extension names.
void check_output_shape(const std::vector<int> &extents, const std::string &path);

// A dense float buffer of these extents, or an Error naming `what` if it exceeds Halide's
// 2^31 - 1 elements, what this process may allocate, or if the allocation fails.
Halide::Runtime::Buffer<float> allocate_array(const std::vector<int> &extents,
                                              const std::string &what);

// An output file that appears whole or not at all. The constructor checks the path (a
// supported extension; not a directory, FIFO or device; its directory exists and a file can be
// created there, which it tries) and throws "cannot write PATH: ..." otherwise. write() writes
// the array to a new temporary file beside the path ("PATH.partial-PID-N"); commit() renames that
// over the path. Until commit() succeeds, destroying the object removes the temporary file.
class OutputFile {
public:
    explicit OutputFile(const std::string &path);
    ~OutputFile();
    OutputFile(const OutputFile &) = delete;
    OutputFile &operator=(const OutputFile &) = delete;

    void write(const Halide::Runtime::Buffer<float> &buf,
               const std::string &dtype = "float32");  // throws Error
    void commit();                                          // throws Error
    const std::string &path() const { return path_; }

private:
    std::string path_, tmp_;
    Format format_;
    bool committed_ = false;
};

}  // namespace fuselab
