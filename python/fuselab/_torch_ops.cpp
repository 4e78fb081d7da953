// The torch ops' C++ kernels (issue 28): torch.ops.fuselab.<op> on CPU and CUDA tensors without
// entering Python. fuselab/_torch_ext.py compiles this file with torch.utils.cpp_extension on
// first use (cached) and loads it with torch.ops.load_library; torch_ops.py then defines each
// op's schema and fake in Python, as before, and hands its CPU, CUDA and Autograd kernels to
// register_op below.
//
// A call takes the fast path when it is the common case: every input a dense-typed tensor
// (float32, bfloat16 or float16) with elements, on the device of the variant's target, at most
// 8-D; a row pipeline's x of any rank ([*, N], flattened as torch.reshape does); a pipeline whose
// strategy is already known for these inputs' devices, types, sizes and strides. It reads the
// tensors' pointers, sizes and strides, allocates the outputs with at::empty, takes the current
// stream from c10 and calls fuselab_invoke (libfuselab.so, the same instance ctypes loaded: its
// address comes from init()). Anything else, and any call the runtime refuses, goes to the op's
// Python twin torch.ops.fuselab._py__<op> (torch_ops.py: the kernel that ran before this file
// existed), which makes every decision and words every error as it always did; the runtime
// refuses before it writes anything, so running the call again there is safe.
//
// The Autograd kernel: where no input needs a gradient, the call goes below autograd at once (a
// plain call, with only the device's kernel below, straight into the fast path). Where one
// does, the outputs get a gradient function whose backward calls torch.ops.fuselab._no_backward,
// which raises fuselab.Error naming the op (the ops are inference-only); a compiled backward
// graph holds that op and raises when it runs.
//
// fuselab.kernel's calls on torch tensors come in through the CPython functions at the end of
// this file (the same library imported as a Python module), or the fuselab_ext ops where it
// was built without Python's headers.
#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <c10/util/SmallVector.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/functions/utils.h>
#include <torch/library.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "fuselab_c.h"

namespace {

using Stack = torch::jit::Stack;
using InvokeFn = int (*)(int, int, const fuselab_arg *, void *, char *, size_t);
using ShapesFn = int (*)(const char *, int, const fuselab_arg *, char *, size_t, char *, size_t);

std::atomic<InvokeFn> g_invoke{nullptr};
std::atomic<ShapesFn> g_shapes{nullptr};

constexpr int kMaxArgs = 16, kMaxRank = 8;
// register_op's flags; bits kRowArgs and up: which inputs of a row pipeline are [M, N] rows.
enum Flags : int64_t { kRows = 1, kSlowOnly = 2, kCuda = 4, kPipeline = 8 };
constexpr int kRowArgs = 8;

// A decision's key: each input's device type, dtype, rank, sizes and strides. A call builds it on
// the stack (KeyBuf) and looks it up without allocating (KeyLess takes either form).
using Key = std::vector<int64_t>;
using KeyBuf = c10::SmallVector<int64_t, 64>;
struct KeyLess {
    using is_transparent = void;
    bool operator()(c10::ArrayRef<int64_t> a, c10::ArrayRef<int64_t> b) const {
        return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
    }
};

// What a call of an op needs beyond its variant, kept per key: a pipeline's decision (-1 until
// remember() has one) and the output sizes (a pipeline's shape rule, asked once per key).
struct Plan {
    int index = -1;
    bool sized = false;
    std::vector<std::vector<int64_t>> sizes;
};

struct Op {
    std::string name;
    c10::OperatorHandle twin;  // fuselab::_py__<name>
    int index;                 // the variant's; -1: a pipeline (decided per key, in `plans`)
    std::vector<std::string> names;  // inputs, then outputs
    int n_in, n_out;
    int64_t flags;

    std::shared_mutex mu;
    std::map<Key, Plan, KeyLess> plans;  // key_of(inputs) -> Plan
    std::atomic<int> last[2] = {-1, -1};  // pipeline: the variant last run fast, cpu / cuda

