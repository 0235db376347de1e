// The tensor-core kernel's operand layout, checked on the host: the index functions of
// backends/cuda/device/attn_mma_layout.cuh drive an emulation of ldmatrix.x4 (plain and .trans)
// and mma.sync.m16n8k16 written from the PTX ISA's fragment tables; one warp's S = Q K^T and
// O = P V, assembled the way attn_fwd_mma.cuh does, must equal the plain products; so must the
// backward's (attn_bwd_mma.cuh: mma_abt and mma_xb) transposed products S^T = K Q^T,
// dP^T = V dO^T, dV = P^T dO, dK = dS^T Q and dQ = dS K.
#define BOOST_TEST_MODULE mma_layout
#include <boost/test/unit_test.hpp>

#include <array>
#include <cmath>
#include <random>
#include <vector>

#define ATTN_HD inline
#include "backends/cuda/device/attn_mma_layout.cuh"

using namespace attn_dev;

namespace {

struct Pair {  // one 32-bit register holding two 16-bit elements (lo = lower column/k index)
  float lo = 0, hi = 0;
};
using Frag4 = std::array<Pair, 4>;
using Warp4 = std::array<Frag4, 32>;
using Acc = std::array<std::array<float, 4>, 32>;

/// ldmatrix.sync.aligned.m8n8.x4(.trans).b16: lane L supplies the address (element offset) of
/// row L % 8 of matrix L / 8; register i of lane t holds matrix i's (t / 4, 2 (t % 4) .. + 1),
/// or with .trans its (2 (t % 4) .. + 1, t / 4).
Warp4 ldmatrix_x4(const std::vector<float>& smem, const std::array<int, 32>& addr, bool trans) {
  Warp4 out{};
  for (int i = 0; i < 4; ++i)
    for (int t = 0; t < 32; ++t) {
      auto m = [&](int r, int c) { return smem.at(static_cast<size_t>(addr[i * 8 + r] + c)); };
      if (!trans)
        out[t][i] = {m(t / 4, 2 * (t % 4)), m(t / 4, 2 * (t % 4) + 1)};
      else
        out[t][i] = {m(2 * (t % 4), t / 4), m(2 * (t % 4) + 1, t / 4)};
    }
  return out;
}

/// mma.sync.aligned.m16n8k16.row.col.f32: D = A B + C with the PTX fragment layouts
/// (g = lane / 4, c = lane % 4): a0 (g, 2c), a1 (g + 8, 2c), a2 (g, 2c + 8), a3 (g + 8, 2c + 8);
/// b0 (k = 2c, n = g), b1 (k = 2c + 8, n = g); c0/c1 (g, 2c / 2c + 1), c2/c3 (g + 8, ...).
void mma(Acc& acc, const std::array<Frag4, 32>& a, const std::array<std::array<Pair, 2>, 32>& b) {
  float A[16][16], B[16][8];
  for (int t = 0; t < 32; ++t) {
    const int g = t / 4, c = t % 4;
    const int rows[4] = {g, g + 8, g, g + 8}, cols[4] = {2 * c, 2 * c, 2 * c + 8, 2 * c + 8};
    for (int i = 0; i < 4; ++i) {
      A[rows[i]][cols[i]] = a[t][i].lo;
      A[rows[i]][cols[i] + 1] = a[t][i].hi;
    }
    for (int i = 0; i < 2; ++i) {
      B[2 * c + 8 * i][g] = b[t][i].lo;
      B[2 * c + 8 * i + 1][g] = b[t][i].hi;
    }
  }
  for (int t = 0; t < 32; ++t)
    for (int e = 0; e < 4; ++e) {
      const int r = t / 4 + (e / 2) * 8, n = (t % 4) * 2 + e % 2;
      for (int k = 0; k < 16; ++k) acc[t][e] += A[r][k] * B[k][n];
    }
}

std::array<std::array<Pair, 2>, 32> half(const Warp4& r, int first) {
  std::array<std::array<Pair, 2>, 32> b{};
  for (int t = 0; t < 32; ++t) b[t] = {r[t][first], r[t][first + 1]};
  return b;
}

/// One warp's 16 query rows against BN keys, as attn_fwd_mma.cuh computes them.
template <int D, int DV, int BN>
void check_warp_products() {
  std::mt19937 rng(D * 1000 + DV * 10 + BN);
  std::uniform_int_distribution<int> small(-3, 3);  // exact in f32 (and in bf16)
  std::vector<float> Q(16 * D), K(BN * D), V(BN * DV);
  for (float& x : Q) x = static_cast<float>(small(rng));
  for (float& x : K) x = static_cast<float>(small(rng));
  for (float& x : V) x = static_cast<float>(small(rng));
  // Shared memory as the cp.async tile loader writes it.
  std::vector<float> sQ(16 * D), sK(BN * D), sV(BN * DV);
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < D; ++c) sQ[swz<D>(r, c)] = Q[r * D + c];
  for (int r = 0; r < BN; ++r) {
    for (int c = 0; c < D; ++c) sK[swz<D>(r, c)] = K[r * D + c];
    for (int c = 0; c < DV; ++c) sV[swz<DV>(r, c)] = V[r * DV + c];
  }

