# SPDX-License-Identifier: MIT
"""The generator's NumPy format (cpudispatch_gen.py --format numpy): NumPy's
own dispatch sources built by stock Meson, cpudispatch in place of the
`features` module of NumPy's Meson fork (docs/porting-from-numpy.md).

NumPy's C reads two things per dispatch source, both made here from the
build's Model and the table's NumPy names (its 'numpy' key):
  - a header (the name the source's callers include, argfunc.dispatch.h)
    that only re-points PREFIX MTARGETS_CONF_BASELINE(CB, ...) and
    MTARGETS_CONF_DISPATCH(TEST_CB, CB, ...): no include guard, since NumPy
    includes it several times, each include re-pointing the macros;
  - per target, -DPREFIX HAVE_<F> for every NumPy name, group name and
    passing extra the target implies, the target's flags, and
    -DPREFIX MTARGETS_CURRENT=<T> (-DPREFIX MTARGETS_BASELINE for the
    baseline build, whose kernels keep their bare names).
Beside them each target object gets cpudispatch's -DCPUD_TARGET and the
mark of cpudispatch/target_mark.h, so that cpudispatch-check orders,
renames and checks NumPy's objects as it does a cpudispatch loop's.

NumPy's rules kept (the fork's documented behaviour):
  - a source without "baseline" in its list builds no baseline object, and
    with one, a target the baseline covers is left out;
  - a group (AVX2+FMA3) is named by the members no other member implies,
    ascending interest, joined by "__" (FMA3__AVX2);
  - the run-time test of a target asks NumPy's names only: each implied
    name's (its group's words, else its name), ascending interest, where a
    name with a 'drop' replaces the names before it that match;
  - targets highest interest first (--keep-sort: as listed).
A target's objects are compiled for the table's rows its NumPy names mean,
and only those: what NumPy's run-time test does not ask for is never in
its flags.
"""
import os
import re
import subprocess
import tempfile

import cpudispatch_grammar as grammar

# The names' own compile checks (extras) fail on a missing intrinsic, not
# only on a missing flag: C compilers before GCC 14 merely warn of an
# undeclared function.
EXTRA_CHECK_ARGS = ['-Werror=implicit-function-declaration']


class NumpyError(Exception):
    pass


class NumpyNames:
    """A Model's NumPy names and what each means on this build."""

    def __init__(self, model):
        if not model.numpy:
            raise NumpyError('the NumPy format has no NumPy names for %s (the feature table\'s "numpy" key)'
                             % (model.arch or 'this arch'))
        self.m = model
        self.entry = {e['name']: e for e in model.numpy}
        self.order = [e['name'] for e in model.numpy]  # ascending interest
        self.interest = {e['name']: e['interest'] for e in model.numpy}
        self._rows = {n: frozenset(model.with_implied(e.get('means', [n]))) for n, e in self.entry.items()}

    def rows(self, names):
        """The table's rows code built for these NumPy names may use."""
        out = set()
        for n in names:
            out |= self._rows[n]
        return out

    def closure(self, names):
        """The NumPy names these imply (themselves too), ascending interest."""
        rows = self.rows(names)
        return [n for n in self.order if self._rows[n] <= rows]

    def enabled(self, name):
        """Whether this build compiles for the name: every row of it is in
        the baseline or an enabled dispatch target (the probes passed)."""
        ok = set(self.m.baseline) | set(self.m.targets)
        return not self.m.disabled and self._rows[name] <= ok

    def baseline_names(self):
        # disable-optimization: NumPy's baseline is then "none".
        base = set() if self.m.disabled else set(self.m.baseline)
        return [n for n in self.order if self._rows[n] <= base]

    def baseline_flags(self):
        return [] if self.m.disabled else self.m.merged_flags(set(self.m.baseline))

    def dispatch_names(self):
        base = self.baseline_names()
        return [n for n in self.order if n not in base and self.enabled(n)]

    def target_name(self, names):
        implied = {o for n in names for o in self.closure([n]) if o != n}
        top = [n for n in names if n not in implied] or [max(names, key=self.interest.get)]
        return grammar.GROUP_SEP.join(sorted(set(top), key=self.interest.get))

    def rank(self, names):
        """NumPy's sort key of a target: its highest name's interest, plus
        one per further name no other implies."""
        implied = {o for n in names for o in self.closure([n]) if o != n}
        top = [n for n in names if n not in implied]
        if not top:
            return max(self.interest[n] for n in names)
        return max(self.interest[n] for n in top) + len(top) - 1

    def detect(self, names):
        acc = []
        for n in self.closure(names):
            e = self.entry[n]
            if 'drop' in e:
                acc = [a for a in acc if not re.match(e['drop'], a)]
                vals = [n]
            else:
                vals = e.get('group') or [n]
            acc += [v for v in vals if v not in acc]
        return acc

    def flags(self, names):
        """The target's compiler flags: the merged flags of the baseline and
        the rows, then what NumPy adds for the names."""
        out = self.m.merged_flags(set(self.m.baseline) | self.rows(names))
        for n in self.closure(names):
            out += [f for f in self.entry[n].get('flags', []) if f not in out]
        return out

    def defines(self, names, extra_ok):
        """NumPy's HAVE_ names of a target: each implied name, its group's
        words and its extras that compile (extra_ok(name, extra, program))."""
        out = []
        for n in self.closure(names):
            e = self.entry[n]
            out += [d for d in [n] + e.get('group', []) if d not in out]
            out += [x for x, prog in sorted(e.get('extras', {}).items()) if x not in out and extra_ok(n, x, prog)]
        return out

    def cpud_target(self, names):
        """cpudispatch's name for the target's rows (a group where they are
        not one row): what cpudispatch-check knows the objects by."""
        return grammar.group_name(self.m, grammar.reduced(self.m, self.rows(names)))


