// SPDX-License-Identifier: MIT
// Choosing a kernel by the types of its arguments: each candidate signature
// is rated by the conversions the arguments need, and the best rating wins
// (Numba's overload selection; docs/typed.md). Header-only, C++17.
#pragma once

#include <cstddef>
#include <string>

#include "cpudispatch/dtype.hpp"

CPUD_NAMESPACE_BEGIN

// The loosest conversion a caller accepts. Default safe: a precompiled
// library cannot compile a new specialisation, so a lossy call must be asked
// for.
enum class casting : std::uint8_t { exact, promote, safe, unsafe };

constexpr const char *casting_name(casting c) {
  constexpr const char *names[] = {"exact", "promote", "safe", "unsafe"};
  return names[static_cast<int>(c)];
}

// What a tie at the best rating does: an error naming the tied candidates;
// the most specific of them (each of its parameter types converts exactly,
// by promotion or safely to the other's), if there is exactly one; or the
// first of them in the candidates' order (NumPy's loop search, which takes
// the first registered loop the inputs cast to: with loops listed narrowest
// first, (uint16, uint16) gets int32 although int32 -> float32 is unsafe).
enum class tie_rule : std::uint8_t { error, most_specific, first };

// How many conversions of each kind a candidate needs; fewer unsafe first,
// then fewer safe, then fewer promotions.
struct rating {
  int unsafe = 0, safe = 0, promote = 0;
  constexpr bool operator<(const rating &o) const {
    return unsafe != o.unsafe ? unsafe < o.unsafe : safe != o.safe ? safe < o.safe : promote < o.promote;
  }
  constexpr bool operator==(const rating &o) const {
    return unsafe == o.unsafe && safe == o.safe && promote == o.promote;
  }
};

// A candidate: the parameter types of one kernel.
struct signature {
  const dtype *types;
  int arity;
};

constexpr int k_max_tied = 8;

struct resolution {
  enum kind_t : std::uint8_t { ok, no_match, ambiguous } kind = no_match;
  int index = -1;      // the chosen candidate
  rating rank{};       // its rating
  int tied[k_max_tied] = {};  // ambiguous: the tied candidates (the first k_max_tied)
  int n_tied = 0;
};

// The conversion rules resolution uses: a function from (from, to) to a kind.
using conversion_fn = conversion (*)(dtype, dtype);

// Rates one candidate; false when an argument needs a conversion beyond
// `limit` (or none exists) or the arity differs.
inline bool rate(const dtype *args, int n, const signature &s, casting limit, conversion_fn conv, rating *out) {
  if (s.arity != n) return false;
  rating r;
  for (int i = 0; i < n; ++i) {
    const conversion c = conv(args[i], s.types[i]);
    if (c == conversion::none || static_cast<int>(c) > static_cast<int>(limit)) return false;
    r.unsafe += c == conversion::unsafe;
    r.safe += c == conversion::safe;
    r.promote += c == conversion::promote;
  }
  *out = r;
  return true;
}

// a is more specific than b: every parameter of a converts to b's at most
// safely, and they differ.
inline bool more_specific(const signature &a, const signature &b, conversion_fn conv) {
  bool differ = false;
  for (int i = 0; i < a.arity; ++i) {
    const conversion c = conv(a.types[i], b.types[i]);
    if (c == conversion::none || c == conversion::unsafe) return false;
    differ = differ || c != conversion::exact;
  }
  return differ;
}

