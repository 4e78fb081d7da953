# Turns the schedules/ tree into AOT variants. A strategy file may carry header tags:
#   // summary: one line saying what it fuses           (shown by `fuselab list`)
#   // autoscheduler: cpu=Adams2019 cuda=Anderson2021     (run that plugin instead of a hand schedule)
#   // targets: cpu cuda                                  (default: both)
#   // pipelines: stencil_chain_k2 stencil_chain_k4       (default: every pipeline of its generator)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

set(FUSELAB_AUTOSCHEDULER_PARALLELISM_cuda 132 CACHE STRING "autoscheduler.parallelism for CUDA: the H200's SM count")
set(FUSELAB_AUTOSCHEDULER_PARALLELISM_cpu 16 CACHE STRING "autoscheduler.parallelism for the CPU")
set_property(GLOBAL PROPERTY fuselab_manifest "")
set_property(GLOBAL PROPERTY fuselab_libraries "")

function(_fuselab_tag file tag out)
    file(STRINGS "${file}" line REGEX "^// ${tag}:" LIMIT_COUNT 1)
    string(REGEX REPLACE "^// ${tag}: *" "" line "${line}")
    set(${out} "${line}" PARENT_SCOPE)
endfunction()

function(fuselab_pipeline name)
    cmake_parse_arguments(ARG "" "GENERATOR" "PARAMS" ${ARGN})
    if (NOT ARG_GENERATOR)
        set(ARG_GENERATOR ${name})
    endif ()
    set(targets cpu)
    if (FUSELAB_CUDA)
        list(APPEND targets cuda)
    endif ()

    file(GLOB strategy_files CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/schedules/${ARG_GENERATOR}/*.cpp")
    foreach (file IN LISTS strategy_files)
        get_filename_component(schedule "${file}" NAME_WE)
        _fuselab_tag("${file}" summary summary)
        _fuselab_tag("${file}" autoscheduler autoscheduler)
        _fuselab_tag("${file}" targets only_targets)
        _fuselab_tag("${file}" pipelines only_pipelines)
        if (only_pipelines)
            separate_arguments(only_pipelines)
            if (NOT name IN_LIST only_pipelines)
                continue()
            endif ()
        endif ()
        foreach (target IN LISTS targets)
            if (only_targets)
                separate_arguments(allowed UNIX_COMMAND "${only_targets}")
                if (NOT target IN_LIST allowed)
                    continue()
                endif ()
            endif ()
            set(lib "${name}__${schedule}__${target}")
            if (target STREQUAL "cuda")
                set(halide_targets "${FUSELAB_CUDA_HOST}-cuda-cuda_capability_${FUSELAB_CUDA_CAPABILITY}")
            else ()
                set(halide_targets "${FUSELAB_CPU_TARGETS}")
            endif ()
            set(extra "")
            if (autoscheduler MATCHES "${target}=([A-Za-z0-9]+)")
                set(plugin "${CMAKE_MATCH_1}")
                list(APPEND extra AUTOSCHEDULER "Halide::${plugin}" SCHEDULE schedule_out
                     PARAMS "autoscheduler.parallelism=${FUSELAB_AUTOSCHEDULER_PARALLELISM_${target}}")
            endif ()
            add_halide_library(${lib} FROM fuselab_gen
                               GENERATOR ${ARG_GENERATOR}
                               TARGETS ${halide_targets}
                               USE_RUNTIME fuselab_halide_runtime
                               STMT stmt
                               PARAMS schedule=${schedule} ${ARG_PARAMS}
                               ${extra})
            if (target STREQUAL "cpu")
                # A multi-target library writes one statement per target; name the first one as
                # the library's, so that the build sees its declared output and stays up to date.
                list(GET halide_targets 0 first_target)
                add_custom_command(TARGET ${lib} POST_BUILD
                                   COMMAND ${CMAKE_COMMAND} -E copy
                                           "${CMAKE_CURRENT_BINARY_DIR}/${lib}-${first_target}-no_runtime.stmt" "${stmt}"
                                   VERBATIM)
            endif ()
            set_property(GLOBAL APPEND PROPERTY fuselab_libraries ${lib})
            # One manifest row: fields joined by '|'.
            set_property(GLOBAL APPEND PROPERTY fuselab_manifest
                         "${name}|${schedule}|${target}|fuselab|${lib}|${stmt}|${summary}")
        endforeach ()
    endforeach ()
endfunction()

# Adds a variant that is not a Halide pipeline (the seed's CUDA kernels): the library
# `link_target` provides <pipeline>__<schedule>__<target>_argv and _metadata itself.
function(fuselab_external_variant pipeline schedule target kind link_target summary)
    get_property(libs GLOBAL PROPERTY fuselab_libraries)
    if (NOT link_target IN_LIST libs)
        set_property(GLOBAL APPEND PROPERTY fuselab_libraries ${link_target})
    endif ()
    set_property(GLOBAL APPEND PROPERTY fuselab_manifest
                 "${pipeline}|${schedule}|${target}|${kind}|${pipeline}__${schedule}__${target}||${summary}")
endfunction()

# The variant list the runtime serves, generated at build time from the manifest and each
# variant's lowered statement (kernels per call and intermediate bytes come from there).
function(fuselab_write_registry target)
    get_property(rows GLOBAL PROPERTY fuselab_manifest)
    get_property(libs GLOBAL PROPERTY fuselab_libraries)
    list(JOIN rows "\n" text)
    set(manifest "${CMAKE_CURRENT_BINARY_DIR}/variants.manifest")
    file(WRITE "${manifest}.in" "${text}\n")
    configure_file("${manifest}.in" "${manifest}" COPYONLY)
    set(out "${CMAKE_CURRENT_BINARY_DIR}/variants.gen.cpp")
    add_custom_command(
        OUTPUT "${out}"
        COMMAND Python3::Interpreter "${PROJECT_SOURCE_DIR}/tools/gen_registry.py"
                --manifest "${manifest}" --out "${out}"
        DEPENDS "${manifest}" "${PROJECT_SOURCE_DIR}/tools/gen_registry.py" ${libs}
        COMMENT "Generating the variant registry and ledger"
        VERBATIM)
    add_library(${target} STATIC "${out}")
    target_include_directories(${target} PRIVATE "${PROJECT_SOURCE_DIR}/runtime")
    target_link_libraries(${target} PUBLIC ${libs} fuselab_halide_runtime Halide::Runtime)
endfunction()
