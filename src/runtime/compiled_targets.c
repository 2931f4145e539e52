/* SPDX-License-Identifier: MIT */
/* The compiled-target records of this copy's object (compiled_targets.h):
 * ELF notes of type CPUD__NOTE_TYPE. Layer 2. */
#include "compiled_targets.h"

#include <string.h>

#include "cpudispatch/compiled.h"
#include "feature_table.h"
#include "loaded_objects.h"

typedef struct records {
  int found;
  cpud_mask members, implied;
} records;

/* Only this build's records: another library linked into the same
 * program (statically) leaves its own, under its own namespace id. */
static int on_compiled_note(const unsigned char *desc, uint32_t size, void *arg) {
  records *r = (records *)arg;
  if (size != sizeof(uint32_t) * (1 + CPUD__NOTE_WORDS)) return 0;
  uint32_t ns, words[CPUD__NOTE_WORDS];
  memcpy(&ns, desc, sizeof ns);
  if (ns != CPUD_NAMESPACE_ID) return 0;
  memcpy(words, desc + sizeof ns, sizeof words);
  cpud_mask m;
  for (int i = 0; i < CPUD_MASK_WORDS; ++i) m.w[i] = words[2 * i] | (uint64_t)words[2 * i + 1] << 32;
  const cpud_mask f = cpud_mask_and(m, cpud__every_feature());
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    if (cpud_mask_has(f, id)) r->implied = cpud_mask_or(r->implied, cpud__implied_mask(id));
  r->members = cpud_mask_or(r->members, f);
  r->found = 1;
  return 0; /* every record counts */
}

void cpud__compiled_targets(int *known, cpud_mask *targets, cpud_mask *dispatched) {
  records r;
  memset(&r, 0, sizeof r);
  cpud__each_own_note(CPUD__NOTE_TYPE, &on_compiled_note, &r);
  if (!r.found) return; /* no dispatch source: the build's set stays */
  *known = 1;
  *targets = r.members;
  *dispatched = cpud_mask_or(r.members, r.implied);
}
