#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Configure-time compiler checks for src/config and src/runtime, batched.

Meson runs one compiler process per cc.compiles() / has_multi_arguments(),
one after the other: about 240 for `cpu-dispatch=max` with GCC 12 (most of a
15 s configure). This script runs the same checks in one call: each feature
macro for every feature in one preprocessor run per compiler, the test
programs in parallel, and a flag list's accepted part from the compiler's
own complaints. Results are cached in the build directory, keyed by the
whole command and input, as Meson caches its own checks: a reconfigure
runs no compiler.

  cpudispatch_probe.py [--strict] --cache FILE [--jobs N]
      --compiler LANG ID VERSION -- CMD... ---    (c, cpp; repeatable)
      --args LANG ARG...  ---                     what Meson adds to a check:
                                                  c_args, -std=...
      [--cdef NAME EXPR]...                       a feature macro expression
      [--table FEATURES_DIR ARCH]                 the feature table whose
                                                  flags NAMEs merge
      [--macros KEY LANG[,LANG] -- FLAG... ---]   which EXPRs hold, with FLAGs
      [--flags KEY -- NAME... ---]                the merged flags of NAMEs
      [--test KEY FILE -- NAME... ---]            does FILE compile (C) with
                                                  the merged flags of NAMEs
      [--accepts KEY LANG -- NAME... ---]         are those flags accepted
      [--subset KEY LANG -- FLAG... ---]          the accepted FLAGs

