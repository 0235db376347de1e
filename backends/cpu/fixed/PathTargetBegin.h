#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("ATTN_TARGET_FEATURES"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("ATTN_TARGET_FEATURES")
#endif
#define ATTN_F16C 1  // the path may convert f16 with F16C
