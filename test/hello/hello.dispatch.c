/* The seed example: one C source compiled for "baseline SSE42 AVX512F".
 * Each build appends its target name and computes a sum with an instruction
 * only its target has, so a target built with the wrong flags fails to
 * compile and a wrongly dispatched one gives itself away. */
#include "hello.dispatch.h"

#include <string.h>

#if defined(CPUD_TARGET_AVX512F) && !defined(__AVX512F__)
#error "AVX512F target compiled without -mavx512f"
#endif
#if defined(CPUD_TARGET_SSE42) && !defined(__SSE4_2__)
#error "SSE42 target compiled without -msse4.2"
#endif

int CPUD_FN(hello)(char *log, const int *v16) {
  strcat(log, CPUD_TARGET_NAME " ");
#if defined(CPUD_HAVE_AVX512F)
  return _mm512_reduce_add_epi32(_mm512_loadu_si512(v16));
#elif defined(CPUD_HAVE_SSE42)
  __m128i acc = _mm_setzero_si128();
  for (int i = 0; i < 16; i += 4) acc = _mm_add_epi32(acc, _mm_loadu_si128((const __m128i *)(v16 + i)));
  acc = _mm_hadd_epi32(acc, acc);
  acc = _mm_hadd_epi32(acc, acc);
  return _mm_extract_epi32(acc, 0);
#else
  int s = 0;
  for (int i = 0; i < 16; ++i) s += v16[i];
  return s;
#endif
}
