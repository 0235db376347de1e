// ---- attnc device library: Hopper warpgroup MMA operands in shared memory -------------------
// Pure index arithmetic, also compiled on the host by tests/cuda/test_wgmma_layout.cpp, which
// checks it against an emulation of wgmma.mma_async written from the PTX ISA's canonical layouts.
//
// wgmma reads its shared-memory operands through 64-bit matrix descriptors. Every tile is stored
// as slabs (slab_swz in attn_mma_layout.cuh), the layout of the 128-byte swizzle mode: the
// hardware XORs address bits 4-6 with bits 7-9, so every slab starts on a 1024-byte boundary.
#ifndef ATTN_HD
#define ATTN_HD __device__ __forceinline__
#endif

namespace attn_dev {

/// A matrix descriptor in the 128-byte swizzle mode: start address (bytes in the shared window),
/// leading and stride dimension byte offsets; base offset 0 (patterns start 1024-byte aligned).
ATTN_HD unsigned long long wgmma_desc(unsigned addr, unsigned lbo, unsigned sbo) {
  return static_cast<unsigned long long>((addr & 0x3FFFFu) >> 4) |
         (static_cast<unsigned long long>(lbo >> 4) << 16) |
         (static_cast<unsigned long long>(sbo >> 4) << 32) | (1ull << 62);
}

/// A K-major operand (Q as A, K as B of S = Q K^T): the rows of a slabbed tile of `rows` rows
/// starting at byte `addr`, and its columns [16 kk, 16 kk + 16). Rows go in groups of 8 at the
/// stride byte offset (1024); one k-step is 32 bytes inside a slab row; the leading offset is
/// unused in swizzled K-major layouts (encoded as 1).
ATTN_HD unsigned long long kmajor_desc(unsigned addr, int rows, int kk) {
  return wgmma_desc(addr + (kk >> 2) * rows * 128 + (kk & 3) * 32, 16, 1024);
}

/// An MN-major operand (V as B of O = P V, read transposed): keys [16 kk, 16 kk + 16) of a
/// slabbed tile of `rows` keys starting at byte `addr`, all its columns. Columns go in slabs of
/// 64 at the leading byte offset (the slab size); keys in groups of 8 at the stride offset.
ATTN_HD unsigned long long mnmajor_desc(unsigned addr, int rows, int kk) {
  return wgmma_desc(addr + kk * 16 * 128, rows * 128, 1024);
}

}  // namespace attn_dev
