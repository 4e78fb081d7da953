#include "scale_bias_relu.h"

HALIDE_REGISTER_GENERATOR(downstream::ScaleBiasRelu, scale_bias_relu)
