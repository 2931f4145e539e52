// What bench/call_cost.cpp's BM_seq_* variants call: a slot in memory that
// holds a pointer to the trivial kernel, and a stub that jumps through it
// (the shape of a PLT entry in front of an ifunc's GOT slot). Both are here,
// in their own translation unit, so that `call cpud_bench_seq_jmp_stub` in
// call_cost.cpp is a real direct call to another function. x86_64 only;
// elsewhere this file is empty.
#if defined(__x86_64__)

extern "C" {
int bench_add_direct(int, int);  // bench/peers_trivial.c

// Hidden, so that both compilers address it as slot(%rip) from the PIE,
// never through the GOT: the sequences measured are exactly those written.
__attribute__((visibility("hidden"))) int (*cpud_bench_seq_slot)(int, int) = bench_add_direct;
}

// jmp *slot(%rip), alone, aligned like a function.
__asm__(
    "\t.text\n"
    "\t.p2align 4\n"
    "\t.globl cpud_bench_seq_jmp_stub\n"
    "\t.hidden cpud_bench_seq_jmp_stub\n"
    "\t.type cpud_bench_seq_jmp_stub, @function\n"
    "cpud_bench_seq_jmp_stub:\n"
    "\tjmp *cpud_bench_seq_slot(%rip)\n"
    "\t.size cpud_bench_seq_jmp_stub, .-cpud_bench_seq_jmp_stub\n");

#endif
