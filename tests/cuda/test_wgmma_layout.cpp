// The Hopper kernel's operand layout, checked on the host: tiles stored the way its cp.async
// loader stores them (slab_swz), descriptors built by backends/cuda/device/attn_wgmma_layout.cuh
// as attn_fwd_wgmma.cuh builds them, and an emulation of wgmma.mma_async m64nNk16 written from
// the PTX ISA (matrix descriptor fields, the canonical K-major and MN-major layouts of the
// 128-byte swizzle mode, the register fragments of A and D). Each warpgroup's S = Q K^T and
// O = P V must equal the plain products.
#define BOOST_TEST_MODULE wgmma_layout
#include <boost/test/unit_test.hpp>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#define ATTN_HD inline
#include "backends/cuda/device/attn_mma_layout.cuh"
#include "backends/cuda/device/attn_wgmma_layout.cuh"

using namespace attn_dev;

namespace {

/// Shared memory holding 16-bit elements, addressed in bytes (exact small integers as floats).
struct Smem {
  std::vector<float> elems;
  explicit Smem(size_t bytes) : elems(bytes / 2, 0.f) {}
  float at(uint32_t byte) const {
    BOOST_REQUIRE(byte % 2 == 0);
    return elems.at(byte / 2);
  }
};

/// The fields of a matrix descriptor, as the PTX ISA defines them.
struct Desc {
  uint32_t start, lbo, sbo, base_offset, swizzle;
};
Desc decode(uint64_t d) {
  return {static_cast<uint32_t>(d & 0x3FFF) << 4, static_cast<uint32_t>((d >> 16) & 0x3FFF) << 4,
          static_cast<uint32_t>((d >> 32) & 0x3FFF) << 4, static_cast<uint32_t>((d >> 49) & 7),
          static_cast<uint32_t>(d >> 62)};
}

/// The 128-byte swizzle: address bits 4-6 XOR bits 7-9.
uint32_t swizzle128(uint32_t a) { return a ^ (((a >> 7) & 7) << 4); }

void require_sw128(const Desc& d) {
  BOOST_REQUIRE_EQUAL(d.swizzle, 1u);      // 128-byte swizzle
  BOOST_REQUIRE_EQUAL(d.base_offset, 0u);  // patterns start 1024-byte aligned
}

/// Element (mn, k), k < 16, of a K-major operand: Swizzle<3,4,3> o ((8,m),(T,2)):((8T,SBO),(1,T))
/// with T = 8 elements; 8 rows of 128 bytes, groups of 8 rows SBO apart.
uint32_t kmajor_addr(const Desc& d, int mn, int k) {
  require_sw128(d);
  return swizzle128(d.start + (mn / 8) * d.sbo + (mn % 8) * 128 + 2 * k);
}

/// Element (k, mn), k < 16, of an MN-major operand: Swizzle<3,4,3> o ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO));
/// 64 contiguous MN elements, blocks of 64 LBO apart, K rows 128 bytes apart in groups of 8 SBO apart.
uint32_t mnmajor_addr(const Desc& d, int k, int mn) {
  require_sw128(d);
  return swizzle128(d.start + (mn / 64) * d.lbo + 2 * (mn % 64) + (k / 8) * d.sbo + (k % 8) * 128);
}

/// The accumulators of one warpgroup for an m64nN wgmma: thread t (warp t / 32, lane t % 32) holds
/// d[j][e] at row 16 (t / 32) + (t % 32) / 4 + 8 (e / 2), column 8 j + 2 (t % 32 % 4) + e % 2.
using Accum = std::vector<std::vector<std::array<float, 4>>>;  // [thread][j][e]
int d_row(int t, int e) { return 16 * (t / 32) + (t % 32) / 4 + 8 * (e / 2); }
int d_col(int t, int j, int e) { return 8 * j + 2 * (t % 32 % 4) + e % 2; }

/// wgmma.mma_async.m64nNk16 with A and B from shared memory, neither transposed (both K-major).
void wgmma_ss(Accum& acc, int n, const Smem& s, uint64_t a_desc, uint64_t b_desc) {
  const Desc a = decode(a_desc), b = decode(b_desc);
  for (int t = 0; t < 128; ++t)
    for (int j = 0; j < n / 8; ++j)
      for (int e = 0; e < 4; ++e)
        for (int k = 0; k < 16; ++k)
          acc[t][j][e] += s.at(kmajor_addr(a, d_row(t, e), k)) * s.at(kmajor_addr(b, d_col(t, j, e), k));
}

/// wgmma.mma_async.m64nNk16 with A from registers and B from shared memory, transposed (MN-major).
/// A register i of thread t (4 per thread, two 16-bit elements each, `lo` the lower k): the
/// mma.sync m16n8k16 A fragment of warp t / 32, rows offset by 16 (t / 32): a0 (g, 2c), a1 (g + 8, 2c),
/// a2 (g, 2c + 8), a3 (g + 8, 2c + 8) with g = lane / 4, c = lane % 4.
using AFrag = std::vector<std::array<std::array<float, 2>, 4>>;  // [thread][register][lo/hi]
void wgmma_rs_trans_b(Accum& acc, int n, const AFrag& a, const Smem& s, uint64_t b_desc) {
  const Desc b = decode(b_desc);
  float A[64][16];
  for (int t = 0; t < 128; ++t) {
    const int g = (t % 32) / 4, c = t % 4, r0 = 16 * (t / 32);
    const int rows[4] = {g, g + 8, g, g + 8}, cols[4] = {2 * c, 2 * c, 2 * c + 8, 2 * c + 8};
    for (int i = 0; i < 4; ++i)
      for (int h = 0; h < 2; ++h) A[r0 + rows[i]][cols[i] + h] = a[t][i][h];
  }
  for (int t = 0; t < 128; ++t)
    for (int j = 0; j < n / 8; ++j)
      for (int e = 0; e < 4; ++e)
        for (int k = 0; k < 16; ++k)
          acc[t][j][e] += A[d_row(t, e)][k] * s.at(mnmajor_addr(b, k, d_col(t, j, e)));
}

/// One CTA of BM rows (BM / 64 warpgroups) against one key tile of BN keys, as attn_fwd_wgmma.cuh
/// computes it: shared memory laid out as Q, then STAGES K tiles, then STAGES V tiles, the
/// tile read from stage `stage`.
template <int BM, int BN, int D, int DV, int STAGES>
void check_cta_products(int stage) {
  std::mt19937 rng(BM * 7 + BN * 5 + D * 3 + DV + stage);
  std::uniform_int_distribution<int> small(-3, 3);  // exact in f32 and bf16
  std::vector<float> Q(BM * D), K(BN * D), V(BN * DV);
  for (float& x : Q) x = static_cast<float>(small(rng));
  for (float& x : K) x = static_cast<float>(small(rng));
  for (float& x : V) x = static_cast<float>(small(rng));

  // The kernel's carving of the aligned shared memory (element offsets from its start).
  const uint32_t base = 4096;  // any 1024-byte aligned start
  const int sQ = 0, sK = sQ + BM * D, sV = sK + STAGES * BN * D;
  const int tK = sK + stage * BN * D, tV = sV + stage * BN * DV;
  BOOST_REQUIRE((base + 2 * tK) % 1024 == 0 && (base + 2 * tV) % 1024 == 0);
  Smem smem(base + 2 * (sV + STAGES * BN * DV));
  auto put = [&](int tile, int off, float v) { smem.elems.at(base / 2 + tile + off) = v; };
  for (int r = 0; r < BM; ++r)
    for (int c = 0; c < D; ++c) put(sQ, slab_swz<BM>(r, c), Q[r * D + c]);
  for (int r = 0; r < BN; ++r) {
    for (int c = 0; c < D; ++c) put(tK, slab_swz<BN>(r, c), K[r * D + c]);
    for (int c = 0; c < DV; ++c) put(tV, slab_swz<BN>(r, c), V[r * DV + c]);
  }

  for (int wg = 0; wg < BM / 64; ++wg) {
    const uint32_t q_addr = base + 2 * sQ + wg * 64 * 128, k_addr = base + 2 * tK, v_addr = base + 2 * tV;
    Accum s(128, std::vector<std::array<float, 4>>(BN / 8, {0, 0, 0, 0}));
    for (int kk = 0; kk < D / 16; ++kk)
      wgmma_ss(s, BN, smem, kmajor_desc(q_addr, BM, kk), kmajor_desc(k_addr, BN, kk));
    for (int t = 0; t < 128; ++t)
      for (int j = 0; j < BN / 8; ++j)
        for (int e = 0; e < 4; ++e) {
          const int r = 64 * wg + d_row(t, e), kv = d_col(t, j, e);
          float want = 0;
          for (int d = 0; d < D; ++d) want += Q[r * D + d] * K[kv * D + d];
          BOOST_REQUIRE_MESSAGE(s[t][j][e] == want, "S(" << r << ", " << kv << ") BM=" << BM << " BN=" << BN
                                                         << " D=" << D << " stage " << stage);
        }

    // O = P V with P = S, A fragments packed as p_fragment does (key blocks 2 kk and 2 kk + 1).
    Accum o(128, std::vector<std::array<float, 4>>(DV / 8, {0, 0, 0, 0}));
    for (int kk = 0; kk < BN / 16; ++kk) {
      AFrag a(128);
      for (int t = 0; t < 128; ++t) {
        const auto& b0 = s[t][2 * kk];
        const auto& b1 = s[t][2 * kk + 1];
        a[t] = {{{b0[0], b0[1]}, {b0[2], b0[3]}, {b1[0], b1[1]}, {b1[2], b1[3]}}};
      }
      wgmma_rs_trans_b(o, DV, a, smem, mnmajor_desc(v_addr, BN, kk));
    }
    for (int t = 0; t < 128; ++t)
      for (int j = 0; j < DV / 8; ++j)
        for (int e = 0; e < 4; ++e) {
          const int r = 64 * wg + d_row(t, e), c = d_col(t, j, e);
          float want = 0;
          for (int kv = 0; kv < BN; ++kv) {
            float sv = 0;
            for (int d = 0; d < D; ++d) sv += Q[r * D + d] * K[kv * D + d];
            want += sv * V[kv * DV + c];
          }
          BOOST_REQUIRE_MESSAGE(o[t][j][e] == want, "O(" << r << ", " << c << ") BM=" << BM << " BN=" << BN
                                                         << " D=" << D << " DV=" << DV);
        }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(descriptor_fields) {
  // Start address, offsets and swizzle land in the fields the PTX ISA gives them.
  const Desc d = decode(wgmma_desc(0x12340, 0x800, 1024));
  BOOST_TEST(d.start == 0x12340u);
  BOOST_TEST(d.lbo == 0x800u);
  BOOST_TEST(d.sbo == 1024u);
  BOOST_TEST(d.base_offset == 0u);
  BOOST_TEST(d.swizzle == 1u);
  BOOST_TEST(decode(kmajor_desc(0, 64, 0)).lbo == 16u);  // unused in swizzled K-major: encoded 1
}

BOOST_AUTO_TEST_CASE(slabs_match_the_hardware_swizzle) {
  // Storing (row, col) at slab_swz puts it where the 128-byte swizzle mode looks for it.
  for (int row = 0; row < 64; ++row)
    for (int col = 0; col < 128; ++col) {
      const uint32_t logical = (col / 64) * 64 * 128 + row * 128 + 2 * (col % 64);
      BOOST_REQUIRE_EQUAL(2u * slab_swz<64>(row, col), swizzle128(logical));
    }
}

BOOST_AUTO_TEST_CASE(warpgroup_products_d64) { check_cta_products<64, 64, 64, 64, 2>(1); }
BOOST_AUTO_TEST_CASE(warpgroup_products_d128_bn128) { check_cta_products<128, 128, 128, 128, 2>(1); }
BOOST_AUTO_TEST_CASE(warpgroup_products_d128_dv64) { check_cta_products<128, 64, 128, 64, 3>(2); }
BOOST_AUTO_TEST_CASE(warpgroup_products_d256_bn32) { check_cta_products<64, 32, 256, 256, 2>(0); }
