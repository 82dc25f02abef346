// CUPTI's Activity API behind one collector; see CuptiCollector.h.
#include "cuda/CuptiCollector.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#ifdef TEMPO_HAVE_CUDA
#include <cupti.h>
#endif

namespace tempo::cuda {

#ifdef TEMPO_HAVE_CUDA

namespace {

// CUPTI's buffer callbacks take no user data: the records of the one active collector go here.
std::mutex sinkMutex;
std::vector<GpuActivity>* sink = nullptr;

constexpr size_t kBufferBytes = 8 << 20;

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxRecords) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *maxRecords = 0;  // as many as fit
}

const char* copyKindName(uint8_t kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "memcpy HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "memcpy DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "memcpy DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "memcpy HtoH";
    default: return "memcpy";
  }
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t validSize) {
  std::lock_guard<std::mutex> lock(sinkMutex);
  CUpti_Activity* record = nullptr;
  while (sink && cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
    GpuActivity a;
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      auto* k = reinterpret_cast<CUpti_ActivityKernel10*>(record);
      a = {GpuActivity::Kind::Kernel, k->name ? k->name : "?", k->start, k->end, k->deviceId, k->streamId,
           k->correlationId, 0, k->gridX, k->blockX};
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
      auto* m = reinterpret_cast<CUpti_ActivityMemcpy6*>(record);
      a = {GpuActivity::Kind::Memcpy, copyKindName(m->copyKind), m->start, m->end, m->deviceId, m->streamId,
           m->correlationId, m->bytes, 0, 0};
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
      auto* m = reinterpret_cast<CUpti_ActivityMemset4*>(record);
      a = {GpuActivity::Kind::Memset, "memset", m->start, m->end, m->deviceId, m->streamId, m->correlationId, m->bytes, 0, 0};
    } else {
      continue;
    }
    sink->push_back(std::move(a));
  }
  std::free(buffer);
}

void CUPTIAPI ignore(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

std::string resultText(CUptiResult r) {
  const char* text = nullptr;
  cuptiGetResultString(r, &text);
  return text ? text : "unknown CUPTI error";
}

constexpr CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                         CUPTI_ACTIVITY_KIND_MEMSET};

}  // namespace

CuptiCollector::~CuptiCollector() {
  if (active_) stop();
}

bool CuptiCollector::start(std::string& why) {
  {
    std::lock_guard<std::mutex> lock(sinkMutex);
    if (sink) {
      why = "another collector of this process is recording GPU activity";
      return false;
    }
  }
  // A subscriber already attached (Nsight Systems, Nsight Compute) keeps CUPTI to itself.
  CUpti_SubscriberHandle probe = nullptr;
  CUptiResult r = cuptiSubscribe(&probe, reinterpret_cast<CUpti_CallbackFunc>(ignore), nullptr);
  if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    why = "another CUPTI client holds the GPU (running under Nsight Systems or Compute?): continuing without GPU timings";
    return false;
  }
  if (r != CUPTI_SUCCESS) {
    why = "CUPTI is not available here: " + resultText(r);
    return false;
  }
  cuptiUnsubscribe(probe);
  if ((r = cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted)) != CUPTI_SUCCESS) {
    why = "CUPTI refused its activity buffers: " + resultText(r);
    return false;
  }
  {
    std::lock_guard<std::mutex> lock(sinkMutex);
    sink = new std::vector<GpuActivity>;
  }
  for (CUpti_ActivityKind kind : kKinds) {
    if ((r = cuptiActivityEnable(kind)) != CUPTI_SUCCESS) {
      why = "CUPTI could not record activity: " + resultText(r);
      stop();
      return false;
    }
  }
  active_ = true;
  return true;
}

std::vector<GpuActivity> CuptiCollector::stop() {
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  for (CUpti_ActivityKind kind : kKinds) cuptiActivityDisable(kind);
  std::vector<GpuActivity> out;
  {
    std::lock_guard<std::mutex> lock(sinkMutex);
    if (sink) out = std::move(*sink);
    delete sink;
    sink = nullptr;
  }
  active_ = false;
  std::stable_sort(out.begin(), out.end(), [](const GpuActivity& a, const GpuActivity& b) { return a.startNs < b.startNs; });
  return out;
}

#else

CuptiCollector::~CuptiCollector() = default;
bool CuptiCollector::start(std::string& why) {
  why = "this build of Tempo has no CUDA toolkit, so no CUPTI";
  return false;
}
std::vector<GpuActivity> CuptiCollector::stop() { return {}; }

#endif

namespace {

std::string jsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
    else out += c;
  }
  return out + "\"";
}

}  // namespace

std::string gpuActivityChromeTrace(const std::vector<GpuActivity>& records, const std::string& deviceName) {
  uint64_t origin = records.empty() ? 0 : records.front().startNs;
  for (const GpuActivity& a : records) origin = std::min(origin, a.startNs);
  std::string out = "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n";
  char buf[160];
  bool first = true;
  for (const GpuActivity& a : records) {
    if (!first) out += ",\n";
    first = false;
    std::snprintf(buf, sizeof buf, "\"ts\": %.3f, \"dur\": %.3f, \"pid\": %u, \"tid\": %u", (a.startNs - origin) / 1e3,
                  (a.endNs - a.startNs) / 1e3, a.device, a.stream);
    const char* cat = a.kind == GpuActivity::Kind::Kernel ? "kernel" : a.kind == GpuActivity::Kind::Memcpy ? "memcpy" : "memset";
    out += "{\"name\": " + jsonString(a.name) + ", \"cat\": \"" + cat + "\", \"ph\": \"X\", " + buf +
           ", \"args\": {\"correlation\": " + std::to_string(a.correlation) + ", \"bytes\": " + std::to_string(a.bytes) +
           ", \"grid\": " + std::to_string(a.gridX) + ", \"block\": " + std::to_string(a.blockX) + "}}";
  }
  // Track names: the device as the process, each stream as a thread.
  std::vector<std::pair<uint32_t, uint32_t>> tracks;
  for (const GpuActivity& a : records)
    if (std::find(tracks.begin(), tracks.end(), std::make_pair(a.device, a.stream)) == tracks.end()) tracks.emplace_back(a.device, a.stream);
  for (auto [device, stream] : tracks) {
    out += ",\n{\"name\": \"process_name\", \"cat\": \"__metadata\", \"ph\": \"M\", \"pid\": " + std::to_string(device) +
           ", \"args\": {\"name\": " + jsonString("GPU " + std::to_string(device) + " " + deviceName) + "}}";
    out += ",\n{\"name\": \"thread_name\", \"cat\": \"__metadata\", \"ph\": \"M\", \"pid\": " + std::to_string(device) + ", \"tid\": " +
           std::to_string(stream) + ", \"args\": {\"name\": \"stream " + std::to_string(stream) + "\"}}";
  }
  return out + "\n]}\n";
}

}  // namespace tempo::cuda
