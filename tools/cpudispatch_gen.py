#!/usr/bin/env python3
"""Resolve the targets of one dispatch source and write its dispatch header.

Run by the parent project at configure time (see docs/quickstart.md):

  cpudispatch_gen.py --config cpudispatch_targets.txt --list NAME "WANTED"
      prints the targets to compile NAME for, one per line: baseline first,
      then ascending interest (the link order; see docs/quickstart.md)
  cpudispatch_gen.py --config cpudispatch_targets.txt --header OUT NAME "WANTED"
      writes OUT, the C/C++ header that declares and calls those targets

  cpudispatch_gen.py --config cpudispatch_targets.txt --flags GROUP
      prints the compile arguments of a group target --list printed

WANTED is the source's target list, e.g. "baseline SSE42 AVX512F": names are
case-insensitive and separated by spaces or commas; names of other arches are
ignored, so one list serves every arch. A group of features compiled as one
target is written A+B, A__B or (A B) (docs/quickstart.md). The facts (enabled targets, implied
features, spellings) come from the configure-time file written by the
cpudispatch subproject, so this script holds no feature data of its own.
"""
import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # nothing written next to the scripts
from cpudispatch_config import Config, GROUP_SEP, SEPARATORS  # noqa: E402  (tools/cpudispatch_config.py)


def shown(msg):
    """One printable ASCII line: every other byte as \\xHH (a list's text may
    hold anything), as the run-time parser shows a token."""
    return ''.join(c if ' ' <= c <= '~' else ''.join('\\x%02x' % b for b in c.encode('utf-8', 'surrogateescape'))
                   for c in msg)


def fail(msg):
    sys.stderr.write('cpudispatch: ' + shown(msg) + '\n')
    sys.exit(1)


# A list's tokens: a parenthesised group (NumPy's "(AVX2 FMA3)") or a run of
# anything but separators and parentheses ("AVX2", "AVX2+FMA3").
TOKEN = re.compile(r'\(([^()]*)\)|[^%s()]+|[()]' % re.escape(SEPARATORS))


def tokens(name, wanted):
    """(token as written, its member spellings) for each target in WANTED."""
    out = []
    for m in TOKEN.finditer(wanted):
        tok = m.group(0)
        if tok in ('(', ')'):
            fail('dispatch source "%s": unbalanced "%s" in "%s"; a group of features is written '
                 'A+B or (A B)' % (name, tok, wanted))
        parts = re.split(r'[%s+]+|' % re.escape(SEPARATORS) + GROUP_SEP, m.group(1).strip(SEPARATORS)) \
            if m.group(1) is not None else \
            re.split(r'\+|' + GROUP_SEP, tok)
        if '' in parts or not parts:
            fail('dispatch source "%s": empty feature name in "%s" of "%s"; a group of features is written '
                 'A+B or (A B)' % (name, tok, wanted))
        out.append((tok, parts))
    return out


def resolve(cfg, name, wanted):
    """Return (targets highest interest first, with_baseline, notes)."""
    notes = []
    picked = []
    with_baseline = False
    for tok, parts in tokens(name, wanted):
        feats, foreign, retired = [], set(), []
        for part in parts:
            up = part.upper()
            if up == 'BASELINE' and len(parts) == 1:
                with_baseline = True
            elif up == 'BASELINE':
                fail('dispatch source "%s": "%s" in "%s": baseline cannot be part of a group' % (name, tok, wanted))
            elif up in cfg.token:
                feats.append(cfg.token[up])
            elif up in cfg.foreign:
                foreign.add(cfg.foreign[up])
            elif up in cfg.retired:
                retired.append(part)
            else:
                valid = ' '.join(['baseline'] + cfg.order)
                fail('dispatch source "%s": unknown target "%s" in "%s"; valid names on %s: %s'
                     % (name, part, wanted, cfg.arch, valid))
        if (feats and foreign) or len(foreign) > 1:
            arches = ([cfg.arch] if feats else []) + sorted(foreign)
            fail('dispatch source "%s": group "%s" mixes features of %s; a group is compiled once, for one arch'
                 % (name, tok, ' and '.join(arches)))
        if foreign:
            notes.append('%s: %s target, ignored on %s' % (tok, ' and '.join(sorted(foreign)), cfg.arch))
        elif retired:
            # As in the cpu-dispatch option and the env variables.
            notes.append('%s: retired on %s (no current compiler or CPU offers it); ignored' % (tok, cfg.arch))
            sys.stderr.write('cpudispatch: dispatch source "%s": "%s" is retired on %s; ignored\n'
                             % (name, retired[0], cfg.arch))
        elif feats:
            # A member another member implies, or one in the baseline, adds
            # nothing: what is left is the target (one feature: a plain one).
            target = cfg.group_name(cfg.reduced(feats))
            if len(feats) > 1 and target != cfg.group_name(feats):
                notes.append('%s: the same target as %s' % (tok, target))
            picked.append(target)
    if cfg.disabled:
        return [], True, notes + ['disable-optimization: compiled once, as baseline code']
    out = []
    for t in sorted(set(picked), key=cfg.rank):
        members = cfg.members(t)
        if not cfg.needs(t):
            # The baseline build already has every instruction the target
            # would use, so the baseline build stands in for it.
            notes.append('%s: part of the baseline; the baseline build covers it' % t)
            with_baseline = True
        elif all(m in cfg.targets for m in members):
            out.append(t)
        else:
            off = [m for m in members if m not in cfg.targets]
            notes.append('%s: %s not enabled in this build (see the cpudispatch summary)'
                         % (t, (' and '.join(off) + (' is' if len(off) == 1 else ' are')) if len(members) > 1
                            else 'is'))
    return list(reversed(out)), with_baseline, notes


