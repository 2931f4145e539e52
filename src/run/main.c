/* SPDX-License-Identifier: MIT */
/* cpudispatch-run: runs a command once per compiled dispatch target, or under
 * emulated CPU models, so that a project's own tests exercise every build of
 * its kernels, not only the best one this machine selects. Used by hand and
 * as the exe_wrapper of the test setups the subproject exports
 * (docs/testing-your-code.md lists the statuses and messages). C and POSIX
 * only, so that a C-only project can build it. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../runtime/names.h"
#include "cpudispatch/cpudispatch.h"
#include "run_config.h"

extern char **environ;

enum {
  k_exit_usage = 64,        /* no command, unknown option */
  k_exit_unknown = 65,      /* unknown target or model name */
  k_exit_not_compiled = 66, /* a real feature, but no source was compiled for it */
  k_exit_oom = 71,          /* out of memory (EX_OSERR) */
  k_exit_skip = 77,         /* meson's "skipped" */
  k_exit_below = CPUD_EXIT_BASELINE
};

/* A Windows build (CPUD_RUN_WINE names Wine's own program, docs/windows.md).
 * sizeof, not [0]: a constant expression in C. */
enum { k_windows_build = sizeof CPUD_RUN_WINE > 1 };

static const char k_env_disable[] = CPUD_ENV_PREFIX "_DISABLE_CPU_FEATURES";
static const char k_env_enable[] = CPUD_ENV_PREFIX "_ENABLE_CPU_FEATURES";

#if defined(__GNUC__) || defined(__clang__)
#define RUN_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define RUN_PRINTF(f, a)
#endif

static void usage(FILE *to) {
  fprintf(to,
          "usage: cpudispatch-run --target T -- CMD [ARG...]\n"
          "       cpudispatch-run --each-target -- CMD [ARG...]\n"
          "       cpudispatch-run --cpu MODEL -- CMD [ARG...]\n"
          "       cpudispatch-run --each-cpu -- CMD [ARG...]\n"
          "       cpudispatch-run --list-targets | --list-cpus\n"
          "  --target T     run CMD with T the best usable target (T, what it implies and the\n"
          "                 baseline stay usable; a group: AVX2+FMA3); 77 if this CPU cannot run T\n"
          "  --each-target  run CMD once per compiled target this CPU can run, and the baseline\n"
          "  --cpu MODEL    run CMD under %s -cpu MODEL\n"
          "  --each-cpu     run CMD under every model of %s: %s\n"
          "CPUDISPATCH_RUN=once in the environment (a test that dispatches nothing): --each-target\n"
          "and --each-cpu run CMD once, as it is\n",
          CPUD_RUN_QEMU, CPUD_ARCH, CPUD_RUN_MODELS);
  if (k_windows_build)
    fprintf(to,
            "A Windows program (CMD a .exe, or Wine running one) runs under %s;\n"
            "with --cpu, Wine itself runs inside qemu-user.\n",
            CPUD_RUN_WINE);
}

static _Noreturn RUN_PRINTF(2, 3) void die(int status, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "cpudispatch-run: ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n");
  exit(status);
}

/* --- memory: every list and string grows as needed; none is cut short --- */

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) die(k_exit_oom, "out of memory");
  return q;
}

/* The capacity after cap, for items of `size` bytes: twice as many. */
static size_t grown(size_t cap, size_t size) {
  if (cap > SIZE_MAX / 2 / size) die(k_exit_oom, "out of memory");
  return cap ? 2 * cap : 16;
}

static char *xstrdup(const char *s) {
  const size_t n = strlen(s) + 1;
  return memcpy(xrealloc(NULL, n), s, n);
}

