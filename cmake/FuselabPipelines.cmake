# fuselab's CMake functions: a Halide generator and a folder of strategy files become AOT variants,
# a registry and a ledger. The same file serves fuselab's own build and, installed beside
# fuselabConfig.cmake, downstream projects (README, "Your own pipeline").
#
#   fuselab_add_generator(NAME SOURCES algo.cpp... STRATEGIES dir [INCLUDE_DIRECTORIES dir...])
#       NAME is the generator's registered name (HALIDE_REGISTER_GENERATOR). The algorithm is
#       compiled once; each dir/<strategy>.cpp gets its own generator executable, so editing or
#       adding one strategy regenerates only that strategy's variants.
#   fuselab_pipeline(NAME [GENERATOR g] [PARAMS k=v...] [DTYPES t...] [CPU_DTYPES t...])
#       One variant per (strategy, target, storage type): the library NAME__<strategy>__<cpu|cuda>,
#       with __<dtype> appended for a storage type other than float32. DTYPES (default float32)
#       are passed to the generator as its `dtype` param (float32, bfloat16, float16); CPU_DTYPES
#       (default: DTYPES) are the CPU's.
#   fuselab_external_variant(pipeline schedule target kind link_target summary)
#       A variant that is not a Halide pipeline (hand-written CUDA providing _argv/_metadata).
#   fuselab_registry(TARGET)
#       Generates the registry and ledger of every variant declared so far in this project, as
#       the library TARGET; linking it registers them with fuselab's runtime.
#
# A strategy file may carry header tags:
#   // summary: one line saying what it fuses           (shown by `fuselab list`)
#   // autoscheduler: cpu=Adams2019 cuda=Anderson2021     (run that plugin instead of a hand schedule)
#   // targets: cpu cuda                                  (default: both)
#   // pipelines: stencil_chain_k2 stencil_chain_k4       (default: every pipeline of its generator)
#   // dtypes: float32 bfloat16                           (default: every storage type of the pipeline)
#   // row_limit: 40960 bytes                             (or "1024 elements": it refuses rows, the first
#                                                          input's dimension 0, longer; default none)
#   // params: chunk_bytes=16384                          (GeneratorParams for this strategy's variants:
#                                                          a form of the algorithm that it schedules)
include_guard(GLOBAL)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

set(_fuselab_cmake_dir "${CMAKE_CURRENT_LIST_DIR}")

set(FUSELAB_CPU_TARGETS "x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41;x86-64-linux-avx-avx2-f16c-fma-sse41"
    CACHE STRING "Halide targets of the CPU variants (a multi-target list, best first)")
set(FUSELAB_CUDA_TARGET "x86-64-linux-avx-avx2-f16c-fma-sse41-cuda-cuda_capability_86" CACHE STRING
    "Halide target of the CUDA variants (86 is the highest capability Halide 21 knows; the driver JIT-compiles its PTX for sm_90)")
set(FUSELAB_TARGET_FEATURES "" CACHE STRING
    "Halide features appended to every CPU target, e.g. asan for the sanitizer build")
option(FUSELAB_CUDA "Build the CUDA variants (no GPU is needed to compile them)" ON)
set(FUSELAB_AUTOSCHEDULER_PARALLELISM_cuda 132 CACHE STRING "autoscheduler.parallelism for CUDA: the H200's SM count")
set(FUSELAB_AUTOSCHEDULER_PARALLELISM_cpu 16 CACHE STRING "autoscheduler.parallelism for the CPU")

# Generators built by another tree of this project (the sanitizer build reuses the main build's):
# -D<project>-halide_generators_DIR=<that build>/cmake.
find_package(${PROJECT_NAME}-halide_generators QUIET)

function(_fuselab_tag file tag out)
    file(STRINGS "${file}" line REGEX "^// ${tag}:" LIMIT_COUNT 1)
    string(REGEX REPLACE "^// ${tag}: *" "" line "${line}")
    set(${out} "${line}" PARENT_SCOPE)
endfunction()

