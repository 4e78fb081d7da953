#!/usr/bin/env bash
# s46: run with no H200 call of this session (so s43's sources, the current build's choice: the
# far tier), and with results/cpu_avx2.json in measured.json (s45 had added it there by its own
# zen3_rows/assemble.sh; s45's copy of this script left it out). s45's header follows.
# results/h200.{json,md,png}, h200_rows.png, models.json and measured.json (s45): s43's assembly
# (results/runs/2026-12-06-gpu-s43/assemble.sh, kept below; its s43 calls ran on an H100 and so
# add nothing here) with s45's p1/ and h1/ records first, where their machine.txt says H200:
# the build of 937f76e (s39's exact rows, s40's by_vector cut and s41's staged_row_2k limit; the
# CUDA kernels unchanged since s42), every fused row strategy at the suite's and five hidden row
# lengths beside the peers of the same call (p1/), and at every other row shape of the table and
# ten hidden lengths (h1/). In the script below, "s43" names this session's run folder.
#   bash results/runs/2026-12-07-gpu-s47/assemble.sh   (from the repository root; needs build/)
#
# results/h200.{json,md,png}, h200_rows.png, models.json and measured.json (s43): s40's assembly
# (results/runs/2026-12-06-gpu-s40/assemble.sh, every source it names) with s43's records first,
# from the H200 with the build of s42's end (e061cbf: s39's exact rows, s40's by_vector cut and
# s41's staged_row_2k limit, none timed on the H200 before):
#   p1/suite_*.json, p1/hidden_*.json  every fused row strategy at the suite's row lengths (256 to
#                   262144, 2048 and 8192 among them) and five hidden ones, 2^26 elements, the three
#                   types, beside p1/peers_rows.json and p1/peers_hidden.json (the same call),
#                   which go before every earlier peers file;
#   h1/table_*.json, h1/hidden_*.json  every fused row strategy at every other row shape of the
#                   table (187 a pipeline) and ten hidden row lengths, the three types; their
#                   records at the shapes whose peers were timed elsewhere (the suite's and the
#                   six unnamed) are left out, so that fuselab there stays beside its peers' run.
# The records of the same (shape, strategy, type) from earlier calls are shadowed (a key's first
# record is kept). s40's header follows.
#   bash results/runs/2026-12-06-gpu-s43/assemble.sh   (from the repository root; needs build/)
#
# results/h200.{json,md,png}, h200_rows.png, models.json and measured.json (s40): s39's assembly
# (results/runs/2026-12-06-gpu-s39/assemble.sh, every source it names), the same records, under
# the choice with the exact-length term (suite/rows.cpp: cuda_choice_exact_weight), so that
# h200.json's choice list and s40's choice.txt are its leave-one-out; h100.json is s40's
# assemble_h100.sh's (measured.json from the three tables, last). No H200 came in s40: the
# H200's records are s38's and earlier, kernels before s39's exact rows and s40's by_vector cut.
#   bash results/runs/2026-12-06-gpu-s40/assemble.sh   (from the repository root; needs build/)
#
# results/h200.{json,md,png}, h200_rows.png, models.json and measured.json (s39): s38's assembly
# (results/runs/2026-12-06-gpu-s38/assemble.sh, every source it names), the same records, under
# the choice with the chunk-fill term (suite/rows.cpp: cuda_choice_fill_weight), so that
# h200.json's choice list and s39's choice.txt are its leave-one-out; h100.json is s39's
# assemble_h100.sh's. s38's header follows.
#   bash results/runs/2026-12-06-gpu-s39/assemble.sh   (from the repository root; needs build/)
#
# results/h200.{json,md,png}, h200_rows.png, models.json and measured.json (s38): s33's assembly
# (results/runs/2026-12-05-h200-s33/assemble.sh, every source it names) with s38's records first,
# all from the H200 with the build of 7dcbb15 (s36's and s37's kernel changes, and staged_row_16k
# and staged_row_4k, none timed on the H200 before):
#   g4/grid_*.json  every fused row strategy at the suite's six shapes (2^26 elements), the three
#                   types, beside g4/peers_rows.json (torch eager, torch.compile, Liger and the
#                   copy, the same call), which goes before every earlier peers file;
#   g7/grid_*.json  every fused row strategy at every row shape the table held (187 a pipeline:
#                   s22's grid, the short rows, the suite's and seed 2406's), the three types, but
#                   for the six unnamed shapes of h200.md's peer tables, whose peers were timed in
#                   earlier calls beside the records kept there (only same-run ratios count).
# The records of the same (shape, strategy, type) from earlier calls are shadowed (a key's first
# record is kept). s33's header follows.
#   bash results/runs/2026-12-06-gpu-s38/assemble.sh   (from the repository root; needs build/)
#
# results/h200.{json,md,png}, h200_rows.png, models.json and measured.json (s33): s29's assembly
# (results/runs/2026-12-05-h200-s29/assemble.sh, every source it names) with s33's records first:
# b/grid_*.json (every fused strategy of the three row pipelines, adjacent_warp among them, the
# three types, at s22's grid of 29 N, the suite's six N and the six unnamed N) and b/short_*.json
# (N = 4 to 160 at 2^23 elements), tools/row_grid.py on the H200, build 63604f1, whose CUDA
# kernels are s29's byte for byte (no schedule or generator changed since); b/'s records at the
# suite's six shapes and the six unnamed ones are left out: s33 timed no peer, and h200.md
# compares fuselab there with peers timed beside the records already in the table (only same-run
# ratios count). measured.json holds the H200's, the CPU's and the H100's tables (s32);
# models.json the H200's and the CPU's fits. s29's header follows.
#   bash results/runs/2026-12-05-h200-s33/assemble.sh   (from the repository root; needs build/)
#
# results/h200.{json,md,png}, h200_rows.png, models.json and measured.json: s28's assembly
# (results/runs/2026-12-05-h200-s28/assemble.sh, every source it names), the same records: s29
# was lent no GPU time after its JIT searches (a/, b/), so nothing new was timed as built. What
# changes is the choice (runtime/fuselab/measured.h: the alignment class up to the 16-byte vector,
# the whole-vector term and the coverage rule), so measured.json carries each feature's
# vector_weight and choice.txt is the leave-one-out table under the new rule. c.sh, the call that
# would time the new strategies as built, is kept for a session with a GPU; once its c/ exists,
# its grids and peers go first (the globs below). s28's header follows.
#   bash results/runs/2026-12-05-h200-s29/assemble.sh   (from the repository root; needs build/)
#
# results/h200.{json,md,png}, h200_rows.png, models.json and measured.json: s26's assembly
# (results/runs/2026-12-04-h200-s26/assemble.sh, every source it names) with s28's records first:
# b/grid.json (every fused rmsnorm_residual strategy, adjacent_row and adjacent_staged_2k among
# them, the three types, at s22's grid, the suite's six N and the six unnamed N) and
# b/peers_unnamed.json (the rmsnorm_residual peers and the copy at the unnamed N, same call).
# Every other CUDA kernel is s26's byte for byte. s26's header follows.
#   bash results/runs/2026-12-05-h200-s28/assemble.sh   (from the repository root; needs build/)
#
# results/h200.{json,md,png}, h200_rows.png, models.json and measured.json: s25's assembly
# (results/runs/2026-12-04-h200-s25/assemble.sh, every source it names) with s26's float16 records
# first: m/grid_old.json (softmax's warp_row and warp_regs_1k as shipped: their float16 kernels are
# 5a2a2b6's byte for byte, params half_route=aligned, timed in m/ beside the builds that were not
# shipped) and k/grid_new.json (every other fused strategy, float16 by the hardware: s22's grid,
# the suite's six N and the six unnamed N), and k/peers_unnamed.json (the float16 peers and
# the copy at the unnamed N, same call as k/'s fuselab records) before s25's. Older float16 records
# at rows that are not whole aligned vectors are left out (their kernels changed). s25's header
# follows.
#   bash results/runs/2026-12-04-h200-s26/assemble.sh   (from the repository root; needs build/)
#
# results/h200.{json,md,png}, h200_rows.png, models.json and measured.json: s24's assembly
# (results/runs/2026-12-04-h200-s24/assemble.sh, every source it names) with s25's records first:
# e1/grid_*_new.json (the strategies whose kernels for rows that are not whole aligned vectors
# changed: CHANGED below, at s22's 87 grid shapes), e2/suite_unnamed.json (every fused strategy at
# the suite's six N and six N it never names) and e2/heldout_new.json (seed 2406's shapes, the
# changed strategies), and e2/peers_unnamed.json (the peers and the copy at the unnamed N, same
# call as e2's fuselab records) in place of s24's. A changed strategy's older records at rows
# that are not whole aligned vectors are left out (their kernels changed); at aligned rows its
# kernels are 2aa169a's, byte for byte. s24's header follows.
#   bash results/runs/2026-12-04-h200-s25/assemble.sh   (from the repository root; needs build/)
#
# results/h200.{json,md,png}, h200_rows.png, models.json and measured.json: s23's assembly
# (results/runs/2026-12-04-h200-s23/assemble.sh, every source it names) with s24's records first:
# b/grid_*.json and b/suite_unnamed.json (every fused strategy at s22's 87 grid shapes, the
# suite's six N and six N it never names, on the padded build), b/heldout.json (seed 2406, scored
# before it joined: heldout_score.txt; S24_NO_HELDOUT=1 leaves it out for that),
# b/peers_unnamed.json (the peers and the copy at the unnamed N, same call), and b/'s host costs
# of a call (issue 28: the Python paths timed in turn within each repeat, then the C++ loop).
# The strategies shipped padded (PADDED below: softmax's and layernorm's staged_row_8k,
# block_row_2k and block_row_4k) keep only this call's records: their older ones are of the
# unpadded kernels; the other block forms b/ timed on both builds are shipped unpadded, so their
# records come from b/old_* (13e372e's library, same call) first. s23's header follows.
#   bash results/runs/2026-12-04-h200-s24/assemble.sh   (from the repository root; needs build/)
#
# results/h200.{json,md,png}, h200_rows.png, models.json and measured.json: s22's assembly
# (results/runs/2026-12-03-h200-s22/assemble.sh, every source it names) with s23's records first:
# f/grid_wr.json (warp_regs_1k as shipped: padded, and its single-output pipelines' output cut by
# the vector first; the table's 41 shapes where it runs, N <= 1024, the three types) and
# f/short.json (every fused strategy at N = 184, 280, 736, 1000, 256 and 1024, 2^25 elements)
# beside f/peers_short.json (the peers and the copy of the same call). Every older warp_regs_1k
# record is left out. The host cost of a call from a/, the Python layers and the C++ loop in one
# call (issue 28; e/ measured it again: notes.txt). s22's header follows.
#   bash results/runs/2026-12-04-h200-s23/assemble.sh   (from the repository root; needs build/)
#
# results/h200.{json,md,png}, h200_rows.png, models.json and measured.json: s21's assembly
# (results/runs/2026-12-03-h200-s21/assemble.sh) with s22's row grid first: b/grid_*.json
# (tools/row_grid.py: 29 row lengths from 184 to 118624 at 2^21, 2^23 and 2^25 elements, every
# fused strategy, three types) and b/heldout.json (16 random shapes, seed 2203, scored before
# they joined the table: notes.txt). s21's header follows.
#
# s21: results/h200.{json,md,png}, h200_rows.png, models.json and measured.json: s20's assembly
# (results/runs/2026-12-03-h200-s20/assemble.sh, every source it names) with s21's records first (a
# cell's first record is kept): a/'s grid of chunked_row, block_row_wide and staged_row_wide at
# N = 16384 .. 262144 in the three types (rmsnorm_residual's chunked_row now writing h in its first
# kernel), and a/'s peers and copy at N = 65536 and 262144, from the same call; the host cost of a
# call from c/ where it ran. The banded candidates of a/ and b/ (chunked_c*) are not shipped and
# are left out.
#   bash results/runs/2026-12-03-h200-s21/assemble.sh   (from the repository root; needs build/)
set -euo pipefail
s8=results/runs/2026-12-01-h200-s8
s16=results/runs/2026-12-03-h200-s16
s17=results/runs/2026-12-03-h200-s17
s18=results/runs/2026-12-03-h200-s18
s19=results/runs/2026-12-03-h200-s19
s20=results/runs/2026-12-03-h200-s20
s21=results/runs/2026-12-03-h200-s21
s22=results/runs/2026-12-03-h200-s22
s23=results/runs/2026-12-04-h200-s23
s24=results/runs/2026-12-04-h200-s24
s25=results/runs/2026-12-04-h200-s25
s26=results/runs/2026-12-04-h200-s26
s28=results/runs/2026-12-05-h200-s28
s29=results/runs/2026-12-05-h200-s29
s33=results/runs/2026-12-05-h200-s33
s38=results/runs/2026-12-06-gpu-s38
s39=results/runs/2026-12-06-gpu-s39
s40=results/runs/2026-12-06-gpu-s40
s43=results/runs/2026-12-07-gpu-s47  # this session's calls
run=$s19
stage="$(mktemp -d)"
cat "$s8/machine.txt" > "$stage/machine.txt"
printf '\n(row reductions: 2026-12-05, s28 call b for rmsnorm_residual (every fused strategy at the grid, suite and unnamed shapes, the three types, and its peers there); 2026-12-04, s26 calls k, m and n for float16 (every fused strategy at the grid, suite and unnamed shapes, and the float16 peers there); s25 calls e1 and e2 for the staged and padded block forms changed there, every fused strategy at the suite and unnamed shapes and the peers there; s24 call b for every fused strategy at the grid, suite and unnamed shapes; s23 call f for warp_regs_1k and N = 184, 280, 736 and 1000; 2026-12-03, s21 call a for N = 16384 .. 262144 and the peers at 65536 and 262144; s20 call c for chunked_row at the other N; s19, calls a, b and c; where none has a record, s16 to s18)\n' >> "$stage/machine.txt"
if grep -qs H200 "$s43/p1/machine.txt" "$s43/h1/machine.txt"; then
    printf '\n(row reductions, first: 2026-12-07, s47 calls p1 (the suite and five hidden shapes, beside the peers) and h1 (every other row shape); then the sources below)\n' >> "$stage/machine.txt"
