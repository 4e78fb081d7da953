// The shapes measured per device (results/measured.json) as constant tables, written by the build
// (cmake/gen_measured.py): measured.cpp builds a pipeline's MeasuredPipeline from them on its
// first choice. Not installed: the runtime's own.
#pragma once

namespace fuselab::detail {

struct ShippedFeature {
    const char *name, *arg;
    int dim;
    double weight, align_weight, vector_weight, split, split_weight, fill_weight, exact_weight,
        short_split, vector_lanes;
};

struct ShippedTime {
    const char *schedule;
    double us;
};

struct ShippedShape {
    const char *target, *dtype, *size;
    const double *at;       // one extent a feature
    const ShippedTime *us;  // `count` strategies' times
    int count;
};

struct ShippedPipeline {
    const char *device, *source, *pipeline;
    const ShippedFeature *features;
    int num_features;
    const ShippedShape *shapes;
    int num_shapes;
};

extern const ShippedPipeline kShippedPipelines[];
extern const int kShippedPipelineCount;

}  // namespace fuselab::detail
