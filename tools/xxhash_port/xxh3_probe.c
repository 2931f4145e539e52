/* SPDX-License-Identifier: MIT */
/*
 * Which build of xxh3.dispatch.c each public entry point runs: calls the
 * eight XXH3_*_dispatch functions (one-shot and streaming, on a long input),
 * then prints, from cpudispatch's registry, "NAME TARGET" for each
 * dispatched function, and "ok" if every hash equals the baseline build's.
 * Linked as xxhsum is (its own xxh3_dispatch_api.c, the kernels, the
 * runtime), so it selects as xxhsum does under the same environment:
 * tools/xxhash-port.py runs it under cpudispatch-run's setups and checks the
 * target against each setup's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xxh3.dispatch.h"
#include "cpudispatch/functions.h"

#define XXH_STATIC_LINKING_ONLY
#define XXH_DISPATCH_DISABLE_REPLACE
#include "xxh_x86dispatch.h"

/* The baseline build, called directly: the reference. */
CPUD_DISPATCH_DECLARE(XXH64_hash_t xxh3_64, (const void *, size_t))
CPUD_DISPATCH_DECLARE(XXH128_hash_t xxh3_128_seed, (const void *, size_t, XXH64_hash_t))
CPUD_DISPATCH_DECLARE(XXH_errorcode xxh3_64_update, (void *, const void *, size_t))

int main(void) {
  enum { n = 100003 };
  unsigned char *buf = malloc(n);
  unsigned char secret[192];
  size_t i;
  int bad = 0;
  const cpud_function *f;
  XXH3_state_t *st = XXH3_createState();
  if (!buf || !st) return 2;
  for (i = 0; i < n; ++i) buf[i] = (unsigned char)(i * 2654435761u >> 13);
  memcpy(secret, buf + 7, sizeof secret);

  bad |= XXH3_64bits_dispatch(buf, n) != xxh3_64_baseline(buf, n);
  (void)XXH3_64bits_withSeed_dispatch(buf, n, 42);
  (void)XXH3_64bits_withSecret_dispatch(buf, n, secret, sizeof secret);
  (void)XXH3_128bits_dispatch(buf, n);
  {
    XXH128_hash_t a = XXH3_128bits_withSeed_dispatch(buf, n, 7), b = xxh3_128_seed_baseline(buf, n, 7);
    bad |= a.low64 != b.low64 || a.high64 != b.high64;
  }
  (void)XXH3_128bits_withSecret_dispatch(buf, n, secret, sizeof secret);
  {
    XXH64_hash_t d;
    XXH3_64bits_reset(st);
    XXH3_64bits_update_dispatch(st, buf, n / 3);
    XXH3_64bits_update_dispatch(st, buf + n / 3, n - n / 3);
    d = XXH3_64bits_digest(st);
    XXH3_64bits_reset(st);
    xxh3_64_update_baseline(st, buf, n);
    bad |= d != XXH3_64bits_digest(st);
  }
  XXH3_128bits_reset(st);
  XXH3_128bits_update_dispatch(st, buf, n);
  (void)XXH3_128bits_digest(st);

  for (f = cpud_functions(); f; f = f->next) {
    const int s = f->selected();
    printf("%s %s\n", f->name, s < 0 ? "-" : f->target_name(s));
  }
  printf("%s\n", bad ? "MISMATCH" : "ok");
  XXH3_freeState(st);
  free(buf);
  return bad;
}
