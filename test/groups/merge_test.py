#!/usr/bin/env python3
"""The flag merge (tools/cpudispatch_config.py: configure's for each enabled
target, cpudispatch_gen's for groups) must agree with what configure wrote;
and a group's merged flags must build every member's instructions.

  merge_test.py GEN_SCRIPT TARGETS_TXT FEATURES_DIR -- CC...

1. For every enabled target T, Config.target_args(T) starts with exactly the
   `target-flags T` line configure wrote, followed by the defines
   cpudispatch_targets[T] has (meson.build).
2. For every pair of enabled targets that neither implies, `--flags` of
   their group is checked against the configure-written lines of its two
   members, by properties this script states itself: the same plain flags
   in a compatible order, one -march=/-mcpu= per prefix holding every
   extension of both, and a define for the group, each member and all
   they imply.
3. A few groups per arch: each member's test program (FEATURES_DIR/<f>.c)
   compiles with the group's flags, and not with the other member's flags
   alone (so the program tells whether the merge kept that member)."""
import contextlib
import io
import os
import subprocess
import sys
import tempfile

gen, cfg_path, features_dir = sys.argv[1:4]
cc = sys.argv[sys.argv.index('--') + 1:]
sys.dont_write_bytecode = True  # nothing written next to the tools
sys.path.insert(0, os.path.dirname(os.path.abspath(gen)))
import cpudispatch_gen  # noqa: E402  (tools/, as the generator imports it)
from cpudispatch_config import Config  # noqa: E402

cfg = Config(cfg_path)
failures = []

# The facts, read here apart from Config.
facts = [line.split() for line in open(cfg_path) if line.strip() and not line.startswith('#')]
closure = {w[1]: set(w[2:]) for w in facts if w[0] == 'feature'}
order = [w[1] for w in facts if w[0] == 'feature']
targets = [w[1] for w in facts if w[0] == 'target']
target_flags = {w[1]: w[2:] for w in facts if w[0] == 'target-flags'}
sep = next((w[1] for w in facts if w[0] == 'ext-sep'), '+')
PREFIXES = ('-march=', '-mcpu=')


def defines(name, feats):
    return ['-DCPUD_TARGET=' + name] + sorted('-DCPUD_TARGET_%s=1' % f for f in feats)


# --- 1. Meson's merge of each enabled target == Config's ---------------------
for t in targets:
    args = cfg.target_args(t)
    want = target_flags.get(t)
    if want is None:
        failures.append('%s: configure wrote no target-flags line' % t)
        continue
    rest = args[len(want):]
    if args[:len(want)] != want:
        failures.append('%s: configure merged %s, Config.target_args gives %s' % (t, want, args[:len(want)]))
    elif rest[:1] + sorted(rest[1:]) != defines(t, closure[t] | {t}):
        failures.append('%s: defines after the flags: %s' % (t, rest))


# --- 2. every pair's group, against its members' configure-written lines ------
def split(flags):
    """(plain flags, {prefix: [flag, ...]}, defines)"""
    plain, pref, defs = [], {}, []
    for f in flags:
        p = next((p for p in PREFIXES if f.startswith(p)), None)
        if f.startswith('-D'):
            defs.append(f)
        elif p:
            pref.setdefault(p, []).append(f[len(p):])
        else:
            plain.append(f)
    return plain, pref, defs


def in_order(sub, seq):
    it = iter(seq)
    return all(x in it for x in sub)


def group_flags(group):
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()) as err:
            cpudispatch_gen.print_flags(cfg_path, group)
    except SystemExit:
        failures.append('--flags %s failed: %s' % (group, err.getvalue().strip()))
        return None
    return out.getvalue().split()