    Op(std::string n, c10::OperatorHandle t, int i, std::vector<std::string> a, int in, int64_t f)
        : name(std::move(n)),
          twin(std::move(t)),
          index(i),
          names(std::move(a)),
          n_in(in),
          n_out(static_cast<int>(names.size()) - in),
          flags(f) {}
};

bool storage_type(c10::ScalarType t, int32_t &code, int32_t &bits) {
    switch (t) {
        case c10::ScalarType::Float:
            code = 2, bits = 32;
            return true;
        case c10::ScalarType::Half:
            code = 2, bits = 16;
            return true;
        case c10::ScalarType::BFloat16:
            code = 1, bits = 16;
            return true;  // its bits, as uint16
        default:
            return false;
    }
}

void describe(const at::Tensor &t, const char *name, fuselab_arg &a) {
    a.name = name;
    a.data = t.data_ptr();
    a.device = t.is_cuda() ? 1 : 0;
    a.ndim = static_cast<int32_t>(t.dim());
    a.shape = t.sizes().data();
    a.strides = t.strides().data();
    storage_type(t.scalar_type(), a.type_code, a.bits);
}

void key_of(const at::Tensor *const *ts, size_t n, KeyBuf &k) {
    for (size_t i = 0; i < n; i++) {
        const at::Tensor &t = *ts[i];
        k.push_back(static_cast<int64_t>(t.device().type()));
        k.push_back(static_cast<int64_t>(t.scalar_type()));
        k.push_back(t.dim());
        k.append(t.sizes().begin(), t.sizes().end());
        k.append(t.strides().begin(), t.strides().end());
    }
}

Key key_of(const std::vector<at::Tensor> &inputs) {
    KeyBuf k;
    for (const at::Tensor &t : inputs) {
        const at::Tensor *p = &t;
        key_of(&p, 1, k);
    }
    return Key(k.begin(), k.end());
}

// {"out": [K, H, W], "out2": [...]} -> the arrays of `names`, in their order; false where one is
// missing.
bool parse_shapes(const char *json, const std::vector<std::string> &names, int from,
                  std::vector<std::vector<int64_t>> &out) {
    for (size_t i = from; i < names.size(); i++) {
        const std::string quoted = "\"" + names[i] + "\":";
        const char *p = std::strstr(json, quoted.c_str());
        if (!p) return false;
        p = std::strchr(p, '[');
        if (!p) return false;
        std::vector<int64_t> dims;
        for (p++; *p && *p != ']';) {
            char *end;
            const long long v = std::strtoll(p, &end, 10);
            if (end == p) {
                p++;
                continue;
            }
            dims.push_back(v);
            p = end;
        }
        out.push_back(std::move(dims));
    }
    return true;
}

// The output sizes that these inputs imply (fuselab_output_shapes); false where it refuses them
// (the twin then words it).
bool output_sizes(const Op &op, const at::Tensor *const *inputs,
                  std::vector<std::vector<int64_t>> &out) {
    ShapesFn shapes = g_shapes.load();
    if (!shapes) return false;
    fuselab_arg args[kMaxArgs];
    for (int i = 0; i < op.n_in; i++) describe(*inputs[i], op.names[i].c_str(), args[i]);
    const std::string pipeline = op.name.substr(0, op.name.find("__"));
    char json[1024], err[512];
    if (shapes(pipeline.c_str(), op.n_in, args, json, sizeof json, err, sizeof err) != 0)
        return false;
    return parse_shapes(json, op.names, op.n_in, out);
}

// The fast path of a call (the file's header); false: the twin takes the call. On success the
// stack holds the outputs in place of the inputs. Every call's cost: it allocates nothing but
// the outputs (and a row pipeline's views), and takes one shared lock for a pipeline's decision
// and the output sizes together.
bool fast(Op &op, Stack *stack) {
    if (op.flags & kSlowOnly || op.n_in + op.n_out > kMaxArgs) return false;
    InvokeFn invoke = g_invoke.load();
    if (!invoke) return false;
    const at::Tensor *inputs[kMaxArgs];
    const auto args = torch::jit::last(*stack, op.n_in);
    for (int i = 0; i < op.n_in; i++) {
        const c10::IValue &v = args[i];
        if (!v.isTensor()) return false;
        const at::Tensor &t = v.toTensor();
        int32_t code, bits;
        if (!t.defined() || t.numel() == 0 || t.dim() > kMaxRank || t.is_sparse() ||
            !storage_type(t.scalar_type(), code, bits))
            return false;
        inputs[i] = &t;
    }
    const at::Tensor &x = *inputs[0];
    const bool cuda = x.is_cuda();
    if (!cuda && !x.is_cpu()) return false;
    const at::Device device = x.device();
    for (int i = 1; i < op.n_in; i++) {
        if (inputs[i]->device() != device) return false;
    }
    const bool pipeline = op.flags & kPipeline, rows = op.flags & kRows;
    if (!pipeline && cuda != bool(op.flags & kCuda))
        return false;  // host tensors on a CUDA variant (copied), or the wrong device: the twin
    if (rows && x.dim() == 0) return false;
    // The outputs, and the arguments as the variant takes them (a row pipeline's [M, N] rows).
    at::Tensor outputs[kMaxArgs], views[kMaxArgs];
    const at::TensorOptions like = x.options();
    int index = op.index;
    if (pipeline || !rows) {
        KeyBuf key;
        key_of(inputs, op.n_in, key);
        bool sized = rows;
        {
            std::shared_lock<std::shared_mutex> lock(op.mu);
            auto it = op.plans.find(c10::ArrayRef<int64_t>(key));
            if (it != op.plans.end()) {
                if (pipeline) index = it->second.index;
                if (!rows && it->second.sized && index >= 0) {
                    for (int i = 0; i < op.n_out; i++)
                        outputs[i] = at::empty(it->second.sizes[i], like);
                    sized = true;
                }
            } else if (pipeline) {
                index = -1;
            }
        }
        if (index < 0) return false;  // undecided: the twin decides
        if (!sized) {  // once per key: the pipeline's shape rule
            std::vector<std::vector<int64_t>> sizes;
            if (!output_sizes(op, inputs, sizes) || static_cast<int>(sizes.size()) != op.n_out)
                return false;
            for (int i = 0; i < op.n_out; i++) outputs[i] = at::empty(sizes[i], like);
            std::unique_lock<std::shared_mutex> lock(op.mu);
            if (op.plans.size() > 4096) op.plans.clear();
            Plan &plan = op.plans[Key(key.begin(), key.end())];
            if (plan.index < 0) plan.index = index;
            plan.sizes = std::move(sizes);
            plan.sized = true;
        }
    }
    const at::Tensor *call[kMaxArgs];
    for (int i = 0; i < op.n_in; i++) call[i] = inputs[i];
    const bool as_rows = rows && x.dim() != 2;
    if (rows) {
        for (int i = 0; i < op.n_out; i++) outputs[i] = at::empty(x.sizes(), like);
        if (as_rows) {
            const int64_t n = x.size(-1), m = x.numel() / n;
            for (int i = 0; i < op.n_in; i++) {
                if (!(op.flags >> (kRowArgs + i) & 1)) continue;
                if (inputs[i]->sizes() != x.sizes()) return false;  // the twin: they disagree
                views[i] = inputs[i]->reshape({m, n});
                call[i] = &views[i];
            }
            for (int i = 0; i < op.n_out; i++) views[op.n_in + i] = outputs[i].view({m, n});
        }
    }
    const int n_call = op.n_in + op.n_out;
    fuselab_arg described[kMaxArgs];
    for (int i = 0; i < op.n_in; i++) describe(*call[i], op.names[i].c_str(), described[i]);
    for (int i = 0; i < op.n_out; i++) {
        describe(as_rows ? views[op.n_in + i] : outputs[i], op.names[op.n_in + i].c_str(),
                 described[op.n_in + i]);
    }
    void *stream = nullptr;
    if (cuda) {
        stream = c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA)
                     ->getStream(device)
                     .native_handle();
    }
    char err[512];
    if (invoke(index, n_call, described, stream, err, sizeof err) != 0)
        return false;  // refused: the twin runs it again and says why
    if (pipeline) op.last[cuda].store(index, std::memory_order_relaxed);
    torch::jit::drop(*stack, op.n_in);
    for (int i = 0; i < op.n_out; i++) stack->emplace_back(std::move(outputs[i]));
    return true;
}

