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
// The Autograd kernel: where no input needs a gradient, the call goes below autograd at once.
// Where one does, the outputs get a gradient function whose backward calls
// torch.ops.fuselab._no_backward, which raises fuselab.Error naming the op (the ops are
// inference-only); a compiled backward graph holds that op and raises when it runs.
#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/functions/utils.h>
#include <torch/library.h>

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

// A decision's key: each input's device type, dtype, rank, sizes and strides.
using Key = std::vector<int64_t>;

struct Op {
    std::string name;
    c10::OperatorHandle twin;  // fuselab::_py__<name>
    int index;                 // the variant's; -1: a pipeline (decided per key, in `decided`)
    std::vector<std::string> names;  // inputs, then outputs
    int n_in, n_out;
    int64_t flags;

    std::shared_mutex mu;
    std::map<Key, int> decided;                              // pipeline: key -> variant index
    std::map<Key, std::vector<std::vector<int64_t>>> sizes;  // input sizes -> output sizes
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

Key key_of(const std::vector<at::Tensor> &inputs) {
    Key k;
    k.reserve(inputs.size() * 12);
    for (const at::Tensor &t : inputs) {
        k.push_back(static_cast<int64_t>(t.device().type()));
        k.push_back(static_cast<int64_t>(t.scalar_type()));
        k.push_back(t.dim());
        k.insert(k.end(), t.sizes().begin(), t.sizes().end());
        k.insert(k.end(), t.strides().begin(), t.strides().end());
    }
    return k;
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

// The output sizes that inputs of these sizes imply (a pipeline's shape rule, asked once per
// input sizes); false where fuselab_output_shapes refuses them (the twin then words it).
bool output_sizes(Op &op, const std::vector<at::Tensor> &inputs,
                  std::vector<std::vector<int64_t>> &out) {
    Key k;
    for (const at::Tensor &t : inputs) {
        k.push_back(t.dim());
        k.insert(k.end(), t.sizes().begin(), t.sizes().end());
    }
    {
        std::shared_lock<std::shared_mutex> lock(op.mu);
        auto it = op.sizes.find(k);
        if (it != op.sizes.end()) {
            out = it->second;
            return true;
        }
    }
    ShapesFn shapes = g_shapes.load();
    if (!shapes) return false;
    fuselab_arg args[kMaxArgs];
    for (int i = 0; i < op.n_in; i++) describe(inputs[i], op.names[i].c_str(), args[i]);
    const std::string pipeline = op.name.substr(0, op.name.find("__"));
    char json[1024], err[512];
    if (shapes(pipeline.c_str(), op.n_in, args, json, sizeof json, err, sizeof err) != 0)
        return false;
    if (!parse_shapes(json, op.names, op.n_in, out)) return false;
    std::unique_lock<std::shared_mutex> lock(op.mu);
    if (op.sizes.size() > 4096) op.sizes.clear();
    op.sizes.emplace(std::move(k), out);
    return true;
}

// The fast path of a call (the file's header); false: the twin takes the call. On success the
// stack holds the outputs in place of the inputs.
bool fast(Op &op, Stack *stack) {
    if (op.flags & kSlowOnly || op.n_in + op.n_out > kMaxArgs) return false;
    InvokeFn invoke = g_invoke.load();
    if (!invoke) return false;
    std::vector<at::Tensor> inputs;
    inputs.reserve(op.n_in);
    const auto args = torch::jit::last(*stack, op.n_in);
    for (const c10::IValue &v : args) {
        if (!v.isTensor()) return false;
        const at::Tensor &t = v.toTensor();
        int32_t code, bits;
        if (!t.defined() || t.numel() == 0 || t.dim() > kMaxRank || t.is_sparse() ||
            !storage_type(t.scalar_type(), code, bits))
            return false;
        inputs.push_back(t);
    }
    const at::Tensor &x = inputs[0];
    const bool cuda = x.is_cuda();
    if (!cuda && !x.is_cpu()) return false;
    for (const at::Tensor &t : inputs) {
        if (t.device() != x.device()) return false;
    }
    int index = op.index;
    if (op.flags & kPipeline) {
        std::shared_lock<std::shared_mutex> lock(op.mu);
        auto it = op.decided.find(key_of(inputs));
        if (it == op.decided.end()) return false;
        index = it->second;
    } else if (cuda != bool(op.flags & kCuda)) {
        return false;  // host tensors on a CUDA variant (copied), or the wrong device: the twin
    }
    // The outputs, and for a row pipeline every [M, N] argument as rows.
    std::vector<at::Tensor> outputs, call(inputs);
    const at::TensorOptions like = x.options();
    if (op.flags & kRows) {
        if (x.dim() == 0) return false;
        const int64_t n = x.size(-1), m = x.numel() / n;
        for (int i = 0; i < op.n_out; i++) outputs.push_back(at::empty(x.sizes(), like));
        if (x.dim() != 2) {
            for (int i = 0; i < op.n_in; i++) {
                if (!(op.flags >> (kRowArgs + i) & 1)) continue;
                if (call[i].sizes() != x.sizes()) return false;  // the twin says they disagree
                call[i] = call[i].reshape({m, n});
            }
            for (const at::Tensor &o : outputs) call.push_back(o.view({m, n}));
        } else {
            call.insert(call.end(), outputs.begin(), outputs.end());
        }
    } else {
        std::vector<std::vector<int64_t>> sizes;
        if (!output_sizes(op, inputs, sizes)) return false;
        for (const auto &s : sizes) outputs.push_back(at::empty(s, like));
        call.insert(call.end(), outputs.begin(), outputs.end());
    }
    fuselab_arg described[kMaxArgs];
    for (size_t i = 0; i < call.size(); i++) describe(call[i], op.names[i].c_str(), described[i]);
    void *stream = nullptr;
    if (cuda) {
        stream = c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA)
                     ->getStream(x.device())
                     .native_handle();
    }
    char err[512];
    if (invoke(index, static_cast<int>(call.size()), described, stream, err, sizeof err) != 0)
        return false;  // refused: the twin runs it again and says why
    if (op.flags & kPipeline) op.last[cuda].store(index, std::memory_order_relaxed);
    torch::jit::drop(*stack, op.n_in);
    for (at::Tensor &o : outputs) stack->emplace_back(std::move(o));
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
            handle.redispatchBoxed(keys & c10::after_ADInplaceOrView_keyset, stack);
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
std::map<int64_t, std::shared_ptr<const std::vector<std::string>>> g_names;  // set_names

// fuselab.kernel's call on torch tensors (_kernel.Kernel.call): variant `index` on `args`, every
// argument given, in its order (set_names), on `stream` (-1: torch's current stream of the
// tensors' device). False, having done nothing, where the fast path's conditions (the file's
// header) do not hold or the runtime refuses: the caller's ctypes path then runs the call and
// words the refusal.
bool invoke_tensors(int64_t index, const std::vector<at::Tensor> &args, int64_t stream) {
    InvokeFn invoke = g_invoke.load();
    if (!invoke || args.empty() || args.size() > kMaxArgs) return false;
    std::shared_ptr<const std::vector<std::string>> names;
    {
        std::lock_guard<std::mutex> lock(g_mu);
        auto it = g_names.find(index);
        if (it == g_names.end()) return false;
        names = it->second;
    }
    if (names->size() != args.size()) return false;
    const at::Device device = args[0].device();
    fuselab_arg described[kMaxArgs];
    for (size_t i = 0; i < args.size(); i++) {
        const at::Tensor &t = args[i];
        int32_t code, bits;
        if (!t.defined() || t.device() != device || t.numel() == 0 || t.dim() > kMaxRank ||
            t.is_sparse() || !storage_type(t.scalar_type(), code, bits))
            return false;
        describe(t, (*names)[i].c_str(), described[i]);
    }
    if (!device.is_cpu() && !device.is_cuda()) return false;
    void *s = nullptr;
    if (stream >= 0) {
        s = reinterpret_cast<void *>(stream);
    } else if (device.is_cuda()) {
        s = c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA)->getStream(device).native_handle();
    }
    char err[512];
    return invoke(static_cast<int>(index), static_cast<int>(args.size()), described, s, err,
                  sizeof err) == 0;
}

// fuselab.kernel(pipeline)'s decisions on torch tensors, per table (a PipelineKernel's decision
// cache): every argument's key_of -> the variant index its Python path chose.
std::shared_mutex g_tables_mu;
std::map<int64_t, std::map<Key, int64_t>> g_tables;

// The decided variant for these arguments run as invoke_tensors runs it: its index, or -1 where
// nothing was decided for them or the call declined (nothing ran: the caller's path runs it).
int64_t invoke_decided(int64_t table, const std::vector<at::Tensor> &args, int64_t stream) {
    for (const at::Tensor &t : args) {
        if (!t.defined()) return -1;
    }
    int64_t index;
    {
        std::shared_lock<std::shared_mutex> lock(g_tables_mu);
        auto t = g_tables.find(table);
        if (t == g_tables.end()) return -1;
        auto it = t->second.find(key_of(args));
        if (it == t->second.end()) return -1;
        index = it->second;
    }
    return invoke_tensors(index, args, stream) ? index : -1;
}

void decide(int64_t table, int64_t index, const std::vector<at::Tensor> &args) {
    std::unique_lock<std::shared_mutex> lock(g_tables_mu);
    std::map<Key, int64_t> &t = g_tables[table];
    if (t.size() > 4096) t.clear();
    t[key_of(args)] = index;
}

void set_names(int64_t index, std::vector<std::string> names) {
    std::lock_guard<std::mutex> lock(g_mu);
    g_names[index] = std::make_shared<const std::vector<std::string>>(std::move(names));
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
    std::unique_lock<std::shared_mutex> lock(op->mu);
    if (op->decided.size() > 4096) op->decided.clear();
    op->decided[key_of(inputs)] = static_cast<int>(index);
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
    m.def("set_names(int index, str[] names) -> ()", &set_names);
    m.def("invoke(int index, Tensor[] args, int stream) -> bool", &invoke_tensors);
    m.def("invoke_decided(int table, Tensor[] args, int stream) -> int", &invoke_decided);
    m.def("decide(int table, int index, Tensor[] args) -> ()", &decide);
}
