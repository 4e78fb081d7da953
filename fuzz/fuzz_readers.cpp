// libFuzzer target over fuselab's file readers (io/io.cpp). Every input goes, through
// fmemopen, to both read_npy and read_png: each must either return an array or throw
// fuselab::Error, never crash, leak or trip a sanitizer. Whatever reads must also round-trip:
// written as .npy and read back, bit for bit the same; an image written as PNG (8-bit) and read
// back, the same to within 8-bit quantization (exactly, for an 8-bit source).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fuselab/error.h"
#include "fuselab/io.h"

namespace {

using fuselab::read_npy;
using fuselab::read_png;
using Halide::Runtime::Buffer;

[[noreturn]] void die(const char *what, const std::string &detail) {
    std::fprintf(stderr, "fuzz_readers: %s: %s\n", what, detail.c_str());
    std::abort();
}

bool same_shape(const Buffer<float> &a, const Buffer<float> &b) {
    if (a.dimensions() != b.dimensions()) return false;
    for (int d = 0; d < a.dimensions(); d++) {
        if (a.dim(d).extent() != b.dim(d).extent()) return false;
    }
    return true;
}

// Writes `buf` with `write` into memory, then reads it back with `read`.
template <typename Write, typename Read>
Buffer<float> round_trip(const Buffer<float> &buf, Write write, Read read, const char *what) {
    char *data = nullptr;
    size_t size = 0;
    FILE *out = open_memstream(&data, &size);
    if (!out) die("open_memstream", what);
    try {
        write(buf, out, std::string("round-trip.") + what);
    } catch (const fuselab::Error &e) {
        std::fclose(out);
        std::free(data);
        die("writing what was read failed", e.what());
    }
    std::fclose(out);
    FILE *in = fmemopen(data, size, "rb");
    if (!in) die("fmemopen", what);
    Buffer<float> back;
    try {
        back = read(in, std::string("round-trip.") + what);
    } catch (const fuselab::Error &e) {
        std::fclose(in);
        std::free(data);
        die("reading back what was written failed", e.what());
    }
    std::fclose(in);
    std::free(data);
    if (!same_shape(buf, back)) die("round trip changed the shape", what);
    return back;
}

void check_npy_round_trip(const Buffer<float> &buf) {
    const Buffer<float> back = round_trip(
        buf, [](const Buffer<float> &b, FILE *f, const std::string &n) { fuselab::write_npy(b, f, n); },
        [](FILE *f, const std::string &n) { return read_npy(f, n); }, "npy");
    if (std::memcmp(buf.data(), back.data(), buf.size_in_bytes()) != 0) {
        die("the .npy round trip changed values", "");
    }
}

// A float16 or bfloat16 file, widened: written back in its type, it reads as the same values
// (a NaN as a NaN: narrowing quiets it).
void check_typed_round_trip(const Buffer<float> &buf, const std::string &dtype) {
    std::string again;
    const Buffer<float> back = round_trip(
        buf,
        [&](const Buffer<float> &b, FILE *f, const std::string &n) { fuselab::write_npy(b, f, n, dtype); },
        [&](FILE *f, const std::string &n) { return read_npy(f, n, &again); }, "npy");
    if (again != dtype) die("the typed .npy round trip changed the type", dtype + " -> " + again);
    const float *a = buf.data(), *b = back.data();
    for (size_t i = 0; i < buf.number_of_elements(); i++) {
        if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i]))))
            die("the typed .npy round trip changed a value", dtype);
    }
}

void check_png_round_trip(const Buffer<float> &buf) {
    const Buffer<float> back = round_trip(
        buf, fuselab::write_png, [](FILE *f, const std::string &n) { return read_png(f, n); }, "png");
    const float *a = buf.data(), *b = back.data();
    for (size_t i = 0; i < buf.number_of_elements(); i++) {
        // PNG samples read as k / 255 or k / 65535: 8 bits hold them within half a step.
        if (!(std::fabs(a[i] - b[i]) <= 0.5f / 255.0f + 1e-6f)) {
            die("the PNG round trip changed a value by more than 8-bit quantization",
                std::to_string(a[i]) + " -> " + std::to_string(b[i]));
        }
        if (std::round(a[i] * 255.0f) / 255.0f == a[i] && a[i] != b[i]) {
            die("an 8-bit value did not survive the PNG round trip", std::to_string(a[i]));
        }
    }
}

template <typename Read>
bool try_read(const uint8_t *data, size_t size, Read read, Buffer<float> *out) {
    FILE *f = fmemopen(const_cast<uint8_t *>(data), size, "rb");
    if (!f) die("fmemopen", "input");
    bool ok = true;
    try {
        *out = read(f, "input");
    } catch (const fuselab::Error &e) {
        if (std::strncmp(e.what(), "cannot read input: ", 19) != 0) die("unnamed error", e.what());
        ok = false;
    }
    std::fclose(f);
    return ok;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;  // fmemopen refuses an empty buffer on older C libraries
    Buffer<float> buf;
    if (try_read(data, size, [](FILE *f, const std::string &n) { return read_npy(f, n); }, &buf))
        check_npy_round_trip(buf);
    std::string dtype;
    if (try_read(data, size, [&](FILE *f, const std::string &n) { return read_npy(f, n, &dtype); }, &buf)) {
        if (dtype == "float32") {
            check_npy_round_trip(buf);
        } else {
            check_typed_round_trip(buf, dtype);
        }
    }
    if (try_read(data, size, [](FILE *f, const std::string &n) { return read_png(f, n); }, &buf)) {
        if (buf.dimensions() != 2 && buf.dimensions() != 3) die("a PNG read as rank", "");
        check_npy_round_trip(buf);
        check_png_round_trip(buf);
    }
    return 0;
}