// Picks the candidate with the best rating for the argument types.
inline resolution resolve(const dtype *args, int n, const signature *cands, int n_cands,
                          casting limit = casting::safe, tie_rule tie = tie_rule::error,
                          conversion_fn conv = can_convert) {
  resolution res;
  int best[k_max_tied];
  int n_best = 0, n_best_all = 0;
  rating best_rank;
  for (int c = 0; c < n_cands; ++c) {
    rating r;
    if (!rate(args, n, cands[c], limit, conv, &r)) continue;
    if (n_best_all == 0 || r < best_rank) {
      best_rank = r;
      n_best = n_best_all = 0;
    } else if (!(r == best_rank)) {
      continue;
    }
    if (n_best < k_max_tied) best[n_best++] = c;
    ++n_best_all;
  }
  if (n_best_all == 0) return res;
  res.rank = best_rank;
  if (n_best_all == 1) {
    res.kind = resolution::ok;
    res.index = best[0];
    return res;
  }
  if (tie == tie_rule::first) {  // best[] is in the candidates' order
    res.kind = resolution::ok;
    res.index = best[0];
    return res;
  }
  if (tie == tie_rule::most_specific && n_best_all <= k_max_tied) {
    int chosen = -1;
    for (int i = 0; i < n_best; ++i) {
      bool beats_all = true;
      for (int j = 0; j < n_best && beats_all; ++j)
        beats_all = i == j || more_specific(cands[best[i]], cands[best[j]], conv);
      if (beats_all) chosen = chosen < 0 ? best[i] : -2;
    }
    if (chosen >= 0) {
      res.kind = resolution::ok;
      res.index = chosen;
      return res;
    }
  }
  res.kind = resolution::ambiguous;
  res.n_tied = n_best;
  for (int i = 0; i < n_best; ++i) res.tied[i] = best[i];
  return res;
}

// "int64"; a composite type (types.hpp) as "type#CODE".
inline std::string type_text(dtype t) {
  return static_cast<int>(t) < k_builtin_dtypes ? dtype_name(t) : "type#" + std::to_string(static_cast<int>(t));
}

// How messages name a type: type_text, or a registry's names (types.hpp).
using type_name_fn = std::string (*)(dtype);

// "(int64, complex64)"
inline std::string signature_text(const dtype *types, int n, type_name_fn name = type_text) {
  std::string s = "(";
  for (int i = 0; i < n; ++i) s += std::string(i ? ", " : "") + name(types[i]);
  return s + ")";
}

// The error a failed resolution means, naming the operator, the arguments,
// the limit and, per candidate, why it was rejected or how it tied:
//   no kernel of 'add' accepts (int64, complex64) with casting=safe:
//   (float32, float32): int64->float32 is unsafe; ...
inline std::string explain(const char *op, const dtype *args, int n, const signature *cands, int n_cands,
                           const resolution &res, casting limit = casting::safe,
                           conversion_fn conv = can_convert, type_name_fn name = type_text) {
  std::string msg;
  if (res.kind == resolution::ok) return msg;
  if (res.kind == resolution::ambiguous) {
    msg = std::string("ambiguous call of '") + op + "' with " + signature_text(args, n, name) + ": " +
          std::to_string(res.n_tied) + " kernels tie at " + std::to_string(res.rank.unsafe) + " unsafe, " +
          std::to_string(res.rank.safe) + " safe, " + std::to_string(res.rank.promote) + " promoting conversions:";
    for (int i = 0; i < res.n_tied; ++i)
      msg += std::string(i ? "," : "") + " " + signature_text(cands[res.tied[i]].types, cands[res.tied[i]].arity, name);
    return msg;
  }
  msg = std::string("no kernel of '") + op + "' accepts " + signature_text(args, n, name) + " with casting=" +
        casting_name(limit) + ":";
  if (n_cands == 0) return msg + " it has no kernels";
  for (int c = 0; c < n_cands; ++c) {
    const signature &s = cands[c];
    msg += std::string(c ? ";" : "") + " " + signature_text(s.types, s.arity, name) + ": ";
    if (s.arity != n) {
      msg += "takes " + std::to_string(s.arity) + " arguments";
      continue;
    }
    for (int i = 0; i < n; ++i) {
      const conversion k = conv(args[i], s.types[i]);
      if (k == conversion::none || static_cast<int>(k) > static_cast<int>(limit)) {
        msg += name(args[i]) + "->" + name(s.types[i]) +
               (k == conversion::none ? " has no conversion" : std::string(" is ") + conversion_name(k));
        break;
      }
    }
  }
  return msg;
}

CPUD_NAMESPACE_END  // namespace cpud
