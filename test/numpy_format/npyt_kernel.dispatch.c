/* A dispatch source written as NumPy writes its own (no cpudispatch header):
 * its kernels named by NPY_MTARGETS_CURRENT (bare in the baseline build),
 * its code chosen by NPY_HAVE_<F>. Each NumPy name's define must agree
 * with what the compiler was told to use, both ways: a define without the
 * flag (or the flag without the define) is an #error here. */
#define NPYT_CAT_(a, b) a##_##b
#define NPYT_CAT(a, b) NPYT_CAT_(a, b)
#define NPYT_STR_(x) #x
#define NPYT_STR(x) NPYT_STR_(x)
#ifdef NPY_MTARGETS_CURRENT
#define NPYT_CURFX(name) NPYT_CAT(name, NPY_MTARGETS_CURRENT)
#define NPYT_HERE NPYT_STR(NPY_MTARGETS_CURRENT)
#else
#define NPYT_CURFX(name) name
#define NPYT_HERE "baseline"
#endif

#if defined(NPY_HAVE_SSE3) != defined(__SSE3__) || \
    defined(NPY_HAVE_SSSE3) != defined(__SSSE3__) || \
    defined(NPY_HAVE_SSE41) != defined(__SSE4_1__) || \
    defined(NPY_HAVE_POPCNT) != defined(__POPCNT__) || \
    defined(NPY_HAVE_SSE42) != defined(__SSE4_2__) || \
    defined(NPY_HAVE_AVX) != defined(__AVX__) || \
    defined(NPY_HAVE_F16C) != defined(__F16C__) || \
    defined(NPY_HAVE_FMA3) != defined(__FMA__) || \
    defined(NPY_HAVE_AVX2) != defined(__AVX2__) || \
    defined(NPY_HAVE_AVX512F) != defined(__AVX512F__) || \
    defined(NPY_HAVE_AVX512CD) != defined(__AVX512CD__) || \
    defined(NPY_HAVE_AVX512VL) != defined(__AVX512VL__) || \
    defined(NPY_HAVE_AVX512BW) != defined(__AVX512BW__) || \
    defined(NPY_HAVE_AVX512DQ) != defined(__AVX512DQ__)
#error "a NumPy HAVE_ define and the compiler's flags disagree"
#endif
#if defined(NPY_MTARGETS_CURRENT) == defined(NPY_MTARGETS_BASELINE)
#error "a build is the baseline's or a target's, one of the two"
#endif

#if defined(NPY_HAVE_AVX512_SKX) || defined(NPY_HAVE_AVX2) || defined(NPY_HAVE_SSE42)
#include <immintrin.h>
#endif

/* The target's own instructions, so that a wrong choice traps. */
int NPYT_CURFX(npyt_sum)(const int *v, int n) {
  int s = 0, i = 0;
#if defined(NPY_HAVE_AVX512_SKX)
  __m512i acc = _mm512_setzero_si512();
  for (; i + 16 <= n; i += 16) acc = _mm512_add_epi32(acc, _mm512_loadu_si512((const void *)(v + i)));
  s = _mm512_reduce_add_epi32(_mm512_maskz_mov_epi32(_cvtu32_mask16(0xffffu), acc));
#elif defined(NPY_HAVE_AVX2)
  __m256i acc = _mm256_setzero_si256();
  for (; i + 8 <= n; i += 8) acc = _mm256_add_epi32(acc, _mm256_loadu_si256((const __m256i *)(v + i)));
  acc = _mm256_hadd_epi32(acc, acc);
  acc = _mm256_hadd_epi32(acc, acc);
  s = _mm256_extract_epi32(acc, 0) + _mm256_extract_epi32(acc, 4);
#elif defined(NPY_HAVE_SSE42)
  __m128i acc = _mm_setzero_si128();
  for (; i + 4 <= n; i += 4) acc = _mm_add_epi32(acc, _mm_loadu_si128((const __m128i *)(v + i)));
  s = _mm_extract_epi32(acc, 0) + _mm_extract_epi32(acc, 1) + _mm_extract_epi32(acc, 2) + _mm_extract_epi32(acc, 3);
#endif
  for (; i < n; ++i) s += v[i];
  return s;
}
const char *NPYT_CURFX(npyt_name)(void) { return NPYT_HERE; }
