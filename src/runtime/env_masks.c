/* SPDX-License-Identifier: MIT */
/* PREFIX_DISABLE_CPU_FEATURES / PREFIX_ENABLE_CPU_FEATURES.
 *
 * Rules (docs/runtime.md lists every message):
 *   a variable that names nothing (empty, or only separators) is unset;
 *   both set -> error; longer than 1024 bytes -> error;
 *   names are case-insensitive, separated by spaces, commas, tabs or line
 *   breaks; unknown name -> error listing the valid ones; a name of another
 *   arch, or a retired name -> warning, ignored (one setting serves every
 *   arch, and NumPy's names carry over); a value of ignored names only
 *   changes nothing;
 *   DISABLE of a baseline feature -> error; DISABLE X also disables every
 *   feature that implies X; DISABLE of a group also disables what the group
 *   adds to its base (X86_V3: AVX..MOVBE) and all that implies that, so
 *   none of its features stays on (an error if one is in the baseline);
 *   ENABLE of a feature this CPU/OS lacks -> error; ENABLE keeps only the
 *   listed features, what they imply and the baseline;
 *   a name that is not a dispatch target (nor implied by one) -> warning
 *   saying what it does (DISABLE: nothing; ENABLE: which targets stay);
 *   the targets are those this program's sources were compiled for where
 *   the records say (in->compiled), else the build's cpu-dispatch set. */
#include "env_masks.h"

#include <stdio.h>
#include <string.h>

#include "feature_table.h"
#include "names.h"

static const char k_env_disable[] = CPUD_ENV_PREFIX "_DISABLE_CPU_FEATURES";
static const char k_env_enable[] = CPUD_ENV_PREFIX "_ENABLE_CPU_FEATURES";

/* Space-padded list of the names other arches use, so that one setting can
 * name features of several arches. */
static const char k_foreign[] = " " CPUD_FOREIGN_FEATURES " ";
static const char k_retired[] = " " CPUD_RETIRED_FEATURES " ";

/* Room kept at the end of the warnings for the line that counts the ones
 * that did not fit. */
#define WARNING_RESERVE 128

/* One warning line (ending in a newline): not again if already given (a
 * name repeated in the value), counted in *dropped if it does not fit
 * whole, so no line is ever cut. */
static void warn(cpud__env_outcome *out, const char *line, int *dropped) {
  const size_t n = strlen(out->warning), len = strlen(line);
  for (const char *p = out->warning; (p = strstr(p, line)) != NULL; ++p)
    if (p == out->warning || p[-1] == '\n') return;
  if (n + len + WARNING_RESERVE < sizeof out->warning) {
    memcpy(out->warning + n, line, len + 1);
  } else {
    ++*dropped;
  }
}

/* A token of the value as a message shows it: printable ASCII as it is,
 * '"' and '\\' and every other byte (control bytes, UTF-8) as \xHH; at
 * most 48 bytes of it, then "..." and, after the quotes, its length. */
static void show_token(const char *start, size_t n, char *buf, size_t cap) {
  size_t o = 0;
  buf[0] = 0;
  for (size_t i = 0; i < n && i < 48 && o + 5 < cap; ++i) {
    const unsigned char c = (unsigned char)start[i];
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      buf[o++] = (char)c;
    } else {
      o += (size_t)snprintf(buf + o, cap - o, "\\x%02x", c);
    }
  }
  buf[o] = 0;
  if (n > 48)
    snprintf(buf + o, cap - o, "...\" (%zu bytes)", n);
  else
    snprintf(buf + o, cap - o, "\"");
}

/* What a name was compared with, for the warnings. */
static const char *what_targets(const cpud__env_inputs *in) {
  return in->compiled ? "target any dispatch source of this program was compiled for"
                      : "dispatch target of this build";
}

static int in_list(const char *list, const char *tok) {
  char pad[72];
  snprintf(pad, sizeof pad, " %s ", tok);
  for (char *p = pad; *p; ++p)
    if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 'a' + 'A');
  return strstr(list, pad) != NULL;
}

/* A last warning line counting those that did not fit. */
static void with_dropped(cpud__env_outcome *out, const char *var, int dropped) {
  if (dropped > 0) {
    const size_t n = strlen(out->warning);
    snprintf(out->warning + n, sizeof out->warning - n, "%s: %d more warnings not shown\n", var, dropped);
  }
}

const char *cpud__names_something(const char *v) {
  const char *p = v, *start;
  return v && cpud__next_name(&p, &start) ? v : NULL;
}

