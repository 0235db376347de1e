void* ATTN_RT_malloc(void*, size_t size) {
  size = (size + 63) / 64 * 64 + kHeader;
  for (int i = 0; i < BlockCache::kSlots; ++i) {
    if (block_cache.blocks[i] && block_cache.sizes[i] >= size) {
      char* b = static_cast<char*>(block_cache.blocks[i]);
      *reinterpret_cast<size_t*>(b) = block_cache.sizes[i];
      block_cache.blocks[i] = nullptr;
      return b + kHeader;
    }
  }
  char* b = static_cast<char*>(aligned_alloc(64, size));
  if (!b) return nullptr;
  *reinterpret_cast<size_t*>(b) = size;
  return b + kHeader;
}

void ATTN_RT_free(void*, void* payload) {
  if (!payload) return;
  char* b = static_cast<char*>(payload) - kHeader;
  size_t size = *reinterpret_cast<size_t*>(b);
  int slot = 0;  // an empty slot, else the smallest block (kept only if this one is larger)
  for (int i = 0; i < BlockCache::kSlots; ++i) {
    if (!block_cache.blocks[i]) {
      slot = i;
      break;
    }
    if (block_cache.sizes[i] < block_cache.sizes[slot]) slot = i;
  }
  if (block_cache.blocks[slot] && block_cache.sizes[slot] >= size) {
    free(b);
    return;
  }
  free(block_cache.blocks[slot]);
  block_cache.blocks[slot] = b;
  block_cache.sizes[slot] = size;
}

int ATTN_RT_do_par_for(void* user_context, halide_task_t task, int min, int size, uint8_t* closure) {
  return parallel_for(user_context, size, [&](int i) { return task(user_context, min + i, closure); });
}

void ATTN_RT_error(void* user_context, const char* message) {
  fail(user_context, "%s", message);
}

int ATTN_RT_error_access_out_of_bounds(void* uc, const char* name, int dim, int min_touched, int max_touched, int min_valid, int max_valid) {
  fail(uc, "internal error: %s is accessed at [%d, %d] in dimension %d, outside [%d, %d]", name, min_touched, max_touched, dim, min_valid, max_valid);
  return -1;
}

int ATTN_RT_error_bad_dimensions(void* uc, const char* name, int32_t given, int32_t expected) {
  fail(uc, "internal error: %s has %d dimensions, expected %d", name, given, expected);
  return -1;
}

int ATTN_RT_error_bad_type(void* uc, const char* name, uint32_t, uint32_t) {
  fail(uc, "internal error: %s has the wrong element type", name);
  return -1;
}

int ATTN_RT_error_buffer_allocation_too_large(void* uc, const char* name, uint64_t size, uint64_t max_size) {
  fail(uc, "allocation of %s is too large (%llu bytes, at most %llu)", name, (unsigned long long)size, (unsigned long long)max_size);
  return -1;
}

int ATTN_RT_error_buffer_argument_is_null(void* uc, const char* name) {
  fail(uc, "buffer '%s' is NULL", name);
  return -1;
}

int ATTN_RT_error_buffer_extents_negative(void* uc, const char* name, int dim, int extent) {
  fail(uc, "buffer '%s' has a negative extent %d in dimension %d", name, extent, dim);
  return -1;
}

int ATTN_RT_error_buffer_extents_too_large(void* uc, const char* name, int64_t size, int64_t max_size) {
  fail(uc, "buffer '%s' is too large (%lld elements, at most %lld)", name, (long long)size, (long long)max_size);
  return -1;
}

int ATTN_RT_error_constraint_violated(void* uc, const char* var, int val, const char* constrained_var, int constrained_val) {
  fail(uc, "internal error: constraint violated: %s (%d) == %s (%d)", var, val, constrained_var, constrained_val);
  return -1;
}

int ATTN_RT_error_device_dirty_with_no_device_support(void* uc, const char* name) {
  fail(uc, "buffer '%s' lives on a device; this kernel runs on the CPU", name);
  return -1;
}

int ATTN_RT_error_explicit_bounds_too_small(void* uc, const char* func, const char* var, int min_bound, int max_bound, int min_required, int max_required) {
  fail(uc, "internal error: bounds of %s.%s [%d, %d] do not cover [%d, %d]", func, var, min_bound, max_bound, min_required, max_required);
  return -1;
}

