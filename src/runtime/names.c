/* SPDX-License-Identifier: MIT */
/* The one reading of feature lists and target names in the runtime's
 * language (names.h). */
#include "names.h"

#include <stdint.h>
#include <string.h>

#include "feature_table.h"

/* The Python reader's five separators (src/build_side/cpudispatch_grammar.py). */
static int is_sep(char c) { return c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r'; }

size_t cpud__next_name(const char **p, const char **start) {
  const char *s = *p;
  while (*s && is_sep(*s)) ++s;
  const char *e = s;
  while (*e && !is_sep(*e)) ++e;
  *start = s;
  *p = e;
  return (size_t)(e - s);
}

int cpud__parse_target_name(const char *text, size_t len, cpud__target_name *out) {
  const char *p = text, *const end = text + len;
  cpud_mask given = cpud_mask_none(), implied = cpud_mask_none();
  for (;;) {
    const char *e = p;
    while (e < end && *e != '+' && !(*e == '_' && e + 1 < end && e[1] == '_')) ++e;
    char part[64]; /* longer than any name */
    const size_t n = (size_t)(e - p);
    if (n >= sizeof part) return 0;
    memcpy(part, p, n);
    part[n] = 0;
    const int id = cpud_feature_by_name(part); /* 0 for an empty part too */
    if (!id) return 0;
    given = cpud_mask_with(given, id);
    implied = cpud_mask_or(implied, cpud__implied_mask(id));
    if (e == end) break;
    p = e + (*e == '+' ? 1 : 2);
  }
  const cpud_mask kept = cpud_mask_andnot(cpud_mask_andnot(given, implied), cpud_baseline_mask());
  const cpud_mask members = cpud__mask_empty(kept) ? given : kept;
  out->members = members;
  out->count = 0;
  for (int id = CPUD_FEATURE_COUNT; id >= 1; --id)
    if (cpud_mask_has(members, id)) out->ids[out->count++] = id;
  return 1;
}

/* Lexicographic on the members' ids, highest first, is the order of the
 * sets read as numbers: the highest id in which they differ decides. */
int cpud__ranks_below(cpud_mask a, cpud_mask b) {
  for (int id = CPUD_FEATURE_COUNT; id >= 1; --id) {
    const int x = cpud_mask_has(a, id), y = cpud_mask_has(b, id);
    if (x != y) return x < y;
  }
  return 0;
}
