"""fuselab's kernels from Python: numpy arrays, PyTorch tensors (CPU or CUDA) and anything with
``__dlpack__``, read and written in place.

    import fuselab
    fuselab.variants()                                   # what `fuselab list` shows, as records
    k = fuselab.kernel("conv_relu_pool", "tiled", target="cuda")
    y = k(input=x, weights=w, bias=b)                    # the output; a tuple where there are several
    k(input=x, weights=w, bias=b, out=y)                 # or into given outputs, by name
    k = fuselab.kernel("conv_relu_pool")                 # the pipeline: its strategy chosen per call
    y = k(input=x, weights=w, bias=b); k.chosen          # what ran, and why
    y = fuselab.kernel("softmax")(x=x)                   # x [*, N]: float32, float16, bfloat16
    out, h = fuselab.kernel("rmsnorm_residual")(x=x, residual=r, w=w)    # the same shape and type
    k = fuselab.kernel("layernorm", "block_row", "cuda", dtype="bfloat16")   # one variant

Storage types: every variant has one (its record's "dtype": float32, bfloat16 or float16; its
name a fourth part where it is not float32, "softmax/block_row/cuda/bfloat16"). bfloat16 is
read in place as its bits: torch.bfloat16 tensors, numpy uint16 arrays, ml_dtypes.bfloat16
arrays. The row pipelines (softmax, rmsnorm_residual, layernorm) take [*, N] of any leading
shape and return their outputs in x's shape and type (_kernel.py says how they are flattened).

CUDA tensors are handed to the kernel as device pointers with their strides (no host copy, no
wait) on PyTorch's current stream, in the device's primary context, which is PyTorch's. Host
memory given to a CUDA variant is copied to the device and back. Outputs not given are allocated
as the same kind of object as the inputs, on the same device. Every failure raises
``fuselab.Error`` with the runtime's message, naming the variant and the problem.

The package is pure Python over ``libfuselab.so`` (the C ABI in fuselab_c.h, built with the
project), so it runs in any Python 3 with ctypes: the project's .venv, or a GPU machine's Python
with PyTorch where nothing can be installed.
"""
from ._lib import Error, info
from ._kernel import Kernel, PipelineKernel, kernel, variants, workloads

__all__ = ["Error", "Kernel", "PipelineKernel", "kernel", "variants", "workloads", "cuda_status"]


def cuda_status():
    """{"usable": bool, "reason": why not, "device": its name} of the CUDA device fuselab uses."""
    return dict(info()["cuda"])
