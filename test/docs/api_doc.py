#!/usr/bin/env python3
"""docs/api.md against this build.

  api_doc.py ROOT --c PROG --cxx PROG --shlib LIB --readelf READELF
             --env-prefix PREFIX [--compiles=WHAT=yes|no ...]

1. Every fenced block of docs/api.md sits between <!-- api-NAME:start --> and
   <!-- api-NAME:end -->. A code block is held verbatim, between
   /* api-NAME:start */ and /* api-NAME:end */, by exactly one source of
   test/docs/ (which the build compiles), and every such source block is in
   the doc. A ```text block is an output: api-msg-NAME is compared with what
   the programs print.
2. The C and C++ programs (the blocks plus asserts) exit 0.
3. With every target of `fast` (no baseline build) masked off, a dispatched
   call from C (CPUD_DISPATCH_CALL and CPUD_DISPATCH_CALL_CACHED) and from
   C++ aborts after exactly the doc's message.
4. scoped_features inside a run with PREFIX_DISABLE_CPU_FEATURES set; a bad
   variable exits with status 78.
5. What must not compile does not, and its control does (--compiles, from
   test/docs/meson.build).
6. A shared library linking cpudispatch exports nothing of it: its own
   functions only.
"""
import argparse
import glob
import os
import re
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # test/
import exe_wrapper  # noqa: E402  (test/exe_wrapper.py)

ap = argparse.ArgumentParser()
ap.add_argument('root')
ap.add_argument('--c', required=True)
ap.add_argument('--cxx', required=True)
ap.add_argument('--shlib', required=True)
ap.add_argument('--readelf', default='')
ap.add_argument('--env-prefix', required=True)
ap.add_argument('--compiles', action='append', default=[])
a = ap.parse_args()
failures = []


def fail(msg):
    failures.append(msg)
    print('FAIL: ' + msg)


# ---- 1. blocks ----
doc_path = os.path.join(a.root, 'docs', 'api.md')
doc_blocks = {}   # name -> (language, [lines])
marker = None
lines = []
lang = None
in_fence = False
for n, line in enumerate(open(doc_path, encoding='utf-8').read().splitlines(), 1):
    m = re.fullmatch(r'<!-- (api-[a-z0-9-]+):(start|end) -->', line.strip())
    if m:
        if m.group(2) == 'start':
            if marker:
                fail('docs/api.md:%d: %s starts inside %s' % (n, m.group(1), marker))
            marker, lines, lang = m.group(1), [], None
        else:
            if m.group(1) != marker:
                fail('docs/api.md:%d: %s ends, but %s is open' % (n, m.group(1), marker))
            if marker in doc_blocks:
                fail('docs/api.md: block %s appears twice' % marker)
            doc_blocks[marker] = (lang, lines)
            marker = None
        continue
    if line.startswith('```'):
        if not in_fence:
            if not marker:
                fail('docs/api.md:%d: a code block outside <!-- api-...:start/end --> markers (untested)' % n)
            lang = line[3:].strip() or lang
        in_fence = not in_fence
        continue
    if marker and in_fence:
        lines.append(line)
    elif marker and line.strip():
        fail('docs/api.md:%d: text between %s markers outside its code block' % (n, marker))
if marker:
    fail('docs/api.md: %s never ends' % marker)

src_blocks = {}   # name -> (path, [lines])
for path in sorted(glob.glob(os.path.join(a.root, 'test', 'docs', '*.c')) +
                   glob.glob(os.path.join(a.root, 'test', 'docs', '*.cpp'))):
    name = None
    for line in open(path, encoding='utf-8').read().splitlines():
        m = re.fullmatch(r'/\* (api-[a-z0-9-]+):(start|end) \*/', line.strip())
        if m and m.group(2) == 'start':
            name, body = m.group(1), []
        elif m:
            if name in src_blocks:
                fail('%s: block %s is also in %s' % (path, name, src_blocks[name][0]))
            src_blocks[name] = (path, body)
            name = None
        elif name:
            body.append(line)