fi
for c in p1 h1; do
    if grep -qs H200 "$s43/$c/machine.txt"; then cat "$s43/$c/machine.txt" >> "$stage/machine.txt"; fi
done
printf '\n(row reductions, first: 2026-12-06, s38 calls g4 (the suite shapes and the peers) and g7 (every other row shape); then 2026-12-05, s33 call b, every fused row strategy at the grid, suite, unnamed and short shapes)\n' >> "$stage/machine.txt"
cat "$s38/g4/machine.txt" "$s38/g7/machine.txt" "$s33/b/machine.txt" >> "$stage/machine.txt"
[ -f "$s29/c/machine.txt" ] && cat "$s29/c/machine.txt" >> "$stage/machine.txt"
cat "$s28/b/machine.txt" "$s26/k/machine.txt" "$s26/m/machine.txt" "$s26/n/machine.txt" "$s25/e1/machine.txt" "$s25/e2/machine.txt" "$s24/b/machine.txt" >> "$stage/machine.txt"
cat "$s23/f/machine.txt" >> "$stage/machine.txt"
cat "$s21/a/machine.txt" >> "$stage/machine.txt"
cat "$s20/c/machine.txt" >> "$stage/machine.txt"
cat "$run/b/machine.txt" >> "$stage/machine.txt"
cp "$s8/bench_cuda.json" "$s8/peers.json" "$s8/torch_graph.json" "$s8/torch_torch.json" "$stage/"
cp "$s21/a/peers_rows.json" "$stage/peers_rows.json"
cp "$s38/g4/peers_rows.json" "$stage/peers_rows+s38.json"  # '+' sorts before '.': first
if grep -qs H200 "$s43/p1/machine.txt"; then  # an H100's call goes to h100.json, not here
    cp "$s43/p1/peers_rows.json" "$stage/peers_rows++s43.json"
    cp "$s43/p1/peers_hidden.json" "$stage/peers_rows++s43h.json"
