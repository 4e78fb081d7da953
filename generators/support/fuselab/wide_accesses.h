// wide_accesses: a custom lowering pass that makes Halide 21's PTX backend load and store 8- and
// 16-bit vectors of external buffers 16 bytes at a time, and widen bfloat16 vectors as words;
// float_max_num: one that compiles a float max to max.f32.
//
// Why: CodeGen_PTX_Dev's native vector is 64 bits, so CodeGen_LLVM cuts every wider load or
// store into 8-byte pieces with at most 8-byte alignment; only a 4 x 32-bit access is special-
// cased into one 128-bit one (CodeGen_PTX_Dev::visit(Load/Store), v21.0.0). A bfloat16 or
// float16 row read as 8 x UInt(16) therefore took two ld.global.nc.v4.b16 a vector, and its
// stores two st.global.v4.b16 (issue 30: every 16-bit row variant's PTX, 2026-12-02).
//
// What: after Halide's last simplification, a dense, unpredicated load of N x 8- or 16-bit lanes
// (N x bits a multiple of 32) from an input or output buffer, whose index is a multiple of the
// 32-bit word (the Load's own ModulusRemainder), becomes a load of the same bytes as 32-bit lanes
// reinterpreted back; a store likewise. Where the index is a multiple of 16 bytes, 4 x 32 bits
// is one 128-bit access. Internal allocations are left alone: Halide packs shared allocations
// of different types at offsets aligned to their own element size only. The buffers' alignment
// must be declared (set_host_alignment(16): the pass needs 4 bytes; fuselab's runtime refuses
// device views that are not 16-byte aligned), so a declared-unaligned buffer is never rewritten.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "Halide.h"

namespace fuselab {

class WideAccesses : public Halide::Internal::IRMutator {
    using IRMutator::visit;

    // The pipeline's output buffers by name: a later stage's load of an output (rmsnorm's
    // chunked form reads h back) carries no Parameter, only the output's name.
    std::map<std::string, Halide::Parameter> outputs_;

    const Halide::Parameter &buffer_of(const std::string &name,
                                       const Halide::Parameter &param) const {
        if (param.defined()) return param;
        const auto it = outputs_.find(name);
        return it == outputs_.end() ? param : it->second;
    }

    // The lanes of 32 bits that `t` x lanes fits, or 0 where it must stay as it is.
    static int words(const Halide::Type &t, const Halide::Internal::ModulusRemainder &align,
                     const Halide::Parameter &param) {
        const int bits = t.bits();
        if (!param.defined() || param.host_alignment() % 4 != 0) return 0;
        if ((bits != 8 && bits != 16) || t.lanes() * bits % 32 != 0) return 0;
        const int sub = 32 / bits;  // lanes a word
        if (align.modulus % sub != 0 || align.remainder % sub != 0) return 0;
        return t.lanes() / sub;
    }

    static Halide::Expr word_index(const Halide::Internal::Ramp *r, int sub, int n) {
        using namespace Halide;
        Expr base = Internal::simplify(r->base / sub);
        return n == 1 ? base : Internal::Ramp::make(base, 1, n);
    }

    Halide::Expr visit(const Halide::Internal::Load *op) override {
        using namespace Halide;
        Expr index = mutate(op->index);
        const auto *r = index.as<Internal::Ramp>();
        const int n =
            r && Internal::is_const_one(r->stride) && Internal::is_const_one(op->predicate)
                ? words(op->type, op->alignment, buffer_of(op->name, op->param))
                : 0;
        if (n == 0) {
            if (index.same_as(op->index)) return op;
            return Internal::Load::make(op->type, op->name, index, op->image, op->param,
                                        op->predicate, op->alignment);
        }
        const int sub = op->type.lanes() / n;
        Expr wide = Internal::Load::make(UInt(32, n), op->name, word_index(r, sub, n), op->image,
                                         op->param, Internal::const_true(n), op->alignment / sub);
        return reinterpret(op->type, wide);
    }

