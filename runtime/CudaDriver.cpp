// The CUDA driver through dlopen: the entry points are resolved once; errors carry the
// driver's own error names.
#include "runtime/CudaDriver.h"

#include <dlfcn.h>

#include <mutex>

namespace attn {

namespace {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using Handle = void*;

constexpr CUresult kNoDevice = 100;                  // CUDA_ERROR_NO_DEVICE
constexpr int kAttrCcMajor = 75, kAttrCcMinor = 76;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_*
constexpr int kAttrSmCount = 16;                     // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
constexpr int kFuncMaxDynamicSmem = 8;               // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES

struct DriverApi {
  void* handle = nullptr;
  std::string error;
  CUresult init_status = 0;
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDeviceGetCount)(int*) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice*, int) = nullptr;
  CUresult (*cuDeviceGetName)(char*, int, CUdevice) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(Handle*, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice) = nullptr;
  CUresult (*cuCtxSetCurrent)(Handle) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr*, size_t) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, size_t) = nullptr;
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, size_t) = nullptr;
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t) = nullptr;
  CUresult (*cuModuleLoadData)(Handle*, const void*) = nullptr;
  CUresult (*cuModuleUnload)(Handle) = nullptr;
  CUresult (*cuModuleGetFunction)(Handle*, Handle, const char*) = nullptr;
  CUresult (*cuFuncSetAttribute)(Handle, int, int) = nullptr;
  CUresult (*cuLaunchKernel)(Handle, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             Handle, void**, void**) = nullptr;
  CUresult (*cuEventCreate)(Handle*, unsigned) = nullptr;
  CUresult (*cuEventRecord)(Handle, Handle) = nullptr;
  CUresult (*cuEventSynchronize)(Handle) = nullptr;
  CUresult (*cuEventElapsedTime)(float*, Handle, Handle) = nullptr;
  CUresult (*cuEventDestroy)(Handle) = nullptr;
  CUresult (*cuGetErrorName)(CUresult, const char**) = nullptr;
  // Stream-ordered memory (driver 11.2 and later): resolved apart, needed only by CudaStreamScratch.
  CUresult (*cuMemAllocAsync)(CUdeviceptr*, size_t, Handle) = nullptr;
  CUresult (*cuMemFreeAsync)(CUdeviceptr, Handle) = nullptr;
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, Handle) = nullptr;
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void*, size_t, Handle) = nullptr;
  CUresult (*cuMemcpyDtoHAsync)(void*, CUdeviceptr, size_t, Handle) = nullptr;
  CUresult (*cuStreamSynchronize)(Handle) = nullptr;
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, Handle) = nullptr;
  bool stream_ordered = false;
  // Streams and graphs (CudaGraph): resolved apart, needed only to capture work.
  CUresult (*cuStreamCreate)(Handle*, unsigned) = nullptr;
  CUresult (*cuStreamDestroy)(Handle) = nullptr;
  CUresult (*cuStreamBeginCapture)(Handle, int) = nullptr;
  CUresult (*cuStreamEndCapture)(Handle, Handle*) = nullptr;
  CUresult (*cuGraphInstantiateWithFlags)(Handle*, Handle, unsigned long long) = nullptr;
  CUresult (*cuGraphLaunch)(Handle, Handle) = nullptr;
  CUresult (*cuGraphExecDestroy)(Handle) = nullptr;
  CUresult (*cuGraphDestroy)(Handle) = nullptr;
  bool graphs = false;
};

template <class F>
bool resolve(void* h, const char* name, F& fn) {
  fn = reinterpret_cast<F>(dlsym(h, name));
  return fn != nullptr;
}

