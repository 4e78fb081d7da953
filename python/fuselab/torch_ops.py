"""Every fuselab variant as a PyTorch custom operator, so that it can be called inside
torch.compile'd code (fullgraph too):

    import fuselab.torch_ops
    y = torch.ops.fuselab.conv_relu_pool__tiled__cuda(x, w, b)      # inputs in the variant's order
    fuselab.torch_ops.op("add_relu", "fused", "cuda")(a, b)          # the same, by names

The operators are functional (they return new outputs), registered through torch.library with a
fake implementation that sizes the outputs from the inputs' shapes, so the compiler can trace
them without running anything. Each runs on PyTorch's current stream.
"""
import torch

from ._kernel import kernel, variants

_LIB = torch.library.Library("fuselab", "DEF")
_OPS = {}


def _schema_name(arg):
    return arg + "_" if arg in ("in", "out", "input") else arg  # Python keywords and clashes


def _register(v):
    k = kernel(v["pipeline"], v["schedule"], v["target"])
    name = f"{k.pipeline}__{k.schedule}__{k.target}"
    args = ", ".join(f"Tensor {_schema_name(n)}" for n in k.inputs)
    result = "Tensor" if len(k.outputs) == 1 else "(" + ", ".join("Tensor" for _ in k.outputs) + ")"
    _LIB.define(f"{name}({args}) -> {result}")

    def impl(*tensors):
        return k(**dict(zip(k.inputs, tensors)))

    def fake(*tensors):
        shapes = k.output_shapes(**{n: tuple(int(s) for s in t.shape)
                                    for n, t in zip(k.inputs, tensors)})
        outs = [tensors[0].new_empty(shapes[o], dtype=torch.float32) for o in k.outputs]
        return outs[0] if len(outs) == 1 else tuple(outs)

    _LIB.impl(name, impl, "CPU")
    _LIB.impl(name, impl, "CUDA")
    torch.library.register_fake(f"fuselab::{name}", fake, lib=_LIB)
    _OPS[(k.pipeline, k.schedule, k.target)] = getattr(torch.ops.fuselab, name)


for _v in variants():
    _register(_v)


def op(pipeline, schedule, target):
    """torch.ops.fuselab.<pipeline>__<schedule>__<target>."""
    try:
        return _OPS[(pipeline, schedule, target)]
    except KeyError:
        kernel(pipeline, schedule, target)  # raises fuselab.Error listing what exists
        raise