fi
cp "$run/c/peers_rows.json" "$stage/peers_rows_s19.json"
cp "$s23/f/peers_short.json" "$stage/peers_rows_s23.json"
cp "$s25/e2/peers_unnamed.json" "$stage/peers_rows_s25.json"
cp "$s26/k/peers_unnamed.json" "$stage/peers_rows_0s26.json"  # before s25's (sorted names)
cp "$s28/b/peers_unnamed.json" "$stage/peers_rows_00s28.json"  # before s26's
[ -f "$s29/c/peers_unnamed.json" ] && cp "$s29/c/peers_unnamed.json" "$stage/peers_rows_000s29.json"
python3 - "$run" "$s16" "$s17" "$s18" "$stage" "$s20" "$s21" "$s22" "$s23" "$s24" "$s25" "$s26" "$s28" "$s29" "$s33" "$s38" "$s43" <<'PY'
import glob, json, os, sys
run, s16, s17, s18, stage, s20, s21, s22, s23, s24, s25, s26, s28, s29, s33, s38, s43 = sys.argv[1:]
# The suite's six row shapes and the six unnamed ones: h200.md compares fuselab there with the
# peers, timed in earlier calls beside fuselab's records of the same call; s33 ran no peer.
PEER_SIZES = {"256x262144", "1024x65536", "4096x16384", "16384x4096", "65536x1024",
              "262144x256", "1417x23680", "2100x15978", "4664x7194", "5989x5603", "9000x3728",
              "12345x2718"}
