#include "mapping_guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace cuzk::internal {
namespace {

// A signal handler has no context but the process, so the guarded ranges
// are process-wide state; this is the one place base keeps any. The table is
// lock-free so that the handler can read it at any moment.
struct Slot {
  std::atomic<bool> used{false};
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};  // 0 while the slot is being filled or emptied
  std::atomic<bool> faulted{false};
};

constexpr int kSlots = 1024;
Slot g_slots[kSlots];
struct sigaction g_previous;  // written once, before the handler is installed
uintptr_t g_page_bytes = 4096;

void on_sigbus(int sig, siginfo_t* info, void* context) {
  const auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
  for (Slot& s : g_slots) {
    uintptr_t begin = s.begin.load(std::memory_order_acquire);
    uintptr_t end = s.end.load(std::memory_order_acquire);
    if (addr < begin || addr >= end) continue;
    // Every page from here to the end lies past the file's end too: one
    // anonymous zero mapping replaces them all (mmap is a plain system call
    // on Linux, safe in a handler).
    uintptr_t page = addr & ~(g_page_bytes - 1);
    void* p = ::mmap(reinterpret_cast<void*>(page), end - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
                     -1, 0);
    if (p != MAP_FAILED) {
      s.faulted.store(true, std::memory_order_release);
      return;  // the faulting read runs again and sees zeros
    }
    break;
  }
  // Not ours: hand the fault to whoever handled it before (by default the
  // process dies with SIGBUS, as it would have without us).
  if (g_previous.sa_flags & SA_SIGINFO) {
    if (g_previous.sa_sigaction) {
      g_previous.sa_sigaction(sig, info, context);
      return;
    }
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(sig);
    return;
  }
  ::signal(SIGBUS, SIG_DFL);  // the read faults again and the default action applies
}

void install_handler() {
  g_page_bytes = uintptr_t(::sysconf(_SC_PAGESIZE));
  struct sigaction sa = {};
  sa.sa_sigaction = on_sigbus;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGBUS, &sa, &g_previous);
}

}  // namespace

int guard_range(const void* begin, size_t bytes) {
  static std::once_flag installed;
  std::call_once(installed, install_handler);
  if (bytes == 0) return -1;
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (!g_slots[i].used.compare_exchange_strong(expected, true)) continue;
    Slot& s = g_slots[i];
    s.faulted.store(false);
    s.end.store(0, std::memory_order_release);
    s.begin.store(reinterpret_cast<uintptr_t>(begin), std::memory_order_release);
    s.end.store(reinterpret_cast<uintptr_t>(begin) + bytes, std::memory_order_release);
    return i;
  }
  return -1;
}

bool guarded_faulted(int slot) { return slot >= 0 && g_slots[slot].faulted.load(std::memory_order_acquire); }

void unguard(int slot) {
  if (slot < 0) return;
  Slot& s = g_slots[slot];
  s.end.store(0, std::memory_order_release);
  s.begin.store(0, std::memory_order_release);
  s.used.store(false, std::memory_order_release);
}

}  // namespace cuzk::internal
