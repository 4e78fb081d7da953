# The sanitizer build (FUSELAB_SANITIZE=ON; ./fuselab test makes it in build-asan with clang-14):
# the runtime, CLI and tests with AddressSanitizer and UndefinedBehaviorSanitizer, any UB fatal,
# and the CPU variants compiled with Halide's `asan` feature so that the generated code is checked
# too. CUDA is off here (the CUDA variants go through compute-sanitizer on the GPU machine,
# gpu/sanitize_cuda.py), and so is the Python library (an ASan library cannot load into an
# uninstrumented interpreter). Generators come from the main build when it exports them
# (-Dfuselab-halide_generators_DIR=build/cmake), so that nothing is compiled twice.
set(FUSELAB_TARGET_FEATURES "-asan" CACHE STRING "" FORCE)
# One CPU target, not the main build's AVX-512 + AVX2 multi-target: the checked code is the same
# lowering at another vector width, AVX2 runs on every machine of this project's kinds, and each
# variant is generated once instead of twice (the sanitizer build's longest step).
set(FUSELAB_CPU_TARGETS "x86-64-linux-avx-avx2-f16c-fma-sse41" CACHE STRING "" FORCE)
set(FUSELAB_CUDA OFF CACHE BOOL "" FORCE)
set(FUSELAB_SEED_CUDA OFF CACHE BOOL "" FORCE)
set(FUSELAB_PYTHON OFF CACHE BOOL "" FORCE)
set(sanitizers -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${sanitizers}>")
add_link_options(-fsanitize=address,undefined)
# Opt-in test fixtures that exist only in this build (cli/main.cpp: FUSELAB_TEST_PLANT=leak).
add_compile_definitions(FUSELAB_SANITIZER_BUILD=1)
