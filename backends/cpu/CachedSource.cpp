// host_kernel_request: the generated source of a kernel (its forward or its backward) for this
// machine's path, kept in the loader's disk cache beside the compiled kernels, so that a second
// process skips Halide.
#include <cstring>

#include "attn/loader.hpp"
#include "backends/cpu/CpuBackend.h"
#include "codegen/Lower.h"
#include "codegen/KernelIR.h"
#include "runtime/BuildId.h"

namespace attn {

std::string host_source_blob_name(const KernelIR& ir, CpuEntry which) {
  // What the generated source depends on: this build of the code generators and the Halide library
  // they call (their build IDs: any change to either is another build), the kernel's IR (its
  // structural hash, which leaves names out, then its name and argument names, which the source
  // spells) and the vector path.
  static const std::string ours = build_id_of(reinterpret_cast<const void*>(&host_kernel_request));
  static const std::string halide = build_id_of(reinterpret_cast<const void*>(&Halide::get_host_target));
  if (ours.empty() || halide.empty()) return "";
  static const std::string build = ours + " " + halide;
  std::string name = std::string("cpu-source/1 ") + (which == CpuEntry::Forward ? "forward " : "backward ") + build +
                     " " + kernel_hash(ir) + " " + cpu_isa_name(host_cpu_target().isa) + " " + ir.name;
  for (const KernelArg& a : ir.args) name += " " + a.name;
  return name;
}

KernelRequest host_kernel_request(const KernelIR& ir, Loader& loader, CpuEntry which) {
  const std::string blob = host_source_blob_name(ir, which);
  KernelRequest r;
  r.target = "cpu";
  r.flags = cpu_required_flags();
  // The entry, a NUL, the single-file source: verified by the disk cache like a kernel (an entry
  // another user planted is refused, a corrupt one regenerated).
  if (!blob.empty())
    if (std::optional<std::vector<uint8_t>> stored = loader.load_blob(blob)) {
      const auto* bytes = reinterpret_cast<const char*>(stored->data());
      const void* nul = std::memchr(bytes, 0, stored->size());
      if (nul && nul != bytes) {
        const size_t entry = static_cast<size_t>(static_cast<const char*>(nul) - bytes);
        r.entry.assign(bytes, entry);
        r.source.assign(bytes + entry + 1, stored->size() - entry - 1);
        return r;
      }
    }
  const CpuKernelSource src = which == CpuEntry::Forward ? generate_cpu_kernel(ir, host_cpu_target())
                                                         : generate_cpu_backward(ir, host_cpu_target());
  r.source = single_file_source(src);
  r.entry = src.entry;
  if (!blob.empty()) {
    std::vector<uint8_t> bytes(r.entry.begin(), r.entry.end());
    bytes.push_back(0);
    bytes.insert(bytes.end(), r.source.begin(), r.source.end());
    loader.store_blob(blob, bytes);
  }
  return r;
}

}  // namespace attn