struct DeviceKernel final : c10::OperatorKernel {
    explicit DeviceKernel(std::shared_ptr<Op> o, c10::DispatchKey k) : op(std::move(o)), key(k) {}
    void operator()(const c10::OperatorHandle &, c10::DispatchKeySet, Stack *stack) {
        if (fast(*op, stack)) return;
        if (op->flags & kPipeline) op->last[key == c10::DispatchKey::CUDA].store(-1);
        op->twin.redispatchBoxed(c10::DispatchKeySet(key), stack);
    }
    std::shared_ptr<Op> op;
    c10::DispatchKey key;
};

// The gradient function of an output that needed one: its backward raises (_no_backward).
struct NoBackward final : torch::autograd::Node {
    NoBackward(std::string o, std::vector<at::Tensor> in)
        : op(std::move(o)), inputs(std::move(in)) {}
    std::string name() const override { return "fuselab::" + op + "NoBackward"; }
    torch::autograd::variable_list apply(torch::autograd::variable_list &&grads) override {
        static const c10::OperatorHandle raise =
            c10::Dispatcher::singleton().findSchemaOrThrow("fuselab::_no_backward", "");
        at::Tensor grad;
        for (const at::Tensor &g : grads) {
            if (g.defined()) {
                grad = g;
                break;
            }
        }
        torch::autograd::variable_list out(inputs.size());
        if (!grad.defined()) return out;
        for (size_t i = 0; i < inputs.size(); i++) {
            if (!task_should_compute_output(i)) continue;
            Stack s{grad, inputs[i], op};
            raise.callBoxed(&s);
            out[i] = s[0].toTensor();
        }
        return out;
    }
    void release_variables() override { inputs.clear(); }
    std::string op;
    std::vector<at::Tensor> inputs;  // detached: the gradients' shapes, for a compiled backward
};

const c10::DispatchKeySet kPlainCpu(c10::DispatchKey::CPU), kPlainCuda(c10::DispatchKey::CUDA);

