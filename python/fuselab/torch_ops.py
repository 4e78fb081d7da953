"""Every fuselab variant, and every pipeline, as a PyTorch custom operator, so that it can be
called inside torch.compile'd code (fullgraph too) and captured into CUDA graphs:

    import fuselab.torch_ops
    y = torch.ops.fuselab.conv_relu_pool(x, w, b)                   # the pipeline: the strategy
                                                                    # chosen per call
    y = torch.ops.fuselab.conv_relu_pool__tiled__cuda(x, w, b)      # one variant, inputs in order
    fuselab.torch_ops.op("add_relu", "fused", "cuda")(a, b)          # the same, by names
    fuselab.torch_ops.op("add_relu")                                 # the pipeline's op
    y = torch.ops.fuselab.softmax(x)                                # x [*, N]: float32, bfloat16
    out, h = torch.ops.fuselab.rmsnorm_residual(x, residual, w)     # or float16; the same shape
    y = torch.ops.fuselab.layernorm(x, w, b)                        # and dtype back
    y = torch.ops.fuselab.softmax__block_row__cuda__bfloat16(x)     # a variant of another type

The operators are functional (they return new outputs), defined with torch.library.Library
("fuselab", "DEF") and implemented for CPU and CUDA, with a fake implementation that sizes the
outputs from the inputs' shapes (fuselab_output_shapes; a row pipeline's outputs are x's shape),
so the compiler can trace them without running anything. Their CPU, CUDA and Autograd kernels
are C++ (_torch_ops.cpp, compiled on first import with torch.utils.cpp_extension and cached:
_torch_ext.py): a call of the common kind (tensors with elements, of a storage type, on the
variant's device; a pipeline whose strategy is known for these shapes) runs there without
entering Python, and every other call goes to the op's Python twin torch.ops.fuselab._py__<op>,
the kernel below, which decides and words errors as it always has. Where the C++ kernels cannot
be built (no compiler, FUSELAB_TORCH_EXT=0), the Python kernels are the ops' own, with one
warning saying why; BACKEND ("c++" or "python") and FALLBACK_REASON say which. A pipeline's op runs the strategy
fuselab_choose picks for the tensors' shapes, dtype and device (CPU tensors: target cpu; CUDA
tensors: cuda), the decision kept per shape as fuselab.kernel(pipeline) keeps it. Each runs on
PyTorch's current stream.

A variant's op is named <pipeline>__<schedule>__<target>, with __<dtype> appended where its
storage type is not float32 (softmax__block_row__cuda__bfloat16). Its outputs are of its type;
a pipeline op's are of its first input's (the row pipelines: float32, bfloat16 or float16, in,
the same out; every other pipeline: float32). The row pipelines' ops take x (and residual) as
[*, N] of any leading shape (fuselab._kernel's docstring: flattened to rows, a view where the
strides allow, else a copy) and return outputs of x's shape. Inputs with no element (an empty
batch) give empty outputs without running anything, as fuselab.kernel's do.

The ops are inference-only: none has a backward yet. They run under torch.no_grad(),
torch.inference_mode() and on tensors that do not require grad as plain calls; on inputs that
require grad, in grad mode, the outputs require grad too, and a backward pass through them
raises a RuntimeError (fuselab.Error) naming the op, in eager and compiled code alike, rather
than leaving the inputs' .grad unset.
"""
import torch

try:  # torch's own autograd kernel, the one register_autograd registers
    from torch._library.autograd import Info as _Info, make_autograd_impl as _make_autograd_impl
except ImportError:  # another torch: register_autograd itself, without the plain calls' path
    _make_autograd_impl = None

import warnings

from . import _torch_ext
from ._kernel import PipelineKernel, _host_params, kernel, output_shapes_of, variants
from ._lib import Error

_LIB = torch.library.Library("fuselab", "DEF")
_OPS = {}
_PIPELINE_KERNELS = {}  # (pipeline, target) -> the PipelineKernel its op calls
_CHOSEN = {}  # (pipeline, target, variant index) -> .chosen of the call that decided it