    // A bfloat16 vector widened to float32 (storage.h: widen, a widening_shift_left of N x
    // UInt(16) by 16 once lowered) becomes the same bytes as N / 2 32-bit words, each giving
    // its low value by a shift and its high one by a mask, interleaved: one instruction an
    // element, where the 16-bit lanes took two for every high value (PRMT, then IMAD; SASS of
    // softmax/staged_row_2k, 2026-12-03).
    Halide::Expr visit(const Halide::Internal::Call *op) override {
        using namespace Halide;
        Expr e = IRMutator::visit(op);
        const auto *c = e.as<Internal::Call>();
        if (!c || !c->is_intrinsic(Internal::Call::widening_shift_left)) return e;
        const Expr &a = c->args[0];
        const int n = a.type().lanes();
        if (a.type().element_of() != UInt(16) || n < 2 || n % 2 != 0 ||
            !Internal::is_const(c->args[1], 16)) {
            return e;
        }
        const Type w = UInt(32, n / 2);
        const auto *r = a.as<Internal::Reinterpret>();
        const Expr words = r && r->value.type() == w ? r->value : reinterpret(w, a);
        const Expr lo = words << Internal::make_const(w, 16);
        const Expr hi = words & Internal::make_const(w, 0xffff0000u);
        return Internal::Shuffle::make_interleave({lo, hi});
    }

    Halide::Internal::Stmt visit(const Halide::Internal::Store *op) override {
        using namespace Halide;
        Expr index = mutate(op->index), value = mutate(op->value);
        const auto *r = index.as<Internal::Ramp>();
        const int n =
            r && Internal::is_const_one(r->stride) && Internal::is_const_one(op->predicate)
                ? words(op->value.type(), op->alignment, op->param)
                : 0;
        if (n == 0) {
            if (index.same_as(op->index) && value.same_as(op->value)) return op;
            return Internal::Store::make(op->name, value, index, op->param, op->predicate,
                                         op->alignment);
        }
        const int sub = op->value.type().lanes() / n;
        return Internal::Store::make(op->name, reinterpret(UInt(32, n), value),
                                     word_index(r, sub, n), op->param, Internal::const_true(n),
                                     op->alignment / sub);
    }

public:
    explicit WideAccesses(std::map<std::string, Halide::Parameter> outputs = {})
        : outputs_(std::move(outputs)) {}
};

// A float max as PTX's max.f32 (libdevice's __nv_fmaxf: one FMNMX), where Halide 21 compiles
// max(a, b) to a > b ? a : b (two instructions, FSETP and FSEL). max.f32 returns the other
// operand where one is NaN, so only a pipeline that keeps a NaN some other way may use it
// (softmax: the NaN element's x - max is NaN whatever the max is).
class FloatMaxNum : public Halide::Internal::IRMutator {
    using IRMutator::visit;

    Halide::Expr visit(const Halide::Internal::Max *op) override {
        using namespace Halide;
        Expr a = mutate(op->a), b = mutate(op->b);
        if (op->type.element_of() != Float(32)) return Internal::Max::make(a, b);
        return Internal::Call::make(op->type, "__nv_fmaxf", {a, b}, Internal::Call::PureExtern);
    }
};

// Adds FloatMaxNum to a generator's pipeline where its target is CUDA (call after the schedule).
template <typename G>
void float_max_num(G &g, const Halide::Target &target) {
    if (target.has_feature(Halide::Target::CUDA)) {
        g.get_pipeline().add_custom_lowering_pass(new FloatMaxNum);
    }
}

// Adds the pass to a generator's pipeline, where its target is CUDA (call from schedule()).
template <typename G>
void wide_accesses(G &g, const Halide::Target &target) {
    if (target.has_feature(Halide::Target::CUDA)) {
        std::map<std::string, Halide::Parameter> outputs;
        for (const Halide::Func &f : g.get_pipeline().outputs()) {
            for (const Halide::OutputImageParam &b : f.output_buffers()) {
                outputs[b.name()] = b.parameter();
            }
        }
        g.get_pipeline().add_custom_lowering_pass(new WideAccesses(std::move(outputs)));
    }
}

}  // namespace fuselab
