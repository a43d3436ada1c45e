// The PoRep partition circuit: shapes against rust-fil-proofs'
// storage-proofs-porep tests/stacked_circuit.rs and the 32 GiB figures of
// its parameters.
#include <gtest/gtest.h>

#include <cstdio>

#include "cuzk/base/random.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/filecoin/cs/porep.h"
#include "cuzk/filecoin/cs/recording_cs.h"
#include "cuzk/filecoin/cs/witness_cs.h"

namespace cuzk::filecoin::snark {
namespace {

struct StackedCase {
  const char* name;
  TreeShape shape;
  uint64_t inputs;
  uint64_t rows;
};
// test_stacked_porep_circuit_*: 8 nodes per base tree, 2 layers, 1 challenge.
constexpr StackedCase kStacked[] = {
    {"poseidon_base_2", {2, 0, 0}, 22, 1'206'212},
    {"poseidon_base_8", {8, 0, 0}, 22, 1'199'620},
    {"poseidon_sub_8_4", {8, 4, 0}, 22, 1'296'576},
    {"poseidon_top_8_4_2", {8, 4, 2}, 22, 1'346'982},
};

TEST(Porep, BlankCircuitShapesMatchTheReferenceTests) {
  for (const StackedCase& sc : kStacked) {
    PorepConfig config;
    config.sector_bytes = 32 * 8 * uint64_t(sc.shape.base_count());
    config.layers = 2;
    config.challenges_per_partition = 1;
    config.partitions = 1;
    config.tree_r = sc.shape;
    const PorepPartition blank = blank_porep_partition(config);
    ASSERT_TRUE(check_porep_partition(config, blank).ok());
    RecordingCs cs;
    synthesize_porep(cs, config, blank);
    EXPECT_EQ(cs.num_inputs(), sc.inputs) << sc.name;
    EXPECT_EQ(cs.num_constraints(), sc.rows) << sc.name;
    WitnessCs w({.values_known = false});
    synthesize_porep(w, config, blank);
    EXPECT_EQ(w.num_constraints(), sc.rows) << sc.name;
    EXPECT_EQ(w.num_aux(), cs.num_aux()) << sc.name;
    EXPECT_EQ(w.num_inputs(), cs.num_inputs()) << sc.name;
  }
}

TEST(Porep, ConfigsFollowFilecoinProofsConstants) {
  auto c2k = porep_config(2048);
  ASSERT_TRUE(c2k.ok());
  EXPECT_EQ(c2k->layers, 2);
  EXPECT_EQ(c2k->challenges_per_partition, 2);
  EXPECT_EQ(c2k->tree_r, (TreeShape{8, 0, 0}));
  auto c32g = porep_config(uint64_t(32) << 30);
  ASSERT_TRUE(c32g.ok());
  EXPECT_EQ(c32g->layers, 11);
  EXPECT_EQ(c32g->challenges_per_partition, 18);
  EXPECT_EQ(c32g->partitions, 10);
  EXPECT_EQ(c32g->tree_r, (TreeShape{8, 8, 0}));
  EXPECT_FALSE(porep_config(4096 * 3).ok());
}

TEST(Porep, ShapeErrorsNameTheField) {
  auto c = porep_config(2048);
  ASSERT_TRUE(c.ok());
  PorepPartition p = blank_porep_partition(*c);
  p.challenges[1].exp_parents[3].rows.pop_back();
  Status s = check_porep_partition(*c, p);
  EXPECT_NE(s.message().find("challenge 1 exp parent 3"), std::string::npos) << s.message();
  p = blank_porep_partition(*c);
  p.challenges[0].comm_c_path.base[1].index = 8;
  s = check_porep_partition(*c, p);
  EXPECT_NE(s.message().find("challenge 0 comm_c path (base) level 1: index 8"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace cuzk::filecoin::snark

namespace cuzk::filecoin::snark {
namespace {

// A small PoRep of `challenges` challenges, for comparing section strategies.
PorepConfig small_config(int challenges) {
  auto c = porep_config(2048);
  PorepConfig config = *c;
  config.challenges_per_partition = challenges;
  return config;
}

TEST(Sections, ReplicatedCountsAndDensityEqualAFullSynthesis) {
  const PorepConfig config = small_config(3);
  const PorepPartition blank = blank_porep_partition(config);
  RecordingCs full;
  synthesize_porep(full, config, blank);
  RecordingCs rep({.replicate_sections = true});
  synthesize_porep(rep, config, blank);
  ASSERT_TRUE(rep.status().ok()) << rep.status().to_string();
  EXPECT_EQ(rep.counts(), full.counts());
  const r1cs::DensityBitmaps a = rep.density(), b = full.density();
  EXPECT_EQ(a.a_aux, b.a_aux);
  EXPECT_EQ(a.b_aux, b.b_aux);
  EXPECT_EQ(a.b_input, b.b_input);
  WitnessCs shape({.values_known = false});
  synthesize_porep(shape, config, blank);
  EXPECT_EQ(shape.num_aux(), full.num_aux());
  EXPECT_EQ(shape.num_inputs(), full.num_inputs());
  EXPECT_EQ(shape.num_constraints(), full.num_constraints());
}

TEST(Sections, ParallelWitnessEqualsSequential) {
  const PorepConfig config = small_config(3);
  PorepPartition p = blank_porep_partition(config);
  TestRng rng(fresh_test_seed());
  p.replica_id = Fr::random(rng);
  for (PorepChallenge& ch : p.challenges) {
    ch.challenge = rng() % config.nodes();
    ch.data_leaf = Fr::random(rng);
    for (auto& col : ch.drg_parents)
      for (Fr& r : col.rows) r = Fr::random(rng);
  }
  WitnessCs seq;
  synthesize_porep(seq, config, p);
  ThreadPool pool(3);
  WitnessCs par({.pool = &pool});
  synthesize_porep(par, config, p);
  ASSERT_TRUE(par.status().ok()) << par.status().to_string();
  EXPECT_EQ(par.num_constraints(), seq.num_constraints());
  const std::vector<Fr> a = std::move(seq).take_witness(), b = std::move(par).take_witness();
  ASSERT_EQ(a.size(), b.size());
  EXPECT_TRUE(a == b);
}

// Sections that differ are refused, not replicated.
TEST(Sections, DifferentSectionsAreAnError) {
  auto body = [](auto& cs, size_t i) {
    for (size_t k = 0; k <= i; ++k) cs.alloc(Name("x"), Fr::one());
  };
  RecordingCs rep({.replicate_sections = true});
  rep.sections(4, body);
  EXPECT_EQ(rep.status().code(), StatusCode::kInternal);
  WitnessCs shape({.values_known = false});
  shape.sections(4, body);
  EXPECT_EQ(shape.status().code(), StatusCode::kInternal);
  ThreadPool pool(2);
  WitnessCs par({.pool = &pool});
  par.sections(4, body);
  EXPECT_EQ(par.status().code(), StatusCode::kInternal);
}

// The 32 GiB partition, as the reference reports it (rust-fil-proofs'
// published v28 32 GiB PoRep parameters: 130,278,869 rows with the input
// rows, 328 inputs, 130,169,893 aux; A/B/C non-zeros with input rows
// 309,405,051 / 130,327,340 / 282,656,500; density popcounts A-aux
// 129,753,292, B-input 1, B-aux 33,112,281). Counted with the first two
// challenges synthesized and the other sixteen replicated; the test above
// shows replication equals a full synthesis.
TEST(Porep, Shape32GiBMatchesThePublishedParameters) {
  auto config = porep_config(uint64_t(32) << 30);
  ASSERT_TRUE(config.ok());
  const PorepPartition blank = blank_porep_partition(*config);
  RecordingCs cs({.replicate_sections = true});
  synthesize_porep(cs, *config, blank);
  ASSERT_TRUE(cs.status().ok()) << cs.status().to_string();
  const CircuitCounts& c = cs.counts();
  const r1cs::DensityBitmaps d = cs.density();
  std::printf("32 GiB PoRep partition: %lu rows (+%lu input rows), %lu inputs, %lu aux, non-zeros %lu/%lu/%lu, "
              "density a_aux %lu b_input %lu b_aux %lu\n",
              c.num_constraints, c.num_inputs, c.num_inputs, c.num_aux, c.nonzeros[0] + c.num_inputs, c.nonzeros[1],
              c.nonzeros[2], d.a_aux.popcount, d.b_input.popcount, d.b_aux.popcount);
  EXPECT_EQ(c.num_constraints + c.num_inputs, 130'278'869u);
  EXPECT_EQ(c.num_inputs, 328u);
  EXPECT_EQ(c.num_aux, 130'169'893u);
  EXPECT_EQ(c.nonzeros[0] + c.num_inputs, 309'405'051u);
  EXPECT_EQ(c.nonzeros[1], 130'327'340u);
  EXPECT_EQ(c.nonzeros[2], 282'656'500u);
  EXPECT_EQ(d.a_aux.popcount, 129'753'292u);
  EXPECT_EQ(d.b_input.popcount, 1u);
  EXPECT_EQ(d.b_aux.popcount, 33'112'281u);
}

}  // namespace
}  // namespace cuzk::filecoin::snark
