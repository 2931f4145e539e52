// Feature names, implied, added and removal masks, and the usable mask every
// dispatch reads.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cpudispatch/compiled.h"
#include "detect.h"
#include "env_masks.h"

// The process's usable mask with bit 0 as the fast path's licence
// (selection.cpp); 0 until the first query initialises it.
uint64_t cpud__usable[CPUD_MASK_WORDS] = {};

// The one symbol of the runtime that is not hidden, on purpose: an executable
// and each shared library link their own (hidden) runtime, and each reads the
// environment; through this table, which the dynamic linker makes one for
// the whole process, the first copy to print a block of env warnings records
// it, and the others do not print it again. Copies with other env prefixes
// print their own. Versioned in its name, so a later layout cannot clash.
// On Windows a DLL's data is its own (PE has no interposition), so the
// table lives in a named shared-memory section of this process instead
// (Local\cpudispatch-env-warnings-v1-PID): every copy maps the same one.
#if defined(_WIN32)
#include <windows.h>
#else
extern "C" {
__attribute__((visibility("default"))) uint64_t cpudispatch_env_warnings_printed_v1[16] = {};
}
#endif

namespace cpud::internal {
namespace {

const char *const k_names[] = {
    nullptr,
#define CPUD__NAME(NAME, ...) #NAME,
    CPUD_FEATURES(CPUD__NAME)
#undef CPUD__NAME
};

// Per feature id, built at compile time from pairs X(NAME, F): what it
// implies (transitively), what a group adds to its base (DISABLE of a
// group disables those too; none for a feature), and all that DISABLE of
// it turns off (the configure's own set for "-NAME", so the two agree).
struct pair_tables {
  feature_set implied[CPUD_FEATURE_COUNT + 1];
  feature_set adds[CPUD_FEATURE_COUNT + 1];
  feature_set removes[CPUD_FEATURE_COUNT + 1];
};
constexpr pair_tables make_pair_tables() {
  pair_tables t{};
#define CPUD__IMPL(NAME, F) t.implied[CPUD_FEATURE_##NAME] |= feature_set(CPUD_FEATURE_##F);
#define CPUD__ADDS(NAME, F) t.adds[CPUD_FEATURE_##NAME] |= feature_set(CPUD_FEATURE_##F);
#define CPUD__REMOVES(NAME, F) t.removes[CPUD_FEATURE_##NAME] |= feature_set(CPUD_FEATURE_##F);
  CPUD_FEATURE_IMPLIES(CPUD__IMPL)
  CPUD_GROUP_ADDS(CPUD__ADDS)
  CPUD_FEATURE_REMOVES(CPUD__REMOVES)
#undef CPUD__IMPL
#undef CPUD__ADDS
#undef CPUD__REMOVES
  return t;
}
constexpr pair_tables k_pairs = make_pair_tables();

struct alias_row {
  int id;
  const char *spelling;
};
const alias_row k_aliases[] = {
#define CPUD__ALIAS(NAME, SPELLING) {CPUD_FEATURE_##NAME, SPELLING},
    CPUD_FEATURE_ALIASES(CPUD__ALIAS)
#undef CPUD__ALIAS
    {0, nullptr}};

// FNV-1a of a warning block; never 0 (0 marks a free slot).
std::uint64_t block_hash(const char *s) {
  std::uint64_t h = 1469598103934665603u;
  for (; *s; ++s) h = (h ^ static_cast<unsigned char>(*s)) * 1099511628211u;
  return h ? h : 1;
}

// The process-wide table of printed warnings (16 slots), or null.
std::uint64_t *printed_table() {
#if defined(_WIN32)
  char name[64];
  std::snprintf(name, sizeof name, "Local\\cpudispatch-env-warnings-v1-%lu",
                static_cast<unsigned long>(GetCurrentProcessId()));
  // Zero-filled when created; the handle stays open for the process's life.
  HANDLE h = CreateFileMappingA(INVALID_HANDLE_VALUE, nullptr, PAGE_READWRITE, 0, 16 * sizeof(std::uint64_t), name);
  if (!h) return nullptr;
  return static_cast<std::uint64_t *>(MapViewOfFile(h, FILE_MAP_ALL_ACCESS, 0, 0, 16 * sizeof(std::uint64_t)));
#else
  return cpudispatch_env_warnings_printed_v1;
#endif
}

// True for the first copy of the runtime in the process to claim `h`.
bool first_to_print(std::uint64_t h) {
  std::uint64_t *table = printed_table();
  for (int i = 0; table && i < 16; ++i) {
    std::uint64_t seen = 0;
    if (__atomic_compare_exchange_n(&table[i], &seen, h, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return true;
    if (seen == h) return false;
  }
  return true;  // table full or unavailable: print rather than lose a warning
}

bool same_name(const char *a, const char *b) {
  for (; *a && *b; ++a, ++b) {
    char x = *a, y = *b;
    if (x >= 'a' && x <= 'z') x = static_cast<char>(x - 'a' + 'A');
    if (y >= 'a' && y <= 'z') y = static_cast<char>(y - 'a' + 'A');
    if (x != y) return false;
  }
  return *a == *b;
}

}  // namespace

cpud_mask implied_mask(int id) { return id > 0 && id <= CPUD_FEATURE_COUNT ? k_pairs.implied[id] : feature_set(); }
cpud_mask adds_mask(int id) { return id > 0 && id <= CPUD_FEATURE_COUNT ? k_pairs.adds[id] : feature_set(); }
cpud_mask removes_mask(int id) { return id > 0 && id <= CPUD_FEATURE_COUNT ? k_pairs.removes[id] : feature_set(); }

// A feature is usable when its own bit is set and so is every bit it implies.
cpud_mask close_over_implied(const cpud_mask &raw) {
  feature_set out;
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) {
    const feature_set need = implied_mask(id) | feature_set(id);
    if ((raw & need) == need) out |= feature_set(id);
  }
  return out;
}

cpud_mask every_feature() {
  feature_set m;
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) m |= feature_set(id);
  return m;
}

cpud_mask startup_wanted() {
  feature_set m = dispatched_mask();
#define CPUD__B(NAME) m |= CPUD_BIT(NAME) | implied_mask(CPUD_FEATURE_##NAME);
  CPUD_WITH_BASELINE(CPUD__B)
#undef CPUD__B
  return m;
}

// Every dispatch target of the build and what it implies.
cpud_mask dispatched_mask() {
  feature_set m;
#define CPUD__D(NAME) m |= CPUD_BIT(NAME) | implied_mask(CPUD_FEATURE_##NAME);
  CPUD_WITH_DISPATCH(CPUD__D)
#undef CPUD__D
  return m;
}

}  // namespace cpud::internal