outputs = {}
for name, (lang, body) in sorted(doc_blocks.items()):
    if lang == 'text':
        outputs[name] = body
        continue
    if name not in src_blocks:
        fail('docs/api.md block %s is in no test source under test/docs/' % name)
    elif src_blocks[name][1] != body:
        got = src_blocks[name][1]
        diff = next((i for i in range(max(len(got), len(body)))
                     if i >= len(got) or i >= len(body) or got[i] != body[i]), 0)
        fail('docs/api.md block %s differs from %s at its line %d:\n  doc:  %r\n  test: %r'
             % (name, os.path.relpath(src_blocks[name][0], a.root), diff + 1,
                body[diff] if diff < len(body) else '(end)', got[diff] if diff < len(got) else '(end)'))
for name in src_blocks:
    if name not in doc_blocks:
        fail('%s holds block %s, which docs/api.md does not' % (src_blocks[name][0], name))
print('%d doc blocks, %d compiled from test/docs/' % (len(doc_blocks), len(src_blocks)))

# ---- 2. the programs ----
wrapper = exe_wrapper.command()
prefix = a.env_prefix
clean_env = {k: v for k, v in os.environ.items()
             if k not in (prefix + '_DISABLE_CPU_FEATURES', prefix + '_ENABLE_CPU_FEATURES')}


def run(args, env=None):
    r = subprocess.run(wrapper + args, capture_output=True, text=True, env=env or clean_env)
    print('$ %s -> %d\n%s' % (' '.join(args), r.returncode, (r.stdout + r.stderr).rstrip()))
    return r


for prog, tag in ((a.c, 'api-c'), (a.cxx, 'api-cxx')):
    r = run([prog])
    if r.returncode != 0 or '%s: PASS' % tag not in r.stdout:
        fail('%s failed (status %d)' % (prog, r.returncode))
    if prog == a.c and r.returncode == 0:
        said = dict(l.split(': ', 1) for l in r.stdout.splitlines() if l.startswith(('arch: ', 'env-prefix: ')))
        feats = [l.split()[1:] for l in r.stdout.splitlines() if l.startswith('features:')]
        # CPUD_ENV_PREFIX is the option env-prefix.
        if said.get('env-prefix') != prefix:
            fail('CPUD_ENV_PREFIX is %r, the option env-prefix %r' % (said.get('env-prefix'), prefix))
        # The ids are the rows of the arch's table in docs/features.md, in
        # order (its first table: the groups' table follows).
        rows, inside = [], False
        for line in open(os.path.join(a.root, 'docs', 'features.md'), encoding='utf-8'):
            if line.startswith('## '):
                inside = line[3:].strip() == said.get('arch')
            elif inside and rows and not line.startswith('|'):
                inside = False
            elif inside and line.startswith('| ') and not line.startswith(('| name ', '|---')):
                rows.append(line.split('|')[1].strip())
        if not feats or feats[0] != rows:
            fail('feature ids 1..N name %s; docs/features.md lists %s for %s' % (feats, rows, said.get('arch')))

# ---- 3. no target, no baseline build ----
want = outputs.get('api-msg-none')
if not want:
    fail('docs/api.md has no api-msg-none text block (the message of a call with no target)')
else:
    for prog, mode in ((a.c, 'none'), (a.c, 'none-cached'), (a.cxx, 'none'), (a.cxx, 'none-get')):
        r = run([prog, mode])
        if 'has-baseline' in r.stdout or 'has-no-target' in r.stdout:
            print('note: %s: fast has a baseline build or no target here; abort not checked' % prog)
            continue
        # (qemu-user adds a line of its own about the signal)
        lines = [l for l in r.stderr.splitlines() if l.strip() and not l.startswith('qemu: ')]
        if r.returncode not in (-signal.SIGABRT, 128 + signal.SIGABRT):
            fail('%s %s: expected SIGABRT, got status %d' % (prog, mode, r.returncode))
        if 'calling fast' not in r.stdout:
            fail('%s %s: the checks before the call failed' % (prog, mode))
        if lines != want:
            fail('%s %s: stderr %r, the doc says %r' % (prog, mode, lines, want))

