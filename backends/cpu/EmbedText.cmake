# Writes OUT: `static const char kKernelAbiText[]` holding the text of IN.
file(READ ${IN} text)
file(WRITE ${OUT}.tmp "// Generated from runtime/include/attn/kernel_abi.h. Do not edit.\nconst char kKernelAbiText[] = R\"attn_abi(${text})attn_abi\";\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
