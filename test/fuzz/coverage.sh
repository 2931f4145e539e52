#!/usr/bin/env bash
# Line, region and branch coverage of src/runtime/env_masks.c reached by a
# run of the env fuzz target (docs/testing.md, "Fuzz"): the target and the
# runtime rebuilt with Clang's source-based coverage (no sanitizers, which
# the coverage run does not need), run for RUNS executions, reported with
# llvm-cov.
#   test/fuzz/coverage.sh BUILD_DIR [RUNS] [SEED]
# BUILD_DIR: a configured x86_64 build (its generated headers are used).
set -euo pipefail
build=$(cd "$1" && pwd)
runs=${2:-1000000}
seed=${3:-7}
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-I"$build/include" -I"$src/include" -I"$build/src/runtime" -I"$src/src/runtime" -std=c++17 -O1 -g
       -fprofile-instr-generate -fcoverage-mapping -DCPUD__RUNTIME -DCPUD_NO_BASELINE_GUARD
       -DCPUD_NO_INTRINSIC_HEADERS)
# The runtime as an x86_64 build compiles it (one detect_*.cpp of three).
for f in "$src"/src/runtime/{baseline_check,detect_x86,env_masks,features,registry,selection,typed}.cpp; do
  clang++ "${flags[@]}" -fsanitize=fuzzer-no-link -c "$f" -o "$work/$(basename "$f" .cpp).o"
done
clang++ "${flags[@]}" -fsanitize=fuzzer "$src/test/fuzz/env_fuzz.cpp" "$work"/*.o -o "$work/env_fuzz_cov"
LLVM_PROFILE_FILE="$work/env.profraw" "$work/env_fuzz_cov" -seed="$seed" -runs="$runs" -max_len=1100 \
  -print_final_stats=1 2>&1 | grep -E '^(Done|stat::(number_of_executed_units|new_units_added))'
llvm-profdata merge -o "$work/env.profdata" "$work/env.profraw"
llvm-cov report "$work/env_fuzz_cov" -instr-profile="$work/env.profdata" "$src/src/runtime/env_masks.c"