# s38: g4's at the suite's shapes (beside its peers), then g7's everywhere but the six unnamed
# shapes (their peers are earlier calls', beside the records kept there).
UNNAMED = {"1417x23680", "2100x15978", "4664x7194", "5989x5603", "9000x3728", "12345x2718"}
h200 = lambda c: os.path.exists(f"{s43}/{c}/machine.txt") and "H200" in open(f"{s43}/{c}/machine.txt").read()
s43_p1 = sorted(glob.glob(f"{s43}/p1/suite_*.json")) + sorted(glob.glob(f"{s43}/p1/hidden_*.json"))
s43_h1 = sorted(glob.glob(f"{s43}/h1/table_*.json")) + sorted(glob.glob(f"{s43}/h1/hidden_*.json"))
s43_p1, s43_h1 = (s43_p1 if h200("p1") else []), (s43_h1 if h200("h1") else [])
s38_suite = sorted(glob.glob(f"{s38}/g4/grid_*.json"))
s38_all = sorted(glob.glob(f"{s38}/g7/grid_*.json"))
s28_new = sorted(glob.glob(f"{s33}/b/grid_*.json")) + sorted(glob.glob(f"{s33}/b/short_*.json"))
s28_new += sorted(glob.glob(f"{s29}/c/grid_*.json")) + [f"{s28}/b/grid.json"]
# s26: float16 by the hardware, but softmax's register forms keep 5a2a2b6's kernels (m/grid_old);
# k/ timed them with the hardware's conversions, m/ and n/ (grid_new) with other routes: not shipped.
s26_m, s26_k = f"{s26}/m/grid_old.json", f"{s26}/k/grid_new.json"
s26_new = [s26_m, s26_k]
SHIPPED_IN = {("softmax", "warp_row"): s26_m, ("softmax", "warp_regs_1k"): s26_m}
# The block forms shipped padded (their row_pad params), and the others that b/ timed on both
# builds: those keep 13e372e's (unpadded) kernels, so their records come from b/old_* first.
PADDED = {(p, s) for p in ("softmax", "layernorm")
          for s in ("staged_row_8k", "block_row_2k", "block_row_4k")}