# ---- 4. environment ----
name = run([a.cxx, 'env-probe']).stdout.strip()
if name:
    r = run([a.cxx, 'env-check', name], dict(clean_env, **{prefix + '_DISABLE_CPU_FEATURES': name}))
    if r.returncode != 0 or 'PASS' not in r.stdout:
        fail('scoped_features under %s_DISABLE_CPU_FEATURES=%s' % (prefix, name))
else:
    print('note: no usable target above the baseline here; the environment case is not checked')
r = run([a.c], dict(clean_env, **{prefix + '_DISABLE_CPU_FEATURES': 'x', prefix + '_ENABLE_CPU_FEATURES': 'x'}))
err = [l for l in r.stderr.splitlines() if l.strip()]
if r.returncode != 78 or len(err) != 1 or not err[0].startswith('cpudispatch: '):
    fail('both env variables set: expected status 78 and one "cpudispatch: " line, got %d %r' % (r.returncode, err))

# ---- 5. compile-time claims ----
want_compiles = {'call-all-as-statement': 'yes', 'call-all-as-expression': 'no',
                 'own-arch-id': 'yes', 'other-arch-id': 'no',
                 'xmacro-cb-two-params': 'no', 'xmacro-no-rest-c99': 'no', 'xmacro-dummy-rest-c99': 'yes',
                 'cached-c99-pedantic': 'yes', 'cached-cxx-pedantic': 'yes', 'pick-without-define': 'no',
                 'define-any-order': 'yes', 'define-any-order-last-header-lists': 'no',
                 'dispatch-any-order-cxx': 'yes', 'dispatch-any-order-cxx-last-header-lists': 'no',
                 'define-unknown-name': 'no',
                 'below-outside-dispatch-source': 'no', 'below-in-dispatch-build': 'yes',
                 'below-c-outside-dispatch-source': 'no', 'below-c-in-dispatch-build': 'yes'}
got = dict(x.split('=', 1) for x in a.compiles)
# quickstart.md's CPUD_NO_INTRINSIC_HEADERS, where the build names a clash
# (x86_64, aarch64): the generated header's intrinsic headers clash with a
# helper of an intrinsic's name, and the macro leaves them out.
if 'own-intrinsic-name' in got or 'own-intrinsic-name-no-headers' in got:
    want_compiles.update({'own-intrinsic-name': 'no', 'own-intrinsic-name-no-headers': 'yes'})
else:
    print('compiles(own-intrinsic-name): not checked on this arch (no intrinsic named for it)')
for what, expect in want_compiles.items():
    if got.get(what) != expect:
        fail('compiles(%s): expected %s, got %s' % (what, expect, got.get(what)))
    else:
        print('compiles(%s): %s, as the doc says' % (what, expect))

# ---- 6. exported symbols ----
if a.readelf:
    out = subprocess.run([a.readelf, '--dyn-syms', '-W', a.shlib], capture_output=True, text=True,
                         check=True).stdout
    exported = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 8 and f[0].endswith(':') and f[6] != 'UND' and f[4] in ('GLOBAL', 'WEAK', 'UNIQUE') \
                and f[5] in ('DEFAULT', 'PROTECTED'):
            exported[f[7].split('@')[0]] = f[3]
    own = {'docs_api_shlib_scale', 'docs_api_shlib_fast_count'}
    if set(exported) != own:
        fail('%s exports %s; expected its own functions only' % (os.path.basename(a.shlib), sorted(exported.items())))
    else:
        print('%s exports: %s' % (os.path.basename(a.shlib), ' '.join(sorted(exported))))
else:
    print('note: no readelf; exported symbols not checked')

if failures:
    sys.exit('%d failure(s)' % len(failures))
print('PASS')
