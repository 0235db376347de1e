#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("ATTN_TARGET_FEATURES"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("ATTN_TARGET_FEATURES")
#endif
// ATTN_F16C_DEFINE
