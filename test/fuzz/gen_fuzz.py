#!/usr/bin/env python3
"""Fuzzing a dispatch source's target-list parser (src/build_side/cpudispatch_grammar.py's
resolve_source(), which src/build_side/cpudispatch_gen.py runs) with random lists on this build's configuration: names, aliases,
other arches' and retired names, `baseline`, groups (`+`, `__`, parentheses),
separators, junk bytes, in any mix and case. Invariants, each a failure:
  - it returns, or fails with one printable-ASCII line starting
    'dispatch source "x": ' (never another exception);
  - what it returns: no target twice, each an enabled target or a group of
    enabled targets, in strictly descending rank; the same for the same
    input; each target's arguments (what the generator prints) non-empty
    and none holding whitespace, ':' or '|' (the loop splits on them).

  gen_fuzz.py TOOLS_DIR TARGETS_TXT [RUNS [SEED]]   (default 200000, 1)"""
import os
import random
import sys
import time

tools, targets_txt = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 200000
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
sys.dont_write_bytecode = True
sys.path.insert(0, tools)
import cpudispatch_gen as gen  # noqa: E402  (shown(): how an error is printed)
import cpudispatch_grammar as grammar  # noqa: E402
from cpudispatch_model import Model  # noqa: E402

cfg = Model.load(targets_txt)
words = (list(cfg.token) + list(cfg.foreign)[:12] + sorted(cfg.retired) + ['baseline', 'BASELINE', 'max', 'x', '']
         + [t.lower() for t in cfg.targets])
pieces = [' ', ',', '\t', '\n', '\r', '+', '__', '(', ')', '  ', '\v', ';', '\x00', '\x1b', 'é', '_', '-', '*/']
rng = random.Random(seed)


def one_input():
    out = []
    for _ in range(rng.randint(0, 8)):
        r = rng.random()
        if r < 0.55:
            w = rng.choice(words)
            out.append(w if rng.random() < 0.7 else ''.join(c.upper() if rng.random() < 0.5 else c.lower() for c in w))
        elif r < 0.9:
            out.append(rng.choice(pieces))
        else:
            out.append(''.join(chr(rng.randint(1, 0x2ff)) for _ in range(rng.randint(1, 4))))
    return ''.join(out)


def check(text):
    try:
        targets, with_baseline, notes = grammar.resolve_source(cfg, 'x', text, lambda note: None)
    except grammar.ListError as e:
        msg = gen.shown(str(e))  # as the generator prints it
        if not msg.startswith('dispatch source "x": ') or any(not (' ' <= c <= '~') for c in msg):
            return 'a failure that is not one printable line: %r' % msg
        return None
    if len(set(targets)) != len(targets):
        return 'a target twice: %s' % targets
    for t in targets:
        members = grammar.members(cfg, t)
        if not members or any(m not in cfg.targets for m in members):
            return 'not an enabled target or group of them: %s' % t
        args = grammar.target_args(cfg, t)
        if not args or any(not a or any(c.isspace() or c in gen.LIB_SEP + gen.ARG_SEP for c in a) for a in args):
            return 'arguments the loop cannot split: %s: %s' % (t, args)
    ranks = [grammar.rank(cfg, t) for t in targets]
    if any(a <= b for a, b in zip(ranks, ranks[1:])):
        return 'not in descending rank: %s' % targets
    if not isinstance(with_baseline, bool) or not all(isinstance(n, str) for n in notes):
        return 'odd result types'
    return None


err = sys.stderr
sys.stderr = open(os.devnull, 'w')  # the notes about retired names
start, failures, failed_inputs, ok = time.time(), [], 0, 0
try:
    for i in range(runs):
        text = one_input()
        try:
            problem = check(text)
        except Exception as e:  # noqa: BLE001 (any other exception is the finding)
            problem = 'raised %s: %s' % (type(e).__name__, e)
        if problem is None and i % 97 == 0 and check(text) is not None:
            problem = 'not the same twice'
        if problem:
            failures.append('%r: %s' % (text, problem))
            if len(failures) >= 10:
                break
finally:
    sys.stderr = err
print('%d inputs in %.1f s, seed %d' % (i + 1, time.time() - start, seed))
if failures:
    print('\n'.join('FAIL: ' + f for f in failures))
    sys.exit(1)
print('PASS')
