#!/usr/bin/env python3
"""A target's arguments come from one merge (src/build_side/cpudispatch_grammar.py's
target_args, which src/build_side/cpudispatch_gen.py prints for each target of a
list, a single feature's and a group's alike). They must agree with what
configure wrote; and a group's must build every member's instructions.

  merge_test.py GEN_SCRIPT TARGETS_TXT FEATURES_DIR -- CC...

Everything goes through the generator as the loop of docs/quickstart.md
runs it (one run, a source listing every enabled target and every group
below, its header written to a temporary folder):
1. For every enabled target T, T's word carries exactly the `target-flags
   T` line configure wrote, followed by the CPUD_TARGET defines; and the
   model's merge (Model.merged_flags, what a group gets) of the baseline
   and T's closure gives that same line: a single feature is merged as a
   group is.
2. For every pair of enabled targets that neither implies, their group's
   word is checked against the configure-written lines of its two
   members, by properties this script states itself: the same plain flags
   in a compatible order, one -march=/-mcpu= per prefix holding every
   extension of both (one -mfpu=, the highest feature's, on 32-bit arm),
   and a define for the group, each member and all they imply.
3. A few groups per arch: each member's test program (FEATURES_DIR/<f>.c)
   compiles with the group's arguments, and not with the other member's
   flags alone (so the program tells whether the merge kept that member)."""
import ast
import os
import subprocess
import sys
import tempfile

gen, cfg_path, features_dir = sys.argv[1:4]
cc = sys.argv[sys.argv.index('--') + 1:]
sys.dont_write_bytecode = True  # nothing written next to the tools
sys.path.insert(0, os.path.dirname(os.path.abspath(gen)))
from cpudispatch_model import Model  # noqa: E402  (tools/, as the generator imports it)

cfg = Model.load(cfg_path)
failures = []

# The facts, read here apart from the model.
facts = [line.split() for line in open(cfg_path) if line.strip() and not line.startswith('#')]
closure = {w[1]: set(w[2:]) for w in facts if w[0] == 'feature'}
order = [w[1] for w in facts if w[0] == 'feature']
targets = [w[1] for w in facts if w[0] == 'target']
target_flags = {w[1]: w[2:] for w in facts if w[0] == 'target-flags'}
sep = next((w[1] for w in facts if w[0] == 'ext-sep'), '+')
PREFIXES = ('-march=', '-mcpu=', '-mfpu=')
SAMPLES = {
    'x86_64': [['AVX2', 'FMA3'], ['AVX512_SKX', 'VPCLMULQDQ'], ['BMI2', 'AVX2', 'FMA3'], ['AVX512_SKX', 'GFNI']],
    'x86': [['AVX2', 'FMA3'], ['AVX512_SKX', 'VPCLMULQDQ'], ['SSE2', 'RDRND']],
    'aarch64': [['ASIMDDP', 'ASIMDHP'], ['SVE', 'I8MM'], ['SVE2', 'ASIMDDP']],
    'arm': [['ASIMDDP', 'ASIMDHP'], ['ASIMDDP', 'ASIMDFHM']],
    'riscv64': [['RVV', 'ZBB'], ['ZBS', 'ZBB', 'ZBA'], ['RVV', 'ZBS']],
}
samples = [m for m in SAMPLES.get(cfg.arch, []) if all(x in targets for x in m)]
for m in SAMPLES.get(cfg.arch, []):
    if m not in samples:
        print('compile check of %s skipped: not every member is enabled' % '+'.join(m))


def defines(name, feats):
    return ['-DCPUD_TARGET=' + name] + sorted('-DCPUD_TARGET_%s=1' % f for f in feats)


def group_of(members):
    return '__'.join(sorted(members, key=order.index, reverse=True))


pair_list = [(a, b) for i, a in enumerate(targets) for b in targets[i + 1:]
             if not (a in closure[b] or b in closure[a])]
# --- the generator's words, in one run --------------------------------------------
wanted = ' '.join(targets + ['+'.join(p) for p in pair_list] + ['+'.join(m) for m in samples])
with tempfile.TemporaryDirectory() as d:
    r = subprocess.run([sys.executable, gen, '--config', cfg_path, '--out-dir', d, 'k.dispatch.c', wanted],
                       capture_output=True, text=True)
if r.returncode != 0:
    print('FAIL the generator failed (%d) on every target and pair: %s' % (r.returncode, r.stderr.strip()))
    sys.exit(1)
words = {}
for w in r.stdout.split():
    lib, args, _ = w.split(':')  # LIBRARY:ARG|...:SOURCE
    words[lib[len('k_'):]] = args.split('|')

# --- 1. each enabled target's word == configure's line, and the group merge --
for t in targets:
    args = words.get(t)
    want = target_flags.get(t)
    if want is None:
        failures.append('%s: configure wrote no target-flags line' % t)
        continue
    if args is None:
        failures.append('%s: the generator printed no word for it' % t)
        continue
    rest = args[len(want):]
    if args[:len(want)] != want:
        failures.append('%s: configure merged %s, the generator gives %s' % (t, want, args[:len(want)]))
    elif rest[:1] + sorted(rest[1:]) != defines(t, closure[t] | {t}):
        failures.append('%s: defines after the flags: %s' % (t, rest))
    merged = cfg.merged_flags(set(cfg.baseline) | closure[t] | {t})
    if merged != want:
        failures.append('%s: the group merge of the baseline and its closure gives %s, configure wrote %s'
                        % (t, merged, want))


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


pairs = 0
for a, b in pair_list:
    pairs += 1
    group = group_of((a, b))
    got = words.get(group)
    if got is None:
        failures.append('%s+%s: the generator printed no word for %s' % (a, b, group))
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


# --- 3. compile each member's test program with a few groups' arguments ------
def test_program(m):
    """A row's test program: beside the arch's table, or beside the table
    whose rows it takes (src/features/x86 takes x86_64's, 'rows_from')."""
    src = os.path.join(features_dir, m.lower() + '.c')
    if not os.path.exists(src):
        table = ast.literal_eval(open(os.path.join(features_dir, 'table.py')).read())
        src = os.path.join(os.path.dirname(features_dir), table.get('rows_from', ''), m.lower() + '.c')
    return src


def compiles(src, flags, d):
    r = subprocess.run(cc + flags + ['-c', src, '-o', os.path.join(d, 'x.o')], capture_output=True, text=True)
    return r.returncode == 0, r.stderr


built = []
with tempfile.TemporaryDirectory() as d:
    for members in samples:
        group = group_of(members)
        args = words.get(group)
        if args is None:
            failures.append('%s: the generator printed no word for %s' % ('+'.join(members), group))
            continue
        for m in members:
            src = test_program(m)
            ok, err = compiles(src, args, d)
            if not ok:
                failures.append('%s does not compile with the arguments of %s:\n%s' % (src, group, err))
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
