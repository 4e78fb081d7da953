// fuselab: list the compiled variants, bench them side by side, or run one on your own data.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <string>

#include "commands.h"
#include "fuselab/error.h"

namespace {

// An opt-in test fixture of the sanitizer build only (tests/CMakeLists.txt): with
// FUSELAB_TEST_PLANT=leak, every refused call leaks, so that the tests can prove a sanitizer report
// on a refusal path fails them.
int refused() {
#ifdef FUSELAB_SANITIZER_BUILD
    if (const char *plant = std::getenv("FUSELAB_TEST_PLANT");
        plant && std::string(plant) == "leak") {
        char *volatile leak = new char[64];
        leak[0] = 1;
        leak = nullptr;
    }
#endif
    return 1;
}

}  // namespace

int main(int argc, char **argv) {
    using namespace fuselab::cli;
    CLI::App app{"fuselab: fused Halide kernels, compared and shipped"};
    app.require_subcommand(1);

    ListOptions list;
    auto *list_cmd = app.add_subcommand("list", "List every compiled variant with its ledger");
    list_cmd->add_option("--target", list.target, "Only this target")
        ->check(CLI::IsMember({"cpu", "cuda"}));
    list_cmd->add_flag("--sizes", list.sizes,
                       "Instead, one line per variant and default bench size: PIPELINE SCHEDULE "
                       "TARGET SIZE");
    list_cmd->add_flag("--json", list.json,
                       "Instead, every variant as JSON: names, ledger, arguments, and each CUDA "
                       "kernel's registers, spills and shared memory");

    fuselab::BenchOptions bench;
    auto *bench_cmd = app.add_subcommand("bench", "Time every strategy side by side");
    bench_cmd->add_option("--target", bench.target, "cpu, cuda, or auto (cuda when usable)")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
    bench_cmd->add_option("--pipeline", bench.pipelines, "Only these pipelines (repeatable)");
    bench_cmd->add_option("--schedule", bench.schedules, "Only these schedules (repeatable)");
    bench_cmd->add_option("--dtype", bench.dtypes,
                          "Only these storage types: float32, bfloat16, float16 (repeatable)");
    bench_cmd->add_option("--size", bench.sizes,
                          "Sizes instead of the defaults (repeatable; N, NxM, WxH or WxHxCxK), for "
                          "--pipeline's pipelines, which must all take that format");
    bench_cmd->add_option("--json", bench.json, "Also write the results as JSON to this file");
    bench_cmd->add_option("--budget", bench.budget_s,
                          "Seconds of host timing (back-to-back batches) per variant and size");
    bench_cmd->add_option("--device-budget", bench.device_budget_s,
                          "Then, for CUDA variants, about this many seconds of calls timed one by "
                          "one with device events after an L2 flush (10 to 1000 calls)");
    auto *check = bench_cmd->add_flag(
        "--check,!--no-check", bench.check,
        "Check (the default, except with --once) or skip checking each output against the "
        "float64 reference");
    auto *once = bench_cmd->add_flag(
        "--once", bench.once,
        "Call each variant exactly once per size: no warm-up, no timing, no check unless "
        "--check (so that ncu over the process profiles one call)");
    bench_cmd->add_option("--peers", bench.peers,
                          "CPU runs: the command that times the CPU peers on the same inputs "
                          "(./fuselab bench passes \"PYTHON peers/cpu_peers.py\")");
    bench_cmd
        ->add_flag("--cupti", bench.cupti,
                   "After timing each CUDA variant, trace 5 more calls with CUPTI: kernels "
                   "launched and kernel-only GPU time per call, against the ledger")
        ->excludes(once);

    RunOptions run;
    auto *run_cmd = app.add_subcommand("run", "Run one variant on .npy (or PNG) files");
    run_cmd->add_option("pipeline", run.pipeline, "Pipeline name")->required();
    run_cmd->add_option("--schedule", run.schedule,
                        "Strategy name; without it, the strategy tuned or predicted fastest for "
                        "these inputs on this device (`fuselab tune` measures)");
    run_cmd->add_option("--target", run.target, "cpu, cuda, or auto")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
    run_cmd->add_option("--dtype", run.dtype,
                        "Storage type: float32, bfloat16 (.npy '<u2' of its bits) or float16 "
                        "('<f2'); without it, the input files' own");
    run_cmd->add_option("inputs", run.inputs, "Inputs as NAME=FILE")->required();
    run_cmd->add_option("-o,--output", run.outputs, "Outputs as NAME=FILE (repeatable)")
        ->required();

    TuneOptions tune;
    auto *tune_cmd = app.add_subcommand(
        "tune",
        "Time every strategy at the suite's shapes and record each winner for `run` "
        "and the Python package; or fit the cost model from bench JSON (--fit)");
    tune_cmd->add_option("--target", tune.target, "cpu, cuda, or auto")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
    tune_cmd->add_option("--pipeline", tune.pipelines, "Only these pipelines (repeatable)");
    tune_cmd->add_option("--size", tune.size, "One size instead of the defaults (one --pipeline)");
    tune_cmd->add_option("--budget", tune.budget_s, "Seconds of timing per strategy and size");
    tune_cmd->add_option("--fit", tune.fit,
                         "Instead: fit the cost model from these `fuselab bench --json` files, and "
                         "print how it chooses at each size left out of its fit");
    tune_cmd->add_flag("--record", tune.record, "With --fit: store each fit in the tuning file");
    tune_cmd->add_option("--models-out", tune.models_out,
                         "With --fit: write the fits to this file");
    tune_cmd->add_option("--measured-out", tune.measured_out,
                         "With --fit: write every device's measured shapes (each strategy's time) "
                         "to this file, for choose() (results/measured.json)");
    tune_cmd->add_option("--choice-out", tune.choice_out,
                         "With one --fit: write its table of choices (and fit) to this file");

    OverheadOptions overhead;
    auto *overhead_cmd = app.add_subcommand(
        "overhead",
        "Time the host cost of one add_relu call through each C++ layer (Halide's own "
        "call, fuselab::invoke, the lean call)");
    overhead_cmd->add_option("--target", overhead.target, "cpu, cuda, or auto")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
    overhead_cmd->add_option("--n", overhead.n, "add_relu's length")->check(CLI::PositiveNumber);
    overhead_cmd->add_option("--calls", overhead.calls, "Calls a sample")
        ->check(CLI::PositiveNumber);
    overhead_cmd->add_option("--repeats", overhead.repeats, "Samples")->check(CLI::PositiveNumber);
    overhead_cmd->add_option("--json", overhead.json, "Also write the records as JSON here");

    CLI11_PARSE(app, argc, argv);
    if (bench.once && check->count() == 0) bench.check = false;
    try {
        if (*list_cmd) return list_command(list);
        if (*bench_cmd) return fuselab::run_bench(bench);
        if (*run_cmd) return run_command(run);
        if (*overhead_cmd) return overhead_command(overhead);
        if (*tune_cmd) {
            if (!tune.size.empty() && tune.pipelines.size() != 1)
                throw fuselab::Error("tune --size needs exactly one --pipeline");
            if (!tune.choice_out.empty() && tune.fit.size() != 1)
                throw fuselab::Error("tune --choice-out needs exactly one --fit");
            return tune_command(tune);
        }
    } catch (const fuselab::Error &e) {
        std::cerr << "fuselab: error: " << e.what() << "\n";
        return refused();
    } catch (const std::exception &e) {
        std::cerr << "fuselab: error: " << e.what() << "\n";
        return refused();
    }
    return 0;
}