def resolve(nn, name, wanted, keep_sort, notes):
    """A source's list: (with_baseline, [NumPy names of each target], highest
    interest first unless keep_sort). notes(text) for its header."""
    m = nn.m
    with_baseline, picked = False, []
    for tok, parts in grammar.source_tokens(name, wanted):
        names, skip = [], ''
        for part in parts:
            up = part.upper()
            if up == 'BASELINE' and len(parts) == 1:
                with_baseline = True
            elif up == 'BASELINE':
                raise grammar.ListError('dispatch source "%s": "%s" in "%s": baseline cannot be part of a group'
                                        % (name, tok, wanted))
            elif up in nn.entry:
                names.append(up)
            elif up in m.retired:
                skip = '%s: retired on %s (no current compiler or CPU offers it); ignored' % (tok, m.arch)
            elif up in m.elsewhere or up in m.foreign:
                skip = skip or '%s: not a NumPy name of %s; ignored' % (tok, m.arch)
            else:
                raise grammar.ListError('dispatch source "%s": unknown target "%s" in "%s"; NumPy\'s names on %s: '
                                        'baseline %s' % (name, part, wanted, m.arch, ' '.join(nn.order)))
        if skip:
            notes.append(skip)
        elif names:
            picked.append((tok, names))
    base = set(nn.baseline_names()) if with_baseline else set()
    out, seen = [], set()
    for tok, names in picked:
        if with_baseline and all(n in base for n in names):
            notes.append('%s: part of the baseline' % tok)
            continue
        off = [n for n in names if not nn.enabled(n)]
        if off:
            notes.append('%s: %s not enabled in this build (see the cpudispatch summary)' % (tok, ' '.join(off)))
            continue
        t = nn.target_name(names)
        if t in seen:
            notes.append('%s: the same target as %s, listed before' % (tok, t))
            continue
        seen.add(t)
        out.append(names)
    if not keep_sort:
        out.sort(key=nn.rank, reverse=True)
    return with_baseline, out


