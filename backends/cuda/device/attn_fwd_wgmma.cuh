// ---- attnc device library: the Hopper forward kernel (warpgroup MMA) -------------------------
// One CTA owns ATTN_BM query rows of one (batch, head); each warpgroup (4 warps, 128 threads)
// owns 64 of them, each warp 16. Key/value tiles of ATTN_BN rows stream through an
// ATTN_STAGES-deep cp.async ring into shared memory laid out as wgmma's 128-byte-swizzled slabs.
// S = Q K^T is one wgmma m64n{BN}k16 per 16 head dims, both operands read from shared memory
// through descriptors; O += P V is one wgmma m64n{DV}k16 per 16 keys, P from registers (the S
// accumulators, rescaled and packed) and V read transposed (MN-major). The accumulators have
// the mma.sync layout per warp, so masking, the online softmax and the store are the tensor-core
// kernel's (attn_tc_common.cuh).
// wgmma exists only in sm_90a code. A device pass for another architecture (nvcc -arch=sm_90a also
// emits portable compute_90 PTX) compiles the kernel as a trap; the loader always builds sm_90a.
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define ATTN_WGMMA_IMAGE 0
#else
#define ATTN_WGMMA_IMAGE 1
#endif

namespace attn_dev {

/// Orders this thread's register writes (accumulators, A fragments) before the wgmma that reads them.
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
/// Waits until at most N committed wgmma groups are pending.
template <int N>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
/// Pins registers in place around the asynchronous wgmma: the compiler sees them rewritten here, so
/// it moves no access across (after a wait: no read before the result has landed; before
/// wgmma_fence: no write after it).
template <int N>
__device__ __forceinline__ void fence_operands(float (&d)[N][4]) {
#pragma unroll
  for (int j = 0; j < N; ++j)
#pragma unroll
    for (int e = 0; e < 4; ++e) asm volatile("" : "+f"(d[j][e])::"memory");
}
template <int N>
__device__ __forceinline__ void fence_operands(unsigned (&a)[N][4]) {
#pragma unroll
  for (int j = 0; j < N; ++j)
#pragma unroll
    for (int e = 0; e < 4; ++e) asm volatile("" : "+r"(a[j][e])::"memory");
}

/// Starts S = Q K^T of the key tile at k_addr (shared memory) for the warpgroup's rows of the Q
/// tile at q_addr: D / 16 wgmma in one commit group, accumulating into s from 0.
template <int D, int BM, int BN, int NB>
__device__ __forceinline__ void issue_qk(float (&s)[NB][4], unsigned q_addr, unsigned k_addr) {
  zero(s);
  fence_operands(s);
  wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < D / 16; ++kk) wgmma_qk(s, kmajor_desc(q_addr, BM, kk), kmajor_desc(k_addr, BN, kk));
  wgmma_commit();
}

/// Issues O += P V for the value tile at v_addr: BN / 16 wgmma, P from the packed fragments pa
/// (not committed: the caller groups it).
template <int BN, int OB>
__device__ __forceinline__ void issue_pv(RowState<OB>& o, unsigned (&pa)[BN / 16][4], unsigned v_addr) {
#pragma unroll
  for (int kk = 0; kk < BN / 16; ++kk) wgmma_pv(o.acc, pa[kk], mnmajor_desc(v_addr, BN, kk));
}

/// O += P V, waited for.
template <int BN, int OB>
__device__ __forceinline__ void pv_now(RowState<OB>& o, unsigned (&pa)[BN / 16][4], unsigned v_addr) {
  fence_operands(pa);
  fence_operands(o.acc);
  wgmma_fence();
  issue_pv<BN>(o, pa, v_addr);
  wgmma_commit();
  wgmma_wait<0>();
  fence_operands(o.acc);
}

/// Makes this thread's completed shared-memory writes (cp.async, the generic proxy) visible to
/// wgmma's operand reads (the async proxy).
__device__ __forceinline__ void fence_proxy_async() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

}  // namespace attn_dev