/* A new string, printf-formatted. */
static RUN_PRINTF(1, 2) char *xprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) die(k_exit_oom, "out of memory");
  char *s = xrealloc(NULL, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

/* A growing string; s is NULL until something is added (str_of gives ""). */
typedef struct str {
  char *s;
  size_t len, cap;
} str;

static void str_add(str *b, const char *s, size_t n) {
  if (n >= SIZE_MAX - b->len) die(k_exit_oom, "out of memory");
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap;
    while (b->len + n + 1 > cap) cap = grown(cap, 1);
    b->s = xrealloc(b->s, cap);
    b->cap = cap;
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}

static void str_adds(str *b, const char *s) { str_add(b, s, strlen(s)); }

/* w after a space unless b is empty: the lists the messages show. */
static void str_word(str *b, const char *w) {
  if (b->len) str_adds(b, " ");
  str_adds(b, w);
}

static const char *str_of(const str *b) { return b->s ? b->s : ""; }

/* A growing array of string pointers (argv, envp, lists); whether it owns
 * them is up to its user. char *, as posix_spawn's argv and envp are: it
 * writes none, so the (char *) casts of constant strings below are safe. */
typedef struct strs {
  char **v;
  size_t n, cap;
} strs;

static void strs_push(strs *l, char *s) {
  if (l->n == l->cap) {
    l->cap = grown(l->cap, sizeof *l->v);
    l->v = xrealloc(l->v, l->cap * sizeof *l->v);
  }
  l->v[l->n++] = s;
}

static int strs_contains(const strs *l, const char *s, size_t len) {
  for (size_t i = 0; i < l->n; ++i)
    if (strlen(l->v[i]) == len && memcmp(l->v[i], s, len) == 0) return 1;
  return 0;
}

/* The qemu models of a list (CPUD_RUN_MODELS): space-separated, as a model
 * may hold commas (max,sve256=on). */
static strs words(const char *s) {
  strs out = {0};
  const char *w = s;
  for (const char *p = s;; ++p) {
    if (*p == 0 || *p == ' ' || *p == '\n' || *p == '\t') {
      if (p > w) {
        char *m = xrealloc(NULL, (size_t)(p - w) + 1);
        memcpy(m, w, (size_t)(p - w));
        m[p - w] = 0;
        strs_push(&out, m);
      }
      if (*p == 0) break;
      w = p + 1;
    }
  }
  return out;
}

/* A compiled target: the baseline (no members), a feature, or a group of
 * features compiled as one (AVX512_SKX__VPCLMULQDQ: src/build_side/cpudispatch_grammar.py);
 * t.ids holds the members, highest interest first. */
typedef struct target {
  char *name;
  cpud__target_name t;
} target;

typedef struct targets {
  target *v;
  size_t n, cap;
} targets;

static void targets_push(targets *l, target t) {
  if (l->n == l->cap) {
    l->cap = grown(l->cap, sizeof *l->v);
    l->v = xrealloc(l->v, l->cap * sizeof *l->v);
  }
  l->v[l->n++] = t;
}

static target baseline_target(void) {
  target t;
  memset(&t, 0, sizeof t);
  t.name = xstrdup("baseline");
  t.t.members = cpud_mask_none();
  return t;
}

/* "AVX2", "AVX512_SKX__VPCLMULQDQ" or "AVX512_SKX+VPCLMULQDQ" (the `len`
 * bytes at text) as a target (src/runtime/names.h), named as compiled;
 * 0 if a part names no feature of this arch, with *t untouched. */
static int parse_target(const char *text, size_t len, target *t) {
  cpud__target_name n;
  if (!cpud__parse_target_name(text, len, &n)) return 0;
  str name = {0};
  for (int i = 0; i < n.count; ++i) {
    if (name.len) str_adds(&name, "__");
    str_adds(&name, cpud_feature_name(n.ids[i]));
  }
  t->t = n;
  t->name = name.s ? name.s : xstrdup("");
  return 1;
}

/* Ascending interest, as cpudispatch_gen orders targets; distinct targets
 * never tie, so qsort's instability changes nothing. */
static int by_interest(const void *a, const void *b) {
  const cpud_mask x = ((const target *)a)->t.members, y = ((const target *)b)->t.members;
  return cpud__ranks_below(x, y) ? -1 : cpud__ranks_below(y, x) ? 1 : 0;
}

/* Adds t unless a target of that name is there; takes t's name. */
static void add_target(targets *out, target t) {
  for (size_t i = 0; i < out->n; ++i)
    if (strcmp(out->v[i].name, t.name) == 0) {
      free(t.name);
      return;
    }
  targets_push(out, t);
}

/* Targets some dispatch source of this build was compiled for: the lists
 * cpudispatch_gen --register recorded at configure time (one file per source).
 * Without any recorded source, every dispatch target the build enables,
 * and the baseline. */
static targets compiled_targets(void) {
  targets out = {0};
  int baseline = 0, any = 0;
  const char *start;
  size_t n;
  DIR *d = opendir(CPUD_RUN_SOURCES_DIR);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
      const size_t nl = strlen(e->d_name);
      if (nl < 5 || strcmp(e->d_name + nl - 4, ".txt") != 0) continue;
      char *path = xprintf("%s/%s", CPUD_RUN_SOURCES_DIR, e->d_name);
      FILE *f = fopen(path, "r");
      free(path);
      if (!f) continue;
      /* The whole list, however long (a few names on one line in practice). */
      str list = {0};
      char chunk[4096];
      for (size_t got; (got = fread(chunk, 1, sizeof chunk, f)) != 0;) str_add(&list, chunk, got);
      fclose(f);
      any = 1;
      for (const char *p = list.s ? list.s : ""; (n = cpud__next_name(&p, &start)) != 0;) {
        target t;
        if (n == 8 && memcmp(start, "baseline", 8) == 0) {
          baseline = 1;
        } else if (parse_target(start, n, &t)) {
          add_target(&out, t);
        }
      }
      free(list.s);
    }
    closedir(d);
  }
  if (!any) {
    baseline = 1;
    for (const char *p = CPUD_DISPATCH_NAMES; (n = cpud__next_name(&p, &start)) != 0;) {
      target t;
      if (parse_target(start, n, &t)) add_target(&out, t);
    }
  }
  if (out.n) qsort(out.v, out.n, sizeof *out.v, by_interest);
  if (baseline) { /* first */
    const target b = baseline_target();
    targets_push(&out, b);
    memmove(out.v + 1, out.v, (out.n - 1) * sizeof *out.v);
    out.v[0] = b;
  }
  return out;
}

