#!/usr/bin/env python3
"""Writes what configure produces for a set of configurations of the
configure fixture (a consumer with cpudispatch as its subproject), so that
a change to the configure half can be shown to keep them byte for byte:

  snapshot.py OUT_DIR [CONFIG...]      (default: every configuration)
  snapshot.py --list
  diff -r BEFORE_DIR AFTER_DIR

Per configuration, OUT_DIR/NAME/ holds:
  setup.txt      meson setup's status and output (messages, summaries,
                 errors), with the temporary and source paths replaced by
                 <BUILD>/<SRC>/<ROOT> and meson.build line numbers by <LINE>
  files/...      every file configure wrote under the subproject's include/
                 (cpudispatch_targets.txt, generated headers) and the
                 project's *.dispatch.h
  compile.txt    each target's sources and compile arguments (introspection)

The configurations: the configure grid's cases (test/configure/run_grid.py,
errors included), groups, the four cross arches and MinGW-w64.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import run_grid  # noqa: E402  (its CASES: the option values of each grid point)

GROUPS = ['-Dsum-targets=baseline SSE42 AVX2+FMA3 (AVX512F AVX512BW) AVX512_SKX+VPCLMULQDQ']


def configs():
    out = {}
    for name, case in run_grid.CASES.items():
        if case.get('qemu') or case.get('snippet') or case.get('old_compiler'):
            continue  # run-time checks, the docs' own project, a compiler wrapper: not configure's output
        out['grid-' + name] = dict(args=case['args'])
    out['groups'] = dict(args=GROUPS)
    out['groups-max'] = dict(args=GROUPS + ['-Dcpudispatch:cpu-dispatch=max'])
    for triple in ('aarch64-linux-gnu', 'powerpc64le-linux-gnu', 's390x-linux-gnu', 'riscv64-linux-gnu',
                   'x86_64-w64-mingw32'):
        cross = os.path.join(ROOT, 'cross', triple + '.txt')
        out['cross-' + triple] = dict(args=['--cross-file', cross], cross=True)
        out['cross-' + triple + '-max'] = dict(args=['--cross-file', cross, '-Dcpudispatch:cpu-dispatch=max'],
                                               cross=True)
    return out


def normalise(text, build, proj):
    text = text.replace(build, '<BUILD>').replace(proj, '<SRC>').replace(ROOT, '<ROOT>')
    # Timings and where in a meson.build an error was raised are no part of
    # what configure decided (a refactor moves lines).
    text = re.sub(r'\d+\.\d+(?:s| seconds)\b', '<TIME>', text)
    text = re.sub(r'(meson\.build):\d+:\d+:', r'\1:<LINE>:', text)
    return text


def snapshot(name, cfg, out):
    tmp = tempfile.mkdtemp(prefix='cpud-snap-')
    try:
        proj = run_grid.fixture_project(tmp)
        os.symlink(ROOT, os.path.join(proj, 'subprojects', 'cpudispatch'))
        build = os.path.join(tmp, 'build')
        env = dict(os.environ)
        if cfg.get('cross'):
            env.pop('CC', None)
            env.pop('CXX', None)
        p = subprocess.run(['meson', 'setup', build, proj] + cfg['args'], capture_output=True, text=True, env=env)
        dst = os.path.join(out, name)
        os.makedirs(os.path.join(dst, 'files'))
        with open(os.path.join(dst, 'setup.txt'), 'w') as fh:
            fh.write('status %d\n' % p.returncode + normalise(p.stdout + p.stderr, build, proj))
        if p.returncode != 0:
            return p.returncode
        inc = os.path.join(build, 'subprojects', 'cpudispatch', 'include')
        found = [os.path.join(inc, f) for f in sorted(os.listdir(inc)) if os.path.isfile(os.path.join(inc, f))]
        found += [os.path.join(build, f) for f in sorted(os.listdir(build)) if f.endswith('.dispatch.h')]
        for f in found:
            with open(f, errors='replace') as src, open(os.path.join(dst, 'files', os.path.basename(f)), 'w') as o:
                o.write(normalise(src.read(), build, proj))
        intro = subprocess.run(['meson', 'introspect', '--targets', build], capture_output=True, text=True,
                               check=True)
        lines = []
        for t in sorted(json.loads(intro.stdout), key=lambda t: t['id']):
            for s in t.get('target_sources', []):
                lines.append('%s %s %s: %s' % (t['name'], s.get('language'), ' '.join(s.get('sources', [])),
                                                ' '.join(s.get('parameters', []))))
        with open(os.path.join(dst, 'compile.txt'), 'w') as fh:
            fh.write(normalise('\n'.join(lines) + '\n', build, proj))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    all_configs = configs()
    if sys.argv[1:] == ['--list']:
        print('\n'.join(all_configs))
        return 0
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    names = sys.argv[2:] or list(all_configs)
    unknown = [n for n in names if n not in all_configs]
    if unknown:
        sys.exit('unknown configuration(s): %s' % ' '.join(unknown))
    for name in names:
        status = snapshot(name, all_configs[name], out)
        print('%-50s configure status %d' % (name, status))
    return 0


if __name__ == '__main__':
    sys.exit(main())
