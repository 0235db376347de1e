// ---- attnc device library: where each lane's MMA operands live (shared-memory layout) -------
// Pure index arithmetic, also compiled on the host by tests/cuda/test_mma_layout.cpp, which
// checks it against an emulation of ldmatrix and mma.sync as the PTX ISA specifies them.
#ifndef ATTN_HD
#define ATTN_HD __device__ __forceinline__
#endif

namespace attn_dev {

/// Offset of element (row, col) in a swizzled tile with `COLS` columns (a multiple of 64):
/// the 16-byte chunk index is XORed with the row's low 3 bits, so the 8 rows one ldmatrix
/// matrix reads fall into 8 different bank groups.
template <int COLS>
ATTN_HD int swz(int row, int col) {
  return row * COLS + ((((col >> 3) ^ (row & 7))) << 3) + (col & 7);
}

/// Offset of element (row, col) in a tile of ROWS rows stored as slabs, the layout of wgmma's
/// 128-byte swizzle mode: slab s holds columns [64 s, 64 s + 64) of every row, one 128-byte row
/// (of bf16/f16) after another, the 16-byte chunk index XORed with row & 7 inside each row.
template <int ROWS>
ATTN_HD int slab_swz(int row, int col) {
  return (col >> 6) * ROWS * 64 + swz<64>(row, col & 63);
}

/// Column offsets of 16-byte chunk pairs in a swizzled row whose low row bits are `m`, for the
/// chunk parity `t`: chunk 2 * pair + t sits at element at(pair). Only four patterns exist (the
/// XOR touches three bits), so unrolled loops address ldmatrix with 4 registers + immediates
/// instead of one register per step.
struct SwizzledPairs {
  int off[4];
  ATTN_HD SwizzledPairs(int t, int m) {
#pragma unroll
    for (int i = 0; i < 4; ++i) off[i] = ((2 * i + t) ^ m) << 3;
  }
  ATTN_HD int at(int pair) const { return (pair >> 2) * 64 + off[pair & 3]; }
};

// ldmatrix.x4: lane L gives the address of row L % 8 of matrix L / 8; matrix i lands in
// register i of every lane. The row each lane addresses (within a 16-row block) and its columns:

/// A = Q (16 rows x 16 d per k-step): matrices (rows 0-7, d 0-7), (8-15, 0-7), (0-7, 8-15),
/// (8-15, 8-15) = the A fragment a0..a3.
ATTN_HD int q_lane_row(int lane) { return lane % 16; }
ATTN_HD SwizzledPairs q_lane_cols(int lane) { return SwizzledPairs(lane / 16, lane % 8); }

/// B = K^T (16 d x 8 keys, twice): matrices (keys 0-7, d 0-7), (keys 0-7, d 8-15),
/// (keys 8-15, d 0-7), (keys 8-15, d 8-15) = b0, b1 of key block j, then of block j + 1.
ATTN_HD int k_lane_row(int lane) { return lane % 8 + (lane / 16) * 8; }
ATTN_HD SwizzledPairs k_lane_cols(int lane) { return SwizzledPairs((lane / 8) % 2, lane % 8); }

/// B = V (16 keys x 8 columns, twice), loaded transposed: matrices (keys 0-7, cols 0-7),
/// (keys 8-15, cols 0-7), (keys 0-7, cols 8-15), (keys 8-15, cols 8-15) = b0, b1 of column
/// block j, then of block j + 1.
ATTN_HD int v_lane_row(int lane) { return lane % 8 + ((lane / 8) % 2) * 8; }
ATTN_HD SwizzledPairs v_lane_cols(int lane) { return SwizzledPairs(lane / 16, lane % 8); }

/// Accumulator element e (0..3) of a lane in a 16x8 block: rows lane/4 and lane/4 + 8, columns
/// 2 (lane % 4) and 2 (lane % 4) + 1.
ATTN_HD int acc_row(int lane, int e) { return lane / 4 + (e / 2) * 8; }
ATTN_HD int acc_col(int lane, int e) { return (lane % 4) * 2 + (e % 2); }

}  // namespace attn_dev