struct AutogradKernel final : c10::OperatorKernel {
    explicit AutogradKernel(std::shared_ptr<Op> o) : op(std::move(o)) {}
    void operator()(const c10::OperatorHandle &handle, c10::DispatchKeySet keys, Stack *stack) {
        std::vector<at::Tensor> inputs;
        if (at::GradMode::is_enabled()) {
            bool needed = false;
            for (const c10::IValue &v : torch::jit::last(*stack, op->n_in)) {
                if (v.isTensor() && v.toTensor().requires_grad()) needed = true;
            }
            if (needed) {
                for (const c10::IValue &v : torch::jit::last(*stack, op->n_in))
                    inputs.push_back(v.isTensor() ? v.toTensor() : at::Tensor());
            }
        }
        std::shared_ptr<NoBackward> fn;
        if (!inputs.empty()) {
            std::vector<at::Tensor> detached;
            for (const at::Tensor &t : inputs) detached.push_back(t.defined() ? t.detach() : t);
            fn = std::shared_ptr<NoBackward>(new NoBackward(op->name, std::move(detached)),
                                             torch::autograd::deleteNode);
            fn->set_next_edges(torch::autograd::collect_next_edges(inputs));
        }
        {
            at::AutoDispatchBelowADInplaceOrView guard;
            const c10::DispatchKeySet below = keys & c10::after_ADInplaceOrView_keyset;
            // A plain call (no gradient; below autograd only the device's own kernel: no fake
            // tensors, no functionalization, no Python mode) runs the fast path at once, without
            // a redispatch; anything it declines goes down as every other call does.
            if (!fn && (below == kPlainCpu || below == kPlainCuda) && fast(*op, stack)) return;
            handle.redispatchBoxed(below, stack);
        }
        if (fn) {
            for (const c10::IValue &v : torch::jit::last(*stack, op->n_out)) {
                if (v.isTensor()) torch::autograd::set_history(v.toTensor(), fn);
            }
        }
    }
    std::shared_ptr<Op> op;
};

std::mutex g_mu;
std::vector<std::unique_ptr<torch::Library>> g_libraries;
std::map<std::string, std::shared_ptr<Op>> g_ops;

// set_names: each variant's argument names (inputs, then outputs), how many are inputs, its
// pipeline, and whether it is a row pipeline's (then fuselab.kernel passes x as [M, N] rows: any
// other rank declines, for its Python path to flatten). Read per call without a lock: set once
// per variant, never freed. `sizes`: the outputs' sizes per inputs' sizes, for outputs the CPython
// entry allocates (the pipeline's shape rule, asked once per key).
struct Names {
    std::vector<std::string> names;
    bool rows;
    int n_in;
    std::string pipeline;
    mutable std::shared_mutex mu;
    mutable std::map<Key, std::vector<std::vector<int64_t>>, KeyLess> sizes;
};
constexpr int64_t kMaxVariants = 1 << 14;
std::atomic<const Names *> g_names[kMaxVariants];

const Names *names_of(int64_t index) {
    return index >= 0 && index < kMaxVariants ? g_names[index].load(std::memory_order_acquire)
                                              : nullptr;
}

// The outputs of variant `v` that `args` lacks (`missing`), allocated as fuselab.kernel's Python
// path allocates them (_arrays.allocate_like: x's storage type and device, contiguous) in the
// shapes the inputs imply. False, having allocated nothing that stays, where that cannot be said
// here: an input missing or not of a storage type, or the shape rule refusing them (the Python
// path then words it).
bool allocate_outputs(const Names &v, at::Tensor *args, const bool *missing, size_t n) {
    if (v.n_in <= 0 || static_cast<size_t>(v.n_in) >= n) return false;
    KeyBuf key;
    for (int i = 0; i < v.n_in; i++) {
        int32_t code, bits;
        if (missing[i] || !args[i].defined() || args[i].dim() > kMaxRank ||
            !storage_type(args[i].scalar_type(), code, bits))
            return false;
        key.push_back(args[i].dim());
        key.append(args[i].sizes().begin(), args[i].sizes().end());
    }
    const at::Tensor &x = args[0];
    const at::TensorOptions like = x.options();
    if (v.rows) {  // every output x's shape (x [M, N]: invoke_tensors declines any other rank)
        for (size_t i = v.n_in; i < n; i++) {
            if (missing[i]) args[i] = at::empty(x.sizes(), like);
        }
        return true;
    }
    {
        std::shared_lock<std::shared_mutex> lock(v.mu);
        auto it = v.sizes.find(c10::ArrayRef<int64_t>(key));
        if (it != v.sizes.end()) {
            if (it->second.size() != n - v.n_in) return false;
            for (size_t i = v.n_in; i < n; i++) {
                if (missing[i]) args[i] = at::empty(it->second[i - v.n_in], like);
            }
            return true;
        }
    }
    ShapesFn shapes = g_shapes.load();
    if (!shapes) return false;
    fuselab_arg described[kMaxArgs];
    for (int i = 0; i < v.n_in; i++) describe(args[i], v.names[i].c_str(), described[i]);
    char json[1024], err[512];
    std::vector<std::vector<int64_t>> out;
    if (shapes(v.pipeline.c_str(), v.n_in, described, json, sizeof json, err, sizeof err) != 0 ||
        !parse_shapes(json, v.names, v.n_in, out) || out.size() != n - v.n_in)
        return false;
    for (size_t i = v.n_in; i < n; i++) {
        if (missing[i]) args[i] = at::empty(out[i - v.n_in], like);
    }
    std::unique_lock<std::shared_mutex> lock(v.mu);
    if (v.sizes.size() > 4096) v.sizes.clear();
    v.sizes.emplace(Key(key.begin(), key.end()), std::move(out));
    return true;
}

