#include "circuit_files.h"

#include <cstring>
#include <fstream>

#include "cuzk/io/circom.h"
#include "cuzk/r1cs/precompiled.h"

namespace cuzk::app {

StatusOr<r1cs::Circuit> load_circuit_file(const std::string& path, ThreadPool* pool) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return io_error("cannot open " + path, errno);
  char magic[8] = {};
  in.read(magic, sizeof magic);
  if (std::memcmp(magic, "CUZKR1CS", 8) == 0) {
    auto c = r1cs::load_precompiled(path, {.pool = pool});
    if (!c.ok()) return c.status().with_context(path);
    return c;
  }
  auto c = io::read_circom_r1cs(path);
  if (!c.ok()) return c.status().with_context(path);
  return c;
}

}  // namespace cuzk::app
