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

namespace {

bool takes(const PositionalFile& f, io::FileKind kind) {
  for (io::FileKind k : f.accepted)
    if (k == kind) return true;
  return false;
}

const char* ordinal(size_t i) {
  static const char* kOrdinals[] = {"1st", "2nd", "3rd", "4th"};
  return i < 4 ? kOrdinals[i] : "a later";
}

}  // namespace

Status expect_positional_kinds(const std::vector<PositionalFile>& files, const std::string& order) {
  std::vector<io::FileKind> kinds;
  for (const PositionalFile& f : files) {
    ASSIGN_OR_RETURN(MappedFile m, MappedFile::open(*f.path));
    kinds.push_back(io::detect_file_kind(m.bytes()));
  }
  const std::string tail = " (snarkjs's order is " + order + ")";
  for (size_t i = 0; i < files.size(); ++i) {
    if (kinds[i] == io::FileKind::kUnknown || takes(files[i], kinds[i])) continue;
    const std::string what = *files[i].path + " (" + ordinal(i) + ") is a " + io::file_kind_name(kinds[i]);
    for (size_t j = 0; j < files.size(); ++j) {
      if (j == i || !takes(files[j], kinds[i])) continue;
      if (takes(files[i], kinds[j]))
        return invalid_argument("files swapped? " + what + " and " + *files[j].path + " (" + ordinal(j) + ") is a " +
                                io::file_kind_name(kinds[j]) + tail);
      return invalid_argument(what + ": it goes " + ordinal(j) + ", as " + files[j].place + tail);
    }
    return invalid_argument(what + ", not the " + files[i].place + " expected " + ordinal(i) + tail);
  }
  return ok_status();
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