# The ops' kernels in C++ (_torch_ops.cpp), built on first use; else the Python kernels below,
# with one warning saying why. BACKEND says which runs; FALLBACK_REASON why not C++.
_EXT, FALLBACK_REASON = _torch_ext.get(torch)
BACKEND = "c++" if _EXT is not None else "python"
if _EXT is None:
    warnings.warn(f"fuselab.torch_ops: the ops' C++ kernels are not available "
                  f"({FALLBACK_REASON}); using the Python kernels, about 10 us more a call",
                  RuntimeWarning, stacklevel=2)
# How many calls the C++ kernels handed to their Python twins (not their fast path): for tests.
TWIN_CALLS = [0]
# _torch_ops.cpp's register_op flags.
_ROWS, _SLOW_ONLY, _CUDA, _PIPELINE, _ROW_ARGS = 1, 2, 4, 8, 8


def _schema_name(arg):
    return arg + "_" if arg in ("in", "out", "input") else arg  # Python keywords and clashes


_TORCH_DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}
_STORAGE = frozenset(_TORCH_DTYPES.values())


def _fake_for(pipeline, who, inputs, outputs, rows, dtype):
    """The fake (meta) implementation of an op of `pipeline`: outputs sized from the inputs'
    shapes (a row pipeline's: x's), on the first input's device, of the torch dtype `dtype` (a
    variant's type), or with dtype None (a pipeline's op) of the first input's where that is a
    storage type, else float32."""
    single = len(outputs) == 1

    def out_dtype(x):
        if dtype is not None:
            return dtype
        return x.dtype if x.dtype in _STORAGE else torch.float32

    if rows is not None:
        def fake(*tensors):
            x = tensors[0]
            outs = [x.new_empty(x.shape, dtype=out_dtype(x)) for _ in outputs]
            return outs[0] if single else tuple(outs)
        return fake

    def fake(*tensors):
        shapes = output_shapes_of(pipeline, {n: tuple(int(s) for s in t.shape)
                                             for n, t in zip(inputs, tensors)}, who)
        dt = out_dtype(tensors[0])
        outs = [tensors[0].new_empty(shapes[o], dtype=dt) for o in outputs]
        return outs[0] if single else tuple(outs)

    return fake


def _no_backward(grad, input, op):
    raise Error(f"torch.ops.fuselab.{op} has no backward: fuselab's ops are inference-only. Call "
                f"it under torch.no_grad() or torch.inference_mode(), or on tensors that do not "
                f"require grad")


# Each op's gradient for `input`, which raises when it runs: an op of its own, so that a compiled
# backward graph holds it and raises when it runs, where a raising backward function would
# refuse to compile the forward (AOTAutograd traces the backward then). It takes the gradient
# of the op's output, so that the partitioner cannot move it into the forward graph.
_LIB.define("_no_backward(Tensor grad, Tensor input, str op) -> Tensor")
_LIB.impl("_no_backward", _no_backward, "CPU")
_LIB.impl("_no_backward", _no_backward, "CUDA")
torch.library.register_fake("fuselab::_no_backward",
                            lambda grad, input, op: torch.empty_like(input), lib=_LIB)


def _save_inputs(ctx, inputs, output):
    ctx.save_for_backward(*inputs)  # the gradients' shapes, for a compiled backward's tracing


def _backward_of(name):
    def backward(ctx, grad, *more):
        return tuple(torch.ops.fuselab._no_backward(grad, t, name) if needed else None
                     for t, needed in zip(ctx.saved_tensors, ctx.needs_input_grad))
    return backward


# The dispatch keys an autograd kernel sees on a plain call (its own and those below it): its
# tensors all on the CPU, or all on CUDA, nothing else (no fake tensors, no functionalization).
_K = torch._C.DispatchKey
_PLAIN = frozenset(torch._C.DispatchKeySet(device).add(autograd).raw_repr()
                   for device, autograd in ((_K.CPU, _K.AutogradCPU), (_K.CUDA, _K.AutogradCUDA)))