BOTH = {"staged_row_2k", "staged_row_8k", "staged_row_wide", "block_row_2k", "block_row_4k"}
key = lambda r: (r["workload"], r["size"], r["name"], r.get("dtype"), r.get("kind"))
# s25: the (pipeline, strategy, type)s whose kernels for rows that are not whole aligned vectors
# changed (Form::adjacent in their schedule files); e1/grid_*_new.json is the first build, where
# every one of these strategies in every type had them, e1/grid_*_old.json 2aa169a's, the same
# call; e2/ the build shipped.
B16 = ("bfloat16", "float16")
ALL = ("float32",) + B16
CHANGED = {("softmax", s, d) for s in ("staged_row_2k", "staged_row_8k", "block_row_2k",
                                       "block_row_4k") for d in B16}
CHANGED |= {("softmax", "staged_row_wide", d) for d in ALL}
CHANGED |= {("layernorm", s, d) for s in ("staged_row_2k", "staged_row_wide", "block_row_2k",
                                          "block_row_4k") for d in ALL}
CHANGED |= {("layernorm", "staged_row_8k", d) for d in B16}
e2 = [f"{s25}/e2/{f}" for f in ("suite_unnamed.json", "heldout_new.json")]
e2 += [f"{s25}/e3/suite_unnamed_rms_f16.json"]  # e2 ran out of time before these
e1_new = sorted(glob.glob(f"{s25}/e1/grid_*_new.json"))
e1_old = sorted(glob.glob(f"{s25}/e1/grid_*_old.json"))
s25_new = e2 + e1_new + e1_old


