// The RAII layer on a real device: properties, memory, streams, events,
// buffers, pinning and the checked-call macro. Skips without a GPU.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <thread>
#include <vector>

#include "cuzk/gpu/buffer.h"
#include "cuzk/gpu/check.h"
#include "cuzk/gpu/device.h"
#include "cuzk/gpu/nvtx.h"
#include "cuzk/gpu/stream.h"

namespace cuzk::gpu {
namespace {

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!device_available()) GTEST_SKIP() << device_unavailable_reason();
  }
};

TEST(GpuCheck, MapsErrorsToStatus) {
  Status ok = CUZK_CUDA_CHECK(cudaSuccess);
  EXPECT_TRUE(ok.ok());
  Status oom = CUZK_CUDA_CHECK(cudaErrorMemoryAllocation);
  EXPECT_EQ(oom.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(oom.message().find("cudaErrorMemoryAllocation"), std::string::npos);
  EXPECT_NE(oom.message().find("gpu_test.cc"), std::string::npos);
  EXPECT_EQ(CUZK_CUDA_CHECK(cudaErrorInvalidValue).code(), StatusCode::kInternal);
  EXPECT_EQ(CUZK_CUDA_CHECK(cudaErrorNoDevice).code(), StatusCode::kUnavailable);
}

// What users read when no GPU can be used ("no GPU found" in cuzk prove):
// the CUDA error, never a source path. Meaningful on machines without a
// usable device (a CUDA build on a CPU machine); elsewhere it only checks "".
TEST(GpuDevice, TheReasonForNoDeviceNamesNoSourceFile) {
  const std::string why = device_unavailable_reason();
  EXPECT_EQ(why.empty(), device_available()) << why;
  EXPECT_EQ(why.find(".cc:"), std::string::npos) << why;
  EXPECT_EQ(why.find('/'), std::string::npos) << why;
  if (!device_count().ok()) {
    EXPECT_NE(why.find("cudaError"), std::string::npos) << why;
  }
}

TEST_F(GpuTest, DeviceInfoAndMemory) {
  auto n = device_count();
  ASSERT_TRUE(n.ok());
  auto info = device_info(0);
  ASSERT_TRUE(info.ok()) << info.status().to_string();
  std::printf("device 0: %s\n", info->summary().c_str());
  EXPECT_GT(info->sm_count, 0);
  EXPECT_GT(info->total_memory_bytes, 0u);
  auto mem = mem_info();
  ASSERT_TRUE(mem.ok());
  EXPECT_LE(mem->free_bytes, mem->total_bytes);
  auto bad = device_info(1000);
  EXPECT_FALSE(bad.ok());
  auto scoped = ScopedDevice::create(0);
  EXPECT_TRUE(scoped.ok());
}

// The side path of the CUDA lane's overlapped plan runs on the device's most
// urgent streams: the priority asked for is the one the stream gets, and it
// is more urgent than (numerically below) a default stream's.
TEST_F(GpuTest, TheMostUrgentPriorityIsTheOneTheStreamGets) {
  auto greatest = Stream::greatest_priority();
  ASSERT_TRUE(greatest.ok()) << greatest.status().to_string();
  int least = 0, range_greatest = 0;
  ASSERT_EQ(cudaDeviceGetStreamPriorityRange(&least, &range_greatest), cudaSuccess);
  EXPECT_EQ(*greatest, range_greatest);
  auto urgent = Stream::create(*greatest);
  auto plain = Stream::create();
  ASSERT_TRUE(urgent.ok() && plain.ok());
  int got_urgent = 1, got_plain = 1;
  ASSERT_EQ(cudaStreamGetPriority(urgent->get(), &got_urgent), cudaSuccess);
  ASSERT_EQ(cudaStreamGetPriority(plain->get(), &got_plain), cudaSuccess);
  EXPECT_EQ(got_urgent, *greatest);
  EXPECT_EQ(got_plain, 0);
  EXPECT_LT(got_urgent, got_plain) << "the device offers no priorities above the default";
}

TEST_F(GpuTest, BuffersStreamsAndEvents) {
  CUZK_NVTX_RANGE("gpu_test.buffers");
  const size_t n = 1 << 20;
  auto stream = Stream::create();
  ASSERT_TRUE(stream.ok());
  auto host = PinnedBuffer<uint32_t>::allocate(n);
  ASSERT_TRUE(host.ok());
  std::iota(host->begin(), host->end(), 7u);
  auto dev = DeviceBuffer<uint32_t>::allocate(n);
  ASSERT_TRUE(dev.ok());
  EXPECT_TRUE(is_device_pointer(dev->data()));
  EXPECT_FALSE(is_device_pointer(host->data()));
  auto start = Event::create();
  auto end = Event::create();
  ASSERT_TRUE(start.ok() && end.ok());
  ASSERT_TRUE(start->record(*stream).ok());
  ASSERT_TRUE(dev->upload(host->data(), n, stream->get()).ok());
  ASSERT_TRUE(end->record(*stream).ok());
  std::vector<uint32_t> back(n, 0);
  auto registration = HostRegistration::create(back.data(), n * 4);
  ASSERT_TRUE(registration.ok()) << registration.status().to_string();
  ASSERT_TRUE(dev->download(back.data(), n, stream->get()).ok());
  ASSERT_TRUE(stream->synchronize().ok());
  EXPECT_EQ(std::memcmp(back.data(), host->data(), n * 4), 0);
  auto done = end->done();
  ASSERT_TRUE(done.ok());
  EXPECT_TRUE(*done);
  auto ms = Event::elapsed_ms(*start, *end);
  ASSERT_TRUE(ms.ok());
  EXPECT_GE(*ms, 0.0f);
  // Cross-stream order through an event.
  auto other = Stream::create();
  ASSERT_TRUE(other.ok());
  ASSERT_TRUE(dev->fill_bytes(0, stream->get()).ok());
  ASSERT_TRUE(end->record(*stream).ok());
  ASSERT_TRUE(other->wait(*end).ok());
  ASSERT_TRUE(dev->download(back.data(), n, other->get()).ok());
  ASSERT_TRUE(other->synchronize().ok());
  EXPECT_EQ(back[12345], 0u);
}

// The time between two events whose end is still queued: elapsed_ms waits
// for it (cudaEventElapsedTime alone answers cudaErrorNotReady). A host
// function holds the stream for 100 ms between the two events.
TEST_F(GpuTest, ElapsedTimeWaitsForAnEventStillQueued) {
  auto stream = Stream::create();
  auto start = Event::create(true);
  auto end = Event::create(true);
  ASSERT_TRUE(stream.ok() && start.ok() && end.ok());
  ASSERT_TRUE(start->record(*stream).ok());
  auto hold = [](void*) { std::this_thread::sleep_for(std::chrono::milliseconds(100)); };
  ASSERT_TRUE(CUZK_CUDA_CHECK(cudaLaunchHostFunc(stream->get(), hold, nullptr)).ok());
  ASSERT_TRUE(end->record(*stream).ok());
  auto ms = Event::elapsed_ms(*start, *end);
  ASSERT_TRUE(ms.ok()) << ms.status().to_string();
  EXPECT_GE(*ms, 90.0f);
  auto done = end->done();
  ASSERT_TRUE(done.ok());
  EXPECT_TRUE(*done);
}

// cudaHostRegister pins a range once per process; HostRegistration counts
// its holders so that a second pinning of the same memory (a key streamed to
// two devices) shares the first, and the last holder unpins it.
TEST_F(GpuTest, HostRegistrationsAreCountedAndShared) {
  const size_t n = size_t(4) << 20;
  std::vector<uint8_t> mem(3 * n, 1);
  uint8_t* p = mem.data() + n;  // [n, 2n) is registered first
  auto first = HostRegistration::create(p, n, cudaHostRegisterMapped | cudaHostRegisterPortable);
  ASSERT_TRUE(first.ok()) << first.status().to_string();
  EXPECT_EQ(HostRegistration::holders(p), 1);
  EXPECT_TRUE(is_pinned_host_pointer(p + n / 2));
  auto again = HostRegistration::create(p, n, cudaHostRegisterPortable);
  ASSERT_TRUE(again.ok()) << again.status().to_string();
  auto inner = HostRegistration::create(p + 4096, 8192);
  ASSERT_TRUE(inner.ok()) << inner.status().to_string();
  EXPECT_EQ(HostRegistration::holders(p + 5000), 3);
  // Ranges that overlap the pinned one without lying inside it are refused,
  // from either side; so is a flag the first registration lacks.
  auto past = HostRegistration::create(p + n / 2, n);
  EXPECT_EQ(past.status().code(), StatusCode::kFailedPrecondition) << past.status().to_string();
  auto before = HostRegistration::create(mem.data(), n + 4096);
  EXPECT_EQ(before.status().code(), StatusCode::kFailedPrecondition) << before.status().to_string();
  auto other = HostRegistration::create(mem.data(), n / 2);  // not mapped
  ASSERT_TRUE(other.ok()) << other.status().to_string();
  auto mapped = HostRegistration::create(mem.data(), n / 4, cudaHostRegisterMapped);
  EXPECT_EQ(mapped.status().code(), StatusCode::kFailedPrecondition) << mapped.status().to_string();
  other->reset();
  EXPECT_FALSE(is_pinned_host_pointer(mem.data()));
  // The first holder goes; the memory stays pinned and copies from it work.
  first->reset();
  EXPECT_EQ(HostRegistration::holders(p), 2);
  EXPECT_TRUE(is_pinned_host_pointer(p));
  auto stream = Stream::create();
  auto dev = DeviceBuffer<uint8_t>::allocate(n);
  ASSERT_TRUE(stream.ok() && dev.ok());
  ASSERT_TRUE(dev->upload(p, n, stream->get()).ok());
  std::vector<uint8_t> back(n, 0);
  ASSERT_TRUE(dev->download(back.data(), n, stream->get()).ok());
  ASSERT_TRUE(stream->synchronize().ok());
  EXPECT_EQ(back, std::vector<uint8_t>(n, 1));
  again->reset();
  inner->reset();
  EXPECT_EQ(HostRegistration::holders(p), 0);
  EXPECT_FALSE(is_pinned_host_pointer(p));
  // Pinned afresh after that.
  auto fresh = HostRegistration::create(p, n);
  ASSERT_TRUE(fresh.ok()) << fresh.status().to_string();
  EXPECT_EQ(HostRegistration::holders(p), 1);
}

TEST_F(GpuTest, OversizedAllocationIsAStatus) {
  auto huge = DeviceBuffer<uint8_t>::allocate(size_t(1) << 50);
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().code(), StatusCode::kResourceExhausted);
  // The failure is not sticky: later allocations work.
  auto small = DeviceBuffer<uint8_t>::allocate(1024);
  EXPECT_TRUE(small.ok());
  auto empty = DeviceBuffer<uint8_t>::allocate(0);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

}  // namespace
}  // namespace cuzk::gpu
