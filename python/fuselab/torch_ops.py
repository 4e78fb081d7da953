"""Every fuselab variant, and every pipeline, as a PyTorch custom operator, so that it can be
called inside torch.compile'd code (fullgraph too) and captured into CUDA graphs:

    import fuselab.torch_ops
    y = torch.ops.fuselab.conv_relu_pool(x, w, b)                   # the pipeline: the strategy
                                                                    # chosen per call
    y = torch.ops.fuselab.conv_relu_pool__tiled__cuda(x, w, b)      # one variant, inputs in order
    fuselab.torch_ops.op("add_relu", "fused", "cuda")(a, b)          # the same, by names
    fuselab.torch_ops.op("add_relu")                                 # the pipeline's op

The operators are functional (they return new outputs), defined with torch.library.Library
("fuselab", "DEF") and implemented for CPU and CUDA, with a fake implementation that sizes the
outputs from the inputs' shapes (fuselab_output_shapes), so the compiler can trace them without
running anything. A pipeline's op runs the strategy fuselab_choose picks for the tensors' shapes,
dtype and device (CPU tensors: target cpu; CUDA tensors: cuda), the decision kept per shape as
fuselab.kernel(pipeline) keeps it. Each runs on PyTorch's current stream.
"""
import torch

from ._kernel import PipelineKernel, kernel, output_shapes_of, variants
from ._lib import Error

_LIB = torch.library.Library("fuselab", "DEF")
_OPS = {}
_PIPELINE_KERNELS = {}  # (pipeline, target) -> the PipelineKernel its op calls


def _schema_name(arg):
    return arg + "_" if arg in ("in", "out", "input") else arg  # Python keywords and clashes


def _fake_for(pipeline, who, inputs, outputs):
    """The fake (meta) implementation of an op of `pipeline`: outputs sized from the inputs'
    shapes, float32, on the first input's device."""
    single = len(outputs) == 1

    def fake(*tensors):
        shapes = output_shapes_of(pipeline, {n: tuple(int(s) for s in t.shape)
                                             for n, t in zip(inputs, tensors)}, who)
        outs = [tensors[0].new_empty(shapes[o], dtype=torch.float32) for o in outputs]
        return outs[0] if single else tuple(outs)

    return fake


def _define(name, pipeline, who, inputs, outputs, impl):
    """torch.ops.fuselab.<name>(inputs...) -> outputs: defined, implemented for CPU and CUDA by
    `impl`, with its fake implementation."""
    args = ", ".join(f"Tensor {_schema_name(n)}" for n in inputs)
    result = "Tensor" if len(outputs) == 1 else "(" + ", ".join("Tensor" for _ in outputs) + ")"
    _LIB.define(f"{name}({args}) -> {result}")
    _LIB.impl(name, impl, "CPU")
    _LIB.impl(name, impl, "CUDA")
    torch.library.register_fake(f"fuselab::{name}", _fake_for(pipeline, who, inputs, outputs),
                                lib=_LIB)
    return getattr(torch.ops.fuselab, name)


def _register_variant(v):
    k = kernel(v["pipeline"], v["schedule"], v["target"])
    outputs = [None] * len(k.outputs)
    call = k.call

    def impl(*tensors):
        return call([*tensors, *outputs])

    name = f"{k.pipeline}__{k.schedule}__{k.target}"
    _OPS[(k.pipeline, k.schedule, k.target)] = _define(name, k.pipeline, k.name, k.inputs,
                                                       k.outputs, impl)


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
        return k.call([*tensors, *outputs])

    _OPS[pipeline] = _define(pipeline, pipeline, pipeline, any_k.inputs, any_k.outputs, impl)


for _v in variants():
    _register_variant(_v)

for _p in dict.fromkeys(v["pipeline"] for v in variants()):
    _targets = sorted({v["target"] for v in variants() if v["pipeline"] == _p} & {"cpu", "cuda"})
    if _targets and not hasattr(torch.ops.fuselab, _p):
        _register_pipeline(_p, _targets)


def chosen(pipeline, device="cpu"):
    """What torch.ops.fuselab.<pipeline> last ran on tensors of this device ("cpu" or "cuda"):
    the .chosen dict of its pipeline kernel, None before its first call there."""
    k = _PIPELINE_KERNELS.get((pipeline, str(device).split(":")[0]))
    return None if k is None else k.chosen


def op(pipeline, schedule=None, target=None):
    """torch.ops.fuselab.<pipeline>__<schedule>__<target> (target None: "auto"), or with the
    schedule left out the pipeline's op torch.ops.fuselab.<pipeline> (its target follows the
    tensors' device)."""
    if schedule is None:
        if target is not None:
            raise Error(f"{pipeline}: the pipeline's op takes its target from the tensors' "
                        f"device; name a schedule to pick a variant of one target")
        try:
            return _OPS[pipeline]
        except KeyError:
            raise Error(f"no pipeline '{pipeline}' is built (see fuselab.variants())") from None
    k = kernel(pipeline, schedule, target or "auto")  # raises fuselab.Error listing what exists
    return _OPS[(k.pipeline, k.schedule, k.target)]