def changed(r):
    return (r["workload"], r["name"], r.get("dtype", "float32")) in CHANGED


def aligned(r):
    """Whether r's rows are whole aligned 16-byte vectors (contiguous rows: N a multiple of V)."""
    n = int(str(r["size"]).split("x")[0])
    return n % (4 if r.get("dtype", "float32") == "float32" else 8) == 0
seen, recs, meta = set(), [], None
held = [] if os.environ.get("S24_NO_HELDOUT") else ["heldout.json"]  # scoring it first
s24_new = sorted(glob.glob(f"{s24}/b/grid_*.json")) + [f"{s24}/b/{f}"
                                                       for f in ["suite_unnamed.json"] + held]
s24_old = [f"{s24}/b/{f}" for f in ["old_grid.json", "old_suite_unnamed.json"]
           + ["old_" + h for h in held]]
new = [f"{s23}/f/grid_wr.json", f"{s23}/f/short.json"]
paths = s43_p1 + s43_h1 + s38_suite + s38_all + s28_new + s26_new + s25_new + s24_new + s24_old + new + sorted(glob.glob(f"{s22}/b/grid_*.json"))
paths += [f"{s22}/b/heldout.json"] if os.path.exists(f"{s22}/b/heldout.json") else []
paths += sorted(glob.glob(f"{s21}/a/grid_*.json"))
paths += sorted(glob.glob(f"{s20}/c/grid_*.json")) + sorted(glob.glob(f"{s20}/c/leaders_*.json"))
paths += sorted(glob.glob(f"{run}/a/grid_*.json")) + sorted(glob.glob(f"{run}/b/grid_*.json"))
paths += sorted(glob.glob(f"{run}/c/bench_*.json")) + sorted(glob.glob(f"{run}/c/random_*.json"))
paths += sorted(glob.glob(f"{s17}/c/staged8k_*.json")) + sorted(glob.glob(f"{s17}/b/grid_*.json"))
paths += sorted(glob.glob(f"{s17}/c/grid_*.json")) + sorted(glob.glob(f"{s17}/d/grid_*.json"))
paths += sorted(glob.glob(f"{s16}/b/bench_*.json"))
paths += sorted(glob.glob(f"{s18}/d/random_*.json"))
for path in paths:
    doc = json.load(open(path))
    if "tool" not in doc["meta"]:  # the bench's meta (row_grid.py's names its tool)
        meta = meta or doc["meta"]
    for r in doc["records"]:
        if "tool" in doc["meta"]:  # row_grid.py's records: the bench's fields it leaves out
            r = {"ok": r.get("error") is None, "median_us": None, "timing": "events", **r}
        if r["name"].startswith(("staged_keep_", "chunked_c")):
            continue  # retired (s19 notes.txt), s21's banded candidates (not shipped)
        if path in s43_p1 or path in s43_h1:
            if path in s43_h1 and r["size"] in PEER_SIZES:
                continue  # beside its peers' run: p1's, or s38's and earlier
            if key(r) not in seen:
                seen.add(key(r)); recs.append(r)
            continue
        if path in s38_suite or path in s38_all:
            if path in s38_all and r["size"] in UNNAMED:
                continue
            if key(r) not in seen:
                seen.add(key(r)); recs.append(r)
            continue
        if path.startswith(s33) and r["size"] in PEER_SIZES:
            continue  # s33 timed no peer: the records beside the peers' own runs stay (below)
        if path in s28_new:  # this session's build: every rmsnorm_residual strategy as shipped
            if key(r) not in seen:
                seen.add(key(r)); recs.append(r)
            continue
        if path in s26_new:  # the build shipped (every strategy's kernels as they are now)
            shipped_in = SHIPPED_IN.get((r["workload"], r["name"]))
            if shipped_in and path != shipped_in:
                continue  # a build these were not shipped from
            if key(r) not in seen:
                seen.add(key(r)); recs.append(r)
            continue
        if r.get("dtype") == "float16" and not aligned(r):
            continue  # float16's kernels before s26's, on rows that are not whole aligned vectors
        if r["name"] == "warp_regs_1k" and path not in new + s24_new + s25_new:
            continue  # the unpadded register form (s23 pads it: generators/row_pad.h)
        padded = (r["workload"], r["name"]) in PADDED
        if padded and path not in s24_new + s25_new:
            continue  # the unpadded block forms (s24 pads them: rows_forms.h)
        if r["name"] in BOTH and not padded and path in s24_new:
            continue  # the padded build's record of a form shipped unpadded
        if not aligned(r) and path not in e2:
            if path in e1_new and not changed(r):
                continue  # e1's first build: these kernels were not shipped
            if path not in e1_new and changed(r):
                continue  # the kernels before s25's for rows that are not whole aligned vectors
        if key(r) not in seen:
            seen.add(key(r)); recs.append(r)
