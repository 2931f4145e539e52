/* SPDX-License-Identifier: MIT */
/* The process's feature sets (process_state.h). Layer 4.
 *
 * What may run, in layers: the process's usable set (detected, then the
 * env masks or a test's cpud_set_usable_mask, minus what the program turned
 * off with cpud_set_disabled_features) and each thread's own restriction
 * (cpud_set_thread_allowed, the guards of dispatch.hpp). Every change makes
 * each registered dispatched function select again.
 *
 * Why bit 0 of cpud__usable: it is the inline fast path's licence. Set, the
 * set is the answer for every thread (no thread is restricted); clear, the
 * caller takes cpud__usable_slow(), which initialises or applies the
 * calling thread's restriction. So while no thread restricts itself, a
 * query is one load and a dispatched call one load and an indirect call,
 * as before guards existed; while some thread does, C++ dispatchers route
 * calls through a per-call selection (dispatch.hpp) and C macros query per
 * call anyway.
 *
 * Sets wider than one word: a reader that needs every word (a whole
 * cpud_mask) copies them under a sequence count, so it never mixes two
 * sets; cpud_have() reads one word, which is closed for its own bits. */
#include "process_state.h"

#include "feature_table.h"

/* 0 until start-up publishes: the fast path then takes the slow one. */
uint64_t cpud__usable[CPUD_MASK_WORDS] = {0}; /* initialised: never a common symbol */

/* Changes are rare (start-up, tests, a production switch): one spin lock
 * orders them; readers never take it. */
static int g_lock = 0;
static cpud_mask g_detected; /* closed: what the CPU (or an assumed one) has */
static int g_complete = 0;   /* g_detected covers every feature, not only start-up's */
static cpud_mask g_base;     /* closed: the env outcome, or cpud_set_usable_mask's set */
static cpud_mask g_disabled; /* cpud_set_disabled_features */
static cpud_mask g_process;  /* closed: g_base without the disabled features (and what implies them) */
static int g_restricted = 0; /* threads whose allowed set is not everything */
static int g_ready = 0;
static unsigned g_epoch = 0; /* bumped by every change (dispatch.hpp re-checks it) */
static unsigned g_seq = 0;   /* odd while cpud__usable's words are being written */

/* The calling thread's allowed set and its usable set for one process set.
 * initial-exec: no __tls_get_addr call (a dynamic-loader symbol, not
 * libc's) and a cheaper access on every guarded call; these few words fit
 * the static TLS glibc keeps for libraries loaded with dlopen. */
#define CPUD_TLS __thread __attribute__((tls_model("initial-exec")))
static CPUD_TLS int t_restricted = 0; /* t_allowed is not everything */
static CPUD_TLS cpud_mask t_allowed;
static CPUD_TLS unsigned t_seen = 0; /* the epoch t_mask is for, plus 1; 0: none yet */
static CPUD_TLS cpud_mask t_mask;

static void lock(void) {
  while (__atomic_exchange_n(&g_lock, 1, __ATOMIC_ACQUIRE))
    while (__atomic_load_n(&g_lock, __ATOMIC_RELAXED)) {
    }
}
static void unlock(void) { __atomic_store_n(&g_lock, 0, __ATOMIC_RELEASE); }

/* A consistent copy of cpud__usable's words (bit 0 included). */
static cpud_mask read_usable(void) {
  cpud_mask m;
  for (;;) {
    const unsigned s1 = __atomic_load_n(&g_seq, __ATOMIC_ACQUIRE);
    for (int i = 0; i < CPUD_MASK_WORDS; ++i) m.w[i] = __atomic_load_n(&cpud__usable[i], __ATOMIC_ACQUIRE);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (!(s1 & 1u) && __atomic_load_n(&g_seq, __ATOMIC_RELAXED) == s1) return m;
  }
}

/* Under the lock: publish the process set, bump the epoch, then make every
 * registered function select again on its next call. A function that is
 * selecting at this moment sees the new epoch and selects again too. */
static void publish_locked(void) {
  /* g_base is closed and the disabled set holds no baseline feature, so the
   * baseline features g_base has stay. Only the build's features are ever
   * usable, whatever else an ENABLE variable, cpud_set_usable_mask or an
   * assumed CPU brought in (cpud__startup_wanted() is closed over
   * implications). */
  g_process = cpud__close_over_implied(cpud_mask_and(cpud_mask_andnot(g_base, g_disabled), cpud__startup_wanted()));
  __atomic_add_fetch(&g_seq, 1, __ATOMIC_SEQ_CST);
  for (int i = CPUD_MASK_WORDS - 1; i >= 0; --i) {
    /* Word 0 last: its licence bit is what the inline fast path reads first. */
    const uint64_t w = g_process.w[i] | (i == 0 && !g_restricted ? 1u : 0u);
    __atomic_store_n(&cpud__usable[i], w, __ATOMIC_SEQ_CST);
  }
  __atomic_add_fetch(&g_seq, 1, __ATOMIC_SEQ_CST);
  __atomic_add_fetch(&g_epoch, 1, __ATOMIC_SEQ_CST);
  for (const cpud_function *f = cpud_functions(); f; f = f->next) f->reset();
}