int ATTN_RT_error_host_is_null(void* uc, const char* name) {
  fail(uc, "buffer '%s' has no data", name);
  return -1;
}

int ATTN_RT_error_out_of_memory(void* uc) {
  fail(uc, "out of memory");
  return -1;
}

int ATTN_RT_error_requirement_failed(void* uc, const char*, const char* message) {
  const char* start = strstr(message, "buffer '");  // skip the value Halide prints first
  start = start ? start : message;
  fail(uc, "%.*s", int(strcspn(start, "\n")), start);
  return -1;
}

int ATTN_RT_error_buffer_is_null(void* uc, const char* routine) {
  fail(uc, "internal error: NULL buffer in %s", routine);
  return -1;
}

int ATTN_RT_error_storage_bound_too_small(void* uc, const char* func, const char* var, int provided, int required) {
  fail(uc, "internal error: storage of %s.%s is %d, needs %d", func, var, provided, required);
  return -1;
}

int ATTN_RT_error_param_too_small_i64(void* uc, const char* name, int64_t val, int64_t min_val) {
  fail(uc, "argument %s = %lld is below %lld", name, (long long)val, (long long)min_val);
  return -1;
}

int ATTN_RT_error_param_too_large_i64(void* uc, const char* name, int64_t val, int64_t max_val) {
  fail(uc, "argument %s = %lld is above %lld", name, (long long)val, (long long)max_val);
  return -1;
}

int ATTN_RT_error_constraints_make_required_region_smaller(void* uc, const char* name, int dim, int constrained_min, int constrained_extent, int required_min, int required_extent) {
  fail(uc, "internal error: constraints on %s shrink dimension %d to [%d, +%d), [%d, +%d) is required", name, dim, constrained_min, constrained_extent, required_min, required_extent);
  return -1;
}

int ATTN_RT_error_param_too_small_u64(void* uc, const char* name, uint64_t val, uint64_t min_val) {
  fail(uc, "argument %s = %llu is below %llu", name, (unsigned long long)val, (unsigned long long)min_val);
  return -1;
}

int ATTN_RT_error_param_too_large_u64(void* uc, const char* name, uint64_t val, uint64_t max_val) {
  fail(uc, "argument %s = %llu is above %llu", name, (unsigned long long)val, (unsigned long long)max_val);
  return -1;
}

int ATTN_RT_error_param_too_small_f64(void* uc, const char* name, double val, double min_val) {
  fail(uc, "argument %s = %g is below %g", name, val, min_val);
  return -1;
}

int ATTN_RT_error_param_too_large_f64(void* uc, const char* name, double val, double max_val) {
  fail(uc, "argument %s = %g is above %g", name, val, max_val);
  return -1;
}

int ATTN_RT_error_bad_fold(void* uc, const char* func, const char* var, const char* loop) {
  fail(uc, "internal error: bad storage fold of %s.%s in %s", func, var, loop);
  return -1;
}

int ATTN_RT_error_fold_factor_too_small(void* uc, const char* func, const char* var, int factor, const char* loop, int required) {
  fail(uc, "internal error: fold factor %d of %s.%s in %s is below %d", factor, func, var, loop, required);
  return -1;
}

int ATTN_RT_error_specialize_fail(void* uc, const char* message) {
  fail(uc, "%s", message);
  return -1;
}

int ATTN_RT_error_unaligned_host_ptr(void* uc, const char* name, int alignment) {
  fail(uc, "buffer %s is not aligned to %d bytes", name, alignment);
  return -1;
}

int ATTN_RT_error_bounds_inference_call_failed(void* uc, const char* stage, int result) {
  fail(uc, "internal error: bounds query of %s failed (%d)", stage, result);
  return -1;
}

int ATTN_RT_error_extern_stage_failed(void* uc, const char* stage, int result) {
  fail(uc, "internal error: %s failed (%d)", stage, result);
  return -1;
}

int ATTN_RT_error_no_device_interface(void* uc) {
  fail(uc, "internal error: no device interface");
  return -1;
}

int ATTN_RT_error_device_interface_no_device(void* uc) {
  fail(uc, "internal error: device interface without a device");
  return -1;
}

int ATTN_RT_error_host_and_device_dirty(void* uc) {
  fail(uc, "internal error: host and device both dirty");
  return -1;
}

int ATTN_RT_error_device_crop_failed(void* uc) {
  fail(uc, "internal error: device crop failed");
  return -1;
}