static str joined(const targets *ts) {
  str s = {0};
  for (size_t i = 0; i < ts->n; ++i) str_word(&s, ts->v[i].name);
  return s;
}

/* Whether prog names an executable file: itself when it holds a '/', else
 * in a directory of PATH; its path in *found (a new string) when found is
 * not NULL. */
static int on_path(const char *prog, char **found) {
  if (strchr(prog, '/')) {
    if (found) *found = xstrdup(prog);
    return access(prog, X_OK) == 0;
  }
  const char *path = getenv("PATH");
  if (!path) path = "";
  for (const char *s = path;;) {
    const char *end = strchr(s, ':');
    const size_t n = end ? (size_t)(end - s) : strlen(s);
    str f = {0};
    str_add(&f, s, n);
    str_adds(&f, "/");
    str_adds(&f, prog);
    if (access(f.s, X_OK) == 0) {
      if (found)
        *found = f.s;
      else
        free(f.s);
      return 1;
    }
    free(f.s);
    if (!end) break;
    s = end + 1;
  }
  return 0;
}

/* The ELF machine of a program file, 0 when it is not an ELF file (a script). */
static unsigned elf_machine(const char *path) {
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  unsigned char h[20] = {0};
  const int full = read(fd, h, sizeof h) == (ssize_t)sizeof h;
  close(fd);
  if (!full || memcmp(h, ELFMAG, SELFMAG) != 0) return 0;
  return h[EI_DATA] == ELFDATA2MSB ? (unsigned)(h[18] << 8 | h[19]) : (unsigned)(h[19] << 8 | h[18]);
}

/* `prog`'s path (a new string; a bare name looked up on PATH, which
 * qemu-user does not search) when it is an ELF program of cpudispatch-run's
 * own arch (read from /proc/self/exe, which qemu-user shows as the emulated
 * program): what qemu-ARCH runs. NULL for a script or a build-machine program
 * (a cross build's Python, a pyenv shim): it runs as it is, and the programs
 * it starts through MESON_EXE_WRAPPER get the model. */
