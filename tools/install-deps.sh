#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what building and testing cpudispatch needs on Debian 12, with
# apt-get; does nothing for packages already installed (idempotent).
set -euo pipefail
pkgs=(meson ninja-build pkg-config python3 git gcc g++ clang binutils libgtest-dev libbenchmark-dev qemu-user libhwy-dev libcpu-features-dev cpuid)
# A NumPy extension built with meson-python (examples/pyext, test/pyext).
pkgs+=(python3-dev python3-numpy python3-mesonpy python3-pytest python3-build python3-pip)
# The CMake front end (CMakeLists.txt, src/cmake/, test/cmake): CMake and make.
pkgs+=(cmake make)
# Cross compilers for the other arches (skipped with CPUD_NO_CROSS=1).
if [ -z "${CPUD_NO_CROSS:-}" ]; then
  pkgs+=(g++-aarch64-linux-gnu g++-powerpc64le-linux-gnu g++-s390x-linux-gnu g++-riscv64-linux-gnu)
  # 32-bit arm (armhf): GCC 12 and its libc and libstdc++ for arm-linux-gnueabihf.
  pkgs+=(g++-arm-linux-gnueabihf)
  # 32-bit x86 (i686): GCC 12 and its libc and libstdc++ for i686-linux-gnu,
  # run under qemu-i386.
  pkgs+=(gcc-i686-linux-gnu g++-i686-linux-gnu)
  # An arch without a feature table (nothing dispatched), under qemu-user.
  pkgs+=(g++-mips64el-linux-gnuabi64)
  # Windows: MinGW-w64 GCC and Wine to run what it builds.
  pkgs+=(g++-mingw-w64-x86-64 wine64)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
