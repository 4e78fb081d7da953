// Measured winners (issue 29): what the bench timed on a device, as a table of shapes, each with
// every strategy's time there, looked up by the nearest shapes of the same pipeline, target and
// storage type. choose() consults it before the cost model: where something near was measured,
// the strategies are ranked by their time against each shape's winner, weighted by nearness over
// the three nearest shapes; where nothing near was, the model decides.
//
// A shape is a point of features, each an argument's extent (softmax: x's dimension 0, N, and
// dimension 1, M), compared in log2 with a weight each (a row's length decides a row strategy's
// loop shapes; the row count its waves of blocks, so M weighs half), and, with align_weight, by
// how many times 2 divides it (up to 2^8, or with vector_weight up to the 16-byte vector, and
// then whether it is whole vectors): a strategy specialized on whole 16-byte vectors runs a row
// of 1024 and one of 1020 by different code. On the CPU the rows' element count is a feature too
// (half weight): whether the call fits the caches moves the winners there (s31: rmsnorm_residual
// bfloat16's unfused is first at 2^22 elements and 2.6-3.1x behind at 2^25).
//
// The constants were chosen on the H200's row grid of 2026-12-02, each shape left out of its own
// table (results/runs/2026-12-02-h200-s13/choice_params.txt): up to 3 neighbours within 3 units
// (8x in N), weights 1/(distance + 0.05), M at half weight.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fuselab/invoke.h"

