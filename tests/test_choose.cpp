// Choosing a pipeline's strategy (choose.h): from a tuning record, from the cost model, and past
// a corrupt file; the model's fit and its leave-one-out table.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>

#include "fuselab/choice.h"
#include "fuselab/choose.h"
#include "fuselab/error.h"
#include "fuselab/workloads.h"

namespace fuselab {
namespace {

// A tuning file of this test's own, removed afterwards.
class ChooseTest : public testing::Test {
protected:
    void SetUp() override {
        path_ = testing::TempDir() + "fuselab_choose_" + std::to_string(std::random_device{}()) + ".json";
        setenv("FUSELAB_TUNING_FILE", path_.c_str(), 1);
        unsetenv("FUSELAB_TUNE");
    }
    void TearDown() override {
        std::remove(path_.c_str());
        std::remove((path_ + ".lock").c_str());
        unsetenv("FUSELAB_TUNING_FILE");
    }
    std::string path_;
};

// A size of its own per test: choose() remembers its decisions per shape for the process.
TEST_F(ChooseTest, ModelChoosesAStrategyThatRunsAndIsRight) {
    const Workload &w = find_workload("add_relu");
    const Size size = {5003};
    Buffers b = make_buffers(w, size, 11);
    ChooseOptions opt;
    opt.target = "cpu";
    const Choice c = invoke("add_relu", bind(b), nullptr, opt);
    ASSERT_NE(c.variant, nullptr);
    EXPECT_EQ(std::string(c.variant->pipeline), "add_relu");
    EXPECT_TRUE(c.source == "model" || c.source == "only") << c.source;
    EXPECT_FALSE(c.reason.empty());
    const OutputCheck k = check_output(w, size, b.at("out"), w.reference(b, size).at("out"));
    EXPECT_TRUE(k.ok) << k.worst;
}

TEST_F(ChooseTest, TunedRecordIsReusedWithoutTiming) {
    const Workload &w = find_workload("pointwise_chain");
    const Size size = {5011};
    Buffers b = make_buffers(w, size, 12);
    TimingOptions fast;
    fast.budget_s = 0.01;
    fast.min_repeats = 2;
    const Choice tuned = tune("pointwise_chain", bind(b), "cpu", fast);
    EXPECT_EQ(tuned.source, "tuned now");
    std::ifstream in(path_);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find(std::string("\"winner\": \"") + tuned.variant->schedule), std::string::npos) << text;
    // Same shapes, new buffers: the record decides (FUSELAB_TUNE would not time again either).
    Buffers b2 = make_buffers(w, size, 13);
    setenv("FUSELAB_TUNE", "1", 1);
    ChooseOptions opt;
    opt.target = "cpu";
    const Choice again = choose("pointwise_chain", bind(b2), opt);
    unsetenv("FUSELAB_TUNE");
    EXPECT_EQ(again.variant, tuned.variant);
}

TEST_F(ChooseTest, CorruptFileIsIgnoredWithAWarning) {
    std::ofstream(path_) << "{\"fuselab_tuning\": 1, \"records\": [ this is not JSON";
    const Workload &w = find_workload("add_relu");
    const Size size = {5021};
    Buffers b = make_buffers(w, size, 14);
    ChooseOptions opt;
    opt.target = "cpu";
    testing::internal::CaptureStderr();
    const Choice c = choose("add_relu", bind(b), opt);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(c.source, "model");
    EXPECT_NE(err.find("ignoring the tuning file"), std::string::npos) << err;
}

TEST_F(ChooseTest, UnknownPipelineAndBadArgumentsNameThePipeline) {
    Buffers b = make_buffers(find_workload("add_relu"), {64}, 15);
    ChooseOptions opt;
    opt.target = "cpu";
    try {
        choose("no_such_pipeline", bind(b), opt);
        FAIL() << "no error";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("unknown pipeline 'no_such_pipeline'"), std::string::npos);
    }
    Bindings args = bind(b);
    args.erase("b");
    try {
        choose("add_relu", args, opt);
        FAIL() << "no error";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("add_relu (every strategy): "), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("missing input 'b'"), std::string::npos) << e.what();
    }
}

// The fit recovers a launch cost and a bandwidth it was given, and its leave-one-out pick.
TEST(CostModel, FitAndLeaveOneOut) {
    std::vector<Measured> rows;
    for (int e = 10; e <= 26; e += 4) {
        const double bytes = 12.0 * (1 << e);
        for (const auto &[schedule, kernels, slow] :
             {std::tuple<const char *, int, double>{"fused", 1, 1.0}, {"unfused", 2, 1.6}}) {
            Measured m;
            m.workload = "p";
            m.size = std::to_string(1 << e);
            m.schedule = schedule;
            m.sample = {"p", schedule, kernels, bytes, kernels * 4.0 + slow * bytes / 2e6};
            rows.push_back(m);
        }
    }
    std::vector<CostSample> samples;
    for (const Measured &m : rows) samples.push_back(m.sample);
    const CostModel model = CostModel::fit("test device", samples);
    EXPECT_NEAR(model.gbps, 2000, 200);
    EXPECT_GT(model.launch_us, 2);
    EXPECT_LT(model.launch_us, 6);
    for (const ChoiceRow &r : leave_one_out("test device", rows)) {
        EXPECT_EQ(r.predicted, "fused") << r.size;
        EXPECT_DOUBLE_EQ(r.regret, 1.0);
    }
    EXPECT_EQ(CostModel::from_json(model.to_json()).efficiency, model.efficiency);
}

}  // namespace
}  // namespace fuselab