Prints one line per request: KEY, a tab, then the names whose expression
holds in any of the languages (--macros), the flags (--flags, --subset),
yes|no|rejected (--test: rejected when the compiler refuses the flags
themselves) or yes|no (--accepts). Flags merge as the build's model merges
a target's (src/build_side/cpudispatch_model.py). The test programs are first compiled together, as one
unit with the union of their flags; only if that fails (or with --strict)
each alone. A check means what Meson's means:
the same compiler command, `-O0` (and for Clang the -Werror options Meson
adds), the c_args/cpp_args and language standard, then the FLAGs.
"""
import concurrent.futures
import hashlib
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written next to the scripts
from cpudispatch_model import Model  # noqa: E402  (src/build_side/cpudispatch_model.py)

EXT = {'c': '.c', 'cpp': '.cpp'}
# What Meson's checks add before the external arguments (mesonbuild
# compilers/mixins: clike -O0; clang's -Werror options for compile checks).
CHECK_ARGS = {'gcc': ['-O0'],
              'clang': ['-O0', '-Werror=implicit-function-declaration', '-Werror=unknown-warning-option',
                        '-Werror=unused-command-line-argument', '-Werror=ignored-optimization-argument']}
# Warning flags (-Wall, -Werror, -Wno-..., -pedantic, -w), not -Wa, -Wl, -Wp
# (options handed to the assembler, linker, preprocessor).
WARNING_FLAG = re.compile(r'^-(W(?![alp],)|pedantic|w$)')
# A compiler naming a flag it does not know: GCC "unrecognized command-line
# option '-mfoo'", Clang "unknown argument: '-mfoo'".
UNKNOWN = re.compile(r"(?:unrecognized command[- ]line option|unknown argument:?)\s*['‘`\"]([^'’`\"]+)['’`\"]")


def take(argv, i):
    """argv[i] must be '--': the words up to '---', and the index after."""
    if argv[i] != '--':
        sys.exit('cpudispatch_probe: expected -- at %r' % argv[i:i + 3])
    end = argv.index('---', i + 1)
    return argv[i + 1:end], end + 1


def parse(argv):
    o = {'cache': None, 'jobs': os.cpu_count() or 2, 'compiler': {}, 'args': {}, 'cdef': [], 'req': [],
         'table': Model()}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ('--cache', '--jobs'):
            o[a[2:]] = argv[i + 1] if a == '--cache' else int(argv[i + 1])
            i += 2
        elif a == '--table':
            o['table'] = Model.from_tables(argv[i + 1], argv[i + 2])
            i += 3
        elif a == '--flags':
            key = argv[i + 1]
            names, i = take(argv, i + 2)
            o['req'].append(('flags', key, '', names))
        elif a == '--compiler':
            lang, cid, ver = argv[i + 1:i + 4]
            cmd, i = take(argv, i + 4)
            o['compiler'][lang] = (cid, ver, cmd)
        elif a == '--args':
            lang = argv[i + 1]
            end = argv.index('---', i + 2)
            o['args'][lang], i = argv[i + 2:end], end + 1
        elif a == '--cdef':
            o['cdef'].append((argv[i + 1], argv[i + 2]))
            i += 3
        elif a in ('--macros', '--test', '--accepts', '--subset'):
            key, what = argv[i + 1:i + 3]
            flags, i = take(argv, i + 3)
            o['req'].append((a[2:], key, what, flags))
        else:
            sys.exit('cpudispatch_probe: unknown argument %r' % a)
    return o


# Set by cpudispatch's own test suite for the consumer projects its tests
# configure (test/meson.build): one cache for all of them, beside the
# build's own. The key holds the whole command and code, so a result is
# what that compiler says; a test of the checks themselves (test/configure)
# goes without it.
SHARED_CACHE = os.environ.get('CPUD_PROBE_SHARED_CACHE')


def load_cache(path):
    if path and os.path.exists(path):
        try:
            with open(path) as fh:
                return json.load(fh)
        except (OSError, ValueError):
            pass
    return {}


def save_cache(path, cache):
    tmp = '%s.%d.tmp' % (path, os.getpid())
    with open(tmp, 'w') as fh:
        json.dump(cache, fh)
    os.replace(tmp, path)


class Runner:
    def __init__(self, o, tmp):
        self.o, self.tmp, self.n = o, tmp, itertools.count()
        self.cache = load_cache(o['cache'])
        self.cache.update(load_cache(SHARED_CACHE))
        self.ran = 0

    def base(self, lang):
        cid, _, cmd = self.o['compiler'][lang]
        # The consumer's flags, less its warning flags: a test program asks
        # what the compiler can build, and a project's -Werror
        # -Wmissing-prototypes (or -Wpedantic) must not answer "no" for it.
        args = [a for a in self.o['args'].get(lang, []) if not WARNING_FLAG.match(a)]
        return cmd + CHECK_ARGS.get(cid, ['-O0']) + args

    def run(self, lang, code, args, mode):
        """(status, stderr) of compiling `code` (mode 'c': to an object, 'E':
        preprocess only, stdout kept), cached by the whole command and code."""
        cid, ver, _ = self.o['compiler'][lang]
        cmd = self.base(lang) + args
        key = hashlib.sha256(json.dumps([cid, ver, cmd, mode, code]).encode()).hexdigest()
        if key in self.cache:
            return self.cache[key]
        src = os.path.join(self.tmp, 'p%d%s' % (next(self.n), EXT[lang.split('.')[-1]]))
        with open(src, 'w') as fh:
            fh.write(code)
        tail = ['-E', '-P', src] if mode == 'E' else ['-c', src, '-o', src + '.o']
        try:
            p = subprocess.run(cmd + tail, capture_output=True, text=True, cwd=self.tmp)
            res = [p.returncode, p.stdout if mode == 'E' else '', p.stderr]
        except OSError as e:
            res = [127, '', str(e)]
        self.ran += 1
        self.cache[key] = res
        return res

    def accepts(self, lang, flags):
        # has_multi_arguments' program and rule: compiles, with the flags.
        return self.run(lang, 'extern int i;\nint i;\n', flags, 'c')[0] == 0

    def save(self):
        if self.o['cache']:
            save_cache(self.o['cache'], self.cache)
        if SHARED_CACHE and self.ran:
            # Others may have added theirs since: merge, then replace.
            save_cache(SHARED_CACHE, dict(load_cache(SHARED_CACHE), **self.cache))


def macros(r, langs, flags):
    cdefs = r.o['cdef']
    code = ''.join('#if (%s)\ncpud_hit %s\n#endif\n' % (e, n) for n, e in cdefs)
    hits = set()
    for lang in langs:
        status, out, _ = r.run(lang, code, flags, 'E')
        if status == 0:
            hits |= {l.split()[1] for l in out.splitlines() if l.startswith('cpud_hit ')}
        else:
            # One expression the preprocessor cannot evaluate must not hide
            # the others: ask each on its own (what per-feature checks did).
            for n, e in cdefs:
                s, out, _ = r.run(lang, '#if (%s)\ncpud_hit %s\n#endif\n' % (e, n), flags, 'E')
                if s == 0 and 'cpud_hit ' + n in out:
                    hits.add(n)
    return [n for n, _ in cdefs if n in hits]


def subset(r, lang, flags):
    """The flags the compiler accepts, as get_supported_arguments() would
    find one by one: all at once, then without those it names, confirmed."""
    if not flags or r.accepts(lang, flags):
        return flags
    _, _, err = r.run(lang, 'extern int i;\nint i;\n', flags, 'c')
    named = set(UNKNOWN.findall(err))
    rest = [f for f in flags if f not in named]
    if named and (not rest or r.accepts(lang, rest)):
        return rest
    return [f for f in flags if r.accepts(lang, [f])]


def test_one(r, path, flags):
    """A test program alone with its flags: yes, no, or rejected (the
    compiler refuses the flags themselves)."""
    with open(path) as fh:
        code = fh.read()
    if r.run('c', code, flags, 'c')[0] == 0:
        return 'yes'
    return 'no' if r.accepts('c', flags) else 'rejected'


def tests_together(r, tests, table):
    """{key: 'yes'} for the tests that compile as one translation unit with
    the union of their flags (each program's main renamed), none of them
    when that unit does not compile: parsing the intrinsics headers once
    instead of once per feature is most of a configure's time. A test
    passes here only if it passes alone, unless it needs a flag beyond its
    own features', a table error test/configure's probe_modes.py would see.
    Tests whose flags the compiler refuses are left out first, and are
    {key: 'rejected'}: the compiler named one of their flags as unknown, or
    refused their flags alone (what test_one would find, without compiling
    each program again)."""
    if len(tests) < 2:
        return {}
    union = lambda ts: table.merged_flags(set().union(*(set(names) for _, _, names in ts)))
    flags = union(tests)
    out = {}
    if not r.accepts('c', flags):
        # Without the tests whose flags the compiler names as unknown; if it
        # still refuses (an unknown -march=...+ext names no whole flag),
        # without every test whose own flags it refuses.
        _, _, err = r.run('c', 'extern int i;\nint i;\n', flags, 'c')
        unknown = set(UNKNOWN.findall(err))
        named = [t for t in tests if unknown & set(table.merged_flags(set(t[2])))]
        # A named flag is rejected alone too: confirmed for one, the
        # others of the same compiler answer alike.
        if named and not r.accepts('c', table.merged_flags(set(named[0][2]))):
            out.update((t[0], 'rejected') for t in named)
            tests = [t for t in tests if t not in named]
        else:
            tests = [t for t in tests if t not in named]
        flags = union(tests) if tests else []
        if len(tests) >= 2 and not r.accepts('c', flags):
            with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, r.o['jobs'])) as pool:
                ok = list(pool.map(lambda t: r.accepts('c', table.merged_flags(set(t[2]))), tests))
            out.update((t[0], 'rejected') for t, good in zip(tests, ok) if not good)
            tests = [t for t, good in zip(tests, ok) if good]
            flags = union(tests) if tests else []
        if len(tests) < 2:
            return out
    parts = []
    for n, (key, path, _) in enumerate(tests):
        with open(path) as fh:
            parts.append('#define main cpud_probe_main_%d\n#line 1 "%s"\n%s\n#undef main\n' % (n, path, fh.read()))
    if r.run('c', ''.join(parts), flags, 'c')[0] != 0:
        return out
    out.update((key, 'yes') for key, _, _ in tests)
    return out


def main():
    strict = '--strict' in sys.argv[1:]
    o = parse([a for a in sys.argv[1:] if a != '--strict'])
    with tempfile.TemporaryDirectory(prefix='cpudispatch-probe-') as tmp:
        r = Runner(o, tmp)
        table = o['table']
        tests = [(key, what, words) for kind, key, what, words in o['req'] if kind == 'test']
        passed = {} if strict else tests_together(r, tests, table)

        def one(req):
            kind, key, what, words = req
            if kind == 'macros':
                return key, macros(r, what.split(','), words)
            if kind == 'subset':
                return key, subset(r, what, words)
            flags = table.merged_flags(set(words))
            if kind == 'flags':
                return key, flags
            if kind == 'accepts':
                return key, ['yes' if r.accepts(what, flags) else 'no']
            return key, [passed.get(key) or test_one(r, what, flags)]

        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, o['jobs'])) as pool:
            results = list(pool.map(one, o['req']))
        r.save()
    for key, words in results:
        print('%s\t%s' % (key, ' '.join(words)))
    print('@stats\t%d %d' % (len(o['req']), r.ran))


if __name__ == '__main__':
    main()