static char *own_arch_program(const char *prog) {
  static int known = 0;
  static unsigned own;
  if (!known) {
    own = elf_machine("/proc/self/exe");
    known = 1;
  }
  char *path = NULL;
  if (own != 0 && on_path(prog, &path) && elf_machine(path) == own) return path;
  free(path);
  return NULL;
}

/* The basename of argv[0] names this arch's qemu-user (qemu-aarch64,
 * qemu-aarch64-static): the command already runs under emulation, as a
 * cross build's exe_wrapper makes every test do. */
static int is_our_qemu(const char *prog) {
  const char *base = strrchr(prog, '/');
  base = base ? base + 1 : prog;
  return strncmp(base, CPUD_RUN_QEMU, strlen(CPUD_RUN_QEMU)) == 0;
}

/* qemu-user's options that take no value (7.2: linux-user/main.c); every
 * other option takes one. */
static int is_qemu_flag(const char *o) {
  static const char *const flags[] = {"-h", "-help", "-version", "-singlestep", "-one-insn-per-tb", "-strace"};
  for (size_t i = 0; i < sizeof flags / sizeof *flags; ++i)
    if (!strcmp(o, flags[i])) return 1;
  return 0;
}

/* A Windows program file: "MZ" first, as every PE file starts. */
static int pe_program(const char *prog) {
  char *path = NULL;
  if (!k_windows_build || !on_path(prog, &path)) {
    free(path);
    return 0;
  }
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  free(path);
  if (fd < 0) return 0;
  char h[2] = {0};
  const int mz = read(fd, h, 2) == 2 && h[0] == 'M' && h[1] == 'Z';
  close(fd);
  return mz;
}

/* The command already starts Wine (a Windows build's exe_wrapper: wine64,
 * wine, wine-stable). */
static int is_wine(const char *prog) {
  const char *base = strrchr(prog, '/');
  base = base ? base + 1 : prog;
  return k_windows_build && strncmp(base, "wine", 4) == 0 && strncmp(base, "wineserver", 10) != 0;
}

/* Waits for pid; its status as a shell shows it (128 + signal). */
static int wait_status(pid_t pid) {
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Runs argv (NULL-terminated) with stdin, stdout and stderr on /dev/null,
 * and set_env (NULL-terminated) added to the environment; its status. */
static int quietly(const char *const *argv, const char *const *set_env) {
  strs envp = {0};
  for (char **e = environ; *e; ++e) strs_push(&envp, *e);
  for (; *set_env; ++set_env) strs_push(&envp, (char *)*set_env);
  strs_push(&envp, NULL);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  for (int fd = 0; fd < 3; ++fd) posix_spawn_file_actions_addopen(&fa, fd, "/dev/null", fd ? O_WRONLY : O_RDONLY, 0);
  pid_t pid;
  const int err = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, envp.v);
  posix_spawn_file_actions_destroy(&fa);
  free(envp.v);
  if (err != 0) return 127;
  return wait_status(pid);
}

/* Before Wine's first run inside qemu-user: a wineserver that outlives each
 * program by a minute (one per program races: a program connecting while
 * the last one shuts down fails with "wine client error"), and the Wine
 * session started natively, since a fresh server's first program under
 * qemu-user hangs waiting for it. A server already running is kept. */
static void start_wine_session(void) {
  static int started = 0;
  if (started) return;
  started = 1;
  const char *slash = strrchr(CPUD_RUN_WINE, '/');
  str server = {0};
  str_add(&server, CPUD_RUN_WINE, slash ? (size_t)(slash - CPUD_RUN_WINE) + 1 : 0);
  str_adds(&server, "wineserver");
  const char *const server_argv[] = {access(server.s, X_OK) == 0 ? server.s : "wineserver", "-p60", NULL};
  const char *const no_env[] = {NULL};
  quietly(server_argv, no_env); /* returns once the server runs on its own */
  const char *const boot_argv[] = {CPUD_RUN_WINE, "wineboot", NULL};
  const char *const boot_env[] = {"WINEDEBUG=-all", NULL};
  quietly(boot_argv, boot_env);
  free(server.s);
}

