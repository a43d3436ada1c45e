// The old daemon's keys: what each became in cuzk (curio_keys.h).
#include "curio_keys.h"

#include <cctype>
#include <cstdint>

namespace cuzk::server {
namespace {

enum class Fate {
  kTaken,    // applied, with a warning naming the new key
  kIgnored,  // the old daemon ignored it too (deprecated there): a warning
  kRefused,  // no key of the same meaning: an error saying what cuzk does
};

struct OldKey {
  const char* section;
  const char* key;
  Fate fate;
  // kTaken: the new key; otherwise what cuzk does instead.
  const char* instead;
};

constexpr OldKey kOldKeys[] = {
    {"daemon", "listen", Fate::kTaken, "server.listen"},
    {"daemon", "status_listen", Fate::kTaken, "server.status_listen"},
    {"gpus", "devices", Fate::kTaken, "pipeline.devices"},
    {"gpus", "gpu_workers_per_device", Fate::kTaken, "pipeline.workers_per_device"},
    {"pipeline", "synthesis_concurrency", Fate::kTaken, "pipeline.preparation_workers"},
    {"logging", "level", Fate::kTaken, "server.log_level"},
    {"memory", "eviction_min_idle", Fate::kTaken, "keys.eviction_min_idle_ms"},
    {"memory", "pinned_budget", Fate::kIgnored, "memory.total_budget covers pinned memory too"},
    {"memory", "working_memory_budget", Fate::kIgnored, "memory.total_budget covers working memory too"},
    {"synthesis", "partition_workers", Fate::kIgnored, "concurrency follows memory.total_budget"},
    {"srs", "preload", Fate::kIgnored, "keys load on first use; `cuzk preload ID` loads one ahead"},
    {"srs", "param_cache", Fate::kRefused,
     "cuzk names each parameter file in a [[circuits]] entry: filecoin = \"porep\", sector_size = \"32GiB\", "
     "params = \"<param_cache>/v28-...params\" (docs/filecoin.md, \"Registering the circuits\")"},
    {"gpus", "gpu_threads", Fate::kRefused,
     "use pipeline.prover_threads (the CPU threads of the prover; cuzk has no separate pool for a GPU's host work)"},
    {"synthesis", "threads", Fate::kRefused,
     "use pipeline.prover_threads (synthesis and proving share the prover's threads) and "
     "pipeline.preparation_workers (partitions prepared at once)"},
    {"pipeline", "enabled", Fate::kRefused, "cuzk always overlaps preparation and proving; remove it"},
    {"pipeline", "synthesis_lookahead", Fate::kRefused,
     "partitions are admitted as memory.total_budget allows; remove it"},
    {"pipeline", "slot_size", Fate::kRefused, "partitions are admitted as memory.total_budget allows; remove it"},
    {"pipeline", "max_gpu_queue_depth", Fate::kRefused,
     "partitions are admitted as memory.total_budget allows; remove it"},
    {"scheduler", "sort_by_type", Fate::kRefused,
     "queues are ordered by priority, then arrival; partitions prefer the device holding their key; remove it"},
    {"logging", "format", Fate::kRefused, "cuzk logs plain lines to stderr (the journal under systemd); remove it"},
};

constexpr const char* kOldSections[] = {"daemon", "gpus", "srs", "synthesis", "logging"};

const OldKey* find_old_key(const std::string& section, const std::string& key) {
  for (const OldKey& k : kOldKeys)
    if (section == k.section && key == k.key) return &k;
  return nullptr;
}

std::string name_of(const OldKey& k) { return std::string(k.section) + "." + k.key; }

// "5m", "300s" or a number of seconds, as the old daemon read them.
bool parse_duration_ms(const toml::node& v, uint64_t* ms) {
  if (v.is_integer()) {
    if (*v.value<int64_t>() < 0) return false;
    *ms = uint64_t(*v.value<int64_t>()) * 1000;
    return true;
  }
  if (!v.is_string()) return false;
  std::string s = *v.value<std::string>();
  uint64_t unit = 1000;
  if (!s.empty() && (s.back() == 'm' || s.back() == 's')) {
    unit = s.back() == 'm' ? 60'000 : 1000;
    s.pop_back();
  }
  if (s.empty() || s.size() > 9) return false;
  for (char ch : s)
    if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
  *ms = std::stoull(s) * unit;
  return true;
}

// Applies one taken key; false when its value is not what the old daemon
// accepted.
bool take(const OldKey& k, const toml::node& v, ServerConfig& c) {
  const std::string name = name_of(k);
  if (name == "daemon.listen" || name == "daemon.status_listen" || name == "logging.level") {
    if (!v.is_string()) return false;
    std::string s = *v.value<std::string>();
    if (name == "daemon.listen") c.listen = s;
    else if (name == "logging.level") c.log_level = s;
    else c.status_listen = s;  // "" was "off" there too
    return true;
  }
  if (name == "gpus.devices") {
    const toml::array* a = v.as_array();
    if (!a) return false;
    std::vector<std::string> devices;
    for (const toml::node& d : *a) {
      if (!d.is_integer() || *d.value<int64_t>() < 0) return false;
      devices.push_back("cuda:" + std::to_string(*d.value<int64_t>()));
    }
    if (!devices.empty()) c.engine.devices = devices;  // [] was "every GPU": the default
    return true;
  }
  if (name == "memory.eviction_min_idle") return parse_duration_ms(v, &c.engine.eviction_min_idle_ms);
  if (!v.is_integer() || *v.value<int64_t>() < 1 || *v.value<int64_t>() > 64) return false;
  const auto n = uint32_t(*v.value<int64_t>());
  if (name == "gpus.gpu_workers_per_device") c.engine.workers_per_device = n;
  else c.engine.preparation_workers = n;
  return true;
}

bool has_key(const toml::table& root, const std::string& dotted) {
  const size_t dot = dotted.find('.');
  const toml::table* t = root[dotted.substr(0, dot)].as_table();
  return t && t->get(dotted.substr(dot + 1)) != nullptr;
}

}  // namespace

bool is_curio_section(const std::string& section) {
  for (const char* s : kOldSections)
    if (section == s) return true;
  return false;
}

bool is_curio_key(const std::string& section, const std::string& key) {
  return find_old_key(section, key) != nullptr;
}

void apply_curio_keys(const toml::table& root, ServerConfig& c, std::vector<std::string>* warnings,
                      std::vector<std::string>* errors) {
  for (const OldKey& k : kOldKeys) {
    const toml::table* t = root[k.section].as_table();
    const toml::node* v = t ? t->get(k.key) : nullptr;
    if (!v) continue;
    const std::string name = name_of(k);
    const std::string old = name + " is a key of Curio's earlier cuzk daemon";
    switch (k.fate) {
      case Fate::kTaken:
        if (has_key(root, k.instead)) {
          warnings->push_back(old + "; ignored: " + k.instead + " is set");
        } else if (!take(k, *v, c)) {
          errors->push_back(old + ", and its value is not one it took; in cuzk it is " + k.instead);
        } else {
          warnings->push_back(old + "; taken as " + k.instead + " (rename it)");
        }
        break;
      case Fate::kIgnored:
        warnings->push_back(old + "; ignored: " + k.instead);
        break;
      case Fate::kRefused:
        errors->push_back(old + ": " + k.instead);
        break;
    }
  }
}

}  // namespace cuzk::server