#if defined(__ELF__) && defined(__has_include)
#if __has_include(<link.h>)
#define CPUD__HAVE_NOTES 1
#include <link.h>
#endif
#endif

namespace cpud::internal {
#if CPUD__HAVE_NOTES
namespace {
// The records every generated dispatch header leaves (include/cpudispatch/
// compiled.h) are ELF notes: walk the PT_NOTE segments of the program or
// shared library that holds this copy of the runtime (the object one of
// whose loaded segments holds this function), and of no other.
struct note_walk {
  std::uintptr_t self;
  int found;
  feature_set members, implied;
};

void read_notes(const unsigned char *p, const unsigned char *end, std::size_t align, note_walk *w) {
  const auto up = [align](std::size_t n) { return (n + align - 1) & ~(align - 1); };
  while (p + 12 <= end) {
    std::uint32_t h[3];
    std::memcpy(h, p, sizeof h);
    const unsigned char *name = p + 12, *desc = name + up(h[0]);
    if (desc + h[1] > end) return;
    if (h[0] == 5 && h[2] == CPUD__NOTE_TYPE && std::memcmp(name, "cpud", 5) == 0 &&
        h[1] == sizeof(std::uint32_t) * CPUD__NOTE_WORDS) {
      std::uint32_t words[CPUD__NOTE_WORDS];
      std::memcpy(words, desc, sizeof words);
      cpud_mask m{};
      for (int i = 0; i < CPUD_MASK_WORDS; ++i)
        m.w[i] = words[2 * i] | static_cast<std::uint64_t>(words[2 * i + 1]) << 32;
      const feature_set f = feature_set(m) & every_feature();
      for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
        if (f.has(id)) w->implied |= implied_mask(id);
      w->members |= f;
      w->found = 1;
    }
    p = desc + up(h[1]);
  }
}

int on_object(struct dl_phdr_info *info, std::size_t, void *arg) {
  auto *w = static_cast<note_walk *>(arg);
  bool mine = false;
  for (int i = 0; i < info->dlpi_phnum && !mine; ++i) {
    const auto &ph = info->dlpi_phdr[i];
    const std::uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
    mine = ph.p_type == PT_LOAD && w->self >= lo && w->self < lo + ph.p_memsz;
  }
  if (!mine) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const auto *p = reinterpret_cast<const unsigned char *>(info->dlpi_addr + ph.p_vaddr);
    read_notes(p, p + ph.p_memsz, ph.p_align == 8 ? 8 : 4, w);
  }
  return 1;  // this object's: stop
}
}  // namespace
#endif