/* The environment of a run: the caller's, with `set` replacing any earlier
 * value of the same names and `drop` removed; pointers into both. */
static strs child_env(const strs *drop, const strs *set) {
  strs out = {0};
  for (char **e = environ; *e; ++e) {
    const char *eq = strchr(*e, '=');
    const size_t n = eq ? (size_t)(eq - *e) : strlen(*e);
    int replaced = strs_contains(drop, *e, n);
    for (size_t i = 0; i < set->n && !replaced; ++i) replaced = strncmp(set->v[i], *e, n) == 0 && set->v[i][n] == '=';
    if (!replaced) strs_push(&out, *e);
  }
  for (size_t i = 0; i < set->n; ++i) strs_push(&out, set->v[i]);
  strs_push(&out, NULL);
  return out;
}

/* Runs cmd with the env masks set so that `t` is the best usable target
 * (NULL: env left as it is), under `qemu_model` when not NULL.
 * Returns the exit status as a shell shows it (128 + signal). posix_spawn,
 * not fork: a test suite pays this once per test and target. */
static int run(char **cmd, const target *t, const targets *all, const char *qemu_model) {
  strs drop = {0}, set = {0}; /* set owns its strings */
  if (t) {
    strs_push(&drop, (char *)k_env_disable);
    strs_push(&drop, (char *)k_env_enable);
    /* ENABLE keeps T's members, what they imply and the baseline: no higher
     * target; for the baseline, DISABLE every member of every target. */
    str names = {0};
    cpud_mask named = cpud_mask_none();
    const target *from = t->t.count == 0 ? all->v : t;
    const size_t count = t->t.count == 0 ? all->n : 1;
    for (size_t o = 0; o < count; ++o)
      for (int i = 0; i < from[o].t.count; ++i) {
        const int id = from[o].t.ids[i];
        if (!cpud_mask_has(named, id)) {
          named = cpud_mask_with(named, id);
          str_word(&names, cpud_feature_name(id));
        }
      }
    if (names.len) strs_push(&set, xprintf("%s=%s", t->t.count == 0 ? k_env_disable : k_env_enable, names.s));
    free(names.s);
  }
  strs argv = {0};
  char *const q = (char *)CPUD_RUN_QEMU, *const cpu = (char *)"-cpu", *const l = (char *)"-L";
  char *const model = (char *)(qemu_model ? qemu_model : ""), *const sysroot = (char *)CPUD_RUN_SYSROOT;
  char *const wine = (char *)CPUD_RUN_WINE;
  char **rest = cmd;
  char *resolved = NULL; /* cmd[0] found on PATH, for qemu */
  char *ldpath = NULL;   /* -E's value, with a sysroot */
  /* A Windows program given as it is (by hand: -- app.exe) runs under Wine. */
  const int pe = pe_program(cmd[0]);
  if (pe && !qemu_model) strs_push(&argv, wine);
  if (qemu_model && k_windows_build) {
    /* Wine runs inside qemu-user, so the model is the CPU the Windows code
     * sees: WINELOADERNOEXEC keeps Wine from re-executing itself outside
     * the emulator, and no debugger starts on a crash (winedbg itself
     * crashes under qemu-user; the status stays 29, an illegal instruction). */
    start_wine_session();
    const char *over = getenv("WINEDLLOVERRIDES");
    const int has_over = over && *over;
    strs_push(&set, xstrdup("WINELOADERNOEXEC=1"));
    strs_push(&set, xprintf("WINEDLLOVERRIDES=%s%swinedbg.exe=d", has_over ? over : "", has_over ? ";" : ""));
    strs_push(&set, xprintf("MESON_EXE_WRAPPER=%s -cpu %s %s", q, model, wine));
    if (pe || is_wine(cmd[0])) {
      strs_push(&argv, q);
      strs_push(&argv, cpu);
      strs_push(&argv, model);
      strs_push(&argv, wine);
      if (!pe) ++rest; /* Wine's own program instead of the launcher given */
    }
  } else if (qemu_model) {
    /* Programs a scripted test starts can run under the model too. With a
     * sysroot, its own C library first (-E LD_LIBRARY_PATH): where the
     * host also has the arch's multiarch libc (libc6:arm64), its
     * ld.so.cache hands the sysroot's loader another glibc build, and the
     * first pthread_create never returns (the cross files do the same). */
    if (sysroot[0])
      strs_push(&set, xprintf("MESON_EXE_WRAPPER=%s -cpu %s -L %s -E LD_LIBRARY_PATH=%s/lib", q, model, sysroot,
                              sysroot));
    else
      strs_push(&set, xprintf("MESON_EXE_WRAPPER=%s -cpu %s", q, model));
    if (is_our_qemu(cmd[0])) {
      /* Already emulated (a cross build's exe_wrapper): its options stay,
       * and -cpu MODEL goes last before the program, as qemu-user takes
       * the last -cpu it is given. */
      strs_push(&argv, *rest++);
      while (*rest && (*rest)[0] == '-' && strcmp(*rest, "--") != 0) {
        const char *o = (*rest)[1] == '-' ? *rest + 1 : *rest; /* qemu reads --opt as -opt */
        strs_push(&argv, *rest++);
        if (!is_qemu_flag(o) && *rest) strs_push(&argv, *rest++); /* the option's value */
      }
      strs_push(&argv, cpu);
      strs_push(&argv, model);
    } else if ((resolved = own_arch_program(cmd[0])) != NULL) {
      strs_push(&argv, q);
      strs_push(&argv, cpu);
      strs_push(&argv, model);
      if (sysroot[0]) {
        strs_push(&argv, l);
        strs_push(&argv, sysroot);
        strs_push(&argv, (char *)"-E");
        strs_push(&argv, ldpath = xprintf("LD_LIBRARY_PATH=%s/lib", sysroot));
      }
      strs_push(&argv, resolved);
      ++rest;
    }
  }
  for (char **a = rest; *a; ++a) strs_push(&argv, *a);
  strs_push(&argv, NULL);
  strs env = child_env(&drop, &set);
  fflush(NULL);
  pid_t pid;
  const int err = posix_spawnp(&pid, argv.v[0], NULL, NULL, argv.v, env.v);
  int status;
  if (err != 0) {
    fprintf(stderr, "cpudispatch-run: cannot run %s: %s\n", argv.v[0], strerror(err));
    status = 127;
  } else {
    status = wait_status(pid);
  }
  for (size_t i = 0; i < set.n; ++i) free(set.v[i]);
  free(resolved);
  free(ldpath);
  free(set.v);
  free(drop.v);
  free(argv.v);
  free(env.v);
  return status;
}

