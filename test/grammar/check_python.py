#!/usr/bin/env python3
"""The shared feature-list cases (cases.txt) against the Python reading of
the grammar (src/build_side/cpudispatch_grammar.py), both ways it is used: the build
options (cpu-dispatch, by configure) and a dispatch source's target list
(by cpudispatch_gen). On x86_64's table whatever the build's arch: the
cases spell x86_64 names.

  check_python.py SOURCE_ROOT        exit 0 pass, 1 fail

The options add what each named feature implies; a source's list names its
targets as they are. Each result is compared with what the case's names
give under its own rule."""
import os
import sys

root = sys.argv[1]
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(root, 'src', 'build_side'))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402
import cpudispatch_grammar as grammar  # noqa: E402
from cpudispatch_model import Model  # noqa: E402

features = os.path.join(root, 'src', 'features')
arch = Model.from_tables(features, 'x86_64')
# A build where every feature is a dispatch target and the baseline is empty.
arch.targets = list(arch.names)


def with_implied(names):
    got = set()
    for n in names:
        got |= {n} | set(arch.closure[n])
    return sorted(got, key=arch.names.index)


def options(text):
    try:
        return 'ok', grammar.parse_option(arch, 'dispatch', text, {'DETECT': [], 'NATIVE': []}, arch.names,
                                          lambda note: None)
    except grammar.ListError as e:
        return 'error', str(e)


def source_list(text):
    try:
        targets, _, _ = grammar.resolve_source(arch, 'x', text, lambda note: None)
        return 'ok', sorted(targets, key=arch.names.index)
    except grammar.ListError as e:
        return 'error', str(e)


failures = []
all_cases = cases.read(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'cases.txt'))
for parser, run, rule in (('options', options, with_implied), ('source list', source_list,
                                                                lambda n: sorted(set(n), key=arch.names.index))):
    for text, kind, words in all_cases:
        status, got = run(text)
        if kind == 'error':
            ok = status == 'error' and words[0].lower() in got.lower()
            want = 'an error naming %r' % words[0]
        else:
            want = rule(words)
            ok = status == 'ok' and got == want
        if not ok:
            failures.append('%s: %r: expected %s, got %s %s' % (parser, text, want, status, got))
    print('%s: %d cases' % (parser, len(all_cases)))
if failures:
    print('\n'.join('FAIL: ' + f for f in failures))
    sys.exit(1)
print('PASS')