def header(cfg, name, wanted, targets, with_baseline, notes):
    ident = re.sub(r'[^A-Za-z0-9_]', '_', name)
    guard = 'CPUD_DISPATCH_%s_H_' % ident.upper()
    p = 'CPUD_%s__' % ident
    compiled = targets + (['baseline'] if with_baseline else [])
    lines = [
        '/*',
        ' * %s.dispatch.h: generated by cpudispatch for the dispatch source "%s"; do not edit.' % (name, name),
        ' * Targets asked for: "%s"' % wanted,
        ' * Compiled on %s, highest interest first: %s' % (cfg.arch, ' '.join(compiled) or '(none)'),
    ]
    lines += [' *   %s' % n for n in notes]
    lines += [
        ' * Each target was compiled into NAME_<TARGET> symbols (CPUD_FN(NAME) in the source).',
        ' */',
        '#ifndef %s' % guard,
        '#define %s' % guard,
        '#include "cpudispatch/dispatch.h"',
        '',
        '/* CB(CHECK, TARGET, ...) for each compiled target, highest interest first.',
        ' * CHECK tests, with CHK(FEATURE), every feature the target needs beyond the',
        ' * baseline, so CHECK alone tells whether the target may run. */',
    ]
    body = []
    for t in targets:
        need = sorted(cfg.needs(t), key=cfg.index.get, reverse=True)
        check = ' && '.join('CHK(%s)' % f for f in need)
        body.append('  CB((%s), %s, __VA_ARGS__)' % (check, t))
    lines.append('#define %sDISPATCH_CALL(CHK, CB, ...) \\' % p)
    lines.append(' \\\n'.join(body + ['  /* end */']))
    lines.append('/* CB(...) once if the source was also compiled as baseline code. */')
    if with_baseline:
        lines.append('#define %sDISPATCH_BASELINE_CALL(CB, ...) CB(__VA_ARGS__)' % p)
        lines.append('#define %sDISPATCH_FALLBACK(WITH_BASELINE, WITHOUT) WITH_BASELINE' % p)
    else:
        lines.append('#define %sDISPATCH_BASELINE_CALL(CB, ...)' % p)
        lines.append('#define %sDISPATCH_FALLBACK(WITH_BASELINE, WITHOUT) WITHOUT' % p)
    if targets:
        lines.append('/* Per target, for the C++ dispatcher\'s key set: its key, the feature it')
        lines.append(' * ranks by (a group\'s highest member), and X(MEMBER) for each member. */')
    for t in targets:
        lines.append('#ifndef CPUD__KEY_%s' % t)
        lines.append('#define CPUD__KEY_%s %s' % (t, cfg.members(t)[0]))
        lines.append('#define CPUD__MEMBERS_%s(X) %s' % (t, ' '.join('X(%s)' % m for m in cfg.members(t))))
        lines.append('#endif')
    # Records of what was compiled, which the runtime reads at start-up for
    # the environment variables' warnings (cpudispatch/compiled.h).
    words = 2 * (len(cfg.order) // 64 + 1)  # CPUD__NOTE_WORDS
    lines.append('/* What this source was compiled for, read at run time (cpudispatch/compiled.h):')
    lines.append(' * the source itself, then each target\'s members. */')
    lines.append('#include "cpudispatch/compiled.h"')
    lines.append('CPUD__COMPILED_RECORD(cpud__compiled_%s) = CPUD__COMPILED_NOTE(%s);' % (ident, ', '.join(['0'] * words)))
    for t in targets:
        ws = [' | '.join('CPUD__COMPILED_W(%d, %s)' % (i, m) for m in cfg.members(t)) for i in range(words)]
        lines.append('CPUD__COMPILED_RECORD(cpud__compiled_%s_%s) = CPUD__COMPILED_NOTE(%s);' % (ident, t, ', '.join(ws)))
    lines.append('#define %sTARGET_COUNT %d' % (p, len(compiled)))
    lines.append('#define %sTARGET_NAMES "%s"' % (p, ' '.join(compiled)))
    # Nothing compiled (only other arches' names, no baseline): a call links
    # against a name that says why it is missing.
    lines.append('/* The lowest compiled target (CPUD_DISPATCH_CALL without a baseline build). */')
    lines.append('#define %sLOWEST_TARGET %s' % (p, targets[-1] if targets else
                                                 ('baseline' if with_baseline else 'nothing_compiled_on_' + cfg.arch)))
    lines += [
        '#endif /* %s */' % guard,
        '',
        '/* The unprefixed macros of cpudispatch/dispatch.h follow the most recently',
        ' * included dispatch header. */',
    ]
    for m in ('DISPATCH_CALL', 'DISPATCH_BASELINE_CALL', 'DISPATCH_FALLBACK', 'TARGET_COUNT', 'TARGET_NAMES',
              'LOWEST_TARGET'):
        lines.append('#undef CPUD__%s' % m)
        lines.append('#define CPUD__%s %s%s' % (m, p, m))
    return '\n'.join(lines) + '\n'


def print_flags(path, group):
    """The arguments a group target's library is compiled with, beyond
    cpudispatch_targets['group'] (docs/quickstart.md)."""
    try:
        cfg = Config(path)
    except OSError as e:
        fail('cannot read the configuration %s (%s); is cpudispatch configured?' % (path, e.strerror))
    members = cfg.members(group)
    if not members or len(members) < 2 or group != cfg.group_name(members) or cfg.reduced(members) != members:
        fail('--flags: "%s" is not a group target as --list prints one (FEATURE__FEATURE..., highest interest '
             'first); a single feature\'s flags are in cpudispatch_targets' % group)
    off = [m for m in members if m not in cfg.targets]
    if off or cfg.disabled:
        fail('--flags: %s is not enabled in this build, so no source is compiled for %s'
             % (' '.join(off) or 'dispatch', group))
    args = cfg.target_args(group)
    bad = [x for x in args if not x or any(c.isspace() for c in x)]
    if bad:
        fail('--flags: flag "%s" of %s holds whitespace; it cannot pass through a list' % (bad[0], group))
    print(' '.join(args))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--config', required=True)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument('--list', action='store_true')
    mode.add_argument('--header', metavar='OUT')
    mode.add_argument('--flags', metavar='GROUP',
                      help='print the compile arguments of a group target --list printed')
    ap.add_argument('--register', metavar='DIR',
                    help='with --list: record the list in DIR/NAME.txt, for cpudispatch-run')
    ap.add_argument('name', nargs='?')
    ap.add_argument('wanted', nargs='?')
    a = ap.parse_args()
    if a.flags:
        print_flags(a.config, a.flags)
        return
    if a.wanted is None:
        ap.error('--list and --header need NAME and WANTED')
    if not re.match(r'^[A-Za-z_][A-Za-z0-9_]*$', a.name):
        fail('dispatch source name "%s" must be a C identifier' % a.name)
    try:
        cfg = Config(a.config)
    except OSError as e:
        fail('cannot read the configuration %s (%s); is cpudispatch configured?' % (a.config, e.strerror))
    targets, with_baseline, notes = resolve(cfg, a.name, a.wanted)
    if a.list:
        # The link order: the linker keeps the first copy of an inline or
        # template function it meets, so baseline first (baseline code never
        # gets a target's copy), then ascending interest (a lower target's
        # copy serves a higher one, never the reverse).
        listed = (['baseline'] if with_baseline else []) + list(reversed(targets))
        for t in listed:
            print(t)
        if a.register:
            # cpudispatch-run --each-target runs a test once per target some
            # source was compiled for (not once per feature of the build).
            # The configure starts with an empty DIR, so a record already
            # there is another project's source of the same name: keep both.
            os.makedirs(a.register, exist_ok=True)
            path = os.path.join(a.register, a.name + '.txt')
            have = open(path).read().split() if os.path.exists(path) else []
            merged = have + [t for t in listed if t not in have]
            if merged != have:
                with open(path, 'w') as fh:
                    fh.write(' '.join(merged) + '\n')
        return
    text = header(cfg, a.name, a.wanted, targets, with_baseline, notes)
    with open(a.header, 'w', encoding='utf-8') as fh:
        fh.write(text)


if __name__ == '__main__':
    main()
