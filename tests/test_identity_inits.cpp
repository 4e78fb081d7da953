// generators/support/fuselab/identity_inits.h, the lowering pass that folds a reduction's
// identity into its first update on CUDA, on hand-built statements: what it folds (a thread's own
// allocation stored as -inf, 0 or 1 and then updated), and what it must leave alone (storage that
// other threads share, an update inside a loop, a predicated store, a read elsewhere in between).
// And generators/storage.h's bfloat16 rounding on CUDA, whose NaN is capped instead of tested:
// JIT-compiled here for the host, against the host's round to nearest even.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "../generators/storage.h"
#include "../generators/support/fuselab/identity_inits.h"
#include "fuselab/dtype.h"

namespace {

using namespace Halide;
using namespace Halide::Internal;

const float kInf = std::numeric_limits<float>::infinity();

Expr load(const std::string &buf, Type t = Float(32)) {
    return Load::make(t, buf, 0, Buffer<>(), Parameter(), const_true(), ModulusRemainder());
}
Stmt store(const std::string &buf, Expr value, Expr predicate = const_true()) {
    return Store::make(buf, std::move(value), 0, Parameter(), std::move(predicate),
                       ModulusRemainder());
}
Stmt thread_loop(Stmt body) {
    return For::make("t", 0, 32, ForType::GPUThread, Partition::Auto, DeviceAPI::CUDA,
                     std::move(body));
}
Stmt allocate(const std::string &buf, MemoryType m, Stmt body) {
    return Allocate::make(buf, Float(32), m, {1}, const_true(), std::move(body));
}

// The values stored to `buf`, in order.
std::vector<Expr> stores_to(const Stmt &s, const std::string &buf) {
    struct V : IRVisitor {
        using IRVisitor::visit;
        const std::string &name;
        std::vector<Expr> values;
        explicit V(const std::string &n) : name(n) {}
        void visit(const Store *op) override {
            if (op->name == name) values.push_back(op->value);
            IRVisitor::visit(op);
        }
    } v(buf);
    s.accept(&v);
    return v.values;
}

Stmt fold(const Stmt &s) {
    return fuselab::IdentityInits().mutate(s);
}

// s = init; s = op(s, x); out = s, in a thread's own allocation.
Stmt reduction(const Expr &init, const Expr &update, MemoryType m = MemoryType::Register) {
    return thread_loop(allocate(
        "s", m, Block::make({store("s", init), store("s", update), store("out", load("s"))})));
}

TEST(IdentityInits, FoldsTheIdentityOfAMaxASumAndAProduct) {
    const Expr x = load("x");
    const std::vector<Expr> max_forms = {
        max(load("s"), x), max(x, load("s")),
        Call::make(Float(32), "__nv_fmaxf", {load("s"), x}, Call::PureExtern)};
    for (const Expr &update : max_forms) {
        const auto v = stores_to(fold(reduction(-kInf, update)), "s");
        ASSERT_EQ(v.size(), 2u);
        EXPECT_TRUE(equal(v[1], x)) << update << " became " << v[1];
    }
    EXPECT_TRUE(equal(stores_to(fold(reduction(0.0f, load("s") + x)), "s")[1], x));
    EXPECT_TRUE(equal(stores_to(fold(reduction(1.0f, load("s") * x)), "s")[1], x));
    EXPECT_TRUE(equal(stores_to(fold(reduction(kInf, min(load("s"), x))), "s")[1], x));
    // A constant that is not the identity is still forwarded: its update reads no memory.
    const auto v = stores_to(fold(reduction(2.0f, load("s") + x)), "s");
    EXPECT_TRUE(equal(v[1], Expr(2.0f) + x)) << v[1];
}

TEST(IdentityInits, LeavesWhatOtherThreadsShareOrALoopRepeats) {
    const Expr x = load("x");
    const Expr update = max(load("s"), x);
    // Shared memory: another thread may have written it between the two stores.
    auto v = stores_to(fold(reduction(-kInf, update, MemoryType::GPUShared)), "s");
    EXPECT_TRUE(equal(v[1], update));
    // An allocation made outside every thread loop.
    const Stmt outside = allocate(
        "s", MemoryType::Register,
        thread_loop(Block::make({store("s", -kInf), store("s", update), store("out", load("s"))})));
    v = stores_to(fold(outside), "s");
    EXPECT_TRUE(equal(v[1], update));
    // The update inside a loop runs more than once: only its first iteration follows the init.
    const Stmt loop =
        thread_loop(allocate("s", MemoryType::Register,
                             Block::make({store("s", -kInf),
                                          For::make("r", 0, 8, ForType::Serial, Partition::Auto,
                                                    DeviceAPI::None, store("s", update)),
                                          store("out", load("s"))})));
    v = stores_to(fold(loop), "s");
    EXPECT_TRUE(equal(v[1], update));
    // A predicated update may not run.
    const Stmt predicated = thread_loop(
        allocate("s", MemoryType::Register,
                 Block::make({store("s", -kInf), store("s", update, load("p", Bool()))})));
    v = stores_to(fold(predicated), "s");
    EXPECT_TRUE(equal(v[1], update));
    // A read of s in between ends the run (the update no longer follows the init alone).
    const Stmt read = thread_loop(
        allocate("s", MemoryType::Register,
                 Block::make({store("s", -kInf), store("peek", load("s")), store("s", update)})));
    v = stores_to(fold(read), "s");
    EXPECT_TRUE(equal(v[1], update));
}

// bfloat16 on CUDA (storage.h: narrow): every 256th float32 bit pattern that is a number, and
// PTX's canonical NaN, through the capped rounding.
TEST(BfloatOnCuda, RoundsToNearestEvenAndKeepsTheCanonicalNaN) {
    const Target cuda = get_host_target().with_feature(Target::CUDA);
    std::vector<uint32_t> bits;
    for (uint64_t b = 0; b <= 0xffffffffu; b += 256) {
        const uint32_t u = uint32_t(b) | uint32_t((b >> 8) & 0xff);  // low bits vary too
        float f;
        std::memcpy(&f, &u, 4);
        if (!std::isnan(f)) bits.push_back(u);
    }
    bits.push_back(0x7fffffffu);  // PTX's NaN, whose rounding would carry into -0
    bits.push_back(0x7fc00000u);
    Buffer<uint32_t> in(int(bits.size()));
    std::memcpy(in.data(), bits.data(), bits.size() * 4);
    Var i{"i"};
    Func g{"g"};
    g(i) = fuselab::narrow(reinterpret<float>(in(i)), UInt(16), cuda);
    g.vectorize(i, 16, TailStrategy::GuardWithIf);
    Buffer<uint16_t> out = g.realize({int(bits.size())}, get_host_target());
    int wrong = 0;
    for (size_t k = 0; k + 2 < bits.size(); ++k) {
        float f;
        std::memcpy(&f, &bits[k], 4);
        const uint16_t want = fuselab::float_to_bfloat16(f);
        if (out(int(k)) != want && ++wrong <= 5) {
            ADD_FAILURE() << std::hex << "0x" << bits[k] << " -> 0x" << out(int(k)) << ", want 0x"
                          << want;
        }
    }
    EXPECT_EQ(wrong, 0);
    for (size_t k = bits.size() - 2; k < bits.size(); ++k) {
        const uint16_t h = out(int(k));
        EXPECT_TRUE((h & 0x7f80) == 0x7f80 && (h & 0x7f) != 0)
            << std::hex << "0x" << bits[k] << " -> 0x" << h << ", not a NaN";
    }
}

}  // namespace
