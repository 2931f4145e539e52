/* The same trivial kernel for the peers' mechanisms, in its own TU so no call
 * can be inlined: compiler function multiversioning through an ifunc
 * resolved by the dynamic loader, and a plain direct-call copy. */
__attribute__((noinline)) int bench_add_direct(int a, int b) { return a + b; }

#if defined(__clang__) && __clang_major__ < 15
/* Clang 14's target_clones cannot be called from another TU (its ifunc is
 * named bench_add_clones.ifunc), so the same ifunc is spelled out. */
__attribute__((target("avx512f"))) static int add_avx512f(int a, int b) { return a + b; }
__attribute__((target("avx2"))) static int add_avx2(int a, int b) { return a + b; }
static int add_default(int a, int b) { return a + b; }
__attribute__((used)) static int (*resolve_add(void))(int, int) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") ? add_avx512f : __builtin_cpu_supports("avx2") ? add_avx2 : add_default;
}
int bench_add_clones(int a, int b) __attribute__((ifunc("resolve_add")));
#else
__attribute__((target_clones("avx512f", "avx2", "default"))) int bench_add_clones(int a, int b) { return a + b; }
#endif
