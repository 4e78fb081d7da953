// Variants called from several host threads at once (README, "What is safe to call
// concurrently"): the same variant and different ones, CPU and CUDA, every result checked against
// float64 on fresh inputs of its own.
#include <gtest/gtest.h>

#include "require_cuda.h"

#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "fuselab/device.h"
#include "fuselab/error.h"
#include "fuselab/registry.h"
#include "fuselab/workloads.h"

namespace fuselab {
namespace {

struct Job {
    const char *pipeline, *schedule;
    Size size;
};

// Each thread runs its jobs `rounds` times, each time on new inputs; returns the failures.
std::vector<std::string> run_threads(const std::string &target,
                                     const std::vector<std::vector<Job>> &per_thread, int rounds) {
    std::vector<std::string> failures;
    std::mutex m;
    std::vector<std::thread> threads;
    for (size_t t = 0; t < per_thread.size(); t++) {
        threads.emplace_back([&, t] {
            std::mt19937_64 seeds(std::random_device{}());
            for (int r = 0; r < rounds; r++) {
                for (const Job &j : per_thread[t]) {
                    std::string what = std::string(j.pipeline) + "/" + j.schedule + "/" +
                                             target + " " + format_size(j.size) + " thread " +
                                             std::to_string(t);
                    try {
                        const Workload &w = find_workload(j.pipeline);
                        const Variant &v = find_variant(j.pipeline, j.schedule, target);
                        const uint64_t seed = seeds();
                        what += " seed " + std::to_string(seed);
                        Buffers buffers = make_buffers(w, j.size, seed);
                        const RefBuffers ref = w.reference(buffers, j.size);
                        invoke(v, bind(buffers));
                        for (const auto &[name, expected] : ref) {
                            auto &out = buffers.at(name);
                            out.copy_to_host();
                            const OutputCheck c = check_output(w, j.size, out, expected);
                            if (!c.ok) {
                                std::lock_guard<std::mutex> lock(m);
                                failures.push_back(what + ": " + name + " error " +
                                                   std::to_string(c.rel_err) + " " + c.worst);
                            }
                        }
                    } catch (const Error &e) {
                        std::lock_guard<std::mutex> lock(m);
                        failures.push_back(what + ": " + e.what());
                    }
                }
            }
        });
    }
    for (std::thread &t : threads) t.join();
    return failures;
}

// Four threads: two on the same variant, two mixing others, sizes that straddle tiles.
std::vector<std::vector<Job>> mixed_jobs() {
    const Job add = {"add_relu", "fused", {100003}};
    const Job chain = {"pointwise_chain", "unfused", {65537}};
    const Job conv = {"conv_relu_pool", "tiled", {67, 41, 3, 16}};
    const Job blur = {"blur3x3", "inline", {301, 97}};
    const Job stencil = {"stencil_chain_k4", "tiled", {129, 65}};
    return {{add, add}, {add, conv}, {chain, blur, conv}, {stencil, add, chain}};
}

TEST(Concurrency, CpuVariantsFromSeveralThreads) {
    for (const std::string &f : run_threads("cpu", mixed_jobs(), 8)) ADD_FAILURE() << f;
}

TEST(Concurrency, CudaVariantsFromSeveralThreads) {
    FUSELAB_REQUIRE_CUDA_DEVICE("");
    for (const std::string &f : run_threads("cuda", mixed_jobs(), 8)) ADD_FAILURE() << f;
}

TEST(Concurrency, CpuAndCudaAtOnce) {
    FUSELAB_REQUIRE_CUDA_DEVICE("");
    std::vector<std::string> cpu_failures, cuda_failures;
    std::thread cpu([&] { cpu_failures = run_threads("cpu", mixed_jobs(), 4); });
    std::thread cuda([&] { cuda_failures = run_threads("cuda", mixed_jobs(), 4); });
    cpu.join();
    cuda.join();
    for (const std::string &f : cpu_failures) ADD_FAILURE() << f;
    for (const std::string &f : cuda_failures) ADD_FAILURE() << f;
}

}  // namespace
}  // namespace fuselab
