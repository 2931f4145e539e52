/* The same trivial kernel for the peers' mechanisms, in its own TU so no call
 * can be inlined: GCC/Clang function multiversioning (target_clones, an
 * ifunc resolved by the dynamic loader) and plain direct-call copies. */
__attribute__((noinline)) int bench_add_direct(int a, int b) { return a + b; }

__attribute__((target_clones("avx512f", "avx2", "default"))) int bench_add_clones(int a, int b) { return a + b; }
