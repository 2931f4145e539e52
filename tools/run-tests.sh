#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole test suite: installs what it needs, builds cpudispatch with GCC
# and with Clang, runs `meson test` on each, and ends with one line
# "N passed, N failed, N skipped" over every test of every configuration.
# Build directories go under $CPUD_BUILD_ROOT (default: build-tests/).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${CPUD_BUILD_ROOT:-$root/build-tests}
"$root/tools/install-deps.sh" || { echo "0 passed, 1 failed"; exit 1; }

builds=()
# run_config NAME "ENV ASSIGNMENTS" "MESON SETUP ARGS" "MESON TEST ARGS"
run_config() {
  local name=$1 envs=$2 setup_args=$3 test_args=$4
  local dir=$out/$name
  builds+=("$dir")
  rm -rf "$dir"
  echo "=== $name: configure ($envs $setup_args)"
  # shellcheck disable=SC2086
  # debugoptimized: the build type the suites were written for (cpudispatch's
  # meson.build names none, so that a parent's reaches the runtime), unless
  # the configuration names one ("--buildtype=plain": Meson's own default).
  local buildtype=--buildtype=debugoptimized
  case " $setup_args " in *" --buildtype="*) buildtype= ;; esac
  if ! env $envs meson setup "$dir" "$root" $buildtype $setup_args >"$dir.setup.log" 2>&1; then
    tail -n 30 "$dir.setup.log"; return
  fi
  echo "=== $name: build"
  # A configuration that runs some suites builds what their tests need
  # (tools/test_targets.py; everything if it cannot tell).
  local targets=()
  # shellcheck disable=SC2086
  if [ -n "$test_args" ] && list=$(python3 "$root/tools/test_targets.py" "$dir" $test_args); then
    mapfile -t targets <<<"$list"
  fi
  if ! ninja -C "$dir" "${targets[@]}" >"$dir.build.log" 2>&1; then
    tail -n 30 "$dir.build.log"; return
  fi
  echo "=== $name: test"
  # shellcheck disable=SC2086
  meson test -C "$dir" --print-errorlogs --num-processes "$(nproc)" $test_args 2>&1 \
    | grep -E '^ *[0-9]+/[0-9]+ |^(Ok|Fail|Skipped):|^(FAIL|ERROR)' || true
}
# The CPU-dependent suites again under emulated x86 CPU models (qemu-user).
run_qemu_matrix() {  # NAME [--below MODELS]
  local dir=$out/$1; shift
  [ -f "$dir/build.ninja" ] || return
  echo "=== $(basename "$dir"): qemu CPU models $*"
  rm -rf "$dir"/qemu-*
  python3 "$root/tools/qemu-matrix.py" "$@" "$dir" | grep -E '^== |FAIL|^    ' || true
  for m in "$dir"/qemu-*/; do builds+=("${m%/}"); done
}
mkdir -p "$out"
run_config gcc "CC=gcc CXX=g++" "" ""
run_qemu_matrix gcc
run_config clang "CC=clang CXX=clang++" "" ""
run_qemu_matrix clang
# Higher baselines: on the host (above them) the CPU-dependent suites pass;
# under models below them every test program refuses to start (status 69).
run_config gcc-x86-v2 "CC=gcc CXX=g++" "-Dcpu-baseline=x86_v2" "--suite seed --suite runtime --suite isa"
# (x86-v2: the models below it, and Nehalem, the first at it; the models
# above it add nothing the host's own run does not.)
run_qemu_matrix gcc-x86-v2 --below qemu64,core2duo --models qemu64,core2duo,Nehalem
run_config gcc-x86-v3 "CC=gcc CXX=g++" "-Dcpu-baseline=x86_v3" "--suite seed --suite runtime --suite isa"
run_qemu_matrix gcc-x86-v3 --below qemu64,core2duo,Nehalem,SandyBridge
# ThreadSanitizer over the run-time tests (racing first calls included) and
# suite race (the operator model test with racing registrations, longer).
run_config tsan "CC=clang CXX=clang++" "-Db_sanitize=thread -Db_lundef=false" "--suite runtime --suite race"
# Other arches: cross-built with GCC 12, run under qemu-user (default model,
# then each model of tools/qemu-matrix.py).
if [ -z "${CPUD_NO_CROSS:-}" ]; then
  for triple in aarch64-linux-gnu powerpc64le-linux-gnu s390x-linux-gnu riscv64-linux-gnu; do
    run_config "$triple" "" "--cross-file $root/cross/$triple.txt" ""
    run_qemu_matrix "$triple"
  done
  # 32-bit arm (armhf), the whole suite; the matrix under three of its four
  # models: cortex-r5f (below NEON), cortex-a8 (NEON) and max (Armv8).
  # cortex-a15 (NEON with VFPv4) detects nothing max does not. Measured on a
  # 2-core machine: configure 14 s, build 115 s, meson test 56 s, three
  # models 66 s (a fourth: about 22 s more).
  run_config arm-linux-gnueabihf "" "--cross-file $root/cross/arm-linux-gnueabihf.txt" ""
  run_qemu_matrix arm-linux-gnueabihf --models cortex-r5f,cortex-a8,max
  # 32-bit x86 (i686), the whole suite; the matrix under three of its six
  # models: pentium2 (MMX, below SSE), coreduo (the SSE2 target, which
  # i686's baseline lacks) and Haswell (AVX2, FMA, BMI through XGETBV in
  # 32-bit mode). n270, Nehalem and SandyBridge select what one of those
  # does; with them the stage takes 3.8 minutes on an idle 2-core machine
  # instead of 3.1 (docs/testing.md).
  run_config i686-linux-gnu "" "--cross-file $root/cross/i686-linux-gnu.txt" ""
  run_qemu_matrix i686-linux-gnu --models pentium2,coreduo,Haswell
  # An arch with no feature table: it configures, builds every dispatch
  # source as its baseline build alone, and the run-time suites pass under
  # qemu-user's default CPU (docs/quickstart.md, "Arches and compilers");
  # the whole suite passes too (about 3 minutes more of CI; hazards,
  # groups and typed about 40 s more).
  run_config mips64el-linux-gnuabi64 "" "--cross-file $root/cross/mips64el-linux-gnuabi64.txt" \
    "--suite seed --suite runtime"