def header(nn, prefix, config_name, wanted, with_baseline, targets, notes):
    """The text of a source's NumPy-format header."""
    p = prefix
    lines = [
        '/*',
        ' * %s: generated by cpudispatch (NumPy format) for the target list' % config_name,
        ' *   "%s"' % ' '.join(wanted.split()),
        ' * on %s: %s.' % (nn.m.arch, ' '.join([nn.target_name(t) for t in targets]
                                             + (['baseline'] if with_baseline else [])) or 'nothing'),
    ]
    lines += [' *   %s' % n for n in notes]
    lines += [
        ' * No include guard: each include re-points the macros to this source\'s',
        ' * targets. EXEC_CB(TEST, TARGET, ...) per target, highest interest first;',
        ' * TEST asks TEST_CB for each NumPy name the target needs.',
        ' */',
        '',
        '#undef %s_MTARGETS_EXPAND' % p,
        '#define %s_MTARGETS_EXPAND(X) X' % p,
        '',
        '#undef %sMTARGETS_CONF_BASELINE' % p,
        '#define %sMTARGETS_CONF_BASELINE(EXEC_CB, ...) %s' % (
            p, ('%s_MTARGETS_EXPAND(EXEC_CB(__VA_ARGS__))' % p) if with_baseline else ''),
        '',
        '#undef %sMTARGETS_CONF_DISPATCH' % p,
        '#define %sMTARGETS_CONF_DISPATCH(TEST_CB, EXEC_CB, ...) \\' % p,
    ]
    calls = []
    for t in targets:
        test = '&&'.join('TEST_CB(%s)' % d for d in nn.detect(t))
        calls.append('%s_MTARGETS_EXPAND(EXEC_CB(%s, %s, __VA_ARGS__))' % (p, '(%s)' % test if test else '1',
                                                                          nn.target_name(t)))
    lines.append(' \\\n'.join(calls))
    return '\n'.join(lines) + '\n'


def target_args(nn, prefix, names, extra_ok):
    """What a target's objects are compiled with (names: [] for baseline)."""
    if not names:
        base = nn.baseline_names()
        return (nn.baseline_flags()
                + ['-D%sHAVE_%s' % (prefix, d) for d in nn.defines(base, extra_ok)]
                + ['-D%sMTARGETS_BASELINE' % prefix]
                + ['-DCPUD_TARGET=baseline', '-DCPUD_TARGET_IS_BASELINE=1'])
    cpud = nn.cpud_target(names)
    return (nn.flags(names)
            + ['-D%sHAVE_%s' % (prefix, d) for d in nn.defines(names, extra_ok)]
            + ['-D%sMTARGETS_CURRENT=%s' % (prefix, nn.target_name(names))]
            + ['-DCPUD_TARGET=' + cpud, '-include', 'cpudispatch/target_mark.h'])


class ExtraProbe:
    """Compiles the extras' programs, each with its NumPy name's flags, once
    per (flags, program); results kept in `cache` (the generator's)."""

    def __init__(self, nn, cc, cache, stat_of):
        self.nn, self.cc, self.cache, self.stat_of = nn, cc, cache, stat_of

    def __call__(self, name, extra, prog):
        flags = self.nn.flags([name])
        key = '%s %s %r %r' % (extra, prog, self.stat_of(prog), flags)
        if key not in self.cache:
            self.cache[key] = self.compiles(flags, prog)
        return self.cache[key]

    def compiles(self, flags, prog):
        if not self.cc:
            return False
        with tempfile.TemporaryDirectory() as tmp:
            try:
                r = subprocess.run(self.cc + flags + EXTRA_CHECK_ARGS + ['-c', prog, '-o', os.path.join(tmp, 'x.o')],
                                   capture_output=True, timeout=120)
            except (OSError, subprocess.TimeoutExpired):
                return False
        return r.returncode == 0


def summary(nn, prefix, extra_ok):
    """For the port's meson_cpu replacement: the NumPy names of the baseline
    and of dispatch, the baseline's flags and HAVE_ defines, and the names a
    list may use."""
    base = nn.baseline_names()
    args = nn.baseline_flags() + ['-D%sHAVE_%s' % (prefix, d) for d in nn.defines(base, extra_ok)]
    # Every name a NumPy list may hold here: this arch's NumPy names, its
    # retired ones and every other arch's spellings (which the lists may
    # carry and the generator ignores).
    names = list(dict.fromkeys(nn.order + nn.m.retired + sorted(
        n for n in nn.m.elsewhere if re.match(r'^[A-Z][A-Z0-9_]*$', n))))
    return ['baseline ' + ' '.join(base), 'dispatch ' + ' '.join(nn.dispatch_names()),
            'baseline-args ' + ' '.join(args), 'names ' + ' '.join(names)]