  // S = Q K^T.
  std::vector<Acc> s(BN / 8, Acc{});
  for (int kk = 0; kk < D / 16; ++kk) {
    std::array<int, 32> qa{};
    for (int l = 0; l < 32; ++l) qa[l] = q_lane_row(l) * D + q_lane_cols(l).at(kk);
    const Warp4 a = ldmatrix_x4(sQ, qa, false);
    for (int j = 0; j < BN / 8; j += 2) {
      std::array<int, 32> ka{};
      for (int l = 0; l < 32; ++l) ka[l] = k_lane_row(l) * D + j * 8 * D + k_lane_cols(l).at(kk);
      const Warp4 bk = ldmatrix_x4(sK, ka, false);
      mma(s[j], a, half(bk, 0));
      mma(s[j + 1], a, half(bk, 2));
    }
  }
  for (int j = 0; j < BN / 8; ++j)
    for (int l = 0; l < 32; ++l)
      for (int e = 0; e < 4; ++e) {
        const int r = acc_row(l, e), kv = j * 8 + acc_col(l, e);
        float want = 0;
        for (int d = 0; d < D; ++d) want += Q[r * D + d] * K[kv * D + d];
        BOOST_REQUIRE_MESSAGE(s[j][l][e] == want, "S(" << r << ", " << kv << ") D=" << D << " BN=" << BN);
      }

  // O = P V with P = S (the softmax does not move elements), A fragments from two key blocks.
  std::vector<Acc> o(DV / 8, Acc{});
  for (int kk = 0; kk < BN / 16; ++kk) {
    std::array<Frag4, 32> a{};
    for (int l = 0; l < 32; ++l)
      a[l] = {Pair{s[2 * kk][l][0], s[2 * kk][l][1]}, Pair{s[2 * kk][l][2], s[2 * kk][l][3]},
              Pair{s[2 * kk + 1][l][0], s[2 * kk + 1][l][1]}, Pair{s[2 * kk + 1][l][2], s[2 * kk + 1][l][3]}};
    for (int j = 0; j < DV / 8; j += 2) {
      std::array<int, 32> va{};
      for (int l = 0; l < 32; ++l) va[l] = v_lane_row(l) * DV + kk * 16 * DV + v_lane_cols(l).at(j / 2);
      const Warp4 bv = ldmatrix_x4(sV, va, true);
      mma(o[j], a, half(bv, 0));
      mma(o[j + 1], a, half(bv, 2));
    }
  }
  for (int j = 0; j < DV / 8; ++j)
    for (int l = 0; l < 32; ++l)
      for (int e = 0; e < 4; ++e) {
        const int r = acc_row(l, e), c = j * 8 + acc_col(l, e);
        float want = 0;
        for (int kv = 0; kv < BN; ++kv) {
          float sv = 0;
          for (int d = 0; d < D; ++d) sv += Q[r * D + d] * K[kv * D + d];
          want += sv * V[kv * DV + c];
        }
        BOOST_REQUIRE_MESSAGE(o[j][l][e] == want,
                              "O(" << r << ", " << c << ") D=" << D << " DV=" << DV << " BN=" << BN);
      }
}

