#include "Halide.h"
#include <cstdio>
using namespace Halide;
int main(int argc, char **argv) {
    std::string name = argv[1];
    int bits = atoi(argv[2]);
    ImageParam x(Float(32), 1, "x");
    Var i("i"), xo("xo"), xi("xi");
    Func f("f");
    Expr e = Internal::Call::make(UInt(bits), name, {x(2 * i), x(2 * i + 1)}, Internal::Call::PureExtern);
    f(i) = e;
    f.gpu_tile(i, xo, xi, 64);
    Target t("x86-64-linux-cuda-cuda_capability_86");
    f.compile_to_lowered_stmt("p.stmt", {x}, StmtOutputFormat::Text, t);
    f.compile_to({{OutputFileType::object, "p.o"}}, {x}, "p", t);
    printf("ok\n");
}
