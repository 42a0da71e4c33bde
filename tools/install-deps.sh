#!/usr/bin/env bash
# Installs what Parallax needs to build and test on Debian 12, and nothing when it is all
# there already (idempotent and quick). Runs apt-get as root, or through sudo otherwise.
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config
  qt6-base-dev qt6-base-dev-tools libgl-dev qt6-svg-dev
  zlib1g-dev libdeflate-dev libboost-iostreams-dev catch2
  libopen-trace-format2-dev otf2-tools
  libopenmpi-dev openmpi-bin
  dpkg-dev appstream desktop-file-utils
  pybind11-dev python3-dev python3-numpy python3-pandas python3-pytest
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "installing: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