/// A tile of `rows` x `cols` integers, and its copy in shared memory as the tile loader lays it out.
struct Tile {
  int rows, cols;
  std::vector<float> plain, smem;
  Tile(int r, int c, std::mt19937& rng) : rows(r), cols(c), plain(r * c), smem(r * c) {
    std::uniform_int_distribution<int> small(-3, 3);  // exact in f32 (and in bf16)
    for (float& x : plain) x = static_cast<float>(small(rng));
    for (int i = 0; i < r; ++i)
      for (int j = 0; j < c; ++j)
        smem[static_cast<size_t>(c == 64 ? swz<64>(i, j) : swz<128>(i, j))] = at(i, j);
  }
  float at(int r, int c) const { return plain[static_cast<size_t>(r * cols + c)]; }
};

/// acc (16 x NC * 8) = A B^T with A = rows a0.. and B = rows b0.. of two tiles of K columns,
/// addressed as attn_bwd_mma.cuh's mma_abt does.
std::vector<Acc> abt(const Tile& A, int a0, const Tile& B, int b0, int NC) {
  const int K = A.cols;
  std::vector<Acc> acc(static_cast<size_t>(NC), Acc{});
  for (int kk = 0; kk < K / 16; ++kk) {
    std::array<int, 32> aa{};
    for (int l = 0; l < 32; ++l) aa[l] = (a0 + q_lane_row(l)) * K + q_lane_cols(l).at(kk);
    const Warp4 a = ldmatrix_x4(A.smem, aa, false);
    for (int j = 0; j < NC; j += 2) {
      std::array<int, 32> ba{};
      for (int l = 0; l < 32; ++l) ba[l] = (b0 + k_lane_row(l)) * K + j * 8 * K + k_lane_cols(l).at(kk);
      const Warp4 b = ldmatrix_x4(B.smem, ba, false);
      mma(acc[static_cast<size_t>(j)], a, half(b, 0));
      mma(acc[static_cast<size_t>(j + 1)], a, half(b, 2));
    }
  }
  return acc;
}

/// acc (16 x B.cols) = X B with X the 16 x 8 NX accumulator tile x (p_fragment's packing) and B =
/// rows b0.. of a tile, addressed as mma_xb does.
std::vector<Acc> xb(const std::vector<Acc>& x, const Tile& B, int b0) {
  const int NC = B.cols / 8, NX = static_cast<int>(x.size());
  std::vector<Acc> acc(static_cast<size_t>(NC), Acc{});
  for (int kk = 0; kk < NX / 2; ++kk) {
    std::array<Frag4, 32> a{};
    for (int l = 0; l < 32; ++l) {
      const Acc &x0 = x[static_cast<size_t>(2 * kk)], &x1 = x[static_cast<size_t>(2 * kk + 1)];
      a[l] = {Pair{x0[l][0], x0[l][1]}, Pair{x0[l][2], x0[l][3]}, Pair{x1[l][0], x1[l][1]},
              Pair{x1[l][2], x1[l][3]}};
    }
    for (int j = 0; j < NC; j += 2) {
      std::array<int, 32> ba{};
      for (int l = 0; l < 32; ++l)
        ba[l] = (b0 + v_lane_row(l)) * B.cols + kk * 16 * B.cols + v_lane_cols(l).at(j / 2);
      const Warp4 b = ldmatrix_x4(B.smem, ba, true);
      mma(acc[static_cast<size_t>(j)], a, half(b, 0));
      mma(acc[static_cast<size_t>(j + 1)], a, half(b, 2));
    }
  }
  return acc;
}

/// Element (r, c) of an accumulator tile.
float acc_at(const std::vector<Acc>& acc, int r, int c) {
  for (int l = 0; l < 32; ++l)
    for (int e = 0; e < 4; ++e)
      if (acc_row(l, e) == r && (c % 8) == acc_col(l, e)) return acc[static_cast<size_t>(c / 8)][l][e];
  return NAN;
}

