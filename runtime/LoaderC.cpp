// The loader's C API: thin wrappers over attn::Loader that turn exceptions into messages.
#include "attn/loader.h"

#include <cstdio>
#include <cstring>
#include <new>

#include "attn/loader.hpp"

struct attn_loader {
  attn::Loader loader;
};

struct attn_kernel {
  attn::Kernel kernel;
};

namespace {

void copy_message(const char* message, char* error, size_t error_size) {
  if (error && error_size > 0) std::snprintf(error, error_size, "%s", message);
}

}  // namespace

extern "C" {

attn_loader* attn_loader_create(const attn_loader_options* options) {
  attn::LoaderOptions o;
  if (options) {
    o.dedup = !options->no_dedup;
    o.disk_cache = !options->no_disk_cache;
    if (options->cache_dir) o.cache_dir = options->cache_dir;
  }
  try {
    return new attn_loader{attn::Loader(std::move(o))};
  } catch (...) {
    return nullptr;
  }
}

void attn_loader_destroy(attn_loader* loader) { delete loader; }

int attn_loader_get(attn_loader* loader, const attn_kernel_request* request, attn_kernel** out, char* error,
                    size_t error_size) {
  if (!loader || !request || !out || !request->source || !request->entry) {
    copy_message("attn_loader_get: null argument", error, error_size);
    return 1;
  }
  *out = nullptr;
  try {
    attn::KernelRequest r;
    r.target = request->target ? request->target : "cpu";
    r.source.assign(request->source, request->source_size);
    r.entry = request->entry;
    for (int i = 0; i < request->num_flags; ++i) r.flags.push_back(request->flags[i]);
    *out = new attn_kernel{loader->loader.get(r)};
    return 0;
  } catch (const std::exception& e) {
    copy_message(e.what(), error, error_size);
    return 1;
  }
}

void attn_loader_stats_get(const attn_loader* loader, attn_loader_stats* out) {
  attn::LoaderStats s = loader->loader.stats();
  *out = {s.compiles, s.memory_hits, s.disk_hits, s.disk_misses, s.rejects, s.disk_writes, s.errors};
}

size_t attn_loader_trace_json(const attn_loader* loader, char* buf, size_t size) {
  std::string json = loader->loader.trace_json();
  if (buf && size > 0) {
    size_t n = json.size() < size - 1 ? json.size() : size - 1;
    std::memcpy(buf, json.data(), n);
    buf[n] = '\0';
  }
  return json.size();
}

void attn_cache_stats_get(const char* dir, attn_cache_stats* out) {
  attn::CacheStats s = attn::cache_stats(dir ? dir : "");
  *out = {s.entries, s.bytes, s.max_bytes};
}

uint64_t attn_cache_clear(const char* dir) { return attn::cache_clear(dir ? dir : ""); }

int attn_kernel_call(const attn_kernel* kernel, const attn_kernel_args* args) {
  return kernel->kernel(*args);
}

attn_kernel_fn attn_kernel_entry(const attn_kernel* kernel) { return kernel->kernel.entry(); }

void attn_kernel_release(attn_kernel* kernel) { delete kernel; }

}  // extern "C"