// fuselab.kernel's call on torch tensors (_kernel.Kernel.call): variant `index` on `args` (n of
// them), every argument given, in its order (set_names), on `stream` (-1: torch's current stream
// of the tensors' device). False, having done nothing, where the fast path's conditions (the
// file's header) do not hold or the runtime refuses: the caller's ctypes path then runs the call
// and words the refusal.
bool invoke_tensors(int64_t index, const at::Tensor *args, size_t n, int64_t stream) {
    InvokeFn invoke = g_invoke.load();
    if (!invoke || n == 0 || n > kMaxArgs || index < 0 || index >= kMaxVariants) return false;
    const Names *names = names_of(index);
    if (!names || names->names.size() != n || !args[0].defined()) return false;
    const at::Device device = args[0].device();
    if (!device.is_cpu() && !device.is_cuda()) return false;
    if (names->rows && args[0].dim() != 2) return false;
    fuselab_arg described[kMaxArgs];
    for (size_t i = 0; i < n; i++) {
        const at::Tensor &t = args[i];
        int32_t code, bits;
        if (!t.defined() || t.device() != device || t.numel() == 0 || t.dim() > kMaxRank ||
            t.is_sparse() || !storage_type(t.scalar_type(), code, bits))
            return false;
        describe(t, names->names[i].c_str(), described[i]);
    }
    void *s = nullptr;
    if (stream >= 0) {
        s = reinterpret_cast<void *>(stream);
    } else if (device.is_cuda()) {
        s = c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA)->getStream(device).native_handle();
    }
    char err[512];
    return invoke(static_cast<int>(index), static_cast<int>(n), described, s, err, sizeof err) ==
           0;
}

bool invoke_op(int64_t index, const std::vector<at::Tensor> &args, int64_t stream) {
    return invoke_tensors(index, args.data(), args.size(), stream);
}

// fuselab.kernel(pipeline)'s decisions on torch tensors, per table (a PipelineKernel's decision
// cache): every argument's key_of -> the variant index its Python path chose.
struct Table {
    std::map<Key, int64_t, KeyLess> decided;
    int64_t any = -1;  // a variant decided in it: its pipeline's names and shape rule
};
std::shared_mutex g_tables_mu;
std::map<int64_t, Table> g_tables;

// The names of the pipeline of a table's decisions; null before its first.
const Names *table_names(int64_t table) {
    std::shared_lock<std::shared_mutex> lock(g_tables_mu);
    auto t = g_tables.find(table);
    return t == g_tables.end() ? nullptr : names_of(t->second.any);
}

// The decided variant for these arguments run as invoke_tensors runs it: its index, or -1 where
// nothing was decided for them or the call declined (nothing ran: the caller's path runs it).
int64_t invoke_decided(int64_t table, const at::Tensor *args, size_t n, int64_t stream) {
    if (n > kMaxArgs) return -1;
    const at::Tensor *ts[kMaxArgs];
    for (size_t i = 0; i < n; i++) {
        if (!args[i].defined()) return -1;
        ts[i] = &args[i];
    }
    KeyBuf key;
    key_of(ts, n, key);
    int64_t index;
    {
        std::shared_lock<std::shared_mutex> lock(g_tables_mu);
        auto t = g_tables.find(table);
        if (t == g_tables.end()) return -1;
        auto it = t->second.decided.find(c10::ArrayRef<int64_t>(key));
        if (it == t->second.decided.end()) return -1;
        index = it->second;
    }
    return invoke_tensors(index, args, n, stream) ? index : -1;
}

int64_t invoke_decided_op(int64_t table, const std::vector<at::Tensor> &args, int64_t stream) {
    return invoke_decided(table, args.data(), args.size(), stream);
}

void decide(int64_t table, int64_t index, const std::vector<at::Tensor> &args) {
    Key key = key_of(args);
    std::unique_lock<std::shared_mutex> lock(g_tables_mu);
    Table &t = g_tables[table];
    if (t.decided.size() > 4096) t.decided.clear();
    t.decided[std::move(key)] = index;
    t.any = index;
}

