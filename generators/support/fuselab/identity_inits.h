// identity_inits: a custom lowering pass that folds a reduction's identity into its first update
// on CUDA, where neither Halide nor LLVM does.
//
// Why: every statistic of a row (a max, a sum, their rfactored partials at each level: a lane's
// vector, the lane, the lanes' tree) is stored as its identity and then updated, `s = -inf;
// s = max(s, x0); ...`. Once lowered and unrolled, the first update is max(-inf, x0), which LLVM
// keeps: the max is libdevice's fmaxf (max.f32, FloatMaxNum), which answers -inf for a NaN x0,
// and 0 + x0 is not x0 for x0 = -0 without the no-signed-zeros flag that Halide 21 leaves off. So
// each level cost an instruction a value: at N = 256 in softmax's register form (8 elements a
// lane), 22 of the 182 instructions of a lane's row (SASS of softmax/warp_regs_1k, bfloat16).
//
// What: in a straight run of statements (through Blocks, produce/consume nodes and lets), a
// store of a constant to a thread's own allocation, followed by a store to the same place whose
// value reads that place, becomes that store with the constant in place of the read, and
// max(-inf, e), min(inf, e), 0 + e and 1 * e become e. Only allocations made inside a GPU
// thread or lane loop are touched (no other thread writes them), and anything else that touches
// the allocation in between (a loop, a branch, another store) ends the run. The first store is
// left for LLVM, which removes it once nothing reads it.
//
// What it changes: a NaN now reaches a max that fmaxf would have dropped at the first element,
// which the row pipelines allow (softmax keeps a NaN through x - max, whatever the max is), and a
// sum of -0 alone is -0, not +0.
#pragma once

#include <limits>
#include <map>
#include <string>
#include <vector>

#include "Halide.h"

namespace fuselab {

class IdentityInits : public Halide::Internal::IRMutator {
    using IRMutator::visit;
    using Expr = Halide::Expr;
    using Stmt = Halide::Internal::Stmt;

    int thread_depth_ = 0;  // GPU thread and lane loops around the current node
    // The allocations in scope, each true where it was made inside such a loop in a thread's own
    // memory (a name is bound where its Allocate is, so a name reused elsewhere is looked up anew).
    Halide::Internal::Scope<bool> private_;
    struct Pending {
        Expr index, value;
    };

    static bool is_float_const(const Expr &e, double v) {
        using namespace Halide::Internal;
        const auto *b = e.as<Broadcast>();
        const auto *f = (b ? b->value : e).as<FloatImm>();
        return f && f->value == v;
    }

    // e with its top-level identity operation removed, where one operand is that identity.
    static Expr fold(const Expr &e) {
        using namespace Halide::Internal;
        const double inf = std::numeric_limits<double>::infinity();
        if (const auto *op = e.as<Max>()) {
            if (is_float_const(op->a, -inf)) return op->b;
            if (is_float_const(op->b, -inf)) return op->a;
        } else if (const auto *op = e.as<Min>()) {
            if (is_float_const(op->a, inf)) return op->b;
            if (is_float_const(op->b, inf)) return op->a;
        } else if (const auto *op = e.as<Add>()) {
            if (is_const(op->a, 0)) return op->b;
            if (is_const(op->b, 0)) return op->a;
        } else if (const auto *op = e.as<Mul>()) {
            if (is_const(op->a, 1)) return op->b;
            if (is_const(op->b, 1)) return op->a;
        } else if (const auto *op = e.as<Call>()) {
            if (op->name == "__nv_fmaxf" && op->args.size() == 2) {
                if (is_float_const(op->args[0], -inf)) return op->args[1];
                if (is_float_const(op->args[1], -inf)) return op->args[0];
            }
        }
        return e;
    }

    // The loads of `name` in e, by index.
    class Loads : public Halide::Internal::IRVisitor {
        using IRVisitor::visit;
        const std::string &name_;
        void visit(const Halide::Internal::Load *op) override {
            if (op->name == name_) found.push_back(op);
            IRVisitor::visit(op);
        }

    public:
        std::vector<const Halide::Internal::Load *> found;
        explicit Loads(const std::string &name) : name_(name) {}
    };

    // Replaces the one load of `name` at `index` by `value`.
    class Replace : public Halide::Internal::IRMutator {
        using IRMutator::visit;
        const std::string &name_;
        const Expr &value_;
        Expr visit(const Halide::Internal::Load *op) override {
            if (op->name == name_) return value_;
            return IRMutator::visit(op);
        }