cells = {(r["workload"], r["size"], r.get("dtype", "float32")) for r in recs}
for path in sorted(glob.glob("results/runs/2026-12-02-h200-s13/a/grid_*.json")):
    for r in json.load(open(path))["records"]:
        cell = (r["workload"], r["size"], r.get("dtype", "float32"))
        if (r["workload"], r["name"]) in PADDED:
            continue
        if changed(r) and not aligned(r):
            continue
        if cell[2] != "float16" and cell not in cells and key(r) not in seen:
            seen.add(key(r)); recs.append(dict(r, run="2026-12-02-h200-s13"))
json.dump({"meta": meta, "records": recs}, open(f"{stage}/bench_rows.json", "w"))
s8 = json.load(open(f"{stage}/bench_cuda.json"))
json.dump({"meta": s8["meta"], "records": s8["records"] + recs}, open(f"{stage}/bench_all.json", "w"))
# The Python layers and the C++ loop (fuselab::invoke against Halide's own call), one after the
# other in s23 a/ (issue 28: the records of one run).
co = json.load(open(f"{s24}/b/call_overhead.json"))
co["records"] += json.load(open(f"{s24}/b/overhead_cpp.json"))["records"]
json.dump(co, open(f"{stage}/call_overhead.json", "w"), indent=1)
PY
build/cli/fuselab tune --fit "$stage/bench_all.json" --choice-out "$stage/choice.json" > "$s43/choice.txt"
build/cli/fuselab list --json --target cuda > "$stage/list.json"
rm "$stage/bench_all.json"
python3 results/report.py --run "$stage" --out results
rm -rf "$stage"
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json \
    --models-out results/models.json > /dev/null
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json --fit results/h100.json \
    --fit results/cpu_avx2.json --measured-out results/measured.json > /dev/null
build/cli/fuselab tune --fit results/h100.json > "$s43/h100_choice.txt"