function(fuselab_add_generator name)
    cmake_parse_arguments(ARG "" "STRATEGIES" "SOURCES;INCLUDE_DIRECTORIES" ${ARGN})
    get_filename_component(dir "${ARG_STRATEGIES}" ABSOLUTE)
    file(GLOB strategy_files CONFIGURE_DEPENDS "${dir}/*.cpp")
    if (NOT strategy_files)
        message(FATAL_ERROR "fuselab_add_generator(${name}): no strategy files in ${dir}")
    endif ()
    set_property(GLOBAL PROPERTY fuselab_strategies_${name} "${strategy_files}")
    # The header tags (targets, dtypes, params, row_limit...) are read here, at configure time: an
    # edited strategy file re-runs CMake, so that a changed tag reaches its variants' commands.
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${strategy_files})
    set(namespace "${PROJECT_NAME}::halide_generators::")
    set(algorithm "")
    foreach (file IN LISTS strategy_files)
        get_filename_component(schedule "${file}" NAME_WE)
        set(exe "${name}__${schedule}__gen")
        if (TARGET "${namespace}${exe}")  # imported from another build tree
            continue()
        endif ()
        if (NOT algorithm)
            if (NOT TARGET Halide::Halide)
                find_package(Halide 21 REQUIRED)
            endif ()
            set(algorithm "${name}__algorithm")
            add_library(${algorithm} OBJECT ${ARG_SOURCES})
            target_include_directories(${algorithm} PUBLIC ${ARG_INCLUDE_DIRECTORIES})
            target_link_libraries(${algorithm} PUBLIC Halide::Halide)
            if (TARGET fuselab_generator_support)
                target_link_libraries(${algorithm} PUBLIC fuselab_generator_support)
            elseif (TARGET fuselab::generator_support)
                target_link_libraries(${algorithm} PUBLIC fuselab::generator_support)
            endif ()
            # Halide.h is a third-party header: its warnings are not ours.
            get_target_property(halide_includes Halide::Halide INTERFACE_INCLUDE_DIRECTORIES)
            target_include_directories(${algorithm} SYSTEM PUBLIC ${halide_includes})
        endif ()
        add_halide_generator(${exe} SOURCES "${file}" LINK_LIBRARIES ${algorithm})
    endforeach ()
endfunction()

function(fuselab_pipeline name)
    cmake_parse_arguments(ARG "" "GENERATOR" "PARAMS;DTYPES;CPU_DTYPES" ${ARGN})
    if (NOT ARG_GENERATOR)
        set(ARG_GENERATOR ${name})
    endif ()
    if (NOT ARG_DTYPES)
        set(ARG_DTYPES float32)
    endif ()
    if (NOT ARG_CPU_DTYPES)
        set(ARG_CPU_DTYPES ${ARG_DTYPES})
    endif ()
    get_property(strategy_files GLOBAL PROPERTY fuselab_strategies_${ARG_GENERATOR})
    if (NOT strategy_files)
        message(FATAL_ERROR "fuselab_pipeline(${name}): no fuselab_add_generator(${ARG_GENERATOR}) before it")
    endif ()
    set(targets cpu)
    if (FUSELAB_CUDA)
        list(APPEND targets cuda)
    endif ()
    set(cpu_targets "")
    foreach (t IN LISTS FUSELAB_CPU_TARGETS)
        list(APPEND cpu_targets "${t}${FUSELAB_TARGET_FEATURES}")
    endforeach ()
    string(REPLACE ";" "," cpu_targets "${cpu_targets}")  # one multi-target
    foreach (file IN LISTS strategy_files)
        get_filename_component(schedule "${file}" NAME_WE)
        _fuselab_tag("${file}" summary summary)
        _fuselab_tag("${file}" autoscheduler autoscheduler)
        _fuselab_tag("${file}" targets only_targets)
        _fuselab_tag("${file}" pipelines only_pipelines)
        _fuselab_tag("${file}" dtypes only_dtypes)
        _fuselab_tag("${file}" row_limit row_limit)
        _fuselab_tag("${file}" params strategy_params)
        separate_arguments(strategy_params)
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
            set(dtypes ${ARG_DTYPES})
            if (target STREQUAL "cpu")
                set(dtypes ${ARG_CPU_DTYPES})
            endif ()
            foreach (dtype IN LISTS dtypes)
                if (only_dtypes)
                    separate_arguments(allowed UNIX_COMMAND "${only_dtypes}")
                    if (NOT dtype IN_LIST allowed)
                        continue()
                    endif ()
                endif ()
                set(lib "${name}__${schedule}__${target}")
                set(dtype_param "")
                if (NOT dtype STREQUAL "float32")
                    string(APPEND lib "__${dtype}")
                endif ()
                if (NOT "${ARG_DTYPES}" STREQUAL "float32")  # a generator of storage types
                    set(dtype_param "dtype=${dtype}")
                endif ()
                if (target STREQUAL "cuda")
                    set(halide_targets "${FUSELAB_CUDA_TARGET}")
                else ()
                    string(REPLACE "," ";" halide_targets "${cpu_targets}")
                endif ()
                set(extra "")
                set(plugin "")
                set(ptx "")
                if (autoscheduler MATCHES "${target}=([A-Za-z0-9]+)")
                    set(plugin "${CMAKE_MATCH_1}")
                    set(params "autoscheduler.parallelism=${FUSELAB_AUTOSCHEDULER_PARALLELISM_${target}}")
                    if (target STREQUAL "cuda")
                        # The plugin's schedule with GuardWithIf for its RoundUp tails, so that no
                        # kernel reads what its producer did not compute (guarded_autoscheduler.h).
                        list(APPEND extra AUTOSCHEDULER fuselab_guarded PLUGINS "Halide::${plugin}" SCHEDULE schedule_out
                             PARAMS ${params} "autoscheduler.base=${plugin}")
                    else ()
                        list(APPEND extra AUTOSCHEDULER "Halide::${plugin}" SCHEDULE schedule_out PARAMS ${params})
                    endif ()
                endif ()
                if (target STREQUAL "cuda")
                    list(APPEND extra DEVICE_CODE ptx)  # the PTX, for the ledger's registers and spills
                endif ()
                add_halide_library(${lib} FROM "${PROJECT_NAME}::halide_generators::${ARG_GENERATOR}__${schedule}__gen"
                                   GENERATOR ${ARG_GENERATOR}
                                   TARGETS ${halide_targets}
                                   USE_RUNTIME ${FUSELAB_HALIDE_RUNTIME}
                                   STMT stmt
                                   PARAMS schedule=${schedule} ${dtype_param} ${ARG_PARAMS} ${strategy_params}
                                   ${extra})
                list(LENGTH halide_targets n_targets)
                if (target STREQUAL "cpu" AND n_targets GREATER 1)
                    # A multi-target library writes one statement per target; name the first one as
                    # the library's, so that the build sees its declared output and stays up to date.
                    # (One target writes the library's own.)
                    list(GET halide_targets 0 first_target)
                    add_custom_command(TARGET ${lib} POST_BUILD
                                       COMMAND ${CMAKE_COMMAND} -E copy
                                               "${CMAKE_CURRENT_BINARY_DIR}/${lib}-${first_target}-no_runtime.stmt" "${stmt}"
                                       VERBATIM)
                endif ()
                set_property(GLOBAL APPEND PROPERTY fuselab_libraries ${lib})
                # One manifest row: fields joined by '|'.
                set_property(GLOBAL APPEND PROPERTY fuselab_manifest
                             "${name}|${schedule}|${target}|${dtype}|fuselab|${lib}|${stmt}|${ptx}|${plugin}|${row_limit}|${summary}")
            endforeach ()
        endforeach ()
    endforeach ()
