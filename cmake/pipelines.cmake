# The built-in suite. Each generator is generators/<name>.cpp (the algorithm only) with its
# strategies in schedules/<name>/; a pipeline is a generator with fixed parameters.
file(GLOB generator_sources CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/generators/*.cpp")
foreach (source IN LISTS generator_sources)
    get_filename_component(generator "${source}" NAME_WE)
    fuselab_add_generator(${generator} SOURCES "${source}"
                          STRATEGIES "${PROJECT_SOURCE_DIR}/schedules/${generator}"
                          INCLUDE_DIRECTORIES "${PROJECT_SOURCE_DIR}/generators"
                                              "${PROJECT_SOURCE_DIR}/schedules")
endforeach ()

fuselab_pipeline(add_relu)
fuselab_pipeline(conv_relu_pool)
# The same pipeline for C3 K16 with its weights as kernel parameters (constant bank).
fuselab_pipeline(conv_relu_pool GENERATOR conv_relu_pool_const
                 PARAMS channels=3 filters=16 weights_param.size=432 bias_param.size=16)
fuselab_pipeline(pointwise_chain)
fuselab_pipeline(branches)
fuselab_pipeline(branches_indep)
fuselab_pipeline(blur3x3)
fuselab_pipeline(stencil_chain_k2 GENERATOR stencil_chain PARAMS stages=2)
fuselab_pipeline(stencil_chain_k4 GENERATOR stencil_chain PARAMS stages=4)
fuselab_pipeline(stencil_chain_k8 GENERATOR stencil_chain PARAMS stages=8)
fuselab_pipeline(two_convs)
fuselab_pipeline(two_convs_indep)
# The row reductions (issue 23) in float32, bfloat16 and float16 storage (float32 math).
fuselab_pipeline(softmax DTYPES float32 bfloat16 float16)
fuselab_pipeline(rmsnorm_residual DTYPES float32 bfloat16 float16)
fuselab_pipeline(layernorm DTYPES float32 bfloat16 float16)
