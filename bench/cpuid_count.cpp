// Counts the CPUID instructions each detector executes, exactly: Linux's
// CPUID faulting (arch_prctl ARCH_SET_CPUID) makes every CPUID trap; the
// handler counts it, runs it with faulting briefly off, and resumes.
// Prints one line per detector and exits 0 (the counts are figures, not a
// check). Exit 77 where the CPU/kernel cannot fault.
#include <asm/prctl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <cpuid.h>
#include <cstdio>
#include <cstring>

#include <cpu_features/cpuinfo_x86.h>

#include "cpudispatch/cpudispatch.h"
#include <cstdint>

#include "detect.h"

namespace {

volatile unsigned g_count = 0;

long set_cpuid(int on) { return syscall(SYS_arch_prctl, ARCH_SET_CPUID, on); }

void on_segv(int, siginfo_t *, void *ctx_v) {
  auto *ctx = static_cast<ucontext_t *>(ctx_v);
  greg_t *g = ctx->uc_mcontext.gregs;
  const unsigned char *ip = reinterpret_cast<const unsigned char *>(g[REG_RIP]);
  if (ip[0] != 0x0f || ip[1] != 0xa2) {  // not CPUID: a real crash
    signal(SIGSEGV, SIG_DFL);
    return;
  }
  ++g_count;
  unsigned a, b, c, d;
  set_cpuid(1);
  __cpuid_count(static_cast<unsigned>(g[REG_RAX]), static_cast<unsigned>(g[REG_RCX]), a, b, c, d);
  set_cpuid(0);
  g[REG_RAX] = a;
  g[REG_RBX] = b;
  g[REG_RCX] = c;
  g[REG_RDX] = d;
  g[REG_RIP] += 2;
}

template <class F>
unsigned count(F &&f) {
  unsigned before = g_count;
  set_cpuid(0);
  f();
  set_cpuid(1);
  return g_count - before;
}

// libgcc's __cpu_model starts with the vendor field. Its address comes from
// inline assembly: a C++ declaration of __cpu_model, even one under an asm
// label, clashes with the compilers' own declaration for the builtins
// (Clang 14 -O2 aborts with a corrupted heap generating the function that
// stores through such a declaration, or not, depending on the rest of the
// file).
unsigned *libgcc_cpu_vendor() {
  unsigned *p;
  __asm__("leaq __cpu_model(%%rip), %0" : "=r"(p));
  return p;
}

// Out of line, no lambda around the large X86Info temporary: Clang 14
// crashes generating that lambda.
__attribute__((noinline)) int cpu_features_avx2() {
  const cpu_features::X86Info info = cpu_features::GetX86Info();
  return info.features.avx2;
}

__attribute__((noinline)) int libgcc_avx2() {
  *libgcc_cpu_vendor() = 0;
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}

// Every word of a set, folded into one for the sink.
std::uint64_t fold(const cpud::feature_set &s) {
  std::uint64_t x = 0;
  for (std::uint64_t w : s.w) x ^= w;
  return x;
}

}  // namespace

int main() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &sa, nullptr);
  if (set_cpuid(0) != 0) {
    std::printf("CPUID faulting is not available here; nothing counted\n");
    return 77;
  }
  set_cpuid(1);
  volatile std::uint64_t sink = 0;
  using cpud::internal::every_feature;
  using cpud::internal::startup_wanted;
  // Start-up reads the rows of the build's features; introspection
  // (cpud_detected_mask) reads every row once.
  unsigned ours = count([&] { sink = fold(cpud::internal::detect_raw(startup_wanted())); });
  unsigned ours_no_libc = count([&] { sink = fold(cpud::internal::detect_raw_with(false, startup_wanted())); });
  unsigned ours_every = count([&] { sink = fold(cpud::internal::detect_raw(every_feature())); });
  unsigned cf = count([&] { sink = static_cast<std::uint64_t>(cpu_features_avx2()); });
  unsigned gcc = count([&] { sink = static_cast<std::uint64_t>(libgcc_avx2()); });
  (void)sink;
  std::printf("cpuid_per_init cpudispatch %u\n", ours);
  std::printf("cpuid_per_init cpudispatch_without_glibc_copy %u\n", ours_no_libc);
  std::printf("cpuid_per_init cpudispatch_every_row %u\n", ours_every);
  std::printf("cpuid_per_init cpu_features_GetX86Info %u\n", cf);
  std::printf("cpuid_per_init libgcc_builtin_cpu_init %u\n", gcc);
  // The counts depend on the C library's version and on the CPU: they are
  // benchmark figures (bench/report.py prints them), not a pass/fail check.
  return 0;
}
