// The DEVICE tier: keys attached to each GPU (with their circuits where
// they fit), idle ones leaving least recently used first, the view of them
// that readers take without waiting for an attach, and where a partition
// should go given what each device holds.
#include <algorithm>
#include <string>

#include "cuzk/base/log.h"
#include "engine_impl.h"

namespace cuzk::engine {

bool Device::holds(const std::string& circuit_id) {
  std::lock_guard<std::mutex> lock(view_mu);
  for (const KeyView& v : view)
    if (v.circuit_id == circuit_id) return true;
  return false;
}

std::shared_ptr<const groth16::AttachedKey> Device::attached(const std::string& circuit_id) {
  std::lock_guard<std::mutex> lock(view_mu);
  for (const KeyView& v : view)
    if (v.circuit_id == circuit_id) return v.key.lock();
  return nullptr;
}

void Device::publish_keys() {
  std::vector<KeyView> next;
  for (const auto& [id, e] : keys) next.push_back(KeyView{id, e.key, e.key->device_bytes(), e.key->placement(), e.last_used});
  std::lock_guard<std::mutex> lock(view_mu);
  view = std::move(next);
}

void Device::apply_pending_drops() {
  std::vector<std::string> drops;
  {
    std::lock_guard<std::mutex> lock(view_mu);
    drops.swap(pending_drops);
  }
  for (const std::string& id : drops) keys.erase(id);
  if (!drops.empty()) publish_keys();
}

// On a GPU the attached keys stay (the DEVICE tier): each holds its host key,
// and idle ones leave least recently used when a new key does not fit the
// device's memory or keys.device_budget. The CPU attaches per partition.
StatusOr<std::shared_ptr<const groth16::AttachedKey>> Engine::Impl::device_key(Device& device,
                                                                               const std::string& circuit_id,
                                                                               const KeyLease& lease) {
  if (!device.caps.keeps_keys) return device.backend->attach(lease->pk);
  std::lock_guard<std::mutex> lock(device.keys_mu);
  device.apply_pending_drops();
  auto it = device.keys.find(circuit_id);
  if (it != device.keys.end() && it->second.host.get() == lease.get()) {
    it->second.last_used = Clock::now();
    std::lock_guard<std::mutex> view_lock(device.view_mu);
    for (Device::KeyView& v : device.view)
      if (v.circuit_id == circuit_id) v.last_used = it->second.last_used;
    return it->second.key;
  }
  if (it != device.keys.end()) {
    device.keys.erase(it);  // the host key was reloaded since
    device.publish_keys();
  }
  auto drop_lru_idle = [&]() {
    auto victim = device.keys.end();
    for (auto k = device.keys.begin(); k != device.keys.end(); ++k)
      if (k->second.key.use_count() == 1 && (victim == device.keys.end() || k->second.last_used < victim->second.last_used))
        victim = k;
    if (victim == device.keys.end()) return false;
    CUZK_LOG(Info) << "circuit \"" << victim->first << "\" leaves " << device.name << " to make room";
    metrics_.set_gauge("cuzk_device_key_bytes", 0, "device=\"" + device.name + "\",circuit=\"" + victim->first + "\"");
    metrics_.add_counter("cuzk_key_evictions_total", 1, "reason=\"device\"");
    device.keys.erase(victim);
    device.publish_keys();
    return true;
  };
  auto held = [&]() {
    uint64_t sum = 0;
    for (const auto& [id, e] : device.keys) sum += e.key->device_bytes();
    return sum;
  };
  const uint64_t cap = config_.key_device_budget_bytes;
  if (cap != 0) {
    const uint64_t need = device.backend->resident_key_bytes(lease->pk);
    while (held() + need > cap && need <= cap && drop_lru_idle()) {
    }
  }
  for (;;) {
    groth16::AttachOptions options;
    if (cap != 0) options.max_device_bytes = cap > held() ? cap - held() : 0;
    if (config_.matvec_on_device) {
      options.circuit = &lease->prove_circuit;  // the entry below keeps the host circuit alive
      options.c_rule = lease->c_rule;
    }
    StatusOr<std::shared_ptr<const groth16::AttachedKey>> key = device.backend->attach(lease->pk, options);
    if (key.ok()) {
      CUZK_LOG(Info) << "circuit \"" << circuit_id << "\" on " << device.name << ": " << (*key)->placement();
      Device::AttachedEntry& e = device.keys[circuit_id];
      e.host = lease.share();
      e.key = *key;
      e.last_used = Clock::now();
      metrics_.set_gauge("cuzk_device_key_bytes", double((*key)->device_bytes()),
                         "device=\"" + device.name + "\",circuit=\"" + circuit_id + "\"");
      device.publish_keys();
      device.apply_pending_drops();  // a drop asked for during the attach (this key stays if it was not asked)
      return *key;
    }
    if (key.status().code() != StatusCode::kResourceExhausted || !drop_lru_idle()) return key.status();
  }
}

int Engine::Impl::affinity(const Device& device, const std::string& circuit_id) {
  if (!device.caps.keeps_keys || devices_.size() == 1) return 1;
  if (const_cast<Device&>(device).holds(circuit_id)) return 2;
  for (const auto& other : devices_)
    if (other.get() != &device && other->idle_workers.load() > 0 && other->holds(circuit_id)) return 0;
  return 1;
}

Status Engine::Impl::place_on_devices(const std::string& circuit_id) {
  for (auto& d : devices_) {
    if (!d->caps.keeps_keys) continue;
    ASSIGN_OR_RETURN(KeyLease lease, keys_->acquire(circuit_id, [] { return false; }));
    StatusOr<std::shared_ptr<const groth16::AttachedKey>> key = device_key(*d, circuit_id, lease);
    if (!key.ok() && key.status().code() != StatusCode::kResourceExhausted) return key.status();
    if (!key.ok()) {
      CUZK_LOG(Warn) << "circuit \"" << circuit_id << "\" does not fit " << d->name << ": " << key.status().message();
    }
  }
  return ok_status();
}

// Called with the key manager's lock held: a device busy attaching another
// key drops this one when the attach ends (it disappears from the view now).
void Engine::Impl::drop_from_devices(const std::string& circuit_id) {
  for (auto& d : devices_) {
    std::unique_lock<std::mutex> lock(d->keys_mu, std::try_to_lock);
    if (lock.owns_lock()) {
      if (d->keys.erase(circuit_id) > 0) d->publish_keys();
    } else {
      std::lock_guard<std::mutex> view_lock(d->view_mu);
      d->pending_drops.push_back(circuit_id);
      std::erase_if(d->view, [&](const Device::KeyView& v) { return v.circuit_id == circuit_id; });
    }
    metrics_.set_gauge("cuzk_device_key_bytes", 0, "device=\"" + d->name + "\",circuit=\"" + circuit_id + "\"");
  }
}

}  // namespace cuzk::engine
