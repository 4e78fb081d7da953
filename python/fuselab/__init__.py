"""fuselab's kernels from Python: numpy arrays, PyTorch tensors (CPU or CUDA) and anything with
``__dlpack__``, read and written in place.

    import fuselab
    fuselab.variants()                                   # what `fuselab list` shows, as records
    k = fuselab.kernel("conv_relu_pool", "tiled", target="cuda")
    y = k(input=x, weights=w, bias=b)                    # the output; a tuple where there are several
    k(input=x, weights=w, bias=b, out=y)                 # or into given outputs, by name
    k = fuselab.kernel("conv_relu_pool")                 # the pipeline: its strategy chosen per call
    y = k(input=x, weights=w, bias=b); k.chosen          # what ran, and why

CUDA tensors are handed to the kernel as device pointers with their strides (no host copy, no
wait) on PyTorch's current stream, in the device's primary context, which is PyTorch's. Host
memory given to a CUDA variant is copied to the device and back. Outputs not given are allocated
as the same kind of object as the inputs, on the same device. Every failure raises
``fuselab.Error`` with the runtime's message, naming the variant and the problem.

The package is pure Python over ``libfuselab.so`` (the C ABI in ../fuselab_c.h, built with the
project), so it runs in any Python 3 with ctypes: the project's .venv, or a GPU machine's Python
with PyTorch where nothing can be installed.
"""
from ._lib import Error, info
from ._kernel import Kernel, PipelineKernel, kernel, variants, workloads

__all__ = ["Error", "Kernel", "PipelineKernel", "kernel", "variants", "workloads", "cuda_status"]


def cuda_status():
    """{"usable": bool, "reason": why not, "device": its name} of the CUDA device fuselab uses."""
    return dict(info()["cuda"])
