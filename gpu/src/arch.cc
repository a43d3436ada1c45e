#include "cuzk/gpu/arch.h"

#include <algorithm>
#include <cctype>

#include "cuzk/gpu/device.h"

#ifndef CUZK_CUDA_ARCHITECTURES
#error "the build passes CUZK_CUDA_ARCHITECTURES (CMAKE_CUDA_ARCHITECTURES) to gpu/src/arch.cc"
#endif

namespace cuzk::gpu {
namespace detail {
// gpu/src/arch_probe.cu: the attributes of a kernel compiled like every other.
Status probe_kernel_image(int ordinal, int* binary_version, int* ptx_version);
}  // namespace detail

namespace {

std::string sm(int a) { return "sm_" + std::to_string(a); }

void add_sorted(std::vector<int>* v, int a) {
  if (std::find(v->begin(), v->end(), a) == v->end()) v->push_back(a);
  std::sort(v->begin(), v->end());
}

}  // namespace

std::string BuildArchitectures::describe() const {
  std::string s;
  for (int a : sass) {
    if (!s.empty()) s += ' ';
    s += sm(a);
  }
  if (s.empty()) s = "no machine code";
  if (!ptx.empty()) {
    s += ", PTX";
    for (int a : ptx) s += " compute_" + std::to_string(a);
  }
  return s;
}

StatusOr<BuildArchitectures> parse_cuda_architectures(std::string_view list) {
  BuildArchitectures out;
  size_t i = 0;
  while (i < list.size()) {
    size_t j = list.find_first_of("; ,", i);
    if (j == std::string_view::npos) j = list.size();
    const std::string_view e = list.substr(i, j - i);
    i = j + 1;
    if (e.empty()) continue;
    size_t k = 0;
    int number = 0;
    while (k < e.size() && std::isdigit(static_cast<unsigned char>(e[k])) && k < 4) number = number * 10 + (e[k++] - '0');
    if (k < e.size() && (e[k] == 'a' || e[k] == 'f')) ++k;  // 90a, 100f: the family's number
    const std::string_view suffix = e.substr(k);
    const bool real = suffix.empty() || suffix == "-real";
    const bool virt = suffix.empty() || suffix == "-virtual";
    if (k == 0 || number < 10 || (!real && !virt))
      return invalid_argument("CUDA architectures: \"" + std::string(e) + "\" in \"" + std::string(list) +
                              "\" is not of the form 90, 90-real or 90-virtual");
    if (real) add_sorted(&out.sass, number);
    if (virt) add_sorted(&out.ptx, number);
  }
  if (out.sass.empty() && out.ptx.empty())
    return invalid_argument("CUDA architectures: \"" + std::string(list) + "\" names none");
  return out;
}

const BuildArchitectures& build_architectures() {
  static const BuildArchitectures archs = [] {
    auto parsed = parse_cuda_architectures(CUZK_CUDA_ARCHITECTURES);
    return parsed.ok() ? *parsed : BuildArchitectures{};
  }();
  return archs;
}

StatusOr<std::string> code_for_device(int cc_major, int cc_minor, const BuildArchitectures& archs,
                                      std::string_view device) {
  const int cc = cc_major * 10 + cc_minor;
  // SASS runs on its own major version at the same or a later minor version.
  int best = -1;
  for (int a : archs.sass)
    if (a / 10 == cc_major && a % 10 <= cc_minor) best = std::max(best, a);
  if (best >= 0) return sm(best);
  int ptx = -1;
  for (int a : archs.ptx)
    if (a <= cc) ptx = std::max(ptx, a);
  if (ptx >= 0) return "PTX compute_" + std::to_string(ptx) + " (compiled by the driver)";
  return failed_precondition(std::string(device) + " is " + sm(cc) + "; this build of cuzk carries GPU code for " +
                             archs.describe() + (cc < 75 ? " (CUDA 13 supports sm_75, Turing, and later)" : "") +
                             ": it cannot run there");
}

StatusOr<std::string> device_code(int ordinal) {
  ASSIGN_OR_RETURN(DeviceInfo info, device_info(ordinal));
  ASSIGN_OR_RETURN(std::string code,
                   code_for_device(info.cc_major, info.cc_minor, build_architectures(), "cuda:" + std::to_string(ordinal) + " (" + info.name + ")"));
  int binary = 0, ptx = 0;
  Status probe = detail::probe_kernel_image(ordinal, &binary, &ptx);
  if (!probe.ok() && probe.code() == StatusCode::kFailedPrecondition)
    return failed_precondition("cuda:" + std::to_string(ordinal) + " (" + info.name + ", " + sm(info.cc_major * 10 + info.cc_minor) +
                               "): the CUDA runtime has no kernel for it in this build (" +
                               build_architectures().describe() + "): " + probe.message());
  return code;
}

}  // namespace cuzk::gpu
