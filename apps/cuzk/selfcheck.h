// A fast arithmetic self-test: known constants from independent
// implementations plus algebraic identities on fresh random values.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace cuzk::app {

struct SelfCheck {
  std::string name;
  // Returns an empty string on success, else what went wrong.
  std::function<std::string()> run;
};

std::vector<SelfCheck> selfchecks();

}  // namespace cuzk::app
