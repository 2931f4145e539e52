/* SPDX-License-Identifier: MIT */
/*
 * cpudispatch/target_mark.h: the mark of an object compiled for a dispatch
 * target, for cpudispatch-check (src/build_side/cpudispatch_check.py),
 * which reads a library's target from it: a `.cpud_target` section holding
 * "cpudispatch target TARGET". cpudispatch_config.h includes it; the
 * generator's NumPy format puts it on NumPy's sources with -include, so
 * their objects are checked and renamed as a cpudispatch loop's are.
 * Nothing is marked for baseline code (CPUD_TARGET undefined, or
 * CPUD_TARGET_IS_BASELINE).
 */
#ifndef CPUDISPATCH_TARGET_MARK_H_
#define CPUDISPATCH_TARGET_MARK_H_
#if defined(CPUD_TARGET) && !defined(CPUD_TARGET_IS_BASELINE) && (defined(__GNUC__) || defined(__clang__))
#define CPUD_MARK_STR_(x) #x
#define CPUD_MARK_STR(x) CPUD_MARK_STR_(x)
#if !defined(__ASSEMBLER__)
__attribute__((used, section(".cpud_target"))) static const char cpud_target_marker_[] = "cpudispatch target " CPUD_MARK_STR(CPUD_TARGET);
#else
/* An assembly dispatch source (.S, docs/assembly.md): the same mark. COFF's
 * assembler has no .pushsection: there the mark leaves it in .text. */
#if defined(_WIN32)
        .section .cpud_target, "dr"
        .ascii "cpudispatch target "
        .asciz CPUD_MARK_STR(CPUD_TARGET)
        .text
#else
        .pushsection .cpud_target, "a"
        .ascii "cpudispatch target "
        .asciz CPUD_MARK_STR(CPUD_TARGET)
        .popsection
#endif
#endif
#endif
#endif /* CPUDISPATCH_TARGET_MARK_H_ */