void set_names(int64_t index, std::vector<std::string> names, bool rows, int64_t n_in,
               std::string pipeline) {
    if (index < 0 || index >= kMaxVariants) return;  // invoke_tensors declines it
    std::lock_guard<std::mutex> lock(g_mu);
    const Names *old = g_names[index].load();
    if (old && old->names == names && old->rows == rows && old->n_in == n_in &&
        old->pipeline == pipeline)
        return;
    auto *fresh = new Names;
    fresh->names = std::move(names);
    fresh->rows = rows;
    fresh->n_in = static_cast<int>(n_in);
    fresh->pipeline = std::move(pipeline);
    // The old one stays allocated: a call on another thread may be reading it.
    g_names[index].store(fresh, std::memory_order_release);
}

void init(int64_t invoke, int64_t shapes) {
    g_invoke.store(reinterpret_cast<InvokeFn>(invoke));
    g_shapes.store(reinterpret_cast<ShapesFn>(shapes));
}

// fuselab::<name>'s CPU, CUDA and Autograd kernels. index: its variant's (for fuselab_invoke), -1
// for a pipeline; names: its arguments, the inputs (n_in) then the outputs; flags: Flags.
void register_op(std::string name, int64_t index, std::vector<std::string> names, int64_t n_in,
                 int64_t flags) {
    std::lock_guard<std::mutex> lock(g_mu);
    TORCH_CHECK(!g_ops.count(name), "fuselab: op ", name, " is registered already");
    c10::OperatorHandle twin =
        c10::Dispatcher::singleton().findSchemaOrThrow(("fuselab::_py__" + name).c_str(), "");
    auto op = std::make_shared<Op>(name, twin, static_cast<int>(index), std::move(names),
                                   static_cast<int>(n_in), flags);
    auto lib = std::make_unique<torch::Library>(torch::Library::IMPL, "fuselab", std::nullopt,
                                                __FILE__, __LINE__);
    for (c10::DispatchKey k : {c10::DispatchKey::CPU, c10::DispatchKey::CUDA}) {
        lib->impl(name.c_str(), torch::dispatch(k, torch::CppFunction::makeFromBoxedFunctor(
                                                       std::make_unique<DeviceKernel>(op, k))));
    }
    lib->impl(name.c_str(), torch::dispatch(c10::DispatchKey::Autograd,
                                            torch::CppFunction::makeFromBoxedFunctor(
                                                std::make_unique<AutogradKernel>(op))));
    g_libraries.push_back(std::move(lib));
    g_ops.emplace(name, std::move(op));
}

std::shared_ptr<Op> find(const std::string &name) {
    std::lock_guard<std::mutex> lock(g_mu);
    auto it = g_ops.find(name);
    TORCH_CHECK(it != g_ops.end(), "fuselab: no op ", name, " is registered");
    return it->second;
}

// A pipeline's decision for these inputs (the twin's, after it ran the call): the fast path
// takes it from the next call on.
void remember(std::string name, int64_t index, std::vector<at::Tensor> inputs) {
    std::shared_ptr<Op> op = find(name);
    if (!(op->flags & kPipeline) || inputs.empty()) return;
    Key key = key_of(inputs);
    std::unique_lock<std::shared_mutex> lock(op->mu);
    if (op->plans.size() > 4096) op->plans.clear();
    op->plans[std::move(key)].index = static_cast<int>(index);
    op->last[inputs[0].is_cuda()].store(static_cast<int>(index));
}

// The variant a pipeline's op last ran through the fast path on this device; -1: its last call
// there took the twin (whose own record then says what ran).
int64_t last_chosen(std::string name, bool cuda) {
    return find(name)->last[cuda].load();
}

// The stream the fast path runs on for a tensor of this device (tests compare it with torch's).
int64_t current_stream(const at::Tensor &t) {
    if (!t.is_cuda()) return 0;
    return reinterpret_cast<int64_t>(c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA)
                                         ->getStream(t.device())
                                         .native_handle());
}

}  // namespace

TORCH_LIBRARY(fuselab_ext, m) {
    m.def("init(int invoke, int output_shapes) -> ()", &init);
    m.def("register_op(str name, int index, str[] names, int n_in, int flags) -> ()", &register_op);
    m.def("remember(str name, int index, Tensor[] inputs) -> ()", &remember);
    m.def("last_chosen(str name, bool cuda) -> int", &last_chosen);
    m.def("current_stream(Tensor t) -> int", &current_stream);
    m.def("set_names(int index, str[] names, bool rows=False, int n_in=-1, str pipeline='') -> ()",
          &set_names);
    m.def("invoke(int index, Tensor[] args, int stream) -> bool", &invoke_op);
    m.def("invoke_decided(int table, Tensor[] args, int stream) -> int", &invoke_decided_op);
    m.def("decide(int table, int index, Tensor[] args) -> ()", &decide);
}