const DriverApi& api() {
  static DriverApi a;
  static std::once_flag once;
  std::call_once(once, [] {
    a.handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!a.handle) {
      a.error = "no CUDA driver: libcuda.so.1 could not be loaded (is the NVIDIA driver installed?)";
      return;
    }
    bool ok =
        resolve(a.handle, "cuInit", a.cuInit) && resolve(a.handle, "cuDeviceGetCount", a.cuDeviceGetCount) &&
        resolve(a.handle, "cuDeviceGet", a.cuDeviceGet) &&
        resolve(a.handle, "cuDeviceGetName", a.cuDeviceGetName) &&
        resolve(a.handle, "cuDeviceGetAttribute", a.cuDeviceGetAttribute) &&
        resolve(a.handle, "cuDevicePrimaryCtxRetain", a.cuDevicePrimaryCtxRetain) &&
        resolve(a.handle, "cuDevicePrimaryCtxRelease_v2", a.cuDevicePrimaryCtxRelease) &&
        resolve(a.handle, "cuCtxSetCurrent", a.cuCtxSetCurrent) &&
        resolve(a.handle, "cuCtxSynchronize", a.cuCtxSynchronize) &&
        resolve(a.handle, "cuMemAlloc_v2", a.cuMemAlloc) && resolve(a.handle, "cuMemFree_v2", a.cuMemFree) &&
        resolve(a.handle, "cuMemcpyHtoD_v2", a.cuMemcpyHtoD) &&
        resolve(a.handle, "cuMemcpyDtoH_v2", a.cuMemcpyDtoH) &&
        resolve(a.handle, "cuMemsetD8_v2", a.cuMemsetD8) &&
        resolve(a.handle, "cuModuleLoadData", a.cuModuleLoadData) &&
        resolve(a.handle, "cuModuleUnload", a.cuModuleUnload) &&
        resolve(a.handle, "cuModuleGetFunction", a.cuModuleGetFunction) &&
        resolve(a.handle, "cuFuncSetAttribute", a.cuFuncSetAttribute) &&
        resolve(a.handle, "cuLaunchKernel", a.cuLaunchKernel) &&
        resolve(a.handle, "cuEventCreate", a.cuEventCreate) &&
        resolve(a.handle, "cuEventRecord", a.cuEventRecord) &&
        resolve(a.handle, "cuEventSynchronize", a.cuEventSynchronize) &&
        resolve(a.handle, "cuEventElapsedTime", a.cuEventElapsedTime) &&
        resolve(a.handle, "cuEventDestroy_v2", a.cuEventDestroy) &&
        resolve(a.handle, "cuGetErrorName", a.cuGetErrorName);
    if (!ok) {
      a.error = "no CUDA driver: libcuda.so.1 lacks entry points attnc needs (driver too old?)";
      a.handle = nullptr;
      return;
    }
    a.stream_ordered = resolve(a.handle, "cuMemAllocAsync", a.cuMemAllocAsync) &&
                       resolve(a.handle, "cuMemFreeAsync", a.cuMemFreeAsync) &&
                       resolve(a.handle, "cuMemsetD8Async", a.cuMemsetD8Async) &&
                       resolve(a.handle, "cuMemcpyHtoDAsync_v2", a.cuMemcpyHtoDAsync) &&
                       resolve(a.handle, "cuMemcpyDtoHAsync_v2", a.cuMemcpyDtoHAsync) &&
                       resolve(a.handle, "cuStreamSynchronize", a.cuStreamSynchronize) &&
                       resolve(a.handle, "cuMemcpyDtoDAsync_v2", a.cuMemcpyDtoDAsync);
    a.graphs = resolve(a.handle, "cuStreamSynchronize", a.cuStreamSynchronize) &&
               resolve(a.handle, "cuStreamCreate", a.cuStreamCreate) &&
               resolve(a.handle, "cuStreamDestroy_v2", a.cuStreamDestroy) &&
               resolve(a.handle, "cuStreamBeginCapture_v2", a.cuStreamBeginCapture) &&
               resolve(a.handle, "cuStreamEndCapture", a.cuStreamEndCapture) &&
               resolve(a.handle, "cuGraphInstantiateWithFlags", a.cuGraphInstantiateWithFlags) &&
               resolve(a.handle, "cuGraphLaunch", a.cuGraphLaunch) &&
               resolve(a.handle, "cuGraphExecDestroy", a.cuGraphExecDestroy) &&
               resolve(a.handle, "cuGraphDestroy", a.cuGraphDestroy);
    a.init_status = a.cuInit(0);
    if (a.init_status == kNoDevice)
      a.error = "no CUDA device: the driver found no GPU";
    else if (a.init_status != 0)
      a.error = "no usable CUDA driver: cuInit failed (error " + std::to_string(a.init_status) + ")";
  });
  return a;
}

