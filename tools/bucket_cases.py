#!/usr/bin/env python3
"""The cases of a row-length bucket search (issue 30): for each row length N, the rows_forms.h forms
cut by the bucket B = the next power of two at or above N (a constant for every loop of the row:
rows_common.h, split_row), beside the shipped strategies. Prints `--ns ... --cases ...` for
tools/row_search.cpp (gpu/row_search.sh: SEARCH_ARGS="$(python3 tools/bucket_cases.py)").

    bucket_cases.py [--ops softmax,rmsnorm_residual,layernorm] [--dtypes float32,bfloat16,float16]
                    [--ns 256,1000,...]
"""
import argparse

SHIPPED = ["block_row", "warp_row", "block_row_wide"]


def forms(n, elem_bytes):
    v = 16 // elem_bytes
    b = 1
    while b < n:
        b *= 2
    out = []
    for rows, most in ((4, 2048), (2, 1024)):
        if 32 * v <= b <= most:
            out.append(f"warp_r{rows}_u0_o0_b{b}")
    for t, least in ((128, 128 * v), (256, 256 * v)):
        bb = max(b, least)
        if bb <= 32768:
            out.append(f"block_t{t}_u0_o0_b{bb}")
        if bb * elem_bytes <= 40960:  # rows_forms.h: kStagedBytes
            out.append(f"block_t{t}_u0_o0_staged_b{bb}")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", default="softmax,rmsnorm_residual,layernorm")
    ap.add_argument("--dtypes", default="float32,bfloat16,float16")
    ap.add_argument("--ns", default="256,1000,1024,2048,3000,4096,4099,8192,16384")
    a = ap.parse_args()
    ns = [int(x) for x in a.ns.split(",")]
    cases = []
    for op in a.ops.split(","):
        for dt in a.dtypes.split(","):
            eb = 4 if dt == "float32" else 2
            for n in ns:
                for c in SHIPPED + forms(n, eb):
                    cases.append(f"{op}:{dt}:{n}:{c}")
    forms_all = sorted({c.split(":")[3] for c in cases} - set(SHIPPED))
    print(f"--no-grid --ops {a.ops} --dtypes {a.dtypes} --ns {a.ns} "
          f"--forms {','.join(forms_all)} --cases {','.join(cases)}")


if __name__ == "__main__":
    main()