pairs = 0
for i, a in enumerate(targets):
    for b in targets[i + 1:]:
        if a in closure[b] or b in closure[a]:
            continue
        pairs += 1
        group = '__'.join(sorted((a, b), key=order.index, reverse=True))
        got = group_flags(group)
        if got is None:
            continue
        plain, pref, defs = split(got)
        mine = [split(target_flags[m]) for m in (a, b)]
        why = []
        if defs[:1] + sorted(defs[1:]) != defines(group, closure[a] | closure[b] | {a, b}):
            why.append('defines %s' % defs)
        if set(plain) != set(mine[0][0]) | set(mine[1][0]) or len(set(plain)) != len(plain):
            why.append('plain flags %s, not the union of %s and %s' % (plain, mine[0][0], mine[1][0]))
        if not all(in_order(m[0], plain) for m in mine):
            why.append('plain flags %s out of the members\' order' % plain)
        for p in set(pref) | set(mine[0][1]) | set(mine[1][1]):
            one = pref.get(p, [])
            if len(one) != 1:
                why.append('%d %s flags: %s' % (len(one), p, one))
                continue
            exts = one[0].split(sep)[1:]
            union = {e for m in mine for f in m[1].get(p, []) for e in f.split(sep)[1:]}
            if set(exts) != union or len(exts) != len(union):
                why.append('%s%s: extensions %s, the members have %s' % (p, one[0], exts, sorted(union)))
            single = [len(x) == 1 for x in exts]
            if sep == '_' and single != sorted(single, reverse=True):
                why.append('%s%s: single-letter extensions must come first' % (p, one[0]))
            # The base: that of the highest feature of the union with such a flag.
            feats = closure[a] | closure[b] | {a, b} | set(cfg.baseline)
            top = [f for f in order if f in feats and any(x.startswith(p) for x in cfg.flags.get(f, []))][-1]
            base = next(x for x in cfg.flags[top] if x.startswith(p))[len(p):].split(sep)[0]
            if one[0].split(sep)[0] != base:
                why.append('%s%s: base is not %s\'s %s' % (p, one[0], top, base))
        if why:
            failures.append('%s: %s' % (group, '; '.join(why)))


# --- 3. compile each member's test program with a few groups' flags ----------
SAMPLES = {
    'x86_64': [['AVX2', 'FMA3'], ['AVX512_SKX', 'VPCLMULQDQ'], ['BMI2', 'AVX2', 'FMA3'], ['AVX512_SKX', 'GFNI']],
    'aarch64': [['ASIMDDP', 'ASIMDHP'], ['SVE', 'I8MM'], ['SVE2', 'ASIMDDP']],
    'riscv64': [['RVV', 'ZBB'], ['ZBS', 'ZBB', 'ZBA'], ['RVV', 'ZBS']],
}


def compiles(src, flags, d):
    r = subprocess.run(cc + flags + ['-c', src, '-o', os.path.join(d, 'x.o')], capture_output=True, text=True)
    return r.returncode == 0, r.stderr


built = []
with tempfile.TemporaryDirectory() as d:
    for members in SAMPLES.get(cfg.arch, []):
        if not all(m in targets for m in members):
            print('compile check of %s skipped: not every member is enabled' % '+'.join(members))
            continue
        group = '__'.join(members)
        r = subprocess.run([sys.executable, gen, '--config', cfg_path, '--flags', group], capture_output=True,
                           text=True)
        if r.returncode != 0:
            failures.append('--flags %s: %s' % (group, r.stderr.strip()))
            continue
        for m in members:
            src = os.path.join(features_dir, m.lower() + '.c')
            ok, err = compiles(src, r.stdout.split(), d)
            if not ok:
                failures.append('%s does not compile with the flags of %s:\n%s' % (src, group, err))
            # The control: the highest other member's own flags lack m's.
            other = next(o for o in members if o != m)
            ok, _ = compiles(src, target_flags[other], d)
            if ok:
                failures.append('%s compiles with %s\'s flags alone: it cannot tell whether %s kept %s'
                                % (src, other, group, m))
        built.append(group)

print('%s: %d enabled targets checked against configure\'s merge, %d pairs\' groups checked; compiled: %s'
      % (cfg.arch, len(targets), pairs, ' '.join(built) or '(no group of this arch)'))
if failures:
    print('\n'.join('FAIL ' + f for f in failures))
    sys.exit(1)