const DriverApi& require() {
  const DriverApi& a = api();
  if (!a.handle || a.init_status != 0) throw CudaError(a.error);
  return a;
}

void check(CUresult r, const char* what) {
  if (r == 0) return;
  const char* name = nullptr;
  if (api().cuGetErrorName) api().cuGetErrorName(r, &name);
  throw CudaError(std::string(what) + " failed: " + (name ? name : "CUDA error " + std::to_string(r)));
}

}  // namespace

bool cuda_driver_available(std::string* why) {
  const DriverApi& a = api();
  int count = 0;
  if (a.handle && a.init_status == 0 && a.cuDeviceGetCount(&count) == 0 && count > 0) return true;
  if (why) *why = a.error.empty() ? "no CUDA device: the driver found no GPU" : a.error;
  return false;
}

CudaBuffer& CudaBuffer::operator=(CudaBuffer&& o) noexcept {
  if (this != &o) {
    if (ptr_ && owned_) api().cuMemFree(ptr_);
    ptr_ = o.ptr_;
    size_ = o.size_;
    owned_ = o.owned_;
    o.ptr_ = 0;
  }
  return *this;
}

CudaBuffer::~CudaBuffer() {
  if (ptr_ && owned_) api().cuMemFree(ptr_);
}

std::shared_ptr<CudaDevice> CudaDevice::open(int ordinal) {
  const DriverApi& a = require();
  int count = 0;
  check(a.cuDeviceGetCount(&count), "cuDeviceGetCount");
  if (count == 0) throw CudaError("no CUDA device: the driver found no GPU");
  if (ordinal < 0 || ordinal >= count)
    throw CudaError("no CUDA device " + std::to_string(ordinal) + " (there are " + std::to_string(count) +
                    ")");
  std::shared_ptr<CudaDevice> d(new CudaDevice);
  d->ordinal_ = ordinal;
  CUdevice dev = 0;
  check(a.cuDeviceGet(&dev, ordinal), "cuDeviceGet");
  char name[256] = {};
  check(a.cuDeviceGetName(name, sizeof name, dev), "cuDeviceGetName");
  d->name_ = name;
  int major = 0, minor = 0;
  check(a.cuDeviceGetAttribute(&major, kAttrCcMajor, dev), "cuDeviceGetAttribute");
  check(a.cuDeviceGetAttribute(&minor, kAttrCcMinor, dev), "cuDeviceGetAttribute");
  check(a.cuDeviceGetAttribute(&d->sm_count_, kAttrSmCount, dev), "cuDeviceGetAttribute");
  d->sm_ = major * 10 + minor;
  check(a.cuDevicePrimaryCtxRetain(&d->ctx_, dev), "cuDevicePrimaryCtxRetain");
  d->make_current();
  check(a.cuEventCreate(&d->events_[0], 0), "cuEventCreate");
  check(a.cuEventCreate(&d->events_[1], 0), "cuEventCreate");
  return d;
}

CudaDevice::~CudaDevice() {
  const DriverApi& a = api();
  for (void* e : events_)
    if (e) a.cuEventDestroy(e);
  if (ctx_) a.cuDevicePrimaryCtxRelease(ordinal_);
}

void CudaDevice::make_current() const { check(api().cuCtxSetCurrent(ctx_), "cuCtxSetCurrent"); }