endfunction()

function(fuselab_external_variant pipeline schedule target kind link_target summary)
    get_property(libs GLOBAL PROPERTY fuselab_libraries)
    if (NOT link_target IN_LIST libs)
        set_property(GLOBAL APPEND PROPERTY fuselab_libraries ${link_target})
    endif ()
    set_property(GLOBAL APPEND PROPERTY fuselab_manifest
                 "${pipeline}|${schedule}|${target}|float32|${kind}|${pipeline}__${schedule}__${target}|||||${summary}")
endfunction()

# The registry: TARGET is an INTERFACE library that links TARGET_registry (the generated code and
# every variant) whole, so that its static registration runs in whatever links TARGET. ALIAS
# names TARGET_registry as the package that installs it exports it (fuselab::kernels_registry).
function(fuselab_registry target)
    cmake_parse_arguments(ARG "" "ALIAS" "" ${ARGN})
    get_property(rows GLOBAL PROPERTY fuselab_manifest)
    get_property(libs GLOBAL PROPERTY fuselab_libraries)
    list(JOIN rows "\n" text)
    set(manifest "${CMAKE_CURRENT_BINARY_DIR}/${target}.manifest")
    file(WRITE "${manifest}.in" "${text}\n")
    configure_file("${manifest}.in" "${manifest}" COPYONLY)
    set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}.gen.cpp")
    find_program(FUSELAB_PTXAS ptxas HINTS /usr/local/cuda/bin DOC "ptxas, for the ledger's registers and spills")
    set(ptxas_args "")
    if (FUSELAB_PTXAS)
        set(ptxas_args --ptxas "${FUSELAB_PTXAS}")
    endif ()
    add_custom_command(
        OUTPUT "${out}"
        COMMAND Python3::Interpreter "${_fuselab_cmake_dir}/gen_registry.py"
                --manifest "${manifest}" --out "${out}" ${ptxas_args}
        DEPENDS "${manifest}" "${_fuselab_cmake_dir}/gen_registry.py" ${libs}
        COMMENT "Generating the variant registry and ledger (${target})"
        VERBATIM)
    add_library(${target}_registry STATIC "${out}")
    if (TARGET fuselab_runtime)
        target_link_libraries(${target}_registry PUBLIC fuselab_runtime)
    else ()
        target_link_libraries(${target}_registry PUBLIC fuselab::runtime)
    endif ()
    target_link_libraries(${target}_registry PUBLIC ${libs} ${FUSELAB_HALIDE_RUNTIME})
    set(whole "${target}_registry")
    if (ARG_ALIAS)
        add_library(${ARG_ALIAS} ALIAS ${target}_registry)
        set(whole "${ARG_ALIAS}")
    endif ()
    add_library(${target} INTERFACE)
    target_link_libraries(${target} INTERFACE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${whole}>")
endfunction()
