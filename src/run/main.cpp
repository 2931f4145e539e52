// cpudispatch-run: runs a command once per compiled dispatch target, or under
// emulated CPU models, so that a project's own tests exercise every build of
// its kernels, not only the best one this machine selects. Used by hand and
// as the exe_wrapper of the test setups the subproject exports
// (docs/testing-your-code.md lists the statuses and messages).
#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../runtime/names.h"
#include "cpudispatch/cpudispatch.h"
#include "run_config.h"

extern char **environ;

namespace {

constexpr int k_exit_usage = 64;         // no command, unknown option
constexpr int k_exit_unknown = 65;       // unknown target or model name
constexpr int k_exit_not_compiled = 66;  // a real feature, but no source was compiled for it
constexpr int k_exit_skip = 77;          // meson's "skipped"
constexpr int k_exit_below = CPUD_EXIT_BASELINE;

const char k_env_disable[] = CPUD_ENV_PREFIX "_DISABLE_CPU_FEATURES";
const char k_env_enable[] = CPUD_ENV_PREFIX "_ENABLE_CPU_FEATURES";

void usage(std::FILE *to) {
  std::fprintf(to,
               "usage: cpudispatch-run --target T -- CMD [ARG...]\n"
               "       cpudispatch-run --each-target -- CMD [ARG...]\n"
               "       cpudispatch-run --cpu MODEL -- CMD [ARG...]\n"
               "       cpudispatch-run --each-cpu -- CMD [ARG...]\n"
               "       cpudispatch-run --list-targets | --list-cpus\n"
               "  --target T     run CMD with T the best usable target (T, what it implies and the\n"
               "                 baseline stay usable; a group: AVX2+FMA3); 77 if this CPU cannot run T\n"
               "  --each-target  run CMD once per compiled target this CPU can run, and the baseline\n"
               "  --cpu MODEL    run CMD under %s -cpu MODEL\n"
               "  --each-cpu     run CMD under every model of %s: %s\n",
               CPUD_RUN_QEMU, CPUD_ARCH, CPUD_RUN_MODELS);
  if (CPUD_RUN_WINE[0])
    std::fprintf(to,
                 "A Windows program (CMD a .exe, or Wine running one) runs under %s;\n"
                 "with --cpu, Wine itself runs inside qemu-user.\n",
                 CPUD_RUN_WINE);
}

[[noreturn]] void die(int status, const char *fmt, const char *a = "", const char *b = "") {
  std::fprintf(stderr, "cpudispatch-run: ");
  std::fprintf(stderr, fmt, a, b);
  std::fprintf(stderr, "\n");
  std::exit(status);
}

// The qemu models of a list (CPUD_RUN_MODELS): space-separated, as a model
// may hold commas (max,sve256=on).
std::vector<std::string> words(const char *s) {
  std::vector<std::string> out;
  std::string w;
  for (const char *p = s;; ++p) {
    if (*p == 0 || *p == ' ' || *p == '\n' || *p == '\t') {
      if (!w.empty()) out.push_back(w);
      w.clear();
      if (*p == 0) break;
    } else {
      w += *p;
    }
  }
  return out;
}

// The target names of a list, split as every feature list is.
std::vector<std::string> names_in(const char *s) {
  std::vector<std::string> out;
  const char *start;
  for (std::size_t n; (n = cpud::internal::next_name(&s, &start)) != 0;) out.emplace_back(start, n);
  return out;
}

bool contains(const std::vector<std::string> &v, const std::string &s) {
  for (const auto &x : v)
    if (x == s) return true;
  return false;
}

// A compiled target: the baseline (no members), a feature, or a group of
// features compiled as one (AVX512_SKX__VPCLMULQDQ: tools/cpudispatch_grammar.py).
struct target {
  std::string name;
  cpud::feature_set members;
  std::vector<int> ids;  // the members, highest interest first
};

// "AVX2", "AVX512_SKX__VPCLMULQDQ" or "AVX512_SKX+VPCLMULQDQ" as a target
// (src/runtime/names.h); false if a part names no feature of this arch.
bool parse_target(const std::string &text, target *t) {
  cpud::internal::target_name n;
  if (!cpud::internal::parse_target_name(text.data(), text.size(), &n)) return false;
  t->members = n.members;
  t->ids.assign(n.ids, n.ids + n.count);
  t->name.clear();
  for (int id : t->ids) t->name += (t->name.empty() ? "" : "__") + std::string(cpud_feature_name(id));
  return true;
}

// Ascending interest, as cpudispatch_gen orders targets.
bool below(const target &a, const target &b) { return cpud::internal::ranks_below(a.members, b.members); }

// Targets some dispatch source of this build was compiled for: the lists
// cpudispatch_gen --register recorded at configure time (one file per source).
// Without any recorded source, every dispatch target the build enables,
// and the baseline.
std::vector<target> compiled_targets() {
  std::vector<target> out;
  bool baseline = false, any = false;
  auto add = [&out](const target &t) {
    for (const auto &o : out)
      if (o.name == t.name) return;
    out.push_back(t);
  };
  if (DIR *d = opendir(CPUD_RUN_SOURCES_DIR)) {
    while (dirent *e = readdir(d)) {
      std::string n = e->d_name;
      if (n.size() < 5 || n.compare(n.size() - 4, 4, ".txt")) continue;
      std::FILE *f = std::fopen((std::string(CPUD_RUN_SOURCES_DIR) + "/" + n).c_str(), "r");
      if (!f) continue;
      char buf[4096];
      std::size_t len = std::fread(buf, 1, sizeof buf - 1, f);
      std::fclose(f);
      buf[len] = 0;
      any = true;
      for (const auto &w : names_in(buf)) {
        target t;
        if (w == "baseline") {
          baseline = true;
        } else if (parse_target(w, &t)) {
          add(t);
        }
      }
    }
    closedir(d);
  }
  if (!any) {
    baseline = true;
    for (const auto &w : names_in(CPUD_DISPATCH_NAMES)) {
      target t;
      if (parse_target(w, &t)) add(t);
    }
  }
  std::sort(out.begin(), out.end(), below);
  if (baseline) out.insert(out.begin(), target{"baseline", cpud::feature_set(), {}});
  return out;
}

std::string joined(const std::vector<target> &ts) {
  std::string s;
  for (const auto &t : ts) s += (s.empty() ? "" : " ") + t.name;
  return s;
}

bool on_path(const char *prog, std::string *found = nullptr) {
  if (std::strchr(prog, '/')) {
    if (found) *found = prog;
    return access(prog, X_OK) == 0;
  }
  const char *path = std::getenv("PATH");
  std::string p = path ? path : "";
  std::size_t start = 0;
  while (start <= p.size()) {
    std::size_t end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    std::string f = p.substr(start, end - start) + "/" + prog;
    if (access(f.c_str(), X_OK) == 0) {
      if (found) *found = f;
      return true;
    }
    start = end + 1;
  }
  return false;
}

// The ELF machine of a program file, 0 when it is not an ELF file (a script).
unsigned elf_machine(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  unsigned char h[20] = {};
  bool full = read(fd, h, sizeof h) == static_cast<ssize_t>(sizeof h);
  close(fd);
  if (!full || std::memcmp(h, ELFMAG, SELFMAG) != 0) return 0;
  return h[EI_DATA] == ELFDATA2MSB ? (h[18] << 8 | h[19]) : (h[19] << 8 | h[18]);
}

// True when `prog` is an ELF program of cpudispatch-run's own arch (read from
// /proc/self/exe, which qemu-user shows as the emulated program): what
// qemu-ARCH runs. A script or a build-machine program (a cross build's
// Python, a pyenv shim) is not: it runs as it is, and the programs it starts
// through MESON_EXE_WRAPPER get the model.
bool own_arch_program(const char *prog) {
  static const unsigned own = elf_machine("/proc/self/exe");
  std::string path;
  return own != 0 && on_path(prog, &path) && elf_machine(path.c_str()) == own;
}

// The basename of argv[0] names this arch's qemu-user (qemu-aarch64,
// qemu-aarch64-static): the command already runs under emulation, as a
// cross build's exe_wrapper makes every test do.
bool is_our_qemu(const char *prog) {
  const char *base = std::strrchr(prog, '/');
  base = base ? base + 1 : prog;
  return std::strncmp(base, CPUD_RUN_QEMU, std::strlen(CPUD_RUN_QEMU)) == 0;
}

// qemu-user's options that take no value (7.2: linux-user/main.c); every
// other option takes one.
bool is_qemu_flag(const char *o) {
  for (const char *f : {"-h", "-help", "-version", "-singlestep", "-one-insn-per-tb", "-strace"})
    if (!std::strcmp(o, f)) return true;
  return false;
}

// A Windows build (CPUD_RUN_WINE names Wine's own program, docs/windows.md).
constexpr bool k_windows_build = CPUD_RUN_WINE[0] != 0;

// A Windows program file: "MZ" first, as every PE file starts.
bool pe_program(const char *prog) {
  std::string path;
  if (!k_windows_build || !on_path(prog, &path)) return false;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char h[2] = {};
  bool mz = read(fd, h, 2) == 2 && h[0] == 'M' && h[1] == 'Z';
  close(fd);
  return mz;
}

// The command already starts Wine (a Windows build's exe_wrapper: wine64,
// wine, wine-stable).
bool is_wine(const char *prog) {
  const char *base = std::strrchr(prog, '/');
  base = base ? base + 1 : prog;
  return k_windows_build && std::strncmp(base, "wine", 4) == 0 && std::strncmp(base, "wineserver", 10) != 0;
}

// Runs argv to its end with stdin, stdout and stderr on /dev/null; its status.
int quietly(std::vector<const char *> argv, const std::vector<std::string> &set_env = {}) {
  argv.push_back(nullptr);
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e) env.emplace_back(*e);
  env.insert(env.end(), set_env.begin(), set_env.end());
  std::vector<char *> envp;
  for (auto &e : env) envp.push_back(&e[0]);
  envp.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  for (int fd = 0; fd < 3; ++fd) posix_spawn_file_actions_addopen(&fa, fd, "/dev/null", fd ? O_WRONLY : O_RDONLY, 0);
  pid_t pid;
  int err = posix_spawnp(&pid, argv[0], &fa, nullptr, const_cast<char **>(argv.data()), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  if (err != 0) return 127;
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

// Before Wine's first run inside qemu-user: a wineserver that outlives each
// program by a minute (one per program races: a program connecting while
// the last one shuts down fails with "wine client error"), and the Wine
// session started natively, since a fresh server's first program under
// qemu-user hangs waiting for it. A server already running is kept.
void start_wine_session() {
  static bool started = false;
  if (started) return;
  started = true;
  std::string server = CPUD_RUN_WINE;
  server = server.substr(0, server.rfind('/') + 1) + "wineserver";
  if (access(server.c_str(), X_OK) != 0) server = "wineserver";
  quietly({server.c_str(), "-p60"});  // returns once the server runs on its own
  quietly({CPUD_RUN_WINE, "wineboot"}, {"WINEDEBUG=-all"});
}

// The environment of a run: the caller's, with `set` replacing any earlier
// value of the same names and `drop` removed.
std::vector<std::string> child_env(const std::vector<std::string> &drop, const std::vector<std::string> &set) {
  std::vector<std::string> out;
  for (char **e = environ; *e; ++e) {
    const char *eq = std::strchr(*e, '=');
    std::string name(*e, eq ? static_cast<std::size_t>(eq - *e) : std::strlen(*e));
    bool replaced = contains(drop, name);
    for (const auto &kv : set) replaced = replaced || kv.compare(0, name.size() + 1, name + "=") == 0;
    if (!replaced) out.emplace_back(*e);
  }
  out.insert(out.end(), set.begin(), set.end());
  return out;
}

// Runs argv with the env masks set so that `t` is the best usable target
// (null: env left as it is), under `qemu_model` when not null.
// Returns the exit status as a shell shows it (128 + signal). posix_spawn,
// not fork: a test suite pays this once per test and target.
int run(char **cmd, const target *t, const std::vector<target> &all, const char *qemu_model) {
  std::vector<std::string> drop, set;
  if (t) {
    drop = {k_env_disable, k_env_enable};
    // ENABLE keeps T's members, what they imply and the baseline: no higher
    // target; for the baseline, DISABLE every member of every target.
    std::string names;
    cpud::feature_set named;
    for (const auto &o : t->ids.empty() ? all : std::vector<target>{*t})
      for (int id : o.ids)
        if (!named.has(id)) {
          named |= cpud::feature_set(id);
          names += std::string(names.empty() ? "" : " ") + cpud_feature_name(id);
        }
    if (!names.empty()) set.push_back(std::string(t->ids.empty() ? k_env_disable : k_env_enable) + "=" + names);
  }
  std::vector<char *> argv;
  std::string q = CPUD_RUN_QEMU, cpu = "-cpu", model = qemu_model ? qemu_model : "", l = "-L",
              sysroot = CPUD_RUN_SYSROOT;
  char **rest = cmd;
  std::string wine = CPUD_RUN_WINE;
  // A Windows program given as it is (by hand: -- app.exe) runs under Wine.
  const bool pe = pe_program(cmd[0]);
  if (pe && !qemu_model) argv.push_back(&wine[0]);
  if (qemu_model && k_windows_build) {
    // Wine runs inside qemu-user, so the model is the CPU the Windows code
    // sees: WINELOADERNOEXEC keeps Wine from re-executing itself outside
    // the emulator, and no debugger starts on a crash (winedbg itself
    // crashes under qemu-user; the status stays 29, an illegal instruction).
    start_wine_session();
    const char *over = std::getenv("WINEDLLOVERRIDES");
    set.push_back("WINELOADERNOEXEC=1");
    set.push_back(std::string("WINEDLLOVERRIDES=") + (over && *over ? std::string(over) + ";" : "") + "winedbg.exe=d");
    set.push_back("MESON_EXE_WRAPPER=" + q + " -cpu " + model + " " + wine);
    if (pe || is_wine(cmd[0])) {
      argv.push_back(&q[0]);
      argv.push_back(&cpu[0]);
      argv.push_back(&model[0]);
      argv.push_back(&wine[0]);
      if (!pe) ++rest;  // Wine's own program instead of the launcher given
    }
  } else if (qemu_model) {
    // Programs a scripted test starts can run under the model too.
    set.push_back("MESON_EXE_WRAPPER=" + q + " -cpu " + model + (sysroot.empty() ? "" : " -L " + sysroot));
    if (is_our_qemu(cmd[0])) {
      // Already emulated (a cross build's exe_wrapper): its options stay,
      // and -cpu MODEL goes last before the program, as qemu-user takes
      // the last -cpu it is given.
      argv.push_back(*rest++);
      while (*rest && (*rest)[0] == '-' && std::strcmp(*rest, "--") != 0) {
        const char *o = (*rest)[1] == '-' ? *rest + 1 : *rest;  // qemu reads --opt as -opt
        argv.push_back(*rest++);
        if (!is_qemu_flag(o) && *rest) argv.push_back(*rest++);  // the option's value
      }
      argv.push_back(&cpu[0]);
      argv.push_back(&model[0]);
    } else if (own_arch_program(cmd[0])) {
      argv.push_back(&q[0]);
      argv.push_back(&cpu[0]);
      argv.push_back(&model[0]);
      if (!sysroot.empty()) {
        argv.push_back(&l[0]);
        argv.push_back(&sysroot[0]);
      }
    }
  }
  for (char **a = rest; *a; ++a) argv.push_back(*a);
  argv.push_back(nullptr);
  std::vector<std::string> env = child_env(drop, set);
  std::vector<char *> envp;
  for (auto &e : env) envp.push_back(&e[0]);
  envp.push_back(nullptr);
  std::fflush(nullptr);
  pid_t pid;
  int err = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), envp.data());
  if (err != 0) {
    std::fprintf(stderr, "cpudispatch-run: cannot run %s: %s\n", argv[0], std::strerror(err));
    return 127;
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

std::string describe(int status) {
  char buf[64];
  if (status > 128 && status < 128 + 65) {
    const char *sig = status - 128 == SIGILL ? "SIGILL" : status - 128 == SIGSEGV ? "SIGSEGV"
                      : status - 128 == SIGABRT ? "SIGABRT" : nullptr;
    if (sig) {
      std::snprintf(buf, sizeof buf, "killed by %s", sig);
    } else {
      std::snprintf(buf, sizeof buf, "killed by signal %d", status - 128);
    }
  } else if (k_windows_build && status == 29) {
    // Wine ends a program that dies of an exception with the exception's
    // code as its status: 0xC000001D, of which a Unix status keeps 0x1D.
    return "exit 29: STATUS_ILLEGAL_INSTRUCTION under Wine";
  } else {
    std::snprintf(buf, sizeof buf, "exit %d", status);
  }
  return buf;
}

// One run per item; the summary lines go to stderr, where meson's test log
// (and --print-errorlogs) shows them.
struct tally {
  std::string failed, ran, skipped;
  void add(std::string &to, const char *name) { to += (to.empty() ? "" : " ") + std::string(name); }
};

int finish(const tally &t, const char *what) {
  if (!t.failed.empty()) {
    std::fprintf(stderr, "cpudispatch-run: FAILED under %s %s\n", what == std::string("target") ? "targets" : "models",
                 t.failed.c_str());
    return 1;
  }
  if (t.ran.empty()) {
    std::fprintf(stderr, "cpudispatch-run: every %s was skipped\n", what);
    return k_exit_skip;
  }
  std::fprintf(stderr, "cpudispatch-run: ok under %s %s%s%s\n", what == std::string("target") ? "targets" : "models",
               t.ran.c_str(), t.skipped.empty() ? "" : "; skipped: ", t.skipped.c_str());
  return 0;
}

int each_target(char **cmd, const std::vector<target> &all) {
  tally t;
  const cpud::feature_set detected = cpud_detected_mask();
  for (const auto &tg : all) {
    const char *name = tg.name.c_str();
    if ((tg.members & ~detected) != cpud::feature_set()) {
      std::fprintf(stderr, "cpudispatch-run: %s skipped: this CPU lacks it\n", name);
      t.add(t.skipped, name);
      continue;
    }
    std::fprintf(stderr, "cpudispatch-run: == target %s ==\n", name);
    int st = run(cmd, &tg, all, nullptr);
    if (st == 0) {
      std::fprintf(stderr, "cpudispatch-run: %s ok\n", name);
      t.add(t.ran, name);
    } else if (st == k_exit_skip) {
      std::fprintf(stderr, "cpudispatch-run: %s skipped (the command exited 77)\n", name);
      t.add(t.skipped, name);
    } else {
      std::fprintf(stderr, "cpudispatch-run: %s FAILED (%s)\n", name, describe(st).c_str());
      t.add(t.failed, name);
    }
  }
  return finish(t, "target");
}

int under_model(char **cmd, const char *model, tally *t) {
  std::fprintf(stderr, "cpudispatch-run: == cpu %s ==\n", model);
  int st = run(cmd, nullptr, {}, model);
  if (st == 0) {
    std::fprintf(stderr, "cpudispatch-run: %s ok\n", model);
    if (t) t->add(t->ran, model);
  } else if (st == k_exit_below) {
    std::fprintf(stderr, "cpudispatch-run: %s skipped: below this build's baseline (the program exited %d)\n", model,
                 k_exit_below);
    if (t) t->add(t->skipped, model);
    st = k_exit_skip;
  } else if (st == k_exit_skip) {
    std::fprintf(stderr, "cpudispatch-run: %s skipped (the command exited 77)\n", model);
    if (t) t->add(t->skipped, model);
  } else {
    std::fprintf(stderr, "cpudispatch-run: %s FAILED (%s)\n", model, describe(st).c_str());
    if (t) t->add(t->failed, model);
  }
  return st;
}

void need_qemu() {
  if (!on_path(CPUD_RUN_QEMU))
    die(k_exit_skip, "%s is not installed (Debian: apt-get install qemu-user); nothing was run", CPUD_RUN_QEMU);
  if (k_windows_build && access(CPUD_RUN_WINE, X_OK) != 0)
    die(k_exit_skip, "%s is not installed (Debian: apt-get install wine64); nothing was run", CPUD_RUN_WINE);
}

}  // namespace

int main(int argc, char **argv) {
  const std::vector<std::string> models = words(CPUD_RUN_MODELS);
  std::string mode, value;
  int i = 1;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    }
    if (!mode.empty()) die(k_exit_usage, "%s after %s: give one mode", a.c_str(), mode.c_str());
    if (a == "--target" || a == "--cpu") {
      if (i + 1 >= argc) die(k_exit_usage, "%s needs a value", a.c_str());
      mode = a;
      value = argv[++i];
    } else if (a == "--each-target" || a == "--each-cpu" || a == "--list-targets" || a == "--list-cpus") {
      mode = a;
    } else {
      die(k_exit_usage, "unknown argument \"%s\" (see cpudispatch-run --help)", a.c_str());
    }
  }
  if (mode.empty())
    die(k_exit_usage, "no mode given: --target T, --each-target, --cpu MODEL or --each-cpu (see --help)");
  const std::vector<target> all = compiled_targets();
  if (mode == "--list-targets") {
    std::printf("%s\n", joined(all).c_str());
    return 0;
  }
  if (mode == "--list-cpus") {
    std::printf("%s\n", CPUD_RUN_MODELS);
    return 0;
  }
  if (i >= argc) die(k_exit_usage, "no command given after --");
  char **cmd = argv + i;

  if (mode == "--target") {
    target want{"baseline", cpud::feature_set(), {}};
    if (value != "baseline" && value != "BASELINE" && !parse_target(value, &want)) {
      std::string valid = "baseline";
      for (int f = 1; f <= CPUD_FEATURE_COUNT; ++f) valid += std::string(" ") + cpud_feature_name(f);
      die(k_exit_unknown, "unknown target \"%s\"; valid names on " CPUD_ARCH ": %s (a group: A+B)", value.c_str(),
          valid.c_str());
    }
    const target *found = nullptr;
    for (const auto &t : all)
      if (t.name == want.name) found = &t;
    if (!found)
      die(k_exit_not_compiled, "no dispatch source of this build was compiled for %s; compiled targets: %s",
          want.name.c_str(), joined(all).c_str());
    if ((want.members & ~cpud::feature_set(cpud_detected_mask())) != cpud::feature_set()) {
      std::fprintf(stderr, "cpudispatch-run: %s skipped: this CPU lacks it\n", want.name.c_str());
      return k_exit_skip;
    }
    return run(cmd, found, all, nullptr);
  }
  if (mode == "--each-target") return each_target(cmd, all);
  if (mode == "--cpu") {
    if (!contains(models, value))
      die(k_exit_unknown, "unknown CPU model \"%s\"; models for " CPUD_ARCH ": %s", value.c_str(), CPUD_RUN_MODELS);
    need_qemu();
    return under_model(cmd, value.c_str(), nullptr);
  }
  // --each-cpu
  if (models.empty()) die(k_exit_skip, "no emulated CPU models are listed for %s; nothing was run", CPUD_ARCH);
  need_qemu();
  tally t;
  for (const auto &m : models) under_model(cmd, m.c_str(), &t);
  return finish(t, "model");
}