CudaBuffer CudaDevice::alloc(size_t bytes) {
  make_current();
  CudaBuffer b;
  b.size_ = bytes;
  CUdeviceptr ptr = 0;
  if (bytes) check(api().cuMemAlloc(&ptr, bytes), "cuMemAlloc");
  b.ptr_ = ptr;
  return b;
}

void CudaDevice::upload(const CudaBuffer& dst, const void* src, size_t bytes) {
  make_current();
  if (bytes) check(api().cuMemcpyHtoD(dst.ptr(), src, bytes), "cuMemcpyHtoD");
}

void CudaDevice::download(void* dst, const CudaBuffer& src, size_t bytes) {
  make_current();
  if (bytes) check(api().cuMemcpyDtoH(dst, src.ptr(), bytes), "cuMemcpyDtoH");
}

void CudaDevice::zero(const CudaBuffer& dst) {
  make_current();
  if (dst.size()) check(api().cuMemsetD8(dst.ptr(), 0, dst.size()), "cuMemsetD8");
}

std::shared_ptr<CudaModule> CudaDevice::load(const std::vector<uint8_t>& cubin) {
  make_current();
  std::shared_ptr<CudaModule> m(new CudaModule);
  check(api().cuModuleLoadData(&m->module_, cubin.data()), "cuModuleLoadData");
  return m;
}

void CudaDevice::launch(const CudaModule& module, const std::string& entry, const unsigned (&grid)[3],
                        unsigned threads, unsigned smem_bytes, const void* params, size_t param_bytes,
                        void* stream) {
  make_current();
  void* fn = module.function(entry);
  check(api().cuFuncSetAttribute(fn, kFuncMaxDynamicSmem, static_cast<int>(smem_bytes)),
        "cuFuncSetAttribute");
  // The parameter block travels as one by-value argument.
  void* args[] = {const_cast<void*>(params)};
  (void)param_bytes;
  check(api().cuLaunchKernel(fn, grid[0], grid[1], grid[2], threads, 1, 1, smem_bytes, stream, args, nullptr),
        "cuLaunchKernel");
}

void CudaDevice::synchronize() {
  make_current();
  check(api().cuCtxSynchronize(), "kernel execution (cuCtxSynchronize)");
}

void CudaDevice::record_start() {
  make_current();
  check(api().cuEventRecord(events_[0], nullptr), "cuEventRecord");
}

float CudaDevice::record_stop() {
  check(api().cuEventRecord(events_[1], nullptr), "cuEventRecord");
  check(api().cuEventSynchronize(events_[1]), "cuEventSynchronize");
  float ms = 0;
  check(api().cuEventElapsedTime(&ms, events_[0], events_[1]), "cuEventElapsedTime");
  return ms;
}

CudaStreamScratch::CudaStreamScratch(CudaDevice& device, void* stream) : device_(device), stream_(stream) {
  if (!require().stream_ordered)
    throw CudaError("the CUDA driver lacks stream-ordered memory (cuMemAllocAsync; driver 11.2 or later)");
}

CudaStreamScratch::~CudaStreamScratch() {
  for (uint64_t p : owned_) api().cuMemFreeAsync(p, stream_);
}

uint64_t CudaStreamScratch::alloc(size_t bytes, bool zeroed) {
  device_.make_current();
  bytes = bytes < 4 ? 4 : bytes;
  CUdeviceptr ptr = 0;
  check(api().cuMemAllocAsync(&ptr, bytes, stream_), "cuMemAllocAsync");
  owned_.push_back(ptr);
  if (zeroed) check(api().cuMemsetD8Async(ptr, 0, bytes, stream_), "cuMemsetD8Async");
  return ptr;
}

uint64_t CudaStreamScratch::upload(const void* src, size_t bytes) {
  const uint64_t ptr = alloc(bytes);
  // From pageable memory the copy is staged before the call returns.
  if (bytes) check(api().cuMemcpyHtoDAsync(ptr, src, bytes, stream_), "cuMemcpyHtoDAsync");
  return ptr;
}

