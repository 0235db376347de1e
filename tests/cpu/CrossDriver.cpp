// The host program of test_cpu_aarch64: built with generated kernels for another architecture (by a
// cross compiler, not by CMake) and run under qemu-user. It takes a folder holding call.txt and the
// input tensors as raw little-endian bytes, calls one kernel through its C ABI, and writes Out (and
// LSE) beside them; the test compares those with the reference.
//
// call.txt: `kernel NAME`, then one line per tensor `tensor NAME CODE BITS NDIM DIMS...` (DLPack
// type code and bits) for q, k, v, out, lse (when the kernel writes it) and the buffers in
// declaration order, then one `scalar VALUE` per scalar argument. Prints `path PATH`, the vector path
// the kernel ran.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "kernels.inc"  // written by the test: the kernels' headers and ATTN_KERNELS(X), X(name) each

namespace {

/// A kernel's entry point and the function naming the vector path it runs.
struct Entry {
  const char* name;
  attn_kernel_fn run;
  const char* (*path)(void);
};

#define ATTN_ENTRY(name) {#name, attn_##name, attn_##name##_path},
const Entry kEntries[] = {ATTN_KERNELS(ATTN_ENTRY)};

/// One tensor of the call: its bytes and the DLTensor viewing them.
struct Tensor {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<char> bytes;
  DLTensor dl{};
};

bool read_bytes(const std::string& path, std::vector<char>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  in.read(out.data(), std::streamsize(out.size()));
  return in.gcount() == std::streamsize(out.size());
}

bool write_bytes(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  return bool(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " FOLDER\n";
    return 2;
  }
  const std::string dir = argv[1];
  std::ifstream call(dir + "/call.txt");
  std::string kernel;
  std::vector<Tensor> tensors;
  std::vector<double> scalars;
  for (std::string line; std::getline(call, line);) {
    std::istringstream words(line);
    std::string what;
    words >> what;
    if (what == "kernel") {
      words >> kernel;
    } else if (what == "scalar") {
      scalars.emplace_back();
      words >> scalars.back();
    } else if (what == "tensor") {
      Tensor t;
      int code = 0, bits = 0, ndim = 0;
      words >> t.name >> code >> bits >> ndim;
      t.shape.resize(size_t(ndim));
      int64_t numel = 1;
      for (int64_t& d : t.shape) {
        words >> d;
        numel *= d;
      }
      t.bytes.resize(size_t(numel * bits / 8));
      t.dl.dtype = DLDataType{uint8_t(code), uint8_t(bits), 1};
      t.dl.device = DLDevice{kDLCPU, 0};
      t.dl.ndim = ndim;
      tensors.push_back(std::move(t));
    }
  }
  const Entry* entry = nullptr;
  for (const Entry& e : kEntries)
    if (kernel == e.name) entry = &e;
  if (!entry) {
    std::cerr << "no kernel '" << kernel << "' in this driver\n";
    return 2;
  }
  // The vector's storage is final now: point the DLTensors at it.
  std::vector<const DLTensor*> buffers;
  Tensor *q = nullptr, *k = nullptr, *v = nullptr, *out = nullptr, *lse = nullptr;
  for (Tensor& t : tensors) {
    t.dl.data = t.bytes.data();
    t.dl.shape = t.shape.data();
    Tensor** slot = t.name == "q"     ? &q
                    : t.name == "k"   ? &k
                    : t.name == "v"   ? &v
                    : t.name == "out" ? &out
                    : t.name == "lse" ? &lse
                                      : nullptr;
    if (slot)
      *slot = &t;
    else
      buffers.push_back(&t.dl);
    if (t.name != "out" && t.name != "lse" && !read_bytes(dir + "/" + t.name + ".bin", t.bytes)) {
      std::cerr << "cannot read " << dir << "/" << t.name << ".bin\n";
      return 2;
    }
  }
  if (!q || !k || !v || !out) {
    std::cerr << "call.txt lacks one of q, k, v, out\n";
    return 2;
  }
  char error[1024] = "";
  attn_kernel_args args{};
  args.abi_version = ATTN_KERNEL_ABI_VERSION;
  args.q = &q->dl;
  args.k = &k->dl;
  args.v = &v->dl;
  args.out = &out->dl;
  args.lse = lse ? &lse->dl : nullptr;
  args.buffers = buffers.data();
  args.num_buffers = int(buffers.size());
  args.scalars = scalars.data();
  args.num_scalars = int(scalars.size());
  args.num_threads = 2;
  args.error = error;
  args.error_size = sizeof error;
  // No kv_ranges: a kernel whose mask reads buffers plans its own (fixed/SelfPlan.h).
  if (entry->run(&args) != 0) {
    std::cerr << "kernel failed: " << error << "\n";
    return 1;
  }
  std::cout << "path " << entry->path() << "\n";
  if (!write_bytes(dir + "/out.bin", out->bytes) || (lse && !write_bytes(dir + "/lse.bin", lse->bytes))) {
    std::cerr << "cannot write the outputs to " << dir << "\n";
    return 2;
  }
  return 0;
}