/* What a status means, for the summary lines; in buf, or a constant. */
static const char *describe(int status, char buf[64]) {
  if (status > 128 && status < 128 + 65) {
    const char *sig = status - 128 == SIGILL    ? "SIGILL"
                      : status - 128 == SIGSEGV ? "SIGSEGV"
                      : status - 128 == SIGABRT ? "SIGABRT"
                                                : NULL;
    if (sig) {
      snprintf(buf, 64, "killed by %s", sig);
    } else {
      snprintf(buf, 64, "killed by signal %d", status - 128);
    }
  } else if (k_windows_build && status == 29) {
    /* Wine ends a program that dies of an exception with the exception's
     * code as its status: 0xC000001D, of which a Unix status keeps 0x1D. */
    return "exit 29: STATUS_ILLEGAL_INSTRUCTION under Wine";
  } else {
    snprintf(buf, 64, "exit %d", status);
  }
  return buf;
}

/* One run per item. Each run's banner, its outcome and the summary go to
 * stderr, where meson's test log (and --print-errorlogs) shows them; in the
 * --each-* modes also to stdout as "# cpudispatch-run: ..." (a TAP comment):
 * a log shows a test's stdout and stderr apart, and each run's output must
 * follow its banner in both. A single run leaves stdout to the program. */
typedef struct tally {
  str failed, ran, skipped;
} tally;

static int g_each = 0; /* an --each-* mode */