/// The backward's products for warp 1 of a CTA (keys 16..31 of a 64-key tile; queries
/// [qs, qs + BQ) of a 64-query tile), against plain loops.
template <int D, int DV, int BQ>
void check_backward_products(int qs) {
  std::mt19937 rng(D * 7 + DV * 3 + BQ + qs);
  const Tile K(64, D, rng), V(64, DV, rng), Q(64, D, rng), dO(64, DV, rng);
  const int k0 = 16;
  auto dot = [](const Tile& a, int i, const Tile& b, int j) {
    float s = 0;
    for (int c = 0; c < a.cols; ++c) s += a.at(i, c) * b.at(j, c);
    return s;
  };
  // Key-major: S^T, dP^T, then dV = P^T dO and dK = dS^T Q with P = S^T, dS = dP^T.
  const std::vector<Acc> st = abt(K, k0, Q, qs, BQ / 8), dpt = abt(V, k0, dO, qs, BQ / 8);
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < BQ; ++c) {
      BOOST_REQUIRE_MESSAGE(acc_at(st, r, c) == dot(K, k0 + r, Q, qs + c), "S^T(" << r << ", " << c << ")");
      BOOST_REQUIRE_MESSAGE(acc_at(dpt, r, c) == dot(V, k0 + r, dO, qs + c),
                            "dP^T(" << r << ", " << c << ")");
    }
  const std::vector<Acc> dv = xb(st, dO, qs), dk = xb(dpt, Q, qs);
  for (int r = 0; r < 16; ++r) {
    for (int c = 0; c < DV; ++c) {
      float want = 0;
      for (int i = 0; i < BQ; ++i) want += dot(K, k0 + r, Q, qs + i) * dO.at(qs + i, c);
      BOOST_REQUIRE_MESSAGE(acc_at(dv, r, c) == want, "dV(" << r << ", " << c << ") D=" << D << " DV=" << DV);
    }
    for (int c = 0; c < D; ++c) {
      float want = 0;
      for (int i = 0; i < BQ; ++i) want += dot(V, k0 + r, dO, qs + i) * Q.at(qs + i, c);
      BOOST_REQUIRE_MESSAGE(acc_at(dk, r, c) == want, "dK(" << r << ", " << c << ") D=" << D << " DV=" << DV);
    }
  }
  // Query-major: S = Q K^T for the warp's queries 16..31, then dQ = dS K with dS = S.
  const std::vector<Acc> s = abt(Q, 16, K, 0, 8), dq = xb(s, K, 0);
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < D; ++c) {
      float want = 0;
      for (int kv = 0; kv < 64; ++kv) want += dot(Q, 16 + r, K, kv) * K.at(kv, c);
      BOOST_REQUIRE_MESSAGE(acc_at(dq, r, c) == want, "dQ(" << r << ", " << c << ") D=" << D);
    }
}

}  // namespace

BOOST_AUTO_TEST_CASE(swizzled_pairs_match_the_swizzle) {
  for (int m = 0; m < 8; ++m)
    for (int t = 0; t < 2; ++t)
      for (int pair = 0; pair < 16; ++pair)
        BOOST_TEST(SwizzledPairs(t, m).at(pair) == swz<256>(m, (2 * pair + t) * 8) - m * 256);
}

BOOST_AUTO_TEST_CASE(ldmatrix_rows_hit_distinct_banks) {
  // The 8 row addresses of one matrix cover all 32 banks (16 bytes = 4 banks each).
  for (int l0 = 0; l0 < 32; l0 += 8)
    for (int kk = 0; kk < 8; ++kk) {
      unsigned banks = 0;
      for (int l = l0; l < l0 + 8; ++l) {
        const int elem = k_lane_row(l) * 128 + k_lane_cols(l).at(kk);
        banks |= 0xFu << ((elem * 2 / 4) % 32);
      }
      BOOST_TEST(banks == 0xFFFFFFFFu);
    }
}

BOOST_AUTO_TEST_CASE(warp_products_d64) { check_warp_products<64, 64, 64>(); }
BOOST_AUTO_TEST_CASE(warp_products_d128) { check_warp_products<128, 128, 64>(); }
BOOST_AUTO_TEST_CASE(warp_products_d128_dv64) { check_warp_products<128, 64, 64>(); }
BOOST_AUTO_TEST_CASE(warp_products_d256_bn16) { check_warp_products<256, 256, 16>(); }
BOOST_AUTO_TEST_CASE(backward_products_d64) { check_backward_products<64, 64, 64>(0); }
BOOST_AUTO_TEST_CASE(backward_products_d128) { check_backward_products<128, 128, 32>(32); }
BOOST_AUTO_TEST_CASE(backward_products_d128_dv64) { check_backward_products<128, 64, 32>(0); }
