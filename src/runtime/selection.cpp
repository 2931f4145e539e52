// What may run, in layers: the process's usable mask (detected, then the
// env masks or a test's cpud_set_usable_mask, minus what the program turned
// off with cpud_set_disabled_features) and each thread's own restriction
// (cpud_set_thread_allowed, the guards of dispatch.hpp). Every change makes
// each registered dispatched function select again.
//
// Why bit 0 of cpud__usable: it is the inline fast path's licence. Set, the
// mask is the answer for every thread (no thread is restricted); clear, the
// caller takes cpud__usable_slow(), which initialises or applies the calling
// thread's restriction. So while no thread restricts itself, a query is one
// load and a dispatched call one load and an indirect call, as before
// guards existed; while some thread does, C++ dispatchers route calls through
// a per-call selection (dispatch.hpp) and C macros query per call anyway.
#include "detect.h"

namespace cpud::internal {
namespace {

// Changes are rare (start-up, tests, a production switch): one spin lock
// orders them; readers never take it.
int g_lock = 0;
std::uint64_t g_base = 0;      // closed: the env outcome, or cpud_set_usable_mask's mask
std::uint64_t g_disabled = 0;  // cpud_set_disabled_features
std::uint64_t g_process = 0;   // closed: g_base without the disabled features (and what implies them)
int g_restricted = 0;          // threads whose allowed set is not everything
int g_ready = 0;
unsigned g_epoch = 0;          // bumped by every change (dispatch.hpp re-checks it)

// The calling thread's allowed set and its usable mask for one process mask.
// initial-exec: no __tls_get_addr call (a dynamic-loader symbol, not libc's)
// and a cheaper access on every guarded call; 24 bytes fit the static TLS
// glibc keeps for libraries loaded with dlopen.
#define CPUD_TLS __thread __attribute__((tls_model("initial-exec")))
CPUD_TLS std::uint64_t t_allowed = ~std::uint64_t{0};
CPUD_TLS std::uint64_t t_seen = 0;  // the process mask t_mask is for; 0: none yet
CPUD_TLS std::uint64_t t_mask = 0;

std::uint64_t all_features() {
  return CPUD_FEATURE_COUNT >= 63 ? ~std::uint64_t{1} : ((std::uint64_t{1} << (CPUD_FEATURE_COUNT + 1)) - 2);
}

void lock() {
  while (__atomic_exchange_n(&g_lock, 1, __ATOMIC_ACQUIRE))
    while (__atomic_load_n(&g_lock, __ATOMIC_RELAXED)) {
    }
}
void unlock() { __atomic_store_n(&g_lock, 0, __ATOMIC_RELEASE); }

// Under the lock: publish the process mask, bump the epoch, then make every
// registered function select again on its next call. A function that is
// selecting at this moment sees the new epoch and selects again too.
void publish_locked() {
  // g_base is closed and the disabled set holds no baseline feature, so the
  // baseline features g_base has stay.
  const std::uint64_t process = close_over_implied(g_base & ~g_disabled);
  __atomic_store_n(&g_process, process, __ATOMIC_SEQ_CST);
  __atomic_store_n(&cpud__usable, process | (g_restricted ? 0u : 1u), __ATOMIC_SEQ_CST);
  __atomic_add_fetch(&g_epoch, 1, __ATOMIC_SEQ_CST);
  for (const cpud_function *f = cpud_functions(); f; f = f->next) f->reset();
}

}  // namespace

// features.cpp, once the env masks are read: the first caller publishes,
// later ones (racing initialisers) change nothing. True for the first.
bool publish_initial(std::uint64_t usable) {
  lock();
  const bool first = !g_ready;
  if (first) {
    g_base = usable;
    publish_locked();
    __atomic_store_n(&g_ready, 1, __ATOMIC_RELEASE);
  }
  unlock();
  return first;
}

}  // namespace cpud::internal

using namespace cpud::internal;

extern "C" {

uint64_t cpud__usable_slow(void) {
  if (!__atomic_load_n(&g_ready, __ATOMIC_ACQUIRE)) cpud__init();
  const std::uint64_t m = __atomic_load_n(&cpud__usable, __ATOMIC_ACQUIRE);
  if (m & 1u) return m;
  const std::uint64_t process = m | 1u;
  if (t_allowed == ~std::uint64_t{0}) return process;
  if (t_seen != process) {
    t_mask = close_over_implied(process & (t_allowed | cpud_baseline_mask())) | cpud_baseline_mask() | 1u;
    t_seen = process;
  }
  return t_mask;
}

uint64_t cpud__process_mask(void) {
  (void)cpud_usable_mask();
  return __atomic_load_n(&g_process, __ATOMIC_SEQ_CST) | 1u;
}

unsigned cpud__epoch(void) { return __atomic_load_n(&g_epoch, __ATOMIC_SEQ_CST); }

void cpud__reselect(cpud_function *f) {
  (void)cpud_usable_mask();
  cpud__register(f);
  lock();
  __atomic_add_fetch(&g_epoch, 1, __ATOMIC_SEQ_CST);
  f->reset();
  unlock();
}

uint64_t cpud_set_usable_mask(uint64_t mask) {
  (void)cpud_usable_mask();
  lock();
  const std::uint64_t prev = g_base | 1u;
  // Closed over implied features, like every usable mask: a feature whose
  // implied features are masked off is off too, so the C macros (every
  // feature a target needs) and the C++ dispatcher (the target's own bit)
  // pick the same target.
  g_base = close_over_implied((mask & cpud_detected_mask()) | cpud_baseline_mask());
  publish_locked();
  unlock();
  return prev;
}

uint64_t cpud_disabled_features(void) {
  (void)cpud_usable_mask();
  return __atomic_load_n(&g_disabled, __ATOMIC_SEQ_CST);
}

int cpud_set_disabled_features(uint64_t features) {
  (void)cpud_usable_mask();
  features &= all_features();
  if (features & cpud_baseline_mask()) return -1;
  lock();
  __atomic_store_n(&g_disabled, features, __ATOMIC_SEQ_CST);
  publish_locked();
  unlock();
  return 0;
}

uint64_t cpud_thread_allowed(void) { return t_allowed; }

uint64_t cpud_set_thread_allowed(uint64_t allowed) {
  (void)cpud_usable_mask();
  allowed |= ~all_features();  // bits of no feature restrict nothing
  const std::uint64_t prev = t_allowed;
  const bool was = prev != ~std::uint64_t{0}, now = allowed != ~std::uint64_t{0};
  t_allowed = allowed;
  t_seen = 0;
  if (was != now) {
    lock();
    g_restricted += now ? 1 : -1;
    // Only the first restricted thread and the last one to leave change
    // what every thread's calls go through.
    if (g_restricted == (now ? 1 : 0)) publish_locked();
    unlock();
  }
  return prev;
}

uint64_t cpud_close_over_implied(uint64_t mask) { return close_over_implied(mask & all_features()); }

uint64_t cpud_with_implied(uint64_t mask) {
  std::uint64_t out = 0;
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    if ((mask >> id) & 1u) out |= (std::uint64_t{1} << id) | implied_mask(id);
  return out;
}

}  // extern "C"
