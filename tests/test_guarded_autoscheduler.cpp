// fuselab_guarded (generators/support/fuselab/guarded_autoscheduler.h) over a stand-in base
// autoscheduler that gives every stage RoundUp tails, as Anderson2021 does to the stages that
// neither read the input nor write the output: no RoundUp is left, the schedule source says
// GuardWithIf, the pipeline still computes the right values at a size that is no multiple of the
// tiles, and a missing base is an error in words.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "fuselab/guarded_autoscheduler.h"

namespace {

using namespace Halide;

// A Func's name without Halide's uniquifying suffix ("a$1": the second Chain's a).
std::string base_name(const std::string &n) {
    return n.substr(0, n.find('$'));
}

// The intermediates a and b at root, split by 8 with RoundUp; the output with ShiftInwards (as
// Anderson2021 does a stage that writes the output).
void round_up_everything(const Pipeline &p, const Target &, const AutoschedulerParams &,
                         AutoSchedulerResults *results) {
    std::vector<Internal::Function> outputs;
    for (const Func &f : p.outputs()) outputs.push_back(f.function());
    std::string src;
    for (auto &kv : Internal::build_environment(outputs)) {
        const std::string name = base_name(kv.first);
        if (name != "a" && name != "b" && name != "out") continue;
        Func f(kv.second);
        Var x = f.args()[0], xo{"xo"}, xi{"xi"};
        const bool output = name == "out";
        if (!output) f.compute_root();
        f.split(x, xo, xi, 8, output ? TailStrategy::ShiftInwards : TailStrategy::RoundUp);
        src += kv.first +
               ".split(x, xo, xi, 8, TailStrategy::" + (output ? "ShiftInwards" : "RoundUp") +
               ");\n";
    }
    results->schedule_source = src;
}

const bool registered = [] {
    Pipeline::add_autoscheduler("fuselab_test_round_up", round_up_everything);
    return true;
}();

struct Chain {
    ImageParam in{Float(32), 1, "in"};
    Var x{"x"};
    Func a{"a"}, b{"b"}, out{"out"};
    Chain() {
        a(x) = in(x)*2.0f;
        b(x) = a(x) + a(x + 1);
        out(x) = b(x) + b(x + 1);
        out.output_buffer().dim(0).set_bounds(0, in.dim(0).extent() - 2);
    }
    // The tails of a's and b's splits, and of out's.
    std::vector<TailStrategy> tails(const std::string &name) const {
        std::vector<TailStrategy> t;
        for (auto &kv : Internal::build_environment({out.function()})) {
            if (kv.second.name() != (name == "a" ? a : name == "b" ? b : out).name()) continue;
            for (const Internal::Split &s : kv.second.definition().schedule().splits())
                t.push_back(s.tail);
        }
        return t;
    }
};

TEST(GuardedAutoscheduler, BaseAloneLeavesRoundUp) {  // the stand-in does what the guard undoes
    ASSERT_TRUE(registered);
    Chain c;
    Pipeline(c.out).apply_autoscheduler(get_host_target(), {"fuselab_test_round_up"});
    for (const char *f : {"a", "b"}) {
        EXPECT_EQ(c.tails(f), std::vector<TailStrategy>{TailStrategy::RoundUp}) << f;
    }
}

TEST(GuardedAutoscheduler, RoundUpBecomesGuardWithIf) {
    Chain c;
    AutoSchedulerResults r = Pipeline(c.out).apply_autoscheduler(
        get_host_target(), {"fuselab_guarded", {{"base", "fuselab_test_round_up"}}});
    for (const char *f : {"a", "b"}) {
        EXPECT_EQ(c.tails(f), std::vector<TailStrategy>{TailStrategy::GuardWithIf}) << f;
    }
    EXPECT_EQ(c.tails("out"), std::vector<TailStrategy>{TailStrategy::ShiftInwards});
    EXPECT_EQ(r.schedule_source.find("RoundUp tail made GuardWithIf"),
              r.schedule_source.find("RoundUp"));
    EXPECT_EQ(r.schedule_source.find("TailStrategy::RoundUp"), std::string::npos);
    EXPECT_NE(r.schedule_source.find("TailStrategy::GuardWithIf"), std::string::npos);
    EXPECT_EQ(r.autoscheduler_params.name, "fuselab_guarded");

    // 13 outputs: no multiple of the tiles. Fresh random input, output poisoned first.
    Buffer<float> in(15), out(13);
    std::srand(unsigned(std::time(nullptr)));
    for (int i = 0; i < 15; i++) in(i) = float(std::rand()) / float(RAND_MAX) - 0.5f;
    out.fill(NAN);
    c.in.set(in);
    c.out.realize(out);
    for (int i = 0; i < 13; i++) {
        const float expect = 2 * (in(i) + 2 * in(i + 1) + in(i + 2));
        EXPECT_NEAR(out(i), expect, 1e-5f) << "at " << i;
    }
}

TEST(GuardedAutoscheduler, MissingBaseSaysSo) {
    Chain c;
    try {
        Pipeline(c.out).apply_autoscheduler(get_host_target(), {"fuselab_guarded"});
        FAIL() << "no error without autoscheduler.base";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("autoscheduler.base"), std::string::npos) << e.what();
    }
}

}  // namespace