namespace fuselab {

struct MeasuredFeature {
    std::string name;  // the size's own letter ("N"), for reasons
    std::string arg;   // the argument whose extent it is
    int dim = 0;       // -1: the product of its extents, the argument's element count
    double weight = 1;
    double align_weight = 0;  // per power of 2 of difference in the extents' largest 2^k divisors
    // Where > 0: the alignment class counts up to the 16-byte vector of the storage type only (a
    // row of whole vectors is one class, whatever power of 2 divides it), and a shape whose rows
    // are whole vectors where the call's are not, or the reverse, is this much farther.
    double vector_weight = 0;
    // Where split_weight > 0: a length at which a strategy changes its code (the CPU's lane_rows
    // holds rows of N <= 48 in vector lanes, schedules/rows_common.h: lane_row); a shape on the
    // other side of it from the call's is split_weight farther.
    double split = 0, split_weight = 0;
    // Where fill_weight > 0 (the CUDA rows' N): how a row of this length fills the last of each
    // constant chunk the CUDA row forms cut it by (kFillChunks: the buckets and padding units of
    // rows_forms.h, 1024 to 16384 elements), chunk_fill; a shape is fill_weight farther a unit of
    // the fills' summed difference. The bucketed forms run a row's last chunk step by step behind
    // guards, so their ranks move with it (the H200's leave-one-out: softmax float32 16384x4096
    // took block_row, 1.53x behind staged_row_8k, from rows that fill the chunks otherwise; with
    // the term, staged_row_8k; results/runs/2026-12-06-gpu-s38/choice_fill.txt).
    double fill_weight = 0;
    // Where exact_weight > 0 (the CUDA rows' N): a shape on the other side of "an exact length"
    // (exact_length: a power of 2 from 256 to 16384, the lengths the row forms run in kernels of
    // their own with N a constant: rows_forms.h Form::exact, the register form's 256, 512 and
    // 1024) from the call's is exact_weight farther: those kernels run 1.1 to 1.5x faster than
    // the same strategy's at a row a vector longer or shorter, so a neighbour across the divide
    // ranks the strategies otherwise.
    double exact_weight = 0;
    // Where > 0, a second length like `split`, with its weight: a CPU row of fewer elements than
    // this is shorter than one AVX-512 vector (16 float32), which block_row runs as one masked
    // vector, and lane_rows won at every row of N < 16 of the three CPU tables but for a few
    // where unfused did (s49; s48's held-out rmsnorm_residual float16 14x2044289 took block_row
    // from 16x2097152, 2.09x behind lane_rows: results/runs/2026-12-07-gpu-s49/).
    double short_split = 0;
    // Where > 0 (the CPU's row length): vector_weight's vector is this many elements in every
    // storage type, not 16 bytes. The CPU row forms compute in float32 and cut a row by the
    // host's float32 lanes (16 with AVX-512, 8 without), so a float32 row of 72 (whole 16-byte
    // vectors) ends in a masked vector there, as one of 57 does, and one of 64 does not (the
    // Xeon: layernorm float32 64x32768 block_row 1.66x ahead of lane_rows, 72x14564 lane_rows
    // 1.52x ahead; results/runs/2026-12-07-gpu-s50/).
    double vector_lanes = 0;
};

// The constant chunks (elements) the CUDA row forms cut a row by, and a row of n elements' use
// of its last chunk of each, n / (ceil(n / C) C): 1 where C divides n.
constexpr double kFillChunks[] = {1024, 2048, 4096, 8192, 16384};
constexpr size_t kNumFillChunks = sizeof(kFillChunks) / sizeof(kFillChunks[0]);
double chunk_fill(double n, double chunk);
bool exact_length(double n);

// The exponent of the largest power of 2 dividing n, at most `cap` (the feature's alignment
// class).
int alignment_class(double n, int cap = 8);

// Whether n elements of `dtype` are whole 16-byte vectors.
bool whole_vectors(double n, const std::string &dtype);

// The float32 lanes of a CPU's row forms by its device name (cpu_device_name): 8 where the name
// carries kNoAvx512 (the AVX2 build), else 16.
int cpu_lanes_of(const std::string &device);

struct MeasuredShape {
    std::string target, dtype, size;   // size as the bench writes it ("1024x65536")
    std::vector<double> at;            // each feature's extent
    std::map<std::string, double> us;  // schedule -> median us, from one run
    // Filled by index_measured: log2 of each extent, its alignment class (alignment_class, cap
    // 8), `us` by the pipeline's `schedules` (NaN where not measured), and how many `us` held.
    std::vector<double> log2_at, times;
    std::vector<int> class_at;
    std::vector<double> fill_at;  // each extent's chunk_fill of each of kFillChunks, in turn
    size_t indexed_us = 0;
};

struct MeasuredPipeline {
    std::vector<MeasuredFeature> features;
    std::vector<MeasuredShape> shapes;
    // Filled by index_measured: every schedule any shape timed, in name order, and the shapes of
    // each target and storage type ("cuda/bfloat16"), by index.
    std::vector<std::string> schedules;
    std::map<std::string, std::vector<size_t>> by_kind;
};

// Indexes a table for pick_measured: a new shape's lookup reads hundreds of shapes, and string
// compares and logarithms were most of it (s33: 27 us a pick over the H200's softmax table on
// this VM, most of choose()'s cost at a new shape). shipped_measured, measured_from_json and the
// bench's leave-one-out index theirs; pick_measured indexes a copy of a table that is not, or
// whose shapes or schedules changed since (a changed time of the same schedule is not seen: index
// again after changing one).
void index_measured(MeasuredPipeline &p);

struct MeasuredTable {
    std::string device, source;  // the device measured, the bench file it came from
    std::map<std::string, MeasuredPipeline> pipelines;
};

// The shipped table of `pipeline` measured on `device` (results/measured.json, from `fuselab tune
// --fit --measured-out`, compiled in as constants), or null; `source` gets the bench file it came
// from. Each is built on its first use, once a process (at most a few hundred microseconds).
const MeasuredPipeline *shipped_measured(const std::string &device, const std::string &pipeline,
                                         std::string *source = nullptr);

// The shipped tables of `pipeline` a call on `device` consults, in order: its own, then, for an
// NVIDIA GPU, every other NVIDIA GPU's (where its own has none, or nothing near the call: the
// H100 and the H200 picked a winner within 1.10x of the other's at 596 of 603 row shapes both
// timed; results/runs/2026-12-05-h100-s32/transfer.txt). A CPU consults its own, then, where
// its name is another's with kNoAvx512 (cpu_device_name), that one's (where its own has none, or
// nothing near the call): the same model, timed with its AVX-512 build; no other CPU's, whose
// winners move with the caches and the cores. A CPU that no table names (neither its own nor such
// a twin) consults every CPU table, those of its own instruction set first, before the cost model
// (s47): on a 2-core Intel Xeon that none named then, 144 held-out row cases, the tables' picks
// were within 1.10x of the winner at 129 (worst 1.40x), the model's at 77 (worst 10.6x: block_row
// on short softmax rows: 5x777618; results/runs/2026-12-07-gpu-s47/cpu_heldout/summary.txt).
// That Xeon has had a table of its own for the row pipelines since s48 (results/cpu_xeon.json;
// results/runs/2026-12-07-gpu-s48/cpu_heldout/).
bool nvidia_device(const std::string &device);  // an NVIDIA GPU's name, as CUDA reports it
// A CPU's device name: its model name, with kNoAvx512 after it where the host lacks one of the
// AVX-512 features of Halide's avx512_skylake target (F, CD, BW, DQ, VL), so that its variants
// run their AVX2 build. Two hosts can share a model name and not the instruction set (s43: "AMD
// EPYC" was a Zen 5 with AVX-512 and a Zen 3 without), and their winners can differ (the Zen 3
// by the Zen 5's table: 120 of 144 held-out cases within 1.10x, results/runs/2026-12-06-gpu-s43/
// cpu_heldout/; a table of its own from one pass on that noisy VM did no better). Since s45 it
// ships one for the three row pipelines (results/cpu_avx2.json, two passes each): held out there,
// 187 of 216 within 1.10x of the winner by two runs' times, against 178 with the Zen 5's table
// for softmax and layernorm (results/runs/2026-12-07-gpu-s45/cpu_heldout/retime_summary.txt).
inline constexpr const char *kNoAvx512 = " (no AVX-512)";
std::string cpu_device_name(const std::string &model_name, const std::string &flags);
struct ShippedTable {
    std::string device, source;
    const MeasuredPipeline *table;
};
std::vector<ShippedTable> shipped_measured_tables(const std::string &device,
                                                  const std::string &pipeline);

std::map<std::string, MeasuredTable> measured_from_json(const std::string &text);  // throws Error
std::string measured_to_json(const std::map<std::string, MeasuredTable> &tables);

// Where the nearest measured shapes are within kMeasuredNear (in weighted log2 units: 3 is a
// factor of 8 in a feature of weight 1), the schedule among `schedules` that the nearest
// kMeasuredNeighbours favour, and one line saying why. Only near shapes that timed every schedule
// winning at a near shape of the call's 16-byte alignment (where any near shape did), and of
// those only the ones where at least 3/4 as many of `schedules` ran as at the most-measured one,
// take part: an older shape, measured before a strategy existed, ranks the rest against a weaker
// field (s29: rmsnorm_residual bfloat16 14701x571 picked block_row from three shapes that never
// timed adjacent_staged_2k, which won by 2.06x). `skip_size`: a size whose shapes are not
// consulted (the leave-one-out table).
//
// On the CPU a strategy that sends an intermediate through memory (`round_trips`, by schedule:
// its ledger's intermediates, each written and read, at least kRoundTripShare of the bytes its
// arguments hold; empty: none does; two_pass's row statistics are not one) is picked only where it
// leads every strategy that does not by more than kCpuRoundTripMargin: it moves more bytes, so a
// shared machine's memory traffic slows it most (s31, this 2-core VM, three runs of 24 row shapes:
// `unfused`'s slowest over its fastest run 1.44x at the median, up to 3.6x, where the fused forms'
// were 1.10 to 1.15x; the held-out rmsnorm_residual bfloat16 40744x81 picked `unfused` from three
// shapes where it led by 1.17x, and it ran 2.06x behind there). The margin:
// results/runs/2026-12-05-cpu-s31/choice_margin.txt.
struct MeasuredPick {
    std::string schedule, reason;
    double distance = 0;  // to the nearest shape
};
constexpr double kMeasuredNear = 3.0;
// Where nothing is within kMeasuredNear, the shapes within kMeasuredFar (a factor of 64 in a
// feature of weight 1) still decide, before the cost model: a table's far neighbour ranks the
// strategies better than the model's one efficiency a strategy (s46, every table thinned of the
// shapes within 3 of 40 row shapes: 337 against 178 of 478 within 1.10x; past 6 the 1-D
// pipelines lose; results/runs/2026-12-07-gpu-s46/far/). Both radii in turn, for choose() and
// the bench's leave-one-out alike: kMeasuredRadii.
constexpr double kMeasuredFar = 2 * kMeasuredNear;
constexpr double kMeasuredRadii[] = {kMeasuredNear, kMeasuredFar};
constexpr size_t kMeasuredNeighbours = 3;
constexpr double kCpuRoundTripMargin = 1.2;
constexpr double kRoundTripShare = 0.1;
std::optional<MeasuredPick> pick_measured(const MeasuredPipeline &p, const std::string &target,
                                          const std::string &dtype, const std::vector<double> &at,
                                          const std::vector<std::string> &schedules,
                                          const std::string &skip_size = "",
                                          const std::vector<bool> &round_trips = {},
                                          double radius = kMeasuredNear);

// pick_measured for `dtype`, else, where none of its own shapes is near, for its twin: the other
// 16-bit type (same bytes an element), whose winner at the same shape was float16's at 47 of the
// H200 grid's 48 row shapes, within 1.10x at all but one (results/runs/2026-12-03-h200-s17,
// twin_check.txt); the reason then names the stand-in. Float32 has no twin: its winner at the
// same shape was within 1.10x of float16's at 34 of 48.
std::optional<MeasuredPick> pick_measured_or_twin(
    const MeasuredPipeline &p, const std::string &target, const std::string &dtype,
    const std::vector<double> &at, const std::vector<std::string> &schedules,
    const std::vector<bool> &round_trips = {}, double radius = kMeasuredNear);

// pick_measured_or_twin over `tables` (at[i]: the call's features in tables[i]), the first table
// first: a later table's pick replaces it only where its nearest shape is nearer by more than
// kTableSlack (a factor of 2 in N), and is not consulted where the first is that near. So the
// H200 keeps its own table over its grid, and takes the H100's at N = 24 or 32, whose nearest
// own shape (N = 184) is 3 units away: there the H200's table picked warp_row, 2.8 to 4.7x
// behind on the H100 (results/runs/2026-12-05-h100-s32/c/choice_check_3202.txt). Returns the
// pick and the index of its table.
constexpr double kTableSlack = 1.0;
struct TablePick {
    MeasuredPick pick;
    size_t table = 0;
};
std::optional<TablePick> pick_measured_across(const std::vector<const MeasuredPipeline *> &tables,
                                              const std::string &target, const std::string &dtype,
                                              const std::vector<std::vector<double>> &at,
                                              const std::vector<std::string> &schedules,
                                              const std::vector<bool> &round_trips = {});

// Which strategies send an intermediate through memory, by the bytes each moves (its arguments'
// plus each intermediate twice, as CostSample and the bench count them): those past the fewest
// any of them moves by more than kRoundTripShare. The same rule for choose() and the bench's
// leave-one-out, so the table's check judges the rule the runtime runs.
std::vector<bool> round_trips(const std::vector<double> &bytes);

// The features of these arguments (empty if an argument the table reads is missing).
std::vector<double> measured_features(const MeasuredPipeline &p, const Bindings &args);

}  // namespace fuselab
