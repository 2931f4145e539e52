// SPDX-License-Identifier: MIT
// cpudispatch-info: what this build of cpudispatch and this machine offer,
// and which target each demo kernel selected. `--json` prints one JSON object.
// `--cpu-dump FILE`: the same for the CPU a dump describes, never asking
// this one.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include "cpu_dump.h"
#include "cpudispatch/cpudispatch.h"
#include "cpudispatch/functions.h"
#include "cpudispatch/operators.h"
#include "cpudispatch/testing.h"
#include "detect.h"  // the runtime's own: what start-up reads, and its CPUID count
#include "kernels.h"

namespace {

void usage(std::FILE *to) {
  std::fprintf(to,
               "usage: cpudispatch-info [--json] [--cpu-dump FILE]\n"
               "  Shows the CPU features of this machine, the build's baseline and dispatch\n"
               "  targets, the target each dispatched demo kernel selected, and the demo\n"
               "  typed operator: its kernels and its resolution cache (after resolving\n"
               "  (float32), (int32) and (float16) to fill it).\n"
               "  Honours %s_DISABLE_CPU_FEATURES / %s_ENABLE_CPU_FEATURES.\n"
               "  --cpu-dump FILE: the same for the CPU FILE describes (the output of\n"
               "  `cpuid -r` or an InstLatx64 dump on x86_64 and x86, of\n"
               "  `LD_SHOW_AUXV=1 /bin/true` elsewhere), never asking this one. Exit\n"
               "  status 2 for a file that describes no CPU of this arch; %d when the\n"
               "  build's start-up check would refuse that CPU (the report is printed\n"
               "  first).\n",
               CPUD_ENV_PREFIX, CPUD_ENV_PREFIX, CPUD_EXIT_BASELINE);
}

bool in(const cpud::feature_set &mask, int id) { return mask.has(id); }

cpud::feature_set dispatch_mask() {
  return cpud::feature_set()
#define CPUD__D(NAME) | CPUD_BIT(NAME)
      CPUD_WITH_DISPATCH(CPUD__D)
#undef CPUD__D
      ;
}

// Names in a mask as a JSON array, ascending id (= ascending interest).
void json_names(const char *key, const cpud::feature_set &mask, bool descending) {
  std::printf("\"%s\": [", key);
  bool first = true;
  for (int k = 1; k <= CPUD_FEATURE_COUNT; ++k) {
    int id = descending ? CPUD_FEATURE_COUNT + 1 - k : k;
    if (!in(mask, id)) continue;
    std::printf("%s\"%s\"", first ? "" : ", ", cpud_feature_name(id));
    first = false;
  }
  std::printf("]");
}

void touch_demo_kernels() {
  // Selecting registers them; nothing is computed.
  (void)cpud_demo_sum_f32.get();
  (void)cpud_demo_dot_f32.get();
  (void)cpud_demo_count_u8.get();
  for (cpud::dtype t : {cpud::dtype::float32, cpud::dtype::int32, cpud::dtype::float16})
    (void)cpud_demo_sum.resolve({t});
}

// One registered operator, as text or as a JSON member.
struct op_printer {
  bool json;
  bool first = true;
};
void print_operator(const cpud_operator *op, void *ctx) {
  op_printer &pr = *static_cast<op_printer *>(ctx);
  char types[256], conv[256];
  const int n = op->kernel_count(op->self);
  if (pr.json) {
    std::printf("%s\"%s\": {\"kernels\": [", pr.first ? "" : ", ", op->name);
  } else {
    std::printf("\n%-10s %-24s %-12s %-12s %s\n", "operator", "kernel", "types", "selected",
                "compiled (highest interest first)");
  }
  for (int i = 0; i < n; ++i) {
    op->kernel_types(op->self, i, types, sizeof types);
    if (pr.json)
      std::printf("%s{\"function\": \"%s\", \"types\": \"%s\", \"selected\": \"%s\", \"compiled\": [", i ? ", " : "",
                  op->kernel_function(op->self, i), types, op->kernel_selected(op->self, i));
    else
      std::printf("%-10s %-24s %-12s %-12s", op->name, op->kernel_function(op->self, i), types,
                  op->kernel_selected(op->self, i));
    for (int j = 0; j < op->kernel_target_count(op->self, i); ++j)
      std::printf(pr.json ? "%s\"%s\"" : "%s%s", pr.json ? (j ? ", " : "") : " ", op->kernel_target_name(op->self, i, j));
    std::printf(pr.json ? "]}" : "\n");
  }
  if (pr.json)
    std::printf("], \"cache\": [");
  else
    std::printf("resolution cache of '%s' (argument types -> kernel, conversions):\n", op->name);
  bool first = true;
  for (int s = 0; s < op->cache_slots; ++s) {
    const char *kernel = nullptr;
    if (!op->cache_entry(op->self, s, types, sizeof types, conv, sizeof conv, &kernel)) continue;
    if (pr.json)
      std::printf("%s{\"args\": \"%s\", \"kernel\": %s%s%s, \"conversions\": \"%s\"}", first ? "" : ", ", types,
                  kernel ? "\"" : "", kernel ? kernel : "null", kernel ? "\"" : "", conv);
    else
      std::printf("  %-12s -> %s (%s)\n", types, kernel ? kernel : "no kernel", conv);
    first = false;
  }
  if (pr.json) std::printf("]}");
  pr.first = false;
}

const char *selected_name(const cpud_function *f) {
  int s = f->selected();
  return s < 0 ? "none" : f->target_name(s);
}

// JSON string contents: the few characters a path or message may hold that
// JSON escapes.
std::string json_escape(const std::string &s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      o += b;
      continue;
    }
    o += c;
  }
  return o;
}

