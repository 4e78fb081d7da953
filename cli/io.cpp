#include "io.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#ifndef HALIDE_NO_JPEG
#define HALIDE_NO_JPEG
#endif
#include "fuselab/error.h"
#include "halide_image_io.h"

namespace fuselab::cli {
namespace {

thread_local std::string io_message;

// halide_image_io's check hook: keep the library's own message instead of aborting.
bool record(bool condition, const char *msg) {
    if (!condition) io_message = msg;
    return condition;
}

// Halide 21's save_npy puts the header's newline before its padding; the .npy format (and
// numpy >= 2.5) wants the padding first and the newline last. Rewrites the header in place.
bool fix_npy_header(const std::string &path) {
    FILE *f = std::fopen(path.c_str(), "r+b");
    if (!f) return false;
    unsigned char head[10];
    bool ok = std::fread(head, 1, sizeof(head), f) == sizeof(head) && head[6] == 1;
    const size_t len = ok ? size_t(head[8]) | size_t(head[9]) << 8 : 0;
    std::string header(len, ' ');
    ok = ok && std::fread(&header[0], 1, len, f) == len;
    const size_t end = header.find('}');
    if (ok && end != std::string::npos && end + 2 <= len) {
        std::string fixed = header.substr(0, end + 1);
        fixed.append(len - fixed.size() - 1, ' ');
        fixed.push_back('\n');
        ok = std::fseek(f, sizeof(head), SEEK_SET) == 0 &&
             std::fwrite(fixed.data(), 1, len, f) == len;
    } else {
        ok = false;
    }
    return std::fclose(f) == 0 && ok;
}

bool is_npy(const std::string &path) {
    return path.size() > 4 && path.substr(path.size() - 4) == ".npy";
}

std::vector<int> reversed_extents(const Halide::Runtime::Buffer<> &b) {
    std::vector<int> e;
    for (int d = b.dimensions() - 1; d >= 0; d--) e.push_back(b.dim(d).extent());
    return e;
}

}  // namespace

Halide::Runtime::Buffer<float> read_array(const std::string &path) {
    io_message.clear();
    if (is_npy(path)) {
        Halide::Runtime::Buffer<> raw;
        if (!Halide::Tools::load<Halide::Runtime::Buffer<>, record>(path, &raw)) {
            throw Error("cannot read " + path + ": " + io_message);
        }
        if (raw.type() != halide_type_of<float>()) {
            throw Error(path + ": dtype must be float32 (numpy '<f4'), got a " +
                        std::to_string(raw.type().bits) + "-bit " +
                        (raw.type().code == halide_type_float ? "float" : "integer") + " array");
        }
        // halide_image_io lists dimension 0 first; numpy's C order lists it last.
        Halide::Runtime::Buffer<float> out(reversed_extents(raw));
        std::memcpy(out.data(), raw.data(), raw.size_in_bytes());
        return out;
    }
    Halide::Runtime::Buffer<> raw;
    if (!Halide::Tools::load<Halide::Runtime::Buffer<>, record>(path, &raw)) {
        throw Error("cannot read " + path + ": " +
                    (io_message.empty() ? "unsupported format (use .npy or .png)" : io_message));
    }
    if (raw.type() != halide_type_of<uint8_t>() && raw.type() != halide_type_of<uint16_t>()) {
        throw Error(path + ": expected an 8- or 16-bit image");
    }
    // Integer pixels become floats in [0, 1]; a one-channel image is 2-D (x, y).
    const float scale = raw.type().bits == 8 ? 1.0f / 255.0f : 1.0f / 65535.0f;
    if (raw.dimensions() == 3 && raw.dim(2).extent() == 1) raw = raw.sliced(2, 0);
    std::vector<int> extents;
    for (int d = 0; d < raw.dimensions(); d++) extents.push_back(raw.dim(d).extent());
    Halide::Runtime::Buffer<float> img(extents);
    if (raw.type().bits == 8) {
        Halide::Runtime::Buffer<uint8_t> src(raw);
        img.for_each_element([&](const int *pos) { img(pos) = src(pos) * scale; });
    } else {
        Halide::Runtime::Buffer<uint16_t> src(raw);
        img.for_each_element([&](const int *pos) { img(pos) = src(pos) * scale; });
    }
    return img;
}

void write_array(Halide::Runtime::Buffer<float> &buf, const std::string &path) {
    io_message.clear();
    // Written beside the target under a temporary name with the same extension (which selects the
    // format), then renamed: the output file appears whole or not at all.
    const size_t dot = path.rfind('.');
    const std::string tmp = path + ".partial" + (dot == std::string::npos ? "" : path.substr(dot));
    // halide_image_io's save_npy writes without checking that the file opened (a crash on an
    // unwritable path in Halide 21), so open it here first.
    if (FILE *probe = std::fopen(tmp.c_str(), "wb")) {
        std::fclose(probe);
    } else {
        throw Error("cannot write " + path + ": " + std::strerror(errno));
    }
    bool ok;
    if (is_npy(path)) {
        Halide::Runtime::Buffer<> out(halide_type_of<float>(), reversed_extents(buf));
        std::memcpy(out.data(), buf.data(), buf.size_in_bytes());
        ok = Halide::Tools::save<Halide::Runtime::Buffer<>, record>(out, tmp);
        if (ok && !fix_npy_header(tmp)) {
            io_message = "could not finish the .npy header";
            ok = false;
        }
    } else {
        Halide::Runtime::Buffer<uint8_t> bytes(buf.width(), buf.height(),
                                               buf.dimensions() > 2 ? buf.channels() : 1);
        if (buf.dimensions() == 2) bytes = bytes.sliced(2, 0);
        bytes.for_each_element([&](const int *pos) {
            bytes(pos) =
                static_cast<uint8_t>(std::min(1.0f, std::max(0.0f, buf(pos))) * 255.0f + 0.5f);
        });
        ok = Halide::Tools::save<Halide::Runtime::Buffer<uint8_t>, record>(bytes, tmp);
    }
    if (!ok) {
        std::remove(tmp.c_str());
        throw Error("cannot write " + path + ": " +
                    (io_message.empty() ? "unsupported format (use .npy or .png)" : io_message));
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw Error("cannot write " + path + ": " + std::strerror(errno));
    }
}

}  // namespace fuselab::cli
