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
  // Both readers start their messages with the path.
  if (std::memcmp(magic, "CUZKR1CS", 8) == 0) return r1cs::load_precompiled(path, {.pool = pool});
  return io::read_circom_r1cs(path);
}

}  // namespace cuzk::app