fi
# Windows: MinGW-w64 GCC cross builds run under Wine (natively, then Wine
# under each qemu model: the models apply to Windows code too), and a Clang
# build under Wine. One
# persistent wineserver and a prepared prefix: each program then starts in
# about 0.1 s, and no first-run message lands in a test's stderr.
if [ -z "${CPUD_NO_CROSS:-}" ]; then
  export WINEDEBUG=-all
  /usr/lib/wine/wine64 wineboot --init >/dev/null 2>&1  # tools/wine.py: WINE
  wineserver -w  # the boot's server gone, one that stays:
  wineserver -p >/dev/null 2>&1 &
  run_config mingw-gcc "" "--cross-file $root/cross/x86_64-w64-mingw32.txt" ""
  # Three models (below SSE4.2, SSE4.2, AVX2): a Wine start under qemu costs
  # about 0.4 s, every model about 3 minutes.
  run_qemu_matrix mingw-gcc --models core2duo,Nehalem,Haswell
  # A baseline above the lowest models: there every program refuses to
  # start (status 69), as on Linux.
  run_config mingw-gcc-x86-v2 "" "--cross-file $root/cross/x86_64-w64-mingw32.txt -Dcpu-baseline=x86_v2" \
    "--suite seed --suite runtime --suite isa"
  # core2duo only: the models below the baseline are the point here (at
  # the baseline the programs pass natively under Wine).
  run_qemu_matrix mingw-gcc-x86-v2 --below qemu64,core2duo --models core2duo
  # Clang 14 targeting MinGW (on GCC's MinGW libstdc++): meson test under
  # Wine, and under Nehalem, where its SSE4.2 code runs and its AVX2 code
  # must stay off (Clang's code below and above every model is the Linux
  # Clang build's matrix; each Wine model costs about 3 minutes of CI).
  # docs/windows.md's commands as written: Meson's default build type
  # (debug) and no wineserver started beforehand (the test scripts keep
  # one: test/exe_wrapper.py).
  wineserver -k >/dev/null 2>&1
  run_config mingw-clang "" "--buildtype=debug --cross-file $root/cross/x86_64-w64-mingw32-clang.txt" ""
  run_qemu_matrix mingw-clang --models Nehalem
  wineserver -k >/dev/null 2>&1
fi
# docs/testing.md's matrix table must be what this run exercised.
if [ -z "${CPUD_NO_CROSS:-}" ]; then
  mkdir -p "$out/matrix-doc/meson-logs"
  builds+=("$out/matrix-doc")
  if python3 "$root/tools/matrix-table.py" --check "$root/docs/testing.md" \
      "$out/gcc" "$out/clang" "$out"/*-linux-gnu "$out/arm-linux-gnueabihf"; then r=OK; else r=FAIL; fi
  echo "{\"name\": \"docs-matrix-table\", \"result\": \"$r\"}" > "$out/matrix-doc/meson-logs/testlog.json"
fi
python3 "$root/tools/count_results.py" "${builds[@]}"
