#include "file_kinds.h"

#include "cuzk/base/mapped_file.h"

namespace cuzk::app {

Status expect_file_kind(const std::string& path, const std::string& option,
                        std::initializer_list<io::FileKind> accepted, const KindOptions& options) {
  auto f = MappedFile::open(path);
  if (!f.ok()) return f.status().with_context(option);
  const io::FileKind kind = io::detect_file_kind(f->bytes());
  if (kind == io::FileKind::kUnknown) return ok_status();
  std::string want;
  for (io::FileKind k : accepted) {
    if (k == kind) return ok_status();
    want += std::string(want.empty() ? "" : "; ") + io::file_kind_name(k);
  }
  const std::string msg = option + " " + path + ": the file is a " + io::file_kind_name(kind);
  const std::string takes = " (" + option + " takes: " + want + ")";
  for (const auto& [k, opt] : options) {
    if (k == kind) return invalid_argument(msg + "; give it to " + opt + takes);
  }
  return invalid_argument(msg + takes);
}

const KindOptions& prove_kind_options() {
  static const KindOptions k = {{io::FileKind::kZkey, "--zkey"},
                                {io::FileKind::kParams, "--params (with --r1cs)"},
                                {io::FileKind::kR1cs, "--r1cs"},
                                {io::FileKind::kWtns, "--wtns"},
                                {io::FileKind::kVkJson, "`cuzk verify --vkey`"},
                                {io::FileKind::kVk, "`cuzk verify --vk`"},
                                {io::FileKind::kProofJson, "`cuzk verify --proof`"},
                                {io::FileKind::kProofs, "`cuzk verify --proof`"}};
  return k;
}

const KindOptions& verify_kind_options() {
  static const KindOptions k = {{io::FileKind::kVkJson, "--vkey"},
                                {io::FileKind::kVk, "--vk"},
                                {io::FileKind::kZkey, "--vkey (it reads the verifying key inside a .zkey)"},
                                {io::FileKind::kPublicJson, "--public"},
                                {io::FileKind::kProofJson, "--proof"},
                                {io::FileKind::kProofs, "--proof"},
                                {io::FileKind::kWtns, "`cuzk prove --wtns`"},
                                {io::FileKind::kParams, "`cuzk prove --params`"},
                                {io::FileKind::kR1cs, "`cuzk prove --r1cs`"}};
  return k;
}

}  // namespace cuzk::app