/// The forward kernel. Grid: (query tiles * max(1, kv_splits), Hq, or Hkv with pack_heads, B) as
/// attn_cuda_params says; block: ATTN_THREADS; dynamic shared memory: ATTN_SMEM_BYTES (the tiles
/// plus 1 KB to align them to 1024 bytes).
extern "C" __global__ void __launch_bounds__(ATTN_THREADS, 1) ATTN_ENTRY(ATTN_FWD_PARAMS) {
#if !ATTN_WGMMA_IMAGE
  __trap();  // not the sm_90a image: no wgmma here
#else
  using namespace attn_dev;
  ATTN_FWD_ENTER
  constexpr int D = ATTN_D, DV = ATTN_DV, BM = ATTN_BM, BN = ATTN_BN, STAGES = ATTN_STAGES;
  constexpr int NB = BN / 8;  // 8-key column blocks of S
  constexpr int OB = DV / 8;  // 8-column blocks of O
  extern __shared__ __align__(128) unsigned char attn_smem[];
  unsigned char* aligned = attn_smem + ((1024u - (smem_u32(attn_smem) & 1023u)) & 1023u);
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  CtaStream<BM, BN, D, DV, STAGES, true> cta(p, aligned);
  const int q0 = cta.rows.q0;
  cta.start(p, tid);

  RowState<OB> o;
  // The warpgroup's 64 rows of Q: A of S = Q K^T, 128-byte rows inside each slab.
  const unsigned q_addr = smem_u32(cta.sQ) + (warp / 4) * 64 * 128;

  int stage = 0;
#if !ATTN_WGMMA_OVERLAP
  for (int kt = cta.first; kt < cta.tiles.kv_tiles; kt = cta.tiles.next(p, kt, BN)) {
    cta.refill(p, (stage + STAGES - 1) % STAGES, tid);  // the stage consumed last iteration
    cp_async_wait<STAGES - 1>();                        // the group holding tile kt (and Q) has landed
    fence_proxy_async();
    __syncthreads();
    const unsigned k_addr = smem_u32(cta.sK + stage * BN * D);
    const unsigned v_addr = smem_u32(cta.sV + stage * BN * DV);

    // S = Q K^T for the warpgroup's 64 rows and the tile's BN keys.
    float s_acc[NB][4];
    issue_qk<D, BM, BN>(s_acc, q_addr, k_addr);
    wgmma_wait<0>();
    fence_operands(s_acc);

    // Scores, mask and online softmax. Full tiles (all keys allowed, no padding) skip the mask.
    float tile_max[2];
    score_tile<NB>(p, s_acc, !cta.tiles.unchecked(p, kt, q0, BM, BN), cta.rows, warp * 16, kt * BN, lane,
                   tile_max);
    softmax_update(s_acc, o, tile_max);

    // O += P V: the S accumulators of two key blocks form one A fragment.
    unsigned pa[BN / 16][4];
#pragma unroll
    for (int kk = 0; kk < BN / 16; ++kk) p_fragment<NB>(s_acc, kk, pa[kk]);
    pv_now<BN>(o, pa, v_addr);
    __syncthreads();  // everyone is done with this stage before it is refilled
    stage = (stage + 1) % STAGES;
  }
#else
  // FlashAttention-3's intra-warpgroup overlap: S = Q K^T of tile kt and its softmax run while
  // O += P V of the previous tile is still on the tensor cores. O is rescaled once that P V has
  // landed (it was computed against the previous running max), and the previous tile's stage is
  // refilled only then (its V was being read), so tiles are fetched STAGES - 2 ahead.
  unsigned pa[BN / 16][4];  // P of the previous tile, packed
  int prev_stage = -1;      // its stage (-1: no previous tile yet)
  for (int kt = cta.first; kt < cta.tiles.kv_tiles; kt = cta.tiles.next(p, kt, BN)) {
    cp_async_wait<STAGES - 2>();  // the group holding tile kt (and Q) has landed
    fence_proxy_async();
    __syncthreads();
    const unsigned k_addr = smem_u32(cta.sK + stage * BN * D);

    float s_acc[NB][4];
    fence_operands(pa);
    fence_operands(o.acc);
    issue_qk<D, BM, BN>(s_acc, q_addr, k_addr);  // its wgmma.fence also covers pa and O
    if (prev_stage >= 0) issue_pv<BN>(o, pa, smem_u32(cta.sV + prev_stage * BN * DV));
    wgmma_commit();   // (an empty group the first time: the count stays uniform)
    wgmma_wait<1>();  // S has landed; the previous P V may still run
    fence_operands(s_acc);

    float tile_max[2], scale_old[2];
    score_tile<NB>(p, s_acc, !cta.tiles.unchecked(p, kt, q0, BM, BN), cta.rows, warp * 16, kt * BN, lane,
                   tile_max);
    softmax_step(s_acc, o, tile_max, scale_old);
    wgmma_wait<0>();  // the previous P V has landed (it read pa, and adds into O)
    fence_operands(o.acc);
    fence_operands(pa);
    rescale(o.acc, scale_old);
#pragma unroll
    for (int kk = 0; kk < BN / 16; ++kk) p_fragment<NB>(s_acc, kk, pa[kk]);
    __syncthreads();  // everyone is done with the previous tile's stage
    cta.refill(p, (stage + STAGES - 1) % STAGES, tid);
    prev_stage = stage;
    stage = (stage + 1) % STAGES;
  }
  if (prev_stage >= 0) pv_now<BN>(o, pa, smem_u32(cta.sV + prev_stage * BN * DV));  // the last tile's P V
#endif
  cp_async_wait<0>();

  // Epilogue: normalize and store (store_rows: the sink, the LSE and the row maxima too).
  store_rows(p, o, cta.rows, warp * 16, lane);
  finish_split<DV>(p, cta.rows);
#endif
}
