// CudaErrorWord: the per-module device error word and the process's registry of live words.
#include "runtime/CudaErrorWord.h"

#include <algorithm>

namespace attn {

namespace {

/// Every live word (weak: a module's going removes it).
struct Registry {
  std::mutex mutex;
  std::vector<std::weak_ptr<CudaErrorWord>> words;
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: words may outlive static destruction
  return *r;
}

}  // namespace

std::string cuda_out_of_range_message(const std::string& name, long long index, long long extent, int dim) {
  return "buffer '" + name + "' index " + std::to_string(index) + " is out of range [0, " +
         std::to_string(extent) + ") in dimension " + std::to_string(dim);
}

CudaErrorWord::CudaErrorWord(std::shared_ptr<CudaDevice> device, std::vector<std::string> names)
    : device_(std::move(device)), word_(device_->alloc(sizeof(attn_cuda_error))), names_(std::move(names)) {
  device_->zero(word_);
}

CudaErrorWord::~CudaErrorWord() = default;

std::shared_ptr<CudaErrorWord> CudaErrorWord::make(std::shared_ptr<CudaDevice> device,
                                                   std::vector<std::string> buffer_names) {
  std::shared_ptr<CudaErrorWord> w(new CudaErrorWord(std::move(device), std::move(buffer_names)));
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::erase_if(r.words, [](const std::weak_ptr<CudaErrorWord>& p) { return p.expired(); });
  r.words.push_back(w);
  return w;
}

void CudaErrorWord::note_extents(std::vector<std::vector<long long>> extents) {
  std::lock_guard<std::mutex> lock(mutex_);
  extents_ = std::move(extents);
}

std::string CudaErrorWord::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  attn_cuda_error err{};
  device_->download(&err, word_, sizeof err);
  if (!err.flag) return {};
  device_->zero(word_);  // re-armed for the launches after this report
  const bool named = err.buffer >= 0 && static_cast<size_t>(err.buffer) < names_.size();
  const bool sized = err.buffer >= 0 && static_cast<size_t>(err.buffer) < extents_.size() && err.dim >= 0 &&
                     static_cast<size_t>(err.dim) < extents_[static_cast<size_t>(err.buffer)].size();
  return cuda_out_of_range_message(
      named ? names_[static_cast<size_t>(err.buffer)] : std::to_string(err.buffer), err.index,
      sized ? extents_[static_cast<size_t>(err.buffer)][static_cast<size_t>(err.dim)] : 0, err.dim);
}

std::string CudaErrorWord::synchronize_and_take() {
  device_->synchronize();
  return take();
}

std::vector<std::string> take_cuda_errors() {
  std::vector<std::shared_ptr<CudaErrorWord>> live;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (const std::weak_ptr<CudaErrorWord>& w : r.words)
      if (std::shared_ptr<CudaErrorWord> p = w.lock()) live.push_back(std::move(p));
  }
  std::vector<std::string> out;
  for (const std::shared_ptr<CudaErrorWord>& w : live)
    if (std::string m = w->synchronize_and_take(); !m.empty()) out.push_back(std::move(m));
  return out;
}

}  // namespace attn
