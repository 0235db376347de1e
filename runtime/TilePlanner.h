// Tile plans as plain data, and the run-time planner that evaluates a compiled plan description
// (closed-form key-tile ranges and per-tile conditions) for given lengths, scalars and buffers.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "runtime/HostTensor.h"
#include "runtime/TileGridEval.h"
#include "runtime/TileProgram.h"

namespace attn {

/// What a (query tile, key tile) pair needs: nothing, the mask per element, or no mask at all.
using TileKind = attn_tile_eval::Kind;
const char* tile_kind_name(TileKind k);

/// Key tiles [begin, end) of one query tile that share a kind (never Empty: absent runs are).
using TileRun = attn_tile_eval::Run;

/// A concrete plan (attn_tile_eval::Grid): for each query tile, its non-empty key tiles as sorted,
/// disjoint runs. O(query tiles + runs) memory: nothing is stored per element or per empty tile.
struct TileGrid : attn_tile_eval::Grid {
  /// The kind of tile (qt, kt), by binary search in its row.
  TileKind at(int64_t qt, int64_t kt) const;
  /// Number of Full and Partial tiles (the rest are Empty).
  int64_t count(TileKind k) const;
};

/// The compiled, Halide-free description of a kernel's tile plan (made by codegen's plan_tiles).
/// Every program's inputs are laid out as documented; `scalars` are appended in order.
struct TilePlanProgram {
  int block_q = 64, block_kv = 64;
  std::vector<std::string> scalars;  ///< scalar kernel arguments the mask reads
  std::vector<std::string> buffers;  ///< buffers the mask reads, in BufferRanges order
  /// Per-tile classifier. Inputs: q_min q_max kv_min kv_max b_min b_max h_min h_max q_len kv_len,
  /// scalars.
  /// Outputs: [empty, full] (1 when proven).
  TileProgram tile;
  /// Key-tile ranges of a query tile. Inputs: qt q_tiles kv_tiles q_len kv_len b h, scalars.
  /// Outputs: lo, full_lo, full_hi, hi with lo <= full_lo <= full_hi <= hi, all in [0, kv_tiles]:
  /// [lo, full_lo) Partial, [full_lo, full_hi) Full, [full_hi, hi) Partial, the rest Empty.
  TileProgram ranges;
  /// Whether `ranges` is the whole answer (no tile in its Partial runs is provably Empty or Full
  /// on the sizes it was checked on); otherwise the planner refines Partial runs with `tile`.
  bool ranges_exact = false;
  /// The mask at one element. Inputs: b h q kv q_len kv_len, scalars. Output: [allowed].
  TileProgram element;
  /// Why `element` could not be compiled (an unsupported operation), or empty when it could.
  std::string element_error;
  /// True when the mask reads no buffer (closed form only).
  bool index_only = true;
};

/// Run-time values the plan needs besides the lengths.
struct TilePlanInputs {
  int64_t q_len = 0, kv_len = 0;
  /// Heads (or batches) the plan must hold for: [lo, hi]; by default every value.
  double b_lo = -1e300, b_hi = 1e300, h_lo = -1e300, h_hi = 1e300;
  std::map<std::string, double> scalars;      ///< by name; a missing one is an error
  std::map<std::string, TileBuffer> buffers;  ///< by name; a missing one is an error
};

/// A view of a host tensor for the planner (i32, f32, bool and u8 tensors; dense, row-major).
/// Throws std::invalid_argument for other element types.
TileBuffer tile_buffer_view(const HostTensor& t);
/// The same for `type` elements at `data` (a caller's memory), dense, row-major, of `shape`.
TileBuffer tile_buffer_view(ScalarType type, const void* data, std::vector<int64_t> shape);

/// Builds the concrete plan: closed-form ranges per query tile, refined per tile where needed
/// (O(tiles) then, never O(q_len * kv_len)). Throws std::invalid_argument on missing inputs.
TileGrid plan_tile_grid(const TilePlanProgram& plan, const TilePlanInputs& inputs);

/// The plan transposed, for a walk over query tiles per key tile (the backward's dK/dV pass): row
/// kt holds the query tiles whose runs hold key tile kt, as sorted, disjoint runs of one kind (the
/// lengths and block sizes swapped). Time O((runs of both plans) log(query tiles)), so long uniform
/// stretches stay cheap.
TileGrid transpose_tile_grid(const TileGrid& grid);

/// Evaluates the element mask over [q0, q0+nq) x [kv0, kv0+nkv) into `out` (row-major, 0/1), for
/// b = inputs.b_lo and h = inputs.h_lo clamped to >= 0 (pictures and brute-force checks). Throws
/// std::invalid_argument when `element_error` is set, std::out_of_range for a bad buffer index.
std::vector<uint8_t> eval_element_mask(const TilePlanProgram& plan, const TilePlanInputs& inputs, int64_t q0,
                                       int64_t nq, int64_t kv0, int64_t nkv);

/// Fraction of allowed (q, kv) pairs: Full tiles count whole; Partial tiles are counted element by
/// element when they hold at most `exact_limit` elements, else estimated from `samples` random
/// elements of Partial tiles. `exact` tells which. When the mask cannot be evaluated per element
/// (`element_error`), Partial tiles count as zero and `lower_bound` is set.
struct MaskDensity {
  double density = 0;
  bool exact = true;
  bool lower_bound = false;
  int64_t samples = 0;
};
MaskDensity mask_density(const TilePlanProgram& plan, const TilePlanInputs& inputs, const TileGrid& grid,
                         int64_t exact_limit = int64_t{1} << 22, int64_t samples = int64_t{1} << 20);

}  // namespace attn