void compiled_targets(int *known, cpud_mask *targets, cpud_mask *dispatched) {
#if CPUD__HAVE_NOTES
  note_walk w{};
  w.self = reinterpret_cast<std::uintptr_t>(&on_object);
  dl_iterate_phdr(&on_object, &w);
  if (!w.found) return;  // no dispatch source: the build's set stays
  *known = 1;
  *targets = w.members;
  *dispatched = w.members | w.implied;
#else
  (void)known, (void)targets, (void)dispatched;
#endif
}
}  // namespace cpud::internal

extern "C" {

namespace {

// Host mode (startup-check=false: a Python extension, a plugin): a bad
// variable never ends the process. Its message is kept for
// cpud_host_init(), which the host calls first to raise its own error; if
// something initialises the runtime before it, the message is printed
// instead. Either way only the baseline builds run (docs/runtime.md).
char g_env_error[sizeof(cpud::internal::env_outcome{}.error)];
int g_env_failed = 0;     // set once a bad variable was seen
int g_host_claimed = 0;   // cpud_host_init() reports the errors itself

// The env masks applied to a detected set: exits on a bad variable, as the
// start-up check documents (host mode: see above); the warnings, if any, in
// o.warning.
cpud::internal::env_outcome apply_env(const cpud::feature_set &detected) {
  using namespace cpud::internal;
  env_inputs in{};
  in.disable = std::getenv(CPUD_ENV_PREFIX "_DISABLE_CPU_FEATURES");
  in.enable = std::getenv(CPUD_ENV_PREFIX "_ENABLE_CPU_FEATURES");
  in.usable = detected;
  in.baseline = cpud_baseline_mask();
  in.dispatched = dispatched_mask();
  in.targets = cpud::feature_set()
#define CPUD__T(NAME) | CPUD_BIT(NAME)
      CPUD_WITH_DISPATCH(CPUD__T)
#undef CPUD__T
      ;
  // Only a variable's warnings need the records: no walk otherwise.
  if (names_something(in.disable) || names_something(in.enable))
    compiled_targets(&in.compiled, &in.targets, &in.dispatched);
  env_outcome o = apply_env_masks(in);
  if (!o.ok) {
#if CPUD_STARTUP_CHECK
    std::fprintf(stderr, "cpudispatch: %s\n", o.error);
    std::fflush(stderr);
    std::exit(CPUD_EXIT_ENV);
#else
    int expected = 0;
    if (__atomic_compare_exchange_n(&g_env_failed, &expected, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      std::snprintf(g_env_error, sizeof g_env_error, "%s", o.error);
      __atomic_store_n(&g_env_failed, 2, __ATOMIC_RELEASE);  // the message is complete
      if (!__atomic_load_n(&g_host_claimed, __ATOMIC_ACQUIRE)) {
        std::fprintf(stderr, "cpudispatch: %s; only the baseline builds run\n", o.error);
        std::fflush(stderr);
      }
    }
    o.usable = detected & in.baseline;
    o.warning[0] = 0;
#endif
  }
  return o;
}

void print_warnings(const char *w) {
  while (*w) {
    const char *nl = std::strchr(w, '\n');
    int n = nl ? static_cast<int>(nl - w) : static_cast<int>(std::strlen(w));
    std::fprintf(stderr, "cpudispatch: warning: %.*s\n", n, w);
    w += n + (nl ? 1 : 0);
  }
}

int g_vector_bytes = -1;  // an assumed CPU's; -1: ask this one

}  // namespace

cpud_mask cpud__init(void) {
  using namespace cpud::internal;
  // Only what this build can use: its baseline and dispatch targets. An
  // ENABLE variable may name any feature the CPU has, so with one set every
  // row is read, and "cannot enable X" is never said of a CPU that has X.
  const bool every = names_something(std::getenv(CPUD_ENV_PREFIX "_ENABLE_CPU_FEATURES")) != nullptr;
  const feature_set detected = close_over_implied(detect_raw(every ? every_feature() : startup_wanted()));
  env_outcome o = apply_env(detected);
  // Racing initialisers compute the same value; the first to publish it
  // (selection.cpp) prints the warnings.
  if (!publish_initial(detected, o.usable, every)) return cpud_usable_mask();
  if (o.warning[0] && !first_to_print(block_hash(o.warning))) return cpud_usable_mask();
  print_warnings(o.warning);
  return cpud_usable_mask();
}

int cpud_host_init(char *msg, size_t cap) {
  using namespace cpud::internal;
  __atomic_store_n(&g_host_claimed, 1, __ATOMIC_RELEASE);
  if (msg && cap) msg[0] = 0;
  (void)cpud_usable_mask();  // detection and the variables, once
  // A racing initialiser may still be writing the message: it is done at 2.
  int failed;
  while ((failed = __atomic_load_n(&g_env_failed, __ATOMIC_ACQUIRE)) == 1) {
  }
  if (failed) {
    if (msg && cap) std::snprintf(msg, cap, "cpudispatch: %s", g_env_error);
    return CPUD_EXIT_ENV;
  }
  const char *skip = std::getenv(CPUD_ENV_PREFIX "_SKIP_CPU_BASELINE_CHECK");
  if (skip && skip[0] && std::strcmp(skip, "0") != 0) return 0;
  char base[1536];
  if (cpud_check_baseline(base, sizeof base)) {
    if (msg && cap) std::snprintf(msg, cap, "cpudispatch: %s", base);
    return CPUD_EXIT_BASELINE;
  }
  return 0;
}

cpud_mask cpud_detect_cpu(const cpud_cpu_report *cpu) {
  using namespace cpud::internal;
  return cpu ? close_over_implied(detect_raw_from(*cpu, every_feature())) : cpud::feature_set();
}

void cpud_assume_cpu(const cpud_cpu_report *cpu) {
  using namespace cpud::internal;
  (void)cpud_usable_mask();
  const feature_set detected = cpud_detect_cpu(cpu);
  env_outcome o = apply_env(detected);
  __atomic_store_n(&g_vector_bytes, cpu ? cpu->vector_bytes : 0, __ATOMIC_RELAXED);
  replace_detected(detected, o.usable);
  print_warnings(o.warning);
}

int cpud_vector_bytes(void) {
  // 0 unless the vectors' feature is usable, for a described CPU too (its
  // report may give a length with SVE masked or absent).
  const int f = cpud::internal::vector_feature();
  if (!f || !cpud_have(f)) return 0;
  const int assumed = __atomic_load_n(&g_vector_bytes, __ATOMIC_RELAXED);
  return assumed >= 0 ? assumed : cpud::internal::live_vector_bytes();
}

cpud_mask cpud_detected_mask(void) { return cpud::internal::detected_features(); }

cpud_mask cpud_baseline_mask(void) {
  return cpud::feature_set()
#define CPUD__B(NAME) | CPUD_BIT(NAME)
      CPUD_WITH_BASELINE(CPUD__B)
#undef CPUD__B
      ;
}

const char *cpud_feature_name(int feature) {
  return feature > 0 && feature <= CPUD_FEATURE_COUNT ? cpud::internal::k_names[feature] : nullptr;
}

int cpud_feature_by_name(const char *name) {
  if (!name) return 0;
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    if (cpud::internal::same_name(name, cpud::internal::k_names[id])) return id;
  for (const cpud::internal::alias_row *a = cpud::internal::k_aliases; a->id; ++a)
    if (cpud::internal::same_name(name, a->spelling)) return a->id;
  return 0;
}

}  // extern "C"

// C and C++ callers (CPUD_DISPATCH_CALL, CPUD_DISPATCH) end here alike.
extern "C" void cpud__no_target(const char *function) {
  std::fprintf(stderr,
               "cpudispatch: no compiled target of %s can run on this CPU and it has no "
               "baseline build; add \"baseline\" to its target list\n",
               function);
  std::fflush(stderr);
  std::abort();
}
