#!/bin/bash
# Builds the peer that benchmarks/bench_peers.py runs beside our exact optimum: the optimal
# solver `mmstrat -s optimal` of fancidev/mastermind (C++, 2012), from a checkout you give;
# nothing is fetched here. Its commit "Import code from 2012" (2b52289) is the one whose
# optimal solver builds (its later HEAD no longer builds it); two one-line fixes, applied to
# a copy, let gcc 12 compile it: <limits> included where numeric_limits is used, and a
# pointer compared with nullptr rather than 0. Built with -O3 -msse4.1 and assertions off
# (an assertion of its bounds fails on (4,6) while the totals are right). Needs g++.
# Writes OUT_DIR/mmstrat (default SOURCE_DIR/build); never commit the peer or its binary.
#
#   git clone https://github.com/fancidev/mastermind /tmp/fancidev
#   git -C /tmp/fancidev checkout 2b52289
#   benchmarks/build_peers.sh /tmp/fancidev
#   python -m benchmarks.bench_peers --fancidev /tmp/fancidev/build/mmstrat
set -euo pipefail
source_dir=${1:?usage: build_peers.sh SOURCE_DIR [OUT_DIR] (a checkout of fancidev/mastermind at 2b52289)}
out_dir=${2:-$source_dir/build}
if [[ ! -f "$source_dir/lib/OptimalCodeBreaker.cpp" || ! -f "$source_dir/src/mmstrat.cpp" ]]; then
  echo "build_peers.sh: no fancidev/mastermind 2012 sources in $source_dir (lib/OptimalCodeBreaker.cpp and src/mmstrat.cpp missing): check out its commit 2b52289 there first" >&2
  exit 1
fi
mkdir -p "$out_dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$source_dir/lib" "$source_dir/src" "$work/"
# The two fixes for gcc 12, each made only where the source still needs it.
grep -q '^#include <limits>' "$work/lib/Engine.cpp" || sed -i '1i #include <limits>' "$work/lib/Engine.cpp"
sed -i 's/(root > 0)/(root != nullptr)/' "$work/lib/StrategyTree.cpp"
g++ -O3 -DNDEBUG -msse4.1 -w -I"$work/lib" "$work"/lib/*.cpp "$work/src/mmstrat.cpp" -o "$out_dir/mmstrat"
echo "built $out_dir/mmstrat"
