// A dispatch source whose list names groups (meson.build): every build
// uses the instructions of each member it was compiled for, so a group
// built without one member's flags does not compile, and a wrongly
// dispatched build gives itself away in grouped_main.cpp's checks.
#include "grouped.dispatch.h"

#include <cstdint>
#include <cstring>

// The flags of every member reached the compiler.
#if (defined(CPUD_HAVE_FMA3) && !defined(__FMA__)) || (defined(CPUD_HAVE_AVX2) && !defined(__AVX2__)) || \
    (defined(CPUD_HAVE_VPCLMULQDQ) && !defined(__VPCLMULQDQ__)) ||                                       \
    (defined(CPUD_HAVE_AVX512_SKX) && !defined(__AVX512BW__)) ||                                         \
    (defined(CPUD_HAVE_ASIMDDP) && !defined(__ARM_FEATURE_DOTPROD)) ||                                   \
    (defined(CPUD_HAVE_ASIMDHP) && !defined(__ARM_FEATURE_FP16_VECTOR_ARITHMETIC)) ||                    \
    (defined(CPUD_HAVE_RVV) && !defined(__riscv_vector)) || (defined(CPUD_HAVE_ZBB) && !defined(__riscv_zbb))
#error "a member of this target was compiled without its flags"
#endif

#if defined(CPUD_HAVE_ASIMDDP) || defined(CPUD_HAVE_ASIMDHP)
namespace CPUD_TARGET_NS {
// Across-vector adds: one instruction in AArch64, pairwise adds in AArch32
// (32-bit arm has ASIMDDP and ASIMDHP too).
inline std::uint32_t add_across(uint32x4_t x) {
#if defined(__aarch64__)
  return vaddvq_u32(x);
#else
  const uint32x2_t h = vadd_u32(vget_low_u32(x), vget_high_u32(x));
  return vget_lane_u32(vpadd_u32(h, h), 0);
#endif
}
inline std::uint32_t add_across(uint16x8_t x) {
#if defined(__aarch64__)
  return vaddvq_u16(x);
#else
  return add_across(vpaddlq_u16(x));
#endif
}
}  // namespace CPUD_TARGET_NS
#endif

// a * b + c: fused where the build has FMA3, else with the product rounded
// first (volatile: the compiler may not contract it).
double CPUD_FN(grouped_fma)(double a, double b, double c, const char **target) {
  *target = CPUD_TARGET_NAME;
#if defined(CPUD_HAVE_FMA3)
  return _mm_cvtsd_f64(_mm_fmadd_sd(_mm_set_sd(a), _mm_set_sd(b), _mm_set_sd(c)));
#else
  volatile double p = a * b;
  return p + c;
#endif
}

// Of 32 bytes: the carry-less product of the first two 64-bit words (low
// half), the dot product of the two 16-byte halves, the byte sum and the
// count of set bits, each with a member's instructions where the build has
// it; the same number from every build.
std::uint64_t CPUD_FN(grouped_mix)(const std::uint8_t *v) {
  std::uint64_t x, y, clmul = 0;
  std::memcpy(&x, v, 8);
  std::memcpy(&y, v + 8, 8);
#if defined(CPUD_HAVE_VPCLMULQDQ) && defined(CPUD_HAVE_AVX512F)
  const __m512i p = _mm512_clmulepi64_epi128(_mm512_set1_epi64(static_cast<long long>(x)),
                                             _mm512_set1_epi64(static_cast<long long>(y)), 0x00);
  std::uint64_t lanes[8];  // (a store: GCC 12 warns of _mm512_castsi512_si128's undefined upper half)
  _mm512_storeu_si512(lanes, p);
  clmul = lanes[0];
#else
  for (int i = 0; i < 64; ++i)
    if (y >> i & 1) clmul ^= x << i;
#endif
  std::uint32_t dot = 0;
#if defined(CPUD_HAVE_ASIMDDP)
  dot = CPUD_TARGET_NS::add_across(vdotq_u32(vdupq_n_u32(0), vld1q_u8(v), vld1q_u8(v + 16)));
#else
  for (int i = 0; i < 16; ++i) dot += static_cast<std::uint32_t>(v[i]) * v[16 + i];
#endif
  std::uint32_t sum = 0;
#if defined(CPUD_HAVE_AVX2)
  const __m256i s = _mm256_sad_epu8(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(v)), _mm256_setzero_si256());
#if defined(__x86_64__)
  sum = static_cast<std::uint32_t>(_mm256_extract_epi64(s, 0) + _mm256_extract_epi64(s, 1) +
                                   _mm256_extract_epi64(s, 2) + _mm256_extract_epi64(s, 3));
#else  // 32-bit x86 has no 64-bit extract; each sum fits the lane's low half
  sum = static_cast<std::uint32_t>(_mm256_extract_epi32(s, 0) + _mm256_extract_epi32(s, 2) +
                                   _mm256_extract_epi32(s, 4) + _mm256_extract_epi32(s, 6));
#endif
#elif defined(CPUD_HAVE_ASIMDHP)
  // Half floats hold the integers below 2048 exactly: each lane adds four bytes.
  for (int i = 0; i < 32; i += 16) {
    const float16x8_t lo = vcvtq_f16_u16(vmovl_u8(vld1_u8(v + i)));
    const float16x8_t hi = vcvtq_f16_u16(vmovl_u8(vld1_u8(v + i + 8)));
    sum += CPUD_TARGET_NS::add_across(vcvtq_u16_f16(vaddq_f16(lo, hi)));
  }
#else
  for (int i = 0; i < 32; ++i) sum += v[i];
#endif
  std::uint64_t bits = 0;
#if defined(CPUD_HAVE_ZBB)
  __asm__("cpop %0, %1" : "=r"(bits) : "r"(x));
#else
  for (std::uint64_t w = x; w; w &= w - 1) ++bits;
#endif
#if defined(CPUD_HAVE_RVV)
  // The vector unit doubles the count (vadd of a vector with itself).
  std::int32_t in[4] = {static_cast<std::int32_t>(bits), 0, 0, 0}, out[4];
  unsigned long vl;
  __asm__ volatile("vsetivli %0, 4, e32, m1, ta, ma\n\t"
                   "vle32.v v8, (%1)\n\t"
                   "vadd.vv v8, v8, v8\n\t"
                   "vse32.v v8, (%2)"
                   : "=&r"(vl) : "r"(in), "r"(out)
#if defined(__clang__)
                   : "v8", "memory");
#else
                   : "memory");
#endif
  bits = static_cast<std::uint64_t>(out[0]) / 2;
#endif
  return clmul ^ (static_cast<std::uint64_t>(dot) << 32) ^ (static_cast<std::uint64_t>(sum) << 8) ^ (bits << 56);
}
