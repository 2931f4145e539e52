/* SPDX-License-Identifier: MIT */
/* cpudispatch: the attributes its headers share (cpudispatch.h, and
 * dtype.hpp, which needs no runtime).
 *
 * Windows (PE/COFF) has no symbol visibility: a DLL exports only what is
 * marked dllexport or listed in a .def file, so the runtime's symbols stay
 * inside each DLL that links it without any attribute. */
#ifndef CPUDISPATCH_ATTRIBUTES_H_
#define CPUDISPATCH_ATTRIBUTES_H_

#if defined(_WIN32) && (defined(__GNUC__) || defined(__clang__))
#define CPUD_HIDDEN
#define CPUD_NORETURN __attribute__((noreturn))
#elif defined(__GNUC__) || defined(__clang__)
#define CPUD_HIDDEN __attribute__((visibility("hidden")))
#define CPUD_NORETURN __attribute__((noreturn))
#else
#define CPUD_HIDDEN
#define CPUD_NORETURN
#endif

/* Casts and the null pointer in the headers that C and C++ share, so that
 * neither -Wold-style-cast nor -Wzero-as-null-pointer-constant speaks up in
 * a C++ file that includes them (test strict-flags). */
#ifdef __cplusplus
#define CPUD__CAST(T, X) (static_cast<T>(X))
#define CPUD__NULL nullptr
#else
#define CPUD__CAST(T, X) ((T)(X))
#define CPUD__NULL 0
#endif

#endif /* CPUDISPATCH_ATTRIBUTES_H_ */
