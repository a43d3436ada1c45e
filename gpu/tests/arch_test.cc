// Which GPUs a build runs on, from its architecture list: the rules of
// NVIDIA's CUDA C++ Programming Guide ("Binary Compatibility": a cubin for
// X.y runs on X.z, z ≥ y; "PTX Compatibility": PTX for compute_XY is compiled
// by the driver for any later GPU), for the GPUs operators prove on, without
// a GPU. The compute capabilities are NVIDIA's published ones.
#include <gtest/gtest.h>

#include "cuzk/gpu/arch.h"

namespace cuzk::gpu {
namespace {

BuildArchitectures parse(const char* list) {
  auto a = parse_cuda_architectures(list);
  EXPECT_TRUE(a.ok()) << a.status().message();
  return a.ok() ? *a : BuildArchitectures{};
}

TEST(CudaArchitectures, ParsesCMakeLists) {
  const BuildArchitectures a = parse("75-real;80-real;86-real;89-real;90-real;100-real;120");
  EXPECT_EQ(a.sass, (std::vector<int>{75, 80, 86, 89, 90, 100, 120}));
  EXPECT_EQ(a.ptx, (std::vector<int>{120}));
  EXPECT_EQ(a.describe(), "sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120, PTX compute_120");
  const BuildArchitectures b = parse("90 75-virtual, 90a-real");
  EXPECT_EQ(b.sass, (std::vector<int>{90}));
  EXPECT_EQ(b.ptx, (std::vector<int>{75, 90}));
  for (const char* bad : {"", "all", "native", "90-fat", "x90", "9", ";;"})
    EXPECT_FALSE(parse_cuda_architectures(bad).ok()) << bad;
  auto err = parse_cuda_architectures("80;sm_90");
  ASSERT_FALSE(err.ok());
  EXPECT_NE(err.status().message().find("\"sm_90\""), std::string::npos) << err.status().message();
}

struct Gpu {
  const char* name;
  int major, minor;
};
// NVIDIA's published compute capabilities.
constexpr Gpu kT4{"Tesla T4", 7, 5}, kA100{"A100", 8, 0}, k3090{"RTX 3090", 8, 6}, k4090{"RTX 4090", 8, 9},
    kH200{"H200", 9, 0}, kB200{"B200", 10, 0}, k5090{"RTX 5090", 12, 0}, k5070Ti{"RTX 5070 Ti", 12, 0},
    kGtx1080{"GTX 1080", 6, 1}, kV100{"V100", 7, 0};

TEST(CudaArchitectures, ThePackagedBuildRunsOnEveryOperatorGpu) {
  const BuildArchitectures release = parse("75-real;80-real;86-real;89-real;90-real;100-real;120");
  for (const Gpu& g : {kT4, kA100, k3090, k4090, kH200, kB200, k5090, k5070Ti}) {
    auto code = code_for_device(g.major, g.minor, release, g.name);
    ASSERT_TRUE(code.ok()) << g.name << ": " << code.status().message();
    EXPECT_EQ(*code, "sm_" + std::to_string(g.major * 10 + g.minor)) << g.name;
  }
  // A later GPU of a new major version runs the newest PTX.
  auto later = code_for_device(13, 0, release, "a GPU after Blackwell");
  ASSERT_TRUE(later.ok());
  EXPECT_EQ(*later, "PTX compute_120 (compiled by the driver)");
  // GPUs CUDA 13 no longer supports: a clear refusal, never a crash.
  for (const Gpu& g : {kGtx1080, kV100}) {
    auto code = code_for_device(g.major, g.minor, release, g.name);
    ASSERT_FALSE(code.ok()) << g.name;
    EXPECT_EQ(code.status().code(), StatusCode::kFailedPrecondition);
    EXPECT_NE(code.status().message().find(g.name), std::string::npos);
    EXPECT_NE(code.status().message().find("sm_75"), std::string::npos) << code.status().message();
  }
}

TEST(CudaArchitectures, AnSm90OnlyBuildRunsOnlyOnHopper) {
  // What the CI preset builds: sm_90 machine code and compute_90 PTX.
  const BuildArchitectures ci = parse("90");
  auto h200 = code_for_device(9, 0, ci, kH200.name);
  ASSERT_TRUE(h200.ok());
  EXPECT_EQ(*h200, "sm_90");
  // Blackwell runs compute_90 PTX through the driver; Ada and Ampere cannot.
  auto b5090 = code_for_device(12, 0, ci, k5090.name);
  ASSERT_TRUE(b5090.ok());
  EXPECT_EQ(*b5090, "PTX compute_90 (compiled by the driver)");
  for (const Gpu& g : {k4090, k3090, kA100, kT4}) {
    auto code = code_for_device(g.major, g.minor, ci, g.name);
    ASSERT_FALSE(code.ok()) << g.name;
    EXPECT_NE(code.status().message().find("sm_90, PTX compute_90"), std::string::npos) << code.status().message();
  }
  // Machine code alone (no PTX) runs on its own major version only.
  const BuildArchitectures sass_only = parse("80-real");
  auto on_3090 = code_for_device(8, 6, sass_only, k3090.name);
  ASSERT_TRUE(on_3090.ok());
  EXPECT_EQ(*on_3090, "sm_80");
  EXPECT_FALSE(code_for_device(9, 0, sass_only, kH200.name).ok());
  EXPECT_FALSE(code_for_device(7, 5, sass_only, kT4.name).ok());
}

TEST(CudaArchitectures, ThisBuildRecordsItsOwnList) {
  const BuildArchitectures& mine = build_architectures();
  EXPECT_FALSE(mine.sass.empty() && mine.ptx.empty()) << "the build's CMAKE_CUDA_ARCHITECTURES did not parse";
}

}  // namespace
}  // namespace cuzk::gpu
