# The pipelines fuselab builds. A pipeline is a generator (generators/<GENERATOR>.cpp) with fixed
# parameters; its strategies are the files in schedules/<GENERATOR>/.
fuselab_pipeline(add_relu)
fuselab_pipeline(conv_relu_pool)
