#include "pinned_pool.h"

#include <memory>
#include <utility>

#include "cuzk/base/log.h"

namespace cuzk::engine {

StatusOr<groth16::HostBuffer> PinnedPool::take(uint64_t n, groth16::Backend& alloc, Reservation* charge) {
  groth16::HostBuffer idle = claim(n);
  if (idle.data() != nullptr) {
    // The idle buffer's charge stands for this share of the taker's.
    charge->release(n * sizeof(ff::Fr));
    return idle;
  }
  ASSIGN_OR_RETURN(groth16::HostBuffer b, alloc.allocate_inputs(n));
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++allocations_;
  }
  return lend(std::move(b), charge->split(n * sizeof(ff::Fr)));
}

groth16::HostBuffer PinnedPool::claim(uint64_t n) {
  Idle found;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = idle_.begin(); it != idle_.end(); ++it)
      if (it->buffer.size() == n) {
        found = std::move(*it);
        idle_.erase(it);
        break;
      }
  }
  if (found.buffer.data() == nullptr) return {};
  return lend(std::move(found.buffer), std::move(found.charge));
}

groth16::HostBuffer PinnedPool::lend(groth16::HostBuffer b, Reservation charge) {
  ff::Fr* p = b.data();
  const size_t size = b.size();
  const bool pinned = b.pinned();
  auto held = std::make_shared<std::pair<groth16::HostBuffer, Reservation>>(std::move(b), std::move(charge));
  return groth16::HostBuffer(p, size, pinned,
                             [this, held](ff::Fr*) { give_back(std::move(held->first), std::move(held->second)); });
}

void PinnedPool::give_back(groth16::HostBuffer b, Reservation charge) {
  std::lock_guard<std::mutex> lock(mu_);
  if (idle_.size() < max_idle_) {
    idle_.push_back(Idle{std::move(b), std::move(charge)});
    return;
  }
  ++frees_;  // both go when this returns: the buffer is freed, its bytes return to the budget
}

uint64_t PinnedPool::reclaim(uint64_t bytes) {
  std::vector<Idle> freed;
  uint64_t n = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    size_t k = 0;
    while (k < idle_.size() && n < bytes) n += idle_[k++].charge.bytes();
    freed.assign(std::make_move_iterator(idle_.begin()), std::make_move_iterator(idle_.begin() + long(k)));
    idle_.erase(idle_.begin(), idle_.begin() + long(k));
    frees_ += k;
  }
  for (Idle& i : freed) {  // the buffer first, then its charge
    i.buffer = groth16::HostBuffer();
    i.charge.release_all();
  }
  if (n != 0) {
    CUZK_LOG(Info) << "freed " << freed.size() << " idle pinned buffers (" << n << " bytes): memory was short";
  }
  return n;
}

uint64_t PinnedPool::idle_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t n = 0;
  for (const Idle& i : idle_) n += i.charge.bytes();
  return n;
}

uint64_t PinnedPool::allocations() const {
  std::lock_guard<std::mutex> lock(mu_);
  return allocations_;
}

uint64_t PinnedPool::frees() const {
  std::lock_guard<std::mutex> lock(mu_);
  return frees_;
}

}  // namespace cuzk::engine
