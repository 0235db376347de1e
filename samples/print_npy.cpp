// print_npy FILE: prints an array's shape, its first values, and summary statistics.
#include <cmath>
#include <cstdio>
#include <iostream>

#include "runtime/Npy.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: print_npy FILE\n";
    return 2;
  }
  try {
    attn::HostTensor t = attn::read_npy(argv[1]);
    double sum = 0, abs_max = 0;
    int64_t nans = 0;
    for (int64_t i = 0; i < t.numel(); ++i) {
      double v = t.get(i);
      if (std::isnan(v))
        ++nans;
      else {
        sum += v;
        abs_max = std::max(abs_max, std::fabs(v));
      }
    }
    std::printf("%s: %s %s\n", argv[1], attn::scalar_type_name(t.type), t.shape_string().c_str());
    std::printf("first values:");
    for (int64_t i = 0; i < std::min<int64_t>(t.numel(), 8); ++i) std::printf(" %.6f", t.get(i));
    std::printf("\nsum %.6f  max |x| %.6f  NaNs %lld\n", sum, abs_max, static_cast<long long>(nans));
  } catch (const std::exception& e) {
    std::cerr << "print_npy: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
