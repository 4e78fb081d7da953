/* fuselab's C ABI: libfuselab.so, which the Python package loads with ctypes. Plain C, so that
 * any interpreter (the project's .venv, the GPU machine's Python with PyTorch) loads it without
 * compiling anything. Every function returns 0 on success and 1 on failure, with the runtime's
 * message (naming the variant and the problem) in `err`. Nothing aborts. */
#ifndef FUSELAB_C_H
#define FUSELAB_C_H

#include <stddef.h>
#include <stdint.h>

#ifndef FUSELAB_C_API
#define FUSELAB_C_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* One argument, in numpy's and PyTorch's order: shape and strides outermost first, strides in
 * elements. `data` is a host pointer, or a CUdeviceptr of the device's primary context when
 * `device` is 1. The element type is (type_code, bits), as halide_type_t has it: the storage
 * types are float32 (2, 32), float16 (2, 16) and bfloat16 as its bits, (1, 16): uint16 holding
 * the bytes torch.bfloat16 stores, which is how every bfloat16 variant takes it. Halide's own
 * bfloat16 code (4, 16), as DLPack and some frameworks describe such an array, is taken as
 * (1, 16), the same bytes. */
typedef struct fuselab_arg {
    const char *name;
    void *data;
    int32_t device; /* 0: host memory; 1: CUDA device memory */
    int32_t ndim;
    const int64_t *shape;
    const int64_t *strides;
    int32_t type_code; /* halide_type_code_t: 0 int, 1 uint, 2 float, 4 bfloat (taken as uint) */
    int32_t bits;
} fuselab_arg;

/* Everything registered, as JSON: {"variants": [...], "workloads": [...], "cuda": {...},
 * "dtypes": ["float32", "bfloat16", "float16"]}. Each variant record carries its "dtype" (the
 * storage type of its arguments) and its "name" ("add_relu/fused/cuda"; a storage type other
 * than float32 is a fourth part: "softmax/block_row/cuda/bfloat16"); its position in "variants"
 * is the index fuselab_invoke takes. The string lives as long as the library. */
FUSELAB_C_API const char *fuselab_info(void);

/* The index (for fuselab_invoke) of the variant (pipeline, schedule, target, dtype); dtype NULL
 * or "" is "float32". -1 when there is none, with the runtime's message in `err` saying what
 * exists (the schedules of that pipeline and target, or its storage types). */
FUSELAB_C_API int fuselab_find_variant(const char *pipeline, const char *schedule,
                                       const char *target, const char *dtype, char *err,
                                       size_t err_len);

/* Runs variant `index` (its position in fuselab_info's "variants") on `args`, on `stream` (a
 * CUstream; 0: the legacy default stream). Device memory is used in place, on the stream, with
 * no copy and no wait. Host memory given to a CUDA variant is copied to the device and, for
 * outputs, back (then the call has waited for the stream). */
FUSELAB_C_API int fuselab_invoke(int index, int nargs, const fuselab_arg *args, void *stream, char *err,
                   size_t err_len);

/* The output shapes (numpy order) that inputs of these shapes imply for `pipeline`, as JSON
 * {"out": [K, H, W], ...} in `json`. Only `name`, `ndim` and `shape` of the inputs are read. */
FUSELAB_C_API int fuselab_output_shapes(const char *pipeline, int nargs, const fuselab_arg *inputs, char *json,
                          size_t json_len, char *err, size_t err_len);

/* The strategy of `pipeline` for these arguments on `target` ("cpu", "cuda" or "auto"), as
 * choose.h chooses it among the variants of the arguments' storage type (a tuning record, else
 * with `tune` 1 or FUSELAB_TUNE=1 every strategy timed now on these buffers, else the cost
 * model), as JSON {"index": I (for fuselab_invoke), "variant": "p/s/t" (or "p/s/t/dtype"),
 * "schedule": s, "dtype": d, "source": ..., "reason": ...} in `json`. Every argument,
 * outputs included, is described and validated as fuselab_invoke would; their data are read (and
 * the outputs written) only when tuning. */
FUSELAB_C_API int fuselab_choose(const char *pipeline, const char *target, int nargs,
                                 const fuselab_arg *args, int tune, char *json, size_t json_len,
                                 char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif /* FUSELAB_C_H */
