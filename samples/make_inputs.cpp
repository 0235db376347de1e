// make_inputs DIR B H L D [Hkv] [Dv]: writes random q.npy, k.npy, v.npy (f32, seeded) for `attnc run`.
#include <cstdlib>
#include <iostream>
#include <random>

#include "runtime/Npy.h"

int main(int argc, char** argv) {
  if (argc < 6) {
    std::cerr << "usage: make_inputs DIR B H L D [Hkv] [Dv]\n";
    return 2;
  }
  std::string dir = argv[1];
  int64_t B = std::atoll(argv[2]), H = std::atoll(argv[3]), L = std::atoll(argv[4]), D = std::atoll(argv[5]);
  int64_t Hkv = argc > 6 ? std::atoll(argv[6]) : H, Dv = argc > 7 ? std::atoll(argv[7]) : D;
  std::mt19937 rng(1234);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  auto make = [&](int64_t heads, int64_t dim) {
    attn::HostTensor t(attn::ScalarType::F32, {B, heads, L, dim});
    for (int64_t i = 0; i < t.numel(); ++i) t.set(i, normal(rng));
    return t;
  };
  try {
    attn::write_npy(dir + "/q.npy", make(H, D));
    attn::write_npy(dir + "/k.npy", make(Hkv, D));
    attn::write_npy(dir + "/v.npy", make(Hkv, Dv));
  } catch (const std::exception& e) {
    std::cerr << "make_inputs: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