int cpud__state_ready(void) { return __atomic_load_n(&g_ready, __ATOMIC_ACQUIRE); }

int cpud__publish_initial(cpud_mask detected, cpud_mask usable, int complete) {
  lock();
  const int first = !g_ready;
  if (first) {
    g_detected = detected;
    g_complete = complete;
    g_base = usable;
    publish_locked();
    __atomic_store_n(&g_ready, 1, __ATOMIC_RELEASE);
  }
  unlock();
  return first;
}

void cpud__replace_detected(cpud_mask detected, cpud_mask usable) {
  lock();
  g_detected = detected;
  g_complete = 1;
  g_base = cpud__close_over_implied(cpud_mask_or(cpud_mask_and(usable, detected), cpud_baseline_mask()));
  publish_locked();
  unlock();
}

cpud_mask cpud__state_detected(int *complete) {
  lock();
  const cpud_mask d = g_detected;
  if (complete) *complete = g_complete;
  unlock();
  return d;
}

cpud_mask cpud__state_complete_detected(cpud_mask all) {
  lock();
  if (!g_complete) g_detected = all, g_complete = 1;
  const cpud_mask d = g_detected;
  unlock();
  return d;
}

cpud_mask cpud__state_usable_for_thread(void) {
  /* The epoch before the set: a change in between only costs a recompute. */
  const unsigned epoch = __atomic_load_n(&g_epoch, __ATOMIC_SEQ_CST);
  cpud_mask m = read_usable();
  const int shared = (int)(m.w[0] & 1u);
  m.w[0] &= ~(uint64_t)1;
  if (shared || !t_restricted) return m;
  /* This thread's set for the current process set, computed once per change. */
  if (t_seen != epoch + 1) {
    const cpud_mask base = cpud_baseline_mask();
    t_mask = cpud_mask_or(cpud__close_over_implied(cpud_mask_and(m, cpud_mask_or(t_allowed, base))), base);
    t_seen = epoch + 1;
  }
  return t_mask;
}

cpud_mask cpud__state_process(void) {
  lock();
  const cpud_mask p = g_process;
  unlock();
  return p;
}

unsigned cpud__epoch(void) { return __atomic_load_n(&g_epoch, __ATOMIC_SEQ_CST); }

void cpud__state_reselect(cpud_function *f) {
  cpud__register(f);
  lock();
  __atomic_add_fetch(&g_epoch, 1, __ATOMIC_SEQ_CST);
  f->reset();
  unlock();
}

cpud_mask cpud__state_set_base(cpud_mask mask) {
  lock();
  const cpud_mask prev = g_base;
  /* Closed over implied features, like every usable set: a feature whose
   * implied features are masked off is off too, so the C macros (every
   * feature a target needs) and the C++ dispatcher (the target's own bit)
   * pick the same target. */
  g_base = cpud__close_over_implied(cpud_mask_or(cpud_mask_and(mask, g_detected), cpud_baseline_mask()));
  publish_locked();
  unlock();
  return prev;
}

cpud_mask cpud__state_disabled(void) {
  lock();
  const cpud_mask d = g_disabled;
  unlock();
  return d;
}

void cpud__state_set_disabled(cpud_mask features) {
  lock();
  g_disabled = features;
  publish_locked();
  unlock();
}

cpud_mask cpud_thread_allowed(void) { return t_restricted ? t_allowed : cpud_mask_all(); }

cpud_mask cpud__state_set_thread_allowed(cpud_mask allowed) {
  const cpud_mask every = cpud__every_feature();
  /* Bits of no feature restrict nothing. */
  const cpud_mask a = cpud_mask_or(allowed, cpud_mask_andnot(cpud_mask_all(), every));
  const cpud_mask prev = cpud_thread_allowed();
  const int was = t_restricted != 0, now = !cpud__mask_empty(cpud_mask_andnot(every, a));
  t_allowed = a;
  t_restricted = now;
  t_seen = 0;
  if (was != now) {
    lock();
    g_restricted += now ? 1 : -1;
    /* Only the first restricted thread and the last one to leave change
     * what every thread's calls go through. */
    if (g_restricted == (now ? 1 : 0)) publish_locked();
    unlock();
  }
  return prev;
}
