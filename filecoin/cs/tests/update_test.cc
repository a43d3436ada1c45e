// The SnapDeals circuit: shapes against rust-fil-proofs'
// storage-proofs-update tests/circuit.rs (test_empty_sector_update_circuit_*
// and test_empty_sector_update_constraints_32gib).
#include <gtest/gtest.h>

#include <cstdio>

#include "cuzk/filecoin/cs/recording_cs.h"
#include "cuzk/filecoin/cs/update.h"
#include "cuzk/filecoin/cs/witness_cs.h"

namespace cuzk::filecoin::snark {
namespace {

struct UpdateCase {
  uint64_t sector_bytes;
  uint64_t rows;
};
constexpr UpdateCase kSmall[] = {
    {1024, 1'248'389}, {2048, 1'705'039}, {4096, 2'165'109}, {8192, 2'620'359},
};

TEST(Update, BlankShapesMatchTheReferenceTests) {
  for (const UpdateCase& uc : kSmall) {
    auto config = update_config(uc.sector_bytes);
    ASSERT_TRUE(config.ok());
    const UpdatePartition blank = blank_update_partition(*config);
    ASSERT_TRUE(check_update_partition(*config, blank).ok()) << check_update_partition(*config, blank).to_string();
    RecordingCs cs;
    synthesize_update(cs, *config, blank);
    ASSERT_TRUE(cs.status().ok()) << cs.status().to_string();
    EXPECT_EQ(cs.num_inputs(), 5u) << uc.sector_bytes;
    EXPECT_EQ(cs.num_constraints(), uc.rows) << uc.sector_bytes;
  }
}

TEST(Update, Shape32GiB) {
  auto config = update_config(uint64_t(32) << 30);
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->challenge_count, 86);
  EXPECT_EQ(config->partition_count, 16);
  RecordingCs cs;
  synthesize_update(cs, *config, blank_update_partition(*config));
  ASSERT_TRUE(cs.status().ok()) << cs.status().to_string();
  std::printf("32 GiB SnapDeals partition: %lu rows, %lu inputs, %lu aux\n", cs.num_constraints(), cs.num_inputs(),
              cs.num_aux());
  EXPECT_EQ(cs.num_constraints(), 81'049'499u);
}

}  // namespace
}  // namespace cuzk::filecoin::snark