void CudaStreamScratch::copy(uint64_t dst, uint64_t src, size_t bytes) {
  device_.make_current();
  if (bytes) check(api().cuMemcpyDtoDAsync(dst, src, bytes, stream_), "cuMemcpyDtoDAsync");
}

void CudaStreamScratch::zero(uint64_t dst, size_t bytes) {
  device_.make_current();
  if (bytes) check(api().cuMemsetD8Async(dst, 0, bytes, stream_), "cuMemsetD8Async");
}

void CudaStreamScratch::download(void* dst, uint64_t src, size_t bytes) {
  device_.make_current();
  if (!bytes) return;
  check(api().cuMemcpyDtoHAsync(dst, src, bytes, stream_), "cuMemcpyDtoHAsync");
  check(api().cuStreamSynchronize(stream_), "cuStreamSynchronize");
}

CudaGraph::CudaGraph(CudaDevice& device, const std::function<void(void* stream)>& enqueue) : device_(device) {
  if (!require().graphs) throw CudaError("the CUDA driver lacks CUDA graphs (driver 11.4 or later)");
  device_.make_current();
  constexpr unsigned kNonBlocking = 1;  // CU_STREAM_NON_BLOCKING
  constexpr int kCaptureGlobal = 0;     // CU_STREAM_CAPTURE_MODE_GLOBAL
  check(api().cuStreamCreate(&stream_, kNonBlocking), "cuStreamCreate");
  try {
    check(api().cuStreamBeginCapture(stream_, kCaptureGlobal), "cuStreamBeginCapture");
    try {
      enqueue(stream_);
    } catch (...) {
      void* partial = nullptr;
      api().cuStreamEndCapture(stream_, &partial);  // leave the stream usable, then report
      if (partial) api().cuGraphDestroy(partial);
      throw;
    }
    check(api().cuStreamEndCapture(stream_, &graph_), "the captured work (cuStreamEndCapture)");
    check(api().cuGraphInstantiateWithFlags(&exec_, graph_, 0), "cuGraphInstantiateWithFlags");
  } catch (...) {
    release();
    throw;
  }
}

CudaGraph::~CudaGraph() { release(); }

void CudaGraph::release() {
  if (exec_) api().cuGraphExecDestroy(exec_);
  if (graph_) api().cuGraphDestroy(graph_);
  if (stream_) api().cuStreamDestroy(stream_);
  exec_ = graph_ = stream_ = nullptr;
}

void CudaGraph::replay() {
  device_.make_current();
  check(api().cuGraphLaunch(exec_, stream_), "cuGraphLaunch");
  check(api().cuStreamSynchronize(stream_), "the graph's work (cuStreamSynchronize)");
}

float CudaGraph::replay_ms(int times) {
  device_.make_current();
  void* events[2] = {nullptr, nullptr};
  for (void*& e : events) check(api().cuEventCreate(&e, 0), "cuEventCreate");
  float ms = 0;
  try {
    check(api().cuEventRecord(events[0], stream_), "cuEventRecord");
    for (int i = 0; i < times; ++i) check(api().cuGraphLaunch(exec_, stream_), "cuGraphLaunch");
    check(api().cuEventRecord(events[1], stream_), "cuEventRecord");
    check(api().cuEventSynchronize(events[1]), "the graph's work (cuEventSynchronize)");
    check(api().cuEventElapsedTime(&ms, events[0], events[1]), "cuEventElapsedTime");
  } catch (...) {
    for (void* e : events) api().cuEventDestroy(e);
    throw;
  }
  for (void* e : events) api().cuEventDestroy(e);
  return times > 0 ? ms / static_cast<float>(times) : 0.f;
}

CudaModule::~CudaModule() {
  if (module_) api().cuModuleUnload(module_);
}

void* CudaModule::function(const std::string& entry) const {
  void* fn = nullptr;
  CUresult r = api().cuModuleGetFunction(&fn, module_, entry.c_str());
  if (r != 0) check(r, ("cuModuleGetFunction('" + entry + "')").c_str());
  return fn;
}

}  // namespace attn
