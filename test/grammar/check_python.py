#!/usr/bin/env python3
"""The shared feature-list cases (cases.txt) against the two Python parsers:
the build options' (cpu-dispatch, tools/cpudispatch_configure.py) and a
dispatch source's target list (tools/cpudispatch_gen.py). On x86_64's table
whatever the build's arch: the cases spell x86_64 names.

  check_python.py SOURCE_ROOT        exit 0 pass, 1 fail

The options add what each named feature implies; a source's list names its
targets as they are. Each parser's result is compared with what the case's
names give under its own rule."""
import io
import os
import sys

root = sys.argv[1]
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(root, 'tools'))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402
import cpudispatch_configure as configure  # noqa: E402
import cpudispatch_gen as gen  # noqa: E402
from cpudispatch_config import Config  # noqa: E402
from cpudispatch_tables import Arch, read_tables  # noqa: E402

features = os.path.join(root, 'src', 'features')
arch = Arch(read_tables(features), 'x86_64', features)
# A build where every feature is a dispatch target and the baseline is empty.
cfg = Config()
cfg.arch, cfg.order, cfg.closure = 'x86_64', list(arch.names), dict(arch.closure)
cfg.targets, cfg.token, cfg.foreign = list(arch.names), dict(arch.token), dict(arch.foreign)
cfg.retired = set(arch.table['retired'])
cfg.index = {f: i for i, f in enumerate(cfg.order)}


class Failed(Exception):
    pass


def gen_fail(msg):
    raise Failed(msg)


gen.fail = gen_fail


def with_implied(names):
    got = set()
    for n in names:
        got |= {n} | set(arch.closure[n])
    return sorted(got, key=arch.names.index)


def options(text):
    try:
        return 'ok', configure.parse_option(arch, 'dispatch', text, {'DETECT': [], 'NATIVE': []}, arch.names,
                                            configure.Out())
    except configure.ConfigureError as e:
        return 'error', str(e)


def source_list(text):
    err = sys.stderr
    sys.stderr = io.StringIO()  # the notes about ignored names
    try:
        targets, _, _ = gen.resolve(cfg, 'x', text)
        return 'ok', sorted(targets, key=arch.names.index)
    except Failed as e:
        return 'error', str(e)
    finally:
        sys.stderr = err


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