static RUN_PRINTF(1, 2) void say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *line = malloc(n < 0 ? 1 : (size_t)n + 1);
  if (!line) die(k_exit_oom, "out of memory");
  va_start(ap, fmt);
  vsnprintf(line, n < 0 ? 1 : (size_t)n + 1, fmt, ap);
  va_end(ap);
  if (g_each) {
    printf("# cpudispatch-run: %s\n", line);
    fflush(stdout);
  }
  fprintf(stderr, "cpudispatch-run: %s\n", line);
  free(line);
}

static int finish(const tally *t, const char *what) {
  const char *whats = strcmp(what, "target") == 0 ? "targets" : "models";
  if (t->failed.len) {
    say("FAILED under %s %s", whats, str_of(&t->failed));
    return 1;
  }
  if (!t->ran.len) {
    say("every %s was skipped", what);
    return k_exit_skip;
  }
  say("ok under %s %s%s%s", whats, str_of(&t->ran), t->skipped.len ? "; skipped: " : "", str_of(&t->skipped));
  return 0;
}

/* 1 if m holds a feature the CPU lacks. */
static int lacks(cpud_mask m, cpud_mask detected) {
  return !cpud_mask_equal(cpud_mask_andnot(m, detected), cpud_mask_none());
}

/* The masks already in the environment stay in force: a target they leave
 * unusable is not run as the best target (cpudispatch-run's own start-up
 * applied them, the same rules as the program's). The variable, or NULL. */
static const char *masked_by_env(const target *tg) {
  if (!lacks(tg->t.members, cpud_usable_mask())) return NULL;
  const char *d = getenv(k_env_disable);
  return d && *d ? k_env_disable : k_env_enable;
}

static int each_target(char **cmd, const targets *all) {
  tally t = {{0}, {0}, {0}};
  const cpud_mask detected = cpud_detected_mask();
  char buf[64];
  for (size_t i = 0; i < all->n; ++i) {
    const target *tg = &all->v[i];
    const char *name = tg->name;
    if (lacks(tg->t.members, detected)) {
      say("%s skipped: this CPU lacks it", name);
      str_word(&t.skipped, name);
      continue;
    }
    const char *by = masked_by_env(tg);
    if (by) {
      say("%s skipped: %s=%s leaves it unusable", name, by, getenv(by));
      str_word(&t.skipped, name);
      continue;
    }
    say("== target %s ==", name);
    const int st = run(cmd, tg, all, NULL);
    if (st == 0) {
      say("%s ok", name);
      str_word(&t.ran, name);
    } else if (st == k_exit_skip) {
      say("%s skipped (the command exited 77)", name);
      str_word(&t.skipped, name);
    } else {
      say("%s FAILED (%s)", name, describe(st, buf));
      str_word(&t.failed, name);
    }
  }
  return finish(&t, "target");
}

static int under_model(char **cmd, const char *model, tally *t) {
  char buf[64];
  say("== cpu %s ==", model);
  int st = run(cmd, NULL, NULL, model);
  if (st == 0) {
    say("%s ok", model);
    if (t) str_word(&t->ran, model);
  } else if (st == k_exit_below) {
    say("%s skipped: below this build's baseline (the program exited %d)", model, k_exit_below);
    if (t) str_word(&t->skipped, model);
    st = k_exit_skip;
  } else if (st == k_exit_skip) {
    say("%s skipped (the command exited 77)", model);
    if (t) str_word(&t->skipped, model);
  } else {
    say("%s FAILED (%s)", model, describe(st, buf));
    if (t) str_word(&t->failed, model);
  }
  return st;
}

static void need_qemu(void) {
  if (!on_path(CPUD_RUN_QEMU, NULL))
    die(k_exit_skip, "%s is not installed (Debian: apt-get install qemu-user); nothing was run", CPUD_RUN_QEMU);
  if (k_windows_build && access(CPUD_RUN_WINE, X_OK) != 0)
    die(k_exit_skip, "%s is not installed (Debian: apt-get install wine64); nothing was run", CPUD_RUN_WINE);
}