void cpud__apply_env_masks(const cpud__env_inputs *in, cpud__env_outcome *out) {
  out->ok = 1;
  out->usable = in->usable;
  out->error[0] = 0;
  out->warning[0] = 0;
  const char *dis = cpud__names_something(in->disable);
  const char *en = cpud__names_something(in->enable);
  if (dis && en) {
    out->ok = 0;
    snprintf(out->error, sizeof out->error, "%s and %s are both set; set at most one of them", k_env_disable,
             k_env_enable);
    return;
  }
  const char *var = dis ? k_env_disable : k_env_enable;
  const char *val = dis ? dis : en;
  if (!val) return;
  size_t len = strlen(val);
  if (len > CPUD__ENV_MAX_LEN) {
    out->ok = 0;
    snprintf(out->error, sizeof out->error, "%s is %zu bytes long; at most %d are accepted", var, len,
             CPUD__ENV_MAX_LEN);
    return;
  }

  cpud_mask named = cpud_mask_none(), keep = cpud_mask_none();
  int odd[CPUD_FEATURE_COUNT + 1], n_odd = 0; /* ENABLE names that are not dispatch targets */
  int dropped = 0;                            /* warnings that did not fit */
  const char *p = val, *start;
  for (size_t n; (n = cpud__next_name(&p, &start)) != 0;) {
    char tok[64];
    snprintf(tok, sizeof tok, "%.*s", (int)(n < 63 ? n : 63), start);
    int id = n < 63 ? cpud_feature_by_name(tok) : 0;
    if (!id) {
      if (n < 63 && in_list(k_foreign, tok)) {
        char w[256];
        snprintf(w, sizeof w, "%s: \"%s\" is not a feature of %s; ignored\n", var, tok, CPUD_ARCH);
        warn(out, w, &dropped);
        continue;
      }
      if (n < 63 && in_list(k_retired, tok)) {
        char w[256];
        snprintf(w, sizeof w, "%s: \"%s\" is retired on %s (no current compiler or CPU offers it); ignored\n", var,
                 tok, CPUD_ARCH);
        warn(out, w, &dropped);
        continue;
      }
      char valid[1200], shown[256];
      cpud__mask_names(cpud_mask_all(), valid, sizeof valid);
      show_token(start, n, shown, sizeof shown);
      out->ok = 0;
      if (CPUD_FEATURE_COUNT == 0) /* an arch without a table: nothing is dispatched there */
        snprintf(out->error, sizeof out->error, "%s: unknown CPU feature \"%s; %s has no CPU features in cpudispatch's tables",
                 var, shown, CPUD_ARCH);
      else
        snprintf(out->error, sizeof out->error, "%s: unknown CPU feature \"%s; valid names on %s: %s", var, shown,
                 CPUD_ARCH, valid);
      return;
    }
    const char *name = cpud_feature_name(id);
    if (dis && cpud_mask_has(in->baseline, id)) {
      char base[512];
      cpud__mask_names(in->baseline, base, sizeof base);
      out->ok = 0;
      snprintf(out->error, sizeof out->error,
               "%s: cannot disable %s: it is part of this build's baseline (%s), which every CPU running it "
               "must have",
               var, name, base);
      return;
    }
    if (dis && !cpud__mask_empty(cpud_mask_and(cpud__adds_mask(id), in->baseline))) {
      char base[512], in_base[512];
      cpud__mask_names(in->baseline, base, sizeof base);
      cpud__mask_names(cpud_mask_and(cpud__adds_mask(id), in->baseline), in_base, sizeof in_base);
      out->ok = 0;
      snprintf(out->error, sizeof out->error,
               "%s: cannot disable %s: what it adds (%s) is part of this build's baseline (%s), which every "
               "CPU running it must have",
               var, name, in_base, base);
      return;
    }
    if (en && !cpud_mask_has(in->usable, id)) {
      out->ok = 0;
      snprintf(out->error, sizeof out->error,
               "%s: cannot enable %s: this CPU (or its operating system) does not support it", var, name);
      return;
    }
    if (dis ? cpud__mask_empty(cpud_mask_and(cpud__removes_mask(id), in->dispatched))
            : !cpud_mask_has(in->dispatched, id) && !cpud_mask_has(in->baseline, id)) {
      if (dis) {
        /* Nothing compiled is or implies what it turns off. */
        char w[256];
        snprintf(w, sizeof w, "%s: %s is not a %s; it changes nothing\n", var, name, what_targets(in));
        warn(out, w, &dropped);
      } else if (!cpud_mask_has(named, id)) {
        odd[n_odd++] = id; /* said below, once the targets left are known */
      }
    }
    named = cpud_mask_with(named, id);
    keep = cpud_mask_or(cpud_mask_with(keep, id), cpud__implied_mask(id));
  }

  if (cpud__mask_empty(named)) { /* only ignored names: nothing to mask */
    with_dropped(out, var, dropped);
    return;
  }
  if (dis) {
    cpud_mask drop = cpud_mask_none();
    for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
      if (cpud_mask_has(named, id)) drop = cpud_mask_or(drop, cpud__removes_mask(id));
    out->usable = cpud_mask_andnot(out->usable, drop);
  } else {
    out->usable = cpud_mask_and(out->usable, cpud_mask_or(keep, in->baseline));
  }
  if (n_odd) {
    /* ENABLE keeps only what it names and implies: a name that is no
     * target still switches off every target it does not imply. */
    const cpud_mask left = cpud_mask_and(out->usable, in->targets);
    char targets[512];
    cpud__mask_names(left, targets, sizeof targets);
    for (int i = 0; i < n_odd; ++i) {
      char w[768];
      snprintf(w, sizeof w, "%s: %s is not a %s; only the targets the names imply stay usable: %s\n", var,
               cpud_feature_name(odd[i]), what_targets(in), targets[0] ? targets : "none (the baseline builds run)");
      warn(out, w, &dropped);
    }
  }
  with_dropped(out, var, dropped);
}