// fuselab.kernel's per-call entry from Python, as a CPython module of this same library (issue
// 28): _torch_ext.py imports it beside torch.ops.fuselab_ext. Its functions do what those ops do
// without torch's Python binding (its schema matching, a c10::List and the dispatcher cost about
// 1.5 us a call): invoke(index, args, stream) and invoke_decided(table, args, stream) as the ops
// of those names, `args` a list; call(index, kwargs, names, stream) and call_decided(table,
// kwargs, names, stream) the same on a call's keyword dict, read in the order of `names` (a
// tuple), outputs left out allocated here, returning the outputs: Kernel.__call__ builds no
// list. Every argument must be an exact torch.Tensor (and for the dict forms, every input named
// and no other key): anything else declines (False, -1, None) having done nothing, as does a
// `stream` that is no int (-1: torch's current stream). The GIL is released while the runtime
// runs, as torch's ops release it. Where Python's headers are not there to compile it, the ops
// serve alone.
#if __has_include(<Python.h>) && __has_include(<torch/csrc/autograd/python_variable.h>)
#include <torch/csrc/autograd/python_variable.h>

namespace {

bool is_tensor(PyObject *o) {
    return THPVariableClass != nullptr && Py_TYPE(o) == reinterpret_cast<PyTypeObject *>(
                                                            THPVariableClass);
}

// The list's tensors, held (another thread could change the list while the GIL is released).
bool held_list(PyObject *list, at::Tensor *held, size_t &n) {
    if (!PyList_Check(list)) return false;
    const Py_ssize_t size = PyList_GET_SIZE(list);
    if (size > kMaxArgs) return false;
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *o = PyList_GET_ITEM(list, i);
        if (!is_tensor(o)) return false;
        held[i] = THPVariable_Unpack(o);
    }
    n = static_cast<size_t>(size);
    return true;
}

// The arguments of the keyword dict `kw` named by `names`, in that order: each tensor held, and
// its object (borrowed) for the result; an absent or None name is `missing` (an output to
// allocate; an input missing declines later). False where one is not an exact torch.Tensor or kw
// has another key.
bool held_kw(PyObject *kw, PyObject *names, at::Tensor *held, PyObject **objs, bool *missing,
             size_t &n, bool &any_missing) {
    if (!PyDict_Check(kw) || !PyTuple_Check(names)) return false;
    const Py_ssize_t size = PyTuple_GET_SIZE(names);
    if (size > kMaxArgs) return false;
    Py_ssize_t found = 0;
    any_missing = false;
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *o = PyDict_GetItemWithError(kw, PyTuple_GET_ITEM(names, i));
        if (o == nullptr && PyErr_Occurred()) {
            PyErr_Clear();
            return false;
        }
        found += o != nullptr;
        objs[i] = o;
        missing[i] = o == nullptr || o == Py_None;
        if (missing[i]) {
            any_missing = true;
        } else if (!is_tensor(o)) {
            return false;
        } else {
            held[i] = THPVariable_Unpack(o);
        }
    }
    n = static_cast<size_t>(size);
    return found == PyDict_GET_SIZE(kw);
}

bool as_int(PyObject *o, int64_t &v) {
    v = PyLong_AsLongLong(o);
    return !(v == -1 && PyErr_Occurred());
}

// f() with the GIL released; false, with a RuntimeError set, where it threw.
template <typename F>
bool run_released(F &&f, int64_t &result) {
    std::string error;
    Py_BEGIN_ALLOW_THREADS
    try {
        result = f();
    } catch (const std::exception &e) {
        error = e.what();
        if (error.empty()) error = "fuselab: the C++ entry failed";
    }
    Py_END_ALLOW_THREADS
    if (error.empty()) return true;
    PyErr_SetString(PyExc_RuntimeError, error.c_str());
    return false;
}

// invoke(index, args, stream) -> bool and invoke_decided(table, args, stream) -> int.
template <bool kDecided>
PyObject *entry(PyObject *, PyObject *const *argv, Py_ssize_t argc) {
    if (argc != 3) {
        PyErr_Format(PyExc_TypeError, "fuselab_torch_ops: 3 arguments expected (%zd given)", argc);
        return nullptr;
    }
    int64_t first, stream;
    if (!as_int(argv[0], first)) return nullptr;
    bool ok = as_int(argv[2], stream);
    if (!ok) PyErr_Clear();  // a stream that is no int: declined, for the ctypes path to take
    at::Tensor held[kMaxArgs];
    size_t n = 0;
    ok = ok && held_list(argv[1], held, n);
    int64_t result = kDecided ? -1 : 0;
    if (ok && !run_released(
                  [&]() -> int64_t {
                      if (kDecided) return invoke_decided(first, held, n, stream);
                      return invoke_tensors(first, held, n, stream) ? 1 : 0;
                  },
                  result))
        return nullptr;
    if (kDecided) return PyLong_FromLongLong(result);
    return PyBool_FromLong(result != 0);
}

