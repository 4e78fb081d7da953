# The pipelines fuselab builds. A pipeline is a generator (generators/<GENERATOR>.cpp) with fixed
# parameters; its strategies are the files in schedules/<GENERATOR>/.
fuselab_pipeline(add_relu)
fuselab_pipeline(conv_relu_pool)
fuselab_pipeline(pointwise_chain)
fuselab_pipeline(branches)
fuselab_pipeline(branches_indep)
fuselab_pipeline(blur3x3)
fuselab_pipeline(stencil_chain_k2 GENERATOR stencil_chain PARAMS stages=2)
fuselab_pipeline(stencil_chain_k4 GENERATOR stencil_chain PARAMS stages=4)
fuselab_pipeline(stencil_chain_k8 GENERATOR stencil_chain PARAMS stages=8)
fuselab_pipeline(two_convs)
fuselab_pipeline(two_convs_indep)
