// Helpers shared by the r1cs tests.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/r1cs/circuit.h"

namespace cuzk::r1cs::testing {

inline uint64_t fresh_seed() { return cuzk::fresh_test_seed(); }

// A temporary file path removed at scope end.
struct TempPath {
  std::string path;
  explicit TempPath(const std::string& name) {
    const char* dir = std::getenv("TMPDIR");
    path = std::string(dir ? dir : "/tmp") + "/cuzk_r1cs_" + std::to_string(OsRng()()) + "_" + name;
  }
  ~TempPath() { std::remove(path.c_str()); }
};

// A constraint as explicit linear combinations, kept independently of the
// Circuit storage for reference evaluations.
struct RawRow {
  std::vector<LinTerm> lc[3];
};

// Σ coeff·w[var] straight from the terms, duplicates and all.
inline Fr eval_lincomb(const std::vector<LinTerm>& lc, const std::vector<Fr>& w) {
  Fr s = Fr::zero();
  for (const LinTerm& t : lc) s += t.coeff * w[t.var];
  return s;
}

}  // namespace cuzk::r1cs::testing