def _register_autograd(name, impl):
    """The op's autograd kernel: torch's own, which records the raising backward where an input
    requires grad in grad mode, behind a path for a plain call (no grad needed, no key below
    autograd but the device's: no fake tensors, no functionalization) that calls `impl` at
    once. Torch's alone goes back through the dispatcher into Python: on this project's CPU
    machine it took add_relu's op on CPU tensors from 22 to 43 us a call, where this path costs
    under 1 us more than no autograd kernel."""
    backward = _backward_of(name)
    if _make_autograd_impl is None:
        torch.library.register_autograd(f"fuselab::{name}", backward,
                                        setup_context=_save_inputs, lib=_LIB)
        return
    general = _make_autograd_impl(getattr(torch.ops.fuselab, name).default,
                                  _Info(backward, _save_inputs))
    grad_mode, any_requires_grad = torch.is_grad_enabled, torch._C._any_requires_grad

    def autograd(keyset, *tensors):
        if keyset.raw_repr() in _PLAIN and not (grad_mode() and any_requires_grad(*tensors)):
            return impl(*tensors)
        return general(keyset, *tensors)

    _LIB.impl(name, autograd, "Autograd", with_keyset=True)


def _define(name, pipeline, who, inputs, outputs, impl, rows=None, dtype=None, index=-1,
            flags=0):
    """torch.ops.fuselab.<name>(inputs...) -> outputs: defined, with its fake implementation
    (_fake_for) and a backward that raises. Its CPU and CUDA kernels: with the C++ kernels,
    theirs (register_op: variant `index`, -1 for a pipeline; `flags`), over a twin op
    _py__<name> that `impl` implements, which they call for whatever their fast path does not
    take; else `impl` itself."""
    args = ", ".join(f"Tensor {_schema_name(n)}" for n in inputs)
    result = "Tensor" if len(outputs) == 1 else "(" + ", ".join("Tensor" for _ in outputs) + ")"
    _LIB.define(f"{name}({args}) -> {result}")
    torch.library.register_fake(f"fuselab::{name}",
                                _fake_for(pipeline, who, inputs, outputs, rows, dtype), lib=_LIB)
    if _EXT is not None:
        twin = f"_py__{name}"

        def twin_impl(*tensors):
            TWIN_CALLS[0] += 1
            return impl(*tensors)

        _LIB.define(f"{twin}({args}) -> {result}")
        _LIB.impl(twin, twin_impl, "CPU")
        _LIB.impl(twin, twin_impl, "CUDA")
        for i in rows or ():
            if i < len(inputs):
                flags |= 1 << (_ROW_ARGS + i)
        _EXT.register_op(name, index, list(inputs) + list(outputs), len(inputs),
                         flags | (_ROWS if rows is not None else 0))
    else:
        _LIB.impl(name, impl, "CPU")
        _LIB.impl(name, impl, "CUDA")
        _register_autograd(name, impl)
    return getattr(torch.ops.fuselab, name)


def op_name(pipeline, schedule, target, dtype="float32"):
    """The name of a variant's op: <pipeline>__<schedule>__<target>[__<dtype>], the dtype only
    where it is not float32 (a valid identifier: every part is one)."""
    return f"{pipeline}__{schedule}__{target}" + ("" if dtype == "float32" else f"__{dtype}")


def _register_variant(v):
    k = kernel(v["pipeline"], v["schedule"], v["target"], v["dtype"])
    outputs = [None] * len(k.outputs)
    call = k.call

    def impl(*tensors):
        return call([*tensors, *outputs])

    name = op_name(k.pipeline, k.schedule, k.target, k.dtype)
    flags = (_SLOW_ONLY if _host_params(k.record) else 0) | (_CUDA if k.target == "cuda" else 0)
    _OPS[(k.pipeline, k.schedule, k.target, k.dtype)] = _define(
        name, k.pipeline, k.name, k.inputs, k.outputs, impl, k.rows, _TORCH_DTYPES[k.dtype],
        k._index, flags)