// Where the features come from ("" = this machine), and what the start-up
// check says of that CPU ("" = it runs).
struct source {
  std::string dump;
  std::string refusal;
  cpud_cpu_report report{};  // the dump's CPU (its leaves live in `leaves`)
  std::vector<cpud_cpuid_leaf> leaves;
};

// x86: the CPUID instructions start-up executes. This process's, or, for a
// described CPU, what a program of this build would execute there with a
// C library that keeps a copy of leaves 1, 7.0, 7.1 and 0x80000001 (glibc
// >= 2.33) and with one that keeps none. -1 off x86.
struct startup_cost {
  long executed = -1, glibc_copy = -1, no_copy = -1;
};
unsigned g_startup_cpuids = 0;  // cpuid_count() when main began: every constructor's
unsigned g_startup_leaves = 0;  // leaves_read() then

// The leaves start-up read, by name, space-separated.
std::string startup_leaf_names(const char *quote) {
  std::string out;
  for (int b = 0; cpud::internal::leaf_name(b); ++b)
    if ((g_startup_leaves >> b) & 1u)
      out += std::string(out.empty() ? "" : quote[0] ? ", " : " ") + quote + cpud::internal::leaf_name(b) + quote;
  return out;
}
startup_cost startup_cpuids(const source &src) {
  startup_cost c;
  if (std::strcmp(CPUD_ARCH, "x86_64") != 0 && std::strcmp(CPUD_ARCH, "x86") != 0) return c;
  if (src.dump.empty()) {
    c.executed = g_startup_cpuids;
    return c;
  }
  cpud::internal::reading_cost with{}, without{};
  cpud::internal::detect_raw_from(src.report, cpud::internal::startup_wanted(), true, &with);
  cpud::internal::detect_raw_from(src.report, cpud::internal::startup_wanted(), false, &without);
  c.glibc_copy = with.cpuids;
  c.no_copy = without.cpuids;
  return c;
}

void print_json(const source &src) {
  const cpud::feature_set usable = cpud_usable_mask(), base = cpud_baseline_mask();
  std::printf("{\"arch\": \"%s\", \"compiler\": \"%s\", ", CPUD_ARCH, CPUD_COMPILER);
  if (src.dump.empty())
    std::printf("\"cpu\": null, ");
  else
    std::printf("\"cpu\": \"%s\", ", json_escape(src.dump).c_str());
  if (src.refusal.empty())
    std::printf("\"startup\": null, ");
  else
    std::printf("\"startup\": \"%s\", ", json_escape(src.refusal).c_str());
  std::printf("\"vector_bytes\": %d, ", cpud_vector_bytes());
  const startup_cost cost = startup_cpuids(src);
  if (cost.executed >= 0)
    std::printf("\"startup_cpuid\": {\"executed\": %ld, \"libc_copy\": %s, \"leaves\": [%s]}, ", cost.executed,
                cpud::internal::libc_cpuid_copy() ? "true" : "false", startup_leaf_names("\"").c_str());
  else if (cost.glibc_copy >= 0)
    std::printf("\"startup_cpuid\": {\"glibc_copy\": %ld, \"no_copy\": %ld}, ", cost.glibc_copy, cost.no_copy);
  else
    std::printf("\"startup_cpuid\": null, ");
  json_names("baseline", base, false);
  std::printf(", ");
  json_names("dispatch", dispatch_mask(), true);
  std::printf(", ");
  json_names("detected", cpud_detected_mask(), false);
  std::printf(", ");
  // Masked: the CPU has it, the build could use it, the program may not.
  json_names("masked", cpud::feature_set(cpud_detected_mask()) & ~usable & cpud::internal::startup_wanted(), false);
  std::printf(", \"features\": {");
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    std::printf("%s\"%s\": %s", id > 1 ? ", " : "", cpud_feature_name(id), in(usable, id) ? "true" : "false");
  std::printf("}, \"functions\": {");
  bool first = true;
  for (const cpud_function *f = cpud_functions(); f; f = f->next) {
    std::printf("%s\"%s\": {\"selected\": \"%s\", \"compiled\": [", first ? "" : ", ", f->name, selected_name(f));
    for (int i = 0; i < f->target_count(); ++i) std::printf("%s\"%s\"", i ? ", " : "", f->target_name(i));
    std::printf("]}");
    first = false;
  }
  std::printf("}, \"operators\": {");
  op_printer pr{true};
  cpud_for_each_operator(&print_operator, &pr);
  std::printf("}}\n");
}

