// The storage types' values on the host: float16 and bfloat16 bits to float32 and back, rounded
// to nearest even, NaN kept NaN. Every float16 and bfloat16 value is a float32 value, so widening
// is exact and narrowing a widened value gives back its bits.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace fuselab {

inline uint32_t float_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
inline float bits_float(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

inline float bfloat16_to_float(uint16_t b) {
    return bits_float(uint32_t(b) << 16);
}
inline uint16_t float_to_bfloat16(float f) {
    const uint32_t u = float_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x40);  // a quiet NaN
    return uint16_t((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
}

inline float float16_to_float(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    if (e == 0) return std::copysign(float(m) * 0x1p-24f, sign ? -1.0f : 1.0f);  // subnormal, 0
    if (e == 31) return bits_float(sign | 0x7f800000u | (m << 13));              // inf, NaN
    return bits_float(sign | ((e + 112) << 23) | (m << 13));
}
inline uint16_t float_to_float16(float f) {
    const uint32_t u = float_bits(f), sign = (u >> 16) & 0x8000, a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return uint16_t(sign | 0x7e00);   // NaN
    if (a >= 0x477ff000u) return uint16_t(sign | 0x7c00);  // 65520 and up round to infinity
    if (a < 0x38800000u) {  // below 2^-14: a subnormal, in units of 2^-24 (exact scaling)
        return uint16_t(sign | uint32_t(std::nearbyint(bits_float(a) * 0x1p24f)));
    }
    return uint16_t(sign | ((a + 0x0fffu + ((a >> 13) & 1) - (112u << 23)) >> 13));
}

// v rounded to the storage type (dtype_type()'s names), as a float32 value.
inline float round_to(float v, const std::string &dtype) {
    if (dtype == "bfloat16") return bfloat16_to_float(float_to_bfloat16(v));
    if (dtype == "float16") return float16_to_float(float_to_float16(v));
    return v;
}

}  // namespace fuselab
