#!/usr/bin/env bash
# Installs the Debian 12 packages attnc builds and tests with (as root, or through sudo).
# Does nothing when everything is already installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache antlr4 libantlr4-runtime-dev uuid-dev
  libhalide14-0-dev libcli11-dev libboost-test-dev nlohmann-json3-dev libfmt-dev libdlpack-dev
  spirv-tools spirv-headers libvulkan-dev mesa-vulkan-drivers vulkan-tools libpng-dev libssl-dev
  neovim clang pkg-config python3-dev python3-venv g++-aarch64-linux-gnu qemu-user
  libhiredis-dev redis-server
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "attnc: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "attnc: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
