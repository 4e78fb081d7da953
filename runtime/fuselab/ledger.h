// What the generated ledger code needs: the arguments' dimensions, and Halide's integer
// semantics (division and modulo round towards negative infinity).
#pragma once

#include <algorithm>
#include <cstdint>

namespace fuselab::detail {

struct ArgLookup {
    virtual ~ArgLookup() = default;
    virtual int64_t min(const char *arg, int dim) const = 0;
    virtual int64_t extent(const char *arg, int dim) const = 0;
    virtual int64_t stride(const char *arg, int dim) const = 0;
};

inline int64_t fdiv(int64_t a, int64_t b) {
    if (b == 0) return 0;  // Halide defines x / 0 == 0
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
inline int64_t fmod(int64_t a, int64_t b) {
    if (b == 0) return 0;
    int64_t r = a % b;
    return r < 0 ? r + (b < 0 ? -b : b) : r;
}
inline int64_t imin(int64_t a, int64_t b) {
    return std::min(a, b);
}
inline int64_t imax(int64_t a, int64_t b) {
    return std::max(a, b);
}
inline int64_t isel(int64_t c, int64_t a, int64_t b) {
    return c ? a : b;
}

}  // namespace fuselab::detail
