# `cmake --install build --prefix P`: the runtime and its headers, every built-in variant with
# Halide's generated header (the typed add_relu__fused__cuda(...) calls), the bench machinery,
# the built-in workloads, the `fuselab` CLI, and a CMake package with fuselab's pipeline
# functions (find_package(fuselab CONFIG), README "Using fuselab from another project").
include(CMakePackageConfigHelpers)
set(FUSELAB_INSTALL_CMAKEDIR "lib/cmake/fuselab")
get_property(variant_libs GLOBAL PROPERTY fuselab_libraries)

target_sources(fuselab_generator_support INTERFACE FILE_SET HEADERS
               BASE_DIRS "${PROJECT_SOURCE_DIR}/generators/support"
               FILES "${PROJECT_SOURCE_DIR}/generators/support/fuselab/schedule_registry.h"
                     "${PROJECT_SOURCE_DIR}/generators/support/fuselab/guarded_autoscheduler.h")
set_target_properties(fuselab_generator_support PROPERTIES EXPORT_NAME generator_support)
set_target_properties(fuselab_halide_runtime PROPERTIES EXPORT_NAME halide_runtime)
set_target_properties(fuselab_kernels PROPERTIES EXPORT_NAME kernels)
set_target_properties(fuselab_kernels_registry PROPERTIES EXPORT_NAME kernels_registry)

install(TARGETS fuselab_runtime fuselab_io fuselab_bench fuselab_generator_support
        EXPORT fuselabTargets ARCHIVE DESTINATION lib FILE_SET HEADERS DESTINATION include)
install(TARGETS ${variant_libs}
        EXPORT fuselabTargets ARCHIVE DESTINATION lib FILE_SET HEADERS DESTINATION include/fuselab/kernels)
install(TARGETS fuselab_halide_runtime fuselab_kernels fuselab_kernels_registry
                fuselab_suite fuselab_suite_workloads
        EXPORT fuselabTargets ARCHIVE DESTINATION lib)
install(TARGETS fuselab RUNTIME DESTINATION bin)
install(EXPORT fuselabTargets NAMESPACE fuselab:: DESTINATION "${FUSELAB_INSTALL_CMAKEDIR}")

configure_package_config_file(cmake/fuselabConfig.cmake.in
                              "${PROJECT_BINARY_DIR}/fuselabConfig.cmake"
                              INSTALL_DESTINATION "${FUSELAB_INSTALL_CMAKEDIR}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/fuselabConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/fuselabConfig.cmake"
              "${PROJECT_BINARY_DIR}/fuselabConfigVersion.cmake"
              cmake/FuselabPipelines.cmake cmake/gen_registry.py
        DESTINATION "${FUSELAB_INSTALL_CMAKEDIR}")
