// The CPU's two ceilings, measured where the bench runs: the copy bandwidth (the denominator of
// a memory-bound workload's floor_us) and the fp32 FMA peak (the conv's arithmetic ceiling).
// Plain C++17, no Halide: the vector code is chosen at run time (AVX-512F, else AVX2 + FMA, else
// SSE2) through target attributes, so the file needs no -m flags and runs on any x86-64 machine
// (elsewhere it falls back to plain C++ loops).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace fuselab {

// fp32 FMA peak in GFLOP/s (2 flops per lane per FMA) on `threads` threads (0: all hardware
// threads), median of several runs. Each thread runs independent chains of vector FMAs on
// registers only (16 chains of 16 lanes with AVX-512F, 12 of 8 with AVX2 + FMA: more than
// latency x FMA ports on any current x86 core, so the chains never wait on each other), and the
// rate is the total flops over the wall time from a common start to the last thread's end.
// Assumes: the threads get a core each (threads <= cores, no other load), and the vector FMA is
// the widest fp32 multiply-add the core has (true of x86-64 through AVX-512; AMX is not fp32).
// Without FMA (SSE2 only) it times separate multiplies and adds, and counts each as one flop.
double fma_peak_gflops(int threads = 0);

// One copy method's figures (GB/s, read + written).
struct CopyMethod {
    std::string name;  // "memcpy", "vector_store" (aligned loads and stores), "vector_stream"
                       // (non-temporal stores: no read-for-ownership of the destination),
                       // "vector_stream4" (the same, each thread's slice as 4 parts side by
                       // side: 4 read and 4 write streams, more misses in flight a core)
    double median_gbs = 0, best_gbs = 0;
    int repeats = 0;
};
std::vector<CopyMethod> copy_methods(size_t bytes, int threads, int repeats = 11);

// The best copy this machine does, in GB/s counting bytes read plus bytes written (2 x `bytes`
// per copy): `threads` threads (0: all hardware threads) each copy one slice of a `bytes`-sized
// buffer into another, repeated; for each copy method the median over the repeats, and the best
// method's median is returned. The methods are copy_methods()'s. fuselab's default is a 2^24-float
// (64 MiB) buffer, past any L3 here, so this is DRAM bandwidth. `methods`, if given, receives
// every method's figures.
double copy_bandwidth_gbs(size_t bytes = size_t(1) << 26, int threads = 0,
                          std::vector<CopyMethod> *methods = nullptr);

// "avx512f", "avx2+fma", "sse2" or "generic": the code copy_methods and fma_peak_gflops run here
// (the environment's FUSELAB_PROBE_ISA=avx2|sse2|generic picks a narrower one, for testing).
std::string probe_isa();

}  // namespace fuselab
