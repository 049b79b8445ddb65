#!/bin/bash
# Builds Magruder's C++ solver (github.com/mikemag/Mastermind, MIT licence) for
# benchmarks/bench_solver.py: one single-threaded CPU binary per strategy and game, named
# SOURCE_DIR/bin/mm_<Strategy>_<pegs><colors>. The solver is configured by editing its
# main.cpp, so each binary gets its own copy of the sources. Needs cmake, a C++20 compiler
# and nlohmann-json (Debian: nlohmann-json3-dev). Build outside this repository; never
# commit the solver or its binaries.
#
#   git clone https://github.com/mikemag/Mastermind /tmp/mm && benchmarks/build_solver.sh /tmp/mm
set -euo pipefail
source_dir=${1:?usage: build_solver.sh SOURCE_DIR}
cd "$source_dir"
# Use the system's JSON library and no CUDA (this is the CPU build).
sed -i 's|^FetchContent_Declare(json.*|find_package(nlohmann_json REQUIRED)|; s|^FetchContent_MakeAvailable(json)||; s|^cmake_minimum_required(VERSION 3.25.2)|cmake_minimum_required(VERSION 3.25)|; s|^check_language(CUDA)||' CMakeLists.txt
mkdir -p bin
for strategy in Knuth MostParts ExpectedSize Entropy; do
  for game in "4 6" "5 8"; do
    set -- $game
    build=build_${strategy}_$1$2
    rm -rf "$build"
    mkdir -p "$build/src"
    cp ./*.hpp ./*.inl ./*.cpp ./*.h ./*.in ./*.json CMakeLists.txt "$build/src/" 2>/dev/null || true
    # Play every game of one strategy and size; no single game, no self-tests.
    sed -i "s/static constexpr bool shouldPlaySingleGame = true;/static constexpr bool shouldPlaySingleGame = false;/; s/static constexpr bool shouldPlayMultipleGames = false;/static constexpr bool shouldPlayMultipleGames = true;/; s/static constexpr bool shouldRunTests = true;/static constexpr bool shouldRunTests = false;/; s/^using MultiGameAlgos = ss::algo_list<Algos::Knuth>;/using MultiGameAlgos = ss::algo_list<Algos::$strategy>;/; s/^using MultiGamePins = ss::pin_counts<4>;/using MultiGamePins = ss::pin_counts<$1>;/; s/^using MultiGameColors = ss::color_counts<6>;/using MultiGameColors = ss::color_counts<$2>;/" "$build/src/main.cpp"
    (cd "$build" && cmake -S src -B b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build b -j2 >/dev/null && cp b/mastermind "../bin/mm_${strategy}_$1$2")
  done
done