    public:
        Replace(const std::string &name, const Expr &value) : name_(name), value_(value) {}
    };

    // Whether n loads or stores `name`.
    class Uses : public Halide::Internal::IRVisitor {
        using IRVisitor::visit;
        const std::string &name_;
        void visit(const Halide::Internal::Load *op) override {
            found = found || op->name == name_;
            IRVisitor::visit(op);
        }
        void visit(const Halide::Internal::Store *op) override {
            found = found || op->name == name_;
            IRVisitor::visit(op);
        }
        void visit(const Halide::Internal::Variable *op) override {
            found = found || op->name == name_;  // a buffer passed whole
        }

    public:
        bool found = false;
        explicit Uses(const std::string &name) : name_(name) {}
    };
    static bool uses(const Halide::Internal::IRNode *n, const std::string &name) {
        Uses u(name);
        n->accept(&u);
        return u.found;
    }
    static void forget_used(const Halide::Internal::IRNode *n, std::map<std::string, Pending> &p) {
        for (auto it = p.begin(); it != p.end();)
            it = uses(n, it->first) ? p.erase(it) : std::next(it);
    }

    // The statements of a straight run, in order, through nested Blocks.
    static void flatten(const Stmt &s, std::vector<Stmt> &out) {
        if (const auto *b = s.as<Halide::Internal::Block>()) {
            flatten(b->first, out);
            flatten(b->rest, out);
        } else {
            out.push_back(s);
        }
    }

    // Folds the pending constants of `pending` into the run `s`, mutating what lies deeper.
    Stmt run(const Stmt &s, std::map<std::string, Pending> &pending) {
        using namespace Halide::Internal;
        std::vector<Stmt> stmts;
        flatten(s, stmts);
        for (Stmt &t : stmts) t = step(t, pending);
        return Block::make(stmts);
    }

    Stmt step(const Stmt &t, std::map<std::string, Pending> &pending) {
        using namespace Halide::Internal;
        if (const auto *st = t.as<Store>()) {
            Expr value = st->value;
            const auto it = pending.find(st->name);
            if (it != pending.end() && is_const_one(st->predicate) &&
                equal(it->second.index, st->index)) {
                Loads loads(st->name);
                value.accept(&loads);
                if (loads.found.size() == 1 && equal(loads.found[0]->index, st->index) &&
                    loads.found[0]->type == it->second.value.type()) {
                    value = fold(Replace(st->name, it->second.value).mutate(value));
                }
            }
            forget_used(t.get(), pending);
            const bool *mine = private_.find(st->name);
            if (mine && *mine && is_const_one(st->predicate) && is_const(st->value)) {
                pending[st->name] = {st->index, st->value};
            }
            if (value.same_as(st->value)) return t;
            return Store::make(st->name, value, st->index, st->param, st->predicate, st->alignment);
        }
        if (const auto *pc = t.as<ProducerConsumer>()) {
            return ProducerConsumer::make(pc->name, pc->is_producer, run(pc->body, pending));
        }
        if (const auto *let = t.as<LetStmt>()) {
            forget_used(let->value.get(), pending);
            return LetStmt::make(let->name, let->value, run(let->body, pending));
        }
        // Anything else ends the run for what it touches, and starts its own runs inside.
        forget_used(t.get(), pending);
        return mutate(t);
    }

    Stmt visit(const Halide::Internal::Block *op) override {
        std::map<std::string, Pending> pending;
        return run(op, pending);
    }

    Stmt visit(const Halide::Internal::For *op) override {
        using Halide::Internal::ForType;
        const bool thread = op->for_type == ForType::GPUThread || op->for_type == ForType::GPULane;
        thread_depth_ += thread;
        Stmt s = IRMutator::visit(op);
        thread_depth_ -= thread;
        return s;
    }

    Stmt visit(const Halide::Internal::Allocate *op) override {
        using Halide::MemoryType;
        const MemoryType m = op->memory_type;
        const bool mine = thread_depth_ > 0 && (m == MemoryType::Auto || m == MemoryType::Stack ||
                                                m == MemoryType::Register);
        Halide::Internal::ScopedBinding<bool> bind(private_, op->name, mine);
        return IRMutator::visit(op);
    }
};

// Adds IdentityInits to a generator's pipeline where its target is CUDA (call after the schedule).
template <typename G>
void identity_inits(G &g, const Halide::Target &target) {
    if (target.has_feature(Halide::Target::CUDA)) {
        g.get_pipeline().add_custom_lowering_pass(new IdentityInits);
    }
}

}  // namespace fuselab
