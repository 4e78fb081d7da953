#include <nlohmann/json.hpp>
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>
int main(int argc, char **argv) {
    std::ifstream f(argv[1]); std::stringstream ss; ss << f.rdbuf(); std::string s = ss.str();
    for (int k = 0; k < 3; k++) {
        auto t0 = std::chrono::steady_clock::now();
        auto j = nlohmann::json::parse(s);
        auto t1 = std::chrono::steady_clock::now();
        std::cout << s.size() / 1024 << " KB parsed in " << std::chrono::duration<double, std::milli>(t1 - t0).count() << " ms\n";
    }
}