int main(int argc, char **argv) {
  const strs models = words(CPUD_RUN_MODELS);
  const char *mode = NULL, *value = NULL;
  int i = 1;
  for (; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      ++i;
      break;
    }
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    }
    if (mode) die(k_exit_usage, "%s after %s: give one mode", a, mode);
    if (!strcmp(a, "--target") || !strcmp(a, "--cpu")) {
      if (i + 1 >= argc) die(k_exit_usage, "%s needs a value", a);
      mode = a;
      value = argv[++i];
    } else if (!strcmp(a, "--each-target") || !strcmp(a, "--each-cpu") || !strcmp(a, "--list-targets") ||
               !strcmp(a, "--list-cpus")) {
      mode = a;
    } else {
      die(k_exit_usage, "unknown argument \"%s\" (see cpudispatch-run --help)", a);
    }
  }
  if (!mode) die(k_exit_usage, "no mode given: --target T, --each-target, --cpu MODEL or --each-cpu (see --help)");
  const targets all = compiled_targets();
  if (!strcmp(mode, "--list-targets")) {
    const str s = joined(&all);
    printf("%s\n", str_of(&s));
    return 0;
  }
  if (!strcmp(mode, "--list-cpus")) {
    printf("%s\n", CPUD_RUN_MODELS);
    return 0;
  }
  if (i >= argc) die(k_exit_usage, "no command given after --");
  char **cmd = argv + i;

  if (!strcmp(mode, "--target")) {
    target want = baseline_target();
    if (strcmp(value, "baseline") != 0 && strcmp(value, "BASELINE") != 0 &&
        !parse_target(value, strlen(value), &want)) {
      str valid = {0};
      str_adds(&valid, "baseline");
      for (int f = 1; f <= CPUD_FEATURE_COUNT; ++f) str_word(&valid, cpud_feature_name(f));
      die(k_exit_unknown, "unknown target \"%s\"; valid names on " CPUD_ARCH ": %s (a group: A+B)", value, valid.s);
    }
    const target *found = NULL;
    for (size_t k = 0; k < all.n; ++k)
      if (!strcmp(all.v[k].name, want.name)) found = &all.v[k];
    if (!found) {
      const str s = joined(&all);
      die(k_exit_not_compiled, "no dispatch source of this build was compiled for %s; compiled targets: %s", want.name,
          str_of(&s));
    }
    if (lacks(want.t.members, cpud_detected_mask())) {
      fprintf(stderr, "cpudispatch-run: %s skipped: this CPU lacks it\n", want.name);
      return k_exit_skip;
    }
    const char *by = masked_by_env(found);
    if (by) {
      fprintf(stderr, "cpudispatch-run: %s skipped: %s=%s leaves it unusable\n", want.name, by, getenv(by));
      return k_exit_skip;
    }
    return run(cmd, found, &all, NULL);
  }
  g_each = !strcmp(mode, "--each-target") || !strcmp(mode, "--each-cpu");
  /* A test that dispatches nothing (a project marks it with
   * CPUDISPATCH_RUN=once in its environment) runs once, as it is: the
   * setups need not repeat it per target or model. */
  const char *once = getenv("CPUDISPATCH_RUN");
  if (g_each && once && *once) {
    if (strcmp(once, "once") != 0)
      die(k_exit_usage, "CPUDISPATCH_RUN=\"%s\": the one value is once (run the command once, as it is)", once);
    say("CPUDISPATCH_RUN=once: the command runs once, as it is");
    return run(cmd, NULL, NULL, NULL);
  }
  if (!strcmp(mode, "--each-target")) return each_target(cmd, &all);
  if (!strcmp(mode, "--cpu")) {
    if (!strs_contains(&models, value, strlen(value)))
      die(k_exit_unknown, "unknown CPU model \"%s\"; models for " CPUD_ARCH ": %s", value, CPUD_RUN_MODELS);
    need_qemu();
    return under_model(cmd, value, NULL);
  }
  /* --each-cpu */
  if (!models.n) die(k_exit_skip, "no emulated CPU models are listed for %s; nothing was run", CPUD_ARCH);
  need_qemu();
  tally t = {{0}, {0}, {0}};
  for (size_t k = 0; k < models.n; ++k) under_model(cmd, models.v[k], &t);
  return finish(&t, "model");
}
