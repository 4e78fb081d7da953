// The chunked form of the row pipelines (issue 30: rows too long for one multiprocessor): each row
// cut into chunks of C elements, one block a chunk. A first kernel reduces each chunk to partial
// statistics in global memory (a few floats a chunk); a second combines a row's partials and
// writes its chunks' outputs, reading x a second time. So a row of any length is spread over
// n / C blocks, where one block a row leaves the H200 with 256 busy blocks at N = 262144 and
// its three passes over the row past the L2.
//
// Every chunk is exactly C elements long: the last one starts at n - C and overlaps the one
// before it. So each chunk's reduction has a constant extent (no tail guards; 16-byte loads
// wherever the rows are aligned, n a multiple of the vector then too). The overlap's elements
// belong to the chunk before, and are masked out of the last chunk's sums (owns); a max may see
// them twice. Rows shorter than C are one chunk of n.
//
// The first kernel takes the rows in reverse order (part's row r holds row M - 1 - r), so that
// the rows it reads last, which the L2 still holds, are the ones the second kernel reads first
// (softmax and layernorm; rmsnorm_residual's first kernel also writes h, its rows in order).
#pragma once

#include "Halide.h"

namespace fuselab {

struct RowChunks {
    int size = 0;          // C: elements a chunk
    Halide::Expr n;        // the row's length
    Halide::Expr m;        // the rows
    bool reversed = true;  // the first kernel's rows in reverse order

    // The row of x that part's row r holds.
    Halide::Expr row_of(const Halide::Expr &r) const { return reversed ? m - 1 - r : r; }

    // Chunks a row: ceil(n / C).
    Halide::Expr count() const { return (n + size - 1) / size; }
    // The first element of chunk c's reduction (its own first is c * C).
    Halide::Expr start(const Halide::Expr &c) const {
        return Halide::min(c * size, Halide::max(n - size, 0));
    }
    // A chunk's reduction domain: min(n, C) elements from start(c).
    Halide::RDom domain(const std::string &name) const {
        return Halide::RDom(0, Halide::min(n, size), name);
    }
    // Element e of chunk c's reduction is c's own, not the chunk before's.
    Halide::Expr owns(const Halide::Expr &c, const Halide::Expr &e) const { return e >= c * size; }
    // The elements chunk c owns, as float32.
    Halide::Expr owned(const Halide::Expr &c) const {
        return Halide::cast<float>(Halide::min(n - c * size, size));
    }
};
}  // namespace fuselab