void print_table(const source &src) {
  const cpud::feature_set usable = cpud_usable_mask(), det = cpud_detected_mask();
  const cpud::feature_set base = cpud_baseline_mask(), disp = dispatch_mask();
  std::printf("cpudispatch on %s, built with %s\n", CPUD_ARCH, CPUD_COMPILER);
  if (!src.dump.empty()) std::printf("cpu: as described by %s (not this machine)\n", src.dump.c_str());
  if (!src.refusal.empty()) std::printf("start-up check: would refuse to run: %s\n", src.refusal.c_str());
  if (cpud_vector_bytes()) std::printf("scalable vector length: %d bytes\n", cpud_vector_bytes());
  const startup_cost cost = startup_cpuids(src);
  if (cost.executed >= 0)
    std::printf("start-up executed %ld CPUID instructions (leaves read: %s)\n", cost.executed,
                startup_leaf_names("").c_str());
  if (cost.glibc_copy >= 0)
    std::printf("start-up would execute %ld CPUID instructions there (%ld without a C library copy of leaves)\n",
                cost.glibc_copy, cost.no_copy);
  std::printf("baseline: %s\n", CPUD_BASELINE_NAMES[0] ? CPUD_BASELINE_NAMES : "(none)");
  std::printf("dispatch: %s\n", CPUD_DISPATCH_NAMES[0] ? CPUD_DISPATCH_NAMES : "(none)");
  for (const char *v : {CPUD_ENV_PREFIX "_DISABLE_CPU_FEATURES", CPUD_ENV_PREFIX "_ENABLE_CPU_FEATURES"}) {
    const char *val = std::getenv(v);
    if (val && val[0]) std::printf("%s=%s\n", v, val);
  }
  std::printf("\n%-18s %-9s %-9s %-9s\n", "feature", "build", "cpu", "usable");
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) {
    const char *build = in(base, id) ? "baseline" : in(disp, id) ? "dispatch" : "-";
    const char *cpu = in(det, id) ? "yes" : "no";
    // "-": the CPU has it, but nothing of this build uses it (start-up
    // does not ask for it; cpud_have() says 0).
    const char *use = in(usable, id) ? "yes" : !in(det, id) ? "no" : in(cpud::internal::startup_wanted(), id) ? "masked" : "-";
    std::printf("%-18s %-9s %-9s %-9s\n", cpud_feature_name(id), build, cpu, use);
  }
  std::printf("\n%-20s %-12s %s\n", "function", "selected", "compiled (highest interest first)");
  for (const cpud_function *f = cpud_functions(); f; f = f->next) {
    std::printf("%-20s %-12s", f->name, selected_name(f));
    for (int i = 0; i < f->target_count(); ++i) std::printf(" %s", f->target_name(i));
    std::printf("\n");
  }
  op_printer pr{false};
  cpud_for_each_operator(&print_operator, &pr);
}

}  // namespace

// Reads and assumes the CPU a dump describes; false after printing why not.
bool assume_dump(const char *path, source &src) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cpudispatch-info: cannot read %s: %s\n", path, std::strerror(errno));
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  cpud_info::cpu_dump dump;
  std::string error;
  if (!cpud_info::parse_cpu_dump(text.str(), path, dump, error)) {
    std::fprintf(stderr, "cpudispatch-info: %s\n", error.c_str());
    return false;
  }
  cpud_assume_cpu(&dump.report);
  src.dump = path;
  src.leaves = dump.leaves;
  src.report = dump.report;
  src.report.leaves = src.leaves.data();
  char msg[1536];
  if (cpud_check_baseline(msg, sizeof msg)) src.refusal = msg;
  return true;
}

int main(int argc, char **argv) {
  g_startup_cpuids = cpud::internal::cpuid_count();
  g_startup_leaves = cpud::internal::leaves_read();
  bool json = false;
  const char *dump = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--json")) {
      json = true;
    } else if (!std::strcmp(argv[i], "--cpu-dump")) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "cpudispatch-info: --cpu-dump needs a FILE (see --help)\n");
        return 2;
      }
      dump = argv[++i];
    } else if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    } else {
      std::fprintf(stderr, "cpudispatch-info: unknown argument \"%s\"\n", argv[i]);
      usage(stderr);
      return 2;
    }
  }
  source src;
  if (dump && !assume_dump(dump, src)) return 2;
  touch_demo_kernels();
  if (json)
    print_json(src);
  else
    print_table(src);
  return src.refusal.empty() ? 0 : CPUD_EXIT_BASELINE;
}
