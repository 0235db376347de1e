namespace {

constexpr const char* kKernelName = ATTN_KERNEL_NAME;
constexpr int kLanes = ATTN_LANES, kTileQ = ATTN_TILE_Q;
constexpr int32_t kKeyChunk = ATTN_CHUNK_KEYS;  // keys per pipeline call at most
// A call whose tasks have at most this many query rows each (one token of a few heads) takes the
// decoding layout: the pipeline computes the scores of those rows only.
constexpr int64_t kDecodeRows = ATTN_DECODE_ROWS;
constexpr int64_t kHeadDim = ATTN_HEAD_DIM, kValueDim = ATTN_VALUE_DIM;  // 0: any
constexpr IoType kOutType = kFp8 ? IoType::BF16 : kIoType;  // Out's: bf16 for FP8 inputs
constexpr bool kLseRequired = ATTN_LSE_REQUIRED;
constexpr bool kMaxRequired = ATTN_MAX_REQUIRED;  // return_max: the row maxima (attn_kernel_args::max)
constexpr bool kPackHeads = ATTN_PACK_HEADS;  // the mask and score ignore the head: decoding packs a group's heads
constexpr int kNumBuffers = ATTN_NUM_BUFFERS, kNumScalars = ATTN_NUM_SCALARS;
struct DTypeName {
  uint8_t code, bits;
  const char* name;
};
constexpr DTypeName kDTypeNames[] = {ATTN_DTYPE_NAMES};

}  // namespace
