// The memory checks of a call that both validate() and the lean call (call_plan.h) make: plain
// integer work on a halide_buffer_t, no allocation.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <utility>

#include "HalideRuntime.h"

namespace fuselab::detail {

// The byte offsets [lo, hi] of the buffer's first and last elements from its base pointer.
inline std::pair<int64_t, int64_t> byte_span(const halide_buffer_t *b) {
    int64_t lo = 0, hi = 0;
    for (int d = 0; d < b->dimensions; d++) {
        const int64_t reach = int64_t(b->dim[d].extent - 1) * b->dim[d].stride;
        (reach < 0 ? lo : hi) += reach;
    }
    const int64_t elem = b->type.bytes();
    return {lo * elem, hi * elem + elem - 1};
}

inline bool spans_overlap(uint64_t a, const halide_buffer_t *ab, uint64_t b,
                          const halide_buffer_t *bb) {
    const auto [alo, ahi] = byte_span(ab);
    const auto [blo, bhi] = byte_span(bb);
    const int64_t a0 = int64_t(a) + alo, a1 = int64_t(a) + ahi;
    const int64_t b0 = int64_t(b) + blo, b1 = int64_t(b) + bhi;
    return a0 <= b1 && b0 <= a1;
}

// Whether two elements of the buffer share memory: sorted by |stride|, each dimension must step
// past everything the smaller ones reach. Ranks past 16 (more than Halide's generators take)
// count as overlapping, so that validate() words them.
inline bool self_overlapping(const halide_buffer_t *b) {
    constexpr int kMax = 16;
    if (b->dimensions > kMax) return true;
    int64_t stride[kMax], extent[kMax];
    int n = 0;
    for (int d = 0; d < b->dimensions; d++) {
        if (b->dim[d].extent <= 1) continue;
        // Insertion by |stride|: ranks are small.
        const int64_t s = std::llabs(int64_t(b->dim[d].stride));
        int k = n++;
        for (; k > 0 && stride[k - 1] > s; k--)
            stride[k] = stride[k - 1], extent[k] = extent[k - 1];
        stride[k] = s, extent[k] = b->dim[d].extent;
    }
    int64_t reach = 0;
    for (int k = 0; k < n; k++) {
        if (stride[k] <= reach) return true;
        reach += stride[k] * (extent[k] - 1);
    }
    return false;
}

}  // namespace fuselab::detail
