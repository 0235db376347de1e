#!/usr/bin/env bash
# The Vulkan path on a GPU machine (the H200): each row of docs/performance.md's table, checked against the
# reference and timed with GPU timestamps. Prepared on a CPU machine; NOT YET RUN on the H200.
# Usage: bench/gpu/run_vulkan.sh BUILD_DIR [B H L D REPEAT]
# That machine has no package manager: carry the Vulkan loader (libvulkan.so.1) along in
# bench/gpu/vendor/ (or point ATTNC_VULKAN_LOADER at one); the NVIDIA driver brings the ICD.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: run_vulkan.sh BUILD_DIR [B H L D REPEAT]}
shift
args=("${@:-4 16 8192 128 20}")

if [[ -z "${ATTNC_VULKAN_LOADER:-}" && -f "$here/vendor/libvulkan.so.1" ]]; then
  export ATTNC_VULKAN_LOADER="$here/vendor/libvulkan.so.1"
fi
# The NVIDIA ICD manifest: the driver's own, else one pointing at its GLX library.
if [[ -z "${VK_ICD_FILENAMES:-}" ]]; then
  for f in /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
    [[ -f $f ]] && export VK_ICD_FILENAMES=$f && break
  done
  if [[ -z "${VK_ICD_FILENAMES:-}" ]]; then
    manifest=$(mktemp --suffix=.json)
    printf '{"file_format_version":"1.0.0","ICD":{"library_path":"libGLX_nvidia.so.0","api_version":"1.3"}}\n' >"$manifest"
    export VK_ICD_FILENAMES=$manifest
  fi
fi
export ATTNC_VULKAN_DEVICE=${ATTNC_VULKAN_DEVICE:-NVIDIA}
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-$(mktemp -d)}

for kernel in full_attn causal_attn sliding_1024 prefix_2048 packed_docs alibi_causal softcap_causal; do
  # shellcheck disable=SC2086
  timeout 300 "$build/bench/gpu/attn_vulkan_bench" "$here/targets.attn" "$kernel" ${args[*]} || echo "$kernel: failed"
done
