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
int cpud__state_ready = 0;
unsigned cpud__state_epoch = 0; /* bumped by every change (dispatch.hpp re-checks it) */
unsigned cpud__state_seq = 0;   /* odd while cpud__usable's words are being written */

/* The calling thread's allowed set and its usable set for one process set
 * (process_state.h: CPUD__TLS). */
CPUD__TLS int cpud__t_restricted = 0; /* t_allowed is not everything */
static CPUD__TLS cpud_mask t_allowed;
CPUD__TLS unsigned cpud__t_seen = 0; /* the epoch cpud__t_mask is for, plus 1; 0: none yet */
CPUD__TLS cpud_mask cpud__t_mask;

static void lock(void) {
  while (__atomic_exchange_n(&g_lock, 1, __ATOMIC_ACQUIRE))
    while (__atomic_load_n(&g_lock, __ATOMIC_RELAXED)) {
    }
}
static void unlock(void) { __atomic_store_n(&g_lock, 0, __ATOMIC_RELEASE); }

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
  __atomic_add_fetch(&cpud__state_seq, 1, __ATOMIC_SEQ_CST);
  for (int i = CPUD_MASK_WORDS - 1; i >= 0; --i) {
    /* Word 0 last: its licence bit is what the inline fast path reads first. */
    const uint64_t w = g_process.w[i] | (i == 0 && !g_restricted ? 1u : 0u);
    __atomic_store_n(&cpud__usable[i], w, __ATOMIC_SEQ_CST);
  }
  __atomic_add_fetch(&cpud__state_seq, 1, __ATOMIC_SEQ_CST);
  __atomic_add_fetch(&cpud__state_epoch, 1, __ATOMIC_SEQ_CST);
  for (const cpud_function *f = cpud_functions(); f; f = f->next) f->reset();
}

int cpud__publish_initial(cpud_mask detected, cpud_mask usable, int complete) {
  lock();
  const int first = !cpud__state_ready;
  if (first) {
    g_detected = detected;
    g_complete = complete;
    g_base = usable;
    publish_locked();
    __atomic_store_n(&cpud__state_ready, 1, __ATOMIC_RELEASE);
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

cpud_mask cpud__state_thread_mask(cpud_mask process, unsigned epoch) {
  const cpud_mask base = cpud_baseline_mask();
  cpud__t_mask = cpud_mask_or(cpud__close_over_implied(cpud_mask_and(process, cpud_mask_or(t_allowed, base))), base);
  cpud__t_seen = epoch + 1;
  return cpud__t_mask;
}

cpud_mask cpud__state_process(void) {
  lock();
  const cpud_mask p = g_process;
  unlock();
  return p;
}

unsigned cpud__epoch(void) { return __atomic_load_n(&cpud__state_epoch, __ATOMIC_SEQ_CST); }

void cpud__state_reselect(cpud_function *f) {
  cpud__register(f);
  lock();
  __atomic_add_fetch(&cpud__state_epoch, 1, __ATOMIC_SEQ_CST);
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

cpud_mask cpud_thread_allowed(void) { return cpud__t_restricted ? t_allowed : cpud_mask_all(); }

cpud_mask cpud__state_set_thread_allowed(cpud_mask allowed) {
  const cpud_mask every = cpud__every_feature();
  /* Bits of no feature restrict nothing. */
  const cpud_mask a = cpud_mask_or(allowed, cpud_mask_andnot(cpud_mask_all(), every));
  const cpud_mask prev = cpud_thread_allowed();
  const int was = cpud__t_restricted != 0, now = !cpud__mask_empty(cpud_mask_andnot(every, a));
  t_allowed = a;
  cpud__t_restricted = now;
  cpud__t_seen = 0;
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
