#!/usr/bin/env bash
# Installs what building and testing cpudispatch needs on Debian 12, with
# apt-get; does nothing for packages already installed (idempotent).
set -euo pipefail
pkgs=(meson ninja-build pkg-config python3 gcc g++ clang binutils libgtest-dev libbenchmark-dev qemu-user)
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