def _register_pipeline(pipeline, targets):
    """torch.ops.fuselab.<pipeline>: per call, the pipeline kernel of the tensors' device."""
    kernels = {t: PipelineKernel(pipeline, t) for t in targets}
    for t, k in kernels.items():
        _PIPELINE_KERNELS[(pipeline, t)] = k
    any_k = next(iter(kernels.values()))
    cpu, cuda = kernels.get("cpu"), kernels.get("cuda")
    outputs = [None] * len(any_k.outputs)

    def impl(*tensors):
        k = cuda if tensors[0].is_cuda else cpu
        if k is None:
            raise Error(f"{pipeline}: no strategy is built for the device of its input "
                        f"'{any_k.inputs[0]}' ({tensors[0].device}); built for: "
                        f"{' '.join(sorted(kernels))}")
        result = k.call([*tensors, *outputs])
        decision = k.decision
        if _EXT is not None and decision is not None and not decision[2]:
            # the C++ kernel's fast path takes the next call of these inputs
            _CHOSEN[(pipeline, k.target, decision[0])] = decision[1]
            _EXT.remember(pipeline, decision[0], list(tensors))
        return result

    _OPS[pipeline] = _define(pipeline, pipeline, pipeline, any_k.inputs, any_k.outputs, impl,
                             any_k.rows, flags=_PIPELINE)


for _v in variants():
    _register_variant(_v)

for _p in dict.fromkeys(v["pipeline"] for v in variants()):
    _targets = sorted({v["target"] for v in variants() if v["pipeline"] == _p} & {"cpu", "cuda"})
    if _targets and not hasattr(torch.ops.fuselab, _p):
        _register_pipeline(_p, _targets)


def chosen(pipeline, device="cpu"):
    """What torch.ops.fuselab.<pipeline> last ran on tensors of this device ("cpu" or "cuda"):
    the .chosen dict of its pipeline kernel, None before its first call there."""
    target = str(device).split(":")[0]
    k = _PIPELINE_KERNELS.get((pipeline, target))
    if k is None:
        return None
    if _EXT is not None:  # what the C++ kernel's fast path ran last, if it did
        index = _EXT.last_chosen(pipeline, target == "cuda")
        if index >= 0 and (pipeline, target, index) in _CHOSEN:
            return _CHOSEN[(pipeline, target, index)]
    return k.chosen


def op(pipeline, schedule=None, target=None, dtype=None):
    """torch.ops.fuselab.<pipeline>__<schedule>__<target>[__<dtype>] (target None: "auto"; dtype
    None: float32 where the strategy is built in it, else its only type), or with the schedule
    left out the pipeline's op torch.ops.fuselab.<pipeline> (its target follows the tensors'
    device, its storage type theirs)."""
    if schedule is None:
        if target is not None or dtype is not None:
            raise Error(f"{pipeline}: the pipeline's op takes its target and storage type from "
                        f"the tensors; name a schedule to pick a variant of one target and type")
        try:
            return _OPS[pipeline]
        except KeyError:
            raise Error(f"no pipeline '{pipeline}' is built (see fuselab.variants())") from None
    k = kernel(pipeline, schedule, target or "auto", dtype)  # raises fuselab.Error: what exists
    if k.dtype is None:  # several types built, none named
        if "float32" not in k.dtypes and len(k.dtypes) > 1:
            raise Error(f"{k.name} is built for {', '.join(k.dtypes)}: name the dtype")
        k = kernel(pipeline, schedule, k.target, "float32" if "float32" in k.dtypes
                   else k.dtypes[0])
    return _OPS[(k.pipeline, k.schedule, k.target, k.dtype)]
