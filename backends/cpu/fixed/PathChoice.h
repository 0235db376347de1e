namespace {

const VectorPath<ATTN_ARGS>* chosen_path(const char** why) {
  static const VectorPath<ATTN_ARGS> paths[] = {
ATTN_PATH_TABLE
      {nullptr, nullptr}};
  static const char* reason = nullptr;
  static const VectorPath<ATTN_ARGS>* path = choose_path(paths, &reason);
  *why = reason;
  return path;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int ATTN_ENTRY(const ATTN_ARGS* args) {
  const char* why = nullptr;
  const VectorPath<ATTN_ARGS>* path = chosen_path(&why);
  return run_path(path, why, ATTN_KERNEL_NAME, args);
}

extern "C" __attribute__((visibility("default"))) const char* ATTN_PATH_FN(void) {
  const char* why = nullptr;
  const VectorPath<ATTN_ARGS>* path = chosen_path(&why);
  return path ? path_name(path->isa) : "none";
}