// call(index, kwargs, names, stream) -> the outputs (one, or a tuple in order), or None where it
// declined; call_decided(table, kwargs, names, stream) -> (the variant run, the outputs), or
// None. Outputs absent (or None) are allocated here (allocate_outputs).
template <bool kDecided>
PyObject *call_entry(PyObject *, PyObject *const *argv, Py_ssize_t argc) {
    if (argc != 4) {
        PyErr_Format(PyExc_TypeError, "fuselab_torch_ops: 4 arguments expected (%zd given)", argc);
        return nullptr;
    }
    int64_t first, stream;
    if (!as_int(argv[0], first)) return nullptr;
    if (!as_int(argv[3], stream)) {
        PyErr_Clear();  // a stream that is no int: declined, for the ctypes path to take
        Py_RETURN_NONE;
    }
    at::Tensor held[kMaxArgs];
    PyObject *objs[kMaxArgs];
    bool missing[kMaxArgs], any_missing = false;
    size_t n = 0;
    if (!held_kw(argv[1], argv[2], held, objs, missing, n, any_missing)) Py_RETURN_NONE;
    // Owned while the GIL is released (the dict could change meanwhile); the outputs' references
    // pass to the result.
    for (size_t i = 0; i < n; i++) {
        if (!missing[i]) Py_INCREF(objs[i]);
    }
    auto drop = [&](size_t from, size_t to) {
        for (size_t i = from; i < to; i++) {
            if (!missing[i]) Py_DECREF(objs[i]);
        }
    };
    int64_t index = -1, n_in = 0;
    const bool ran = run_released(
        [&]() -> int64_t {
            // the variant's (a table's pipeline's) names: which are outputs
            const Names *v = kDecided ? table_names(first) : names_of(first);
            if (!v || v->n_in <= 0 || static_cast<size_t>(v->n_in) >= n) return -1;
            n_in = v->n_in;
            if (any_missing && !allocate_outputs(*v, held, missing, n)) return -1;
            if (kDecided) return invoke_decided(first, held, n, stream);
            return invoke_tensors(first, held, n, stream) ? first : -1;
        },
        index);
    if (!ran || index < 0) {
        drop(0, n);
        if (!ran) return nullptr;
        Py_RETURN_NONE;
    }
    drop(0, n_in);  // the inputs'
    const size_t n_out = n - n_in;
    PyObject *out = nullptr;
    if (n_out != 1 && (out = PyTuple_New(static_cast<Py_ssize_t>(n_out))) == nullptr) {
        drop(n_in, n);
        return nullptr;
    }
    for (size_t i = n_in; i < n; i++) {
        PyObject *o = missing[i] ? THPVariable_Wrap(std::move(held[i])) : objs[i];  // allocated
        if (o == nullptr) {  // only THPVariable_Wrap fails; what is not in `out` yet is dropped
            drop(i + 1, n);
            Py_XDECREF(out);
            return nullptr;
        }
        if (n_out == 1) {
            out = o;
        } else {
            PyTuple_SET_ITEM(out, static_cast<Py_ssize_t>(i - n_in), o);
        }
    }
    if (!kDecided) return out;
    return Py_BuildValue("(LN)", static_cast<long long>(index), out);
}

PyMethodDef g_methods[] = {
    {"invoke", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(entry<false>)),
     METH_FASTCALL, "invoke(index, [tensors], stream) -> bool: whether it ran"},
    {"invoke_decided", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(entry<true>)),
     METH_FASTCALL, "invoke_decided(table, [tensors], stream) -> the variant run, or -1"},
    {"call", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(call_entry<false>)),
     METH_FASTCALL, "call(index, {name: tensor}, names, stream) -> the outputs, or None"},
    {"call_decided", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(call_entry<true>)),
     METH_FASTCALL, "call_decided(table, {name: tensor}, names, stream) -> (variant, outputs)"},
    {nullptr, nullptr, 0, nullptr}};

#define FUSELAB_STR2(name) #name
#define FUSELAB_STR(name) FUSELAB_STR2(name)
PyModuleDef g_module = {PyModuleDef_HEAD_INIT, FUSELAB_STR(TORCH_EXTENSION_NAME),
                        "fuselab.kernel's per-call C++ entry on torch tensors", -1, g_methods,
                        nullptr, nullptr, nullptr, nullptr};

}  // namespace

#define FUSELAB_PYINIT2(name) PyInit_##name
#define FUSELAB_PYINIT(name) FUSELAB_PYINIT2(name)
PyMODINIT_FUNC FUSELAB_PYINIT(TORCH_EXTENSION_NAME)(void) { return PyModule_Create(&g_module); }
#endif
