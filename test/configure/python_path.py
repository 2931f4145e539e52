#!/usr/bin/env python3
"""cpudispatch's scripts run on the Python that runs Meson, never on the
python3 that PATH finds (docs/performance.md, "Configure time and the
number of dispatch sources").

  python_path.py SOURCE_ROOT

A consumer made from docs/quickstart.md's blocks, through the release wrap
(tools/make-wrap.py), is configured, built (the check runs at build time)
and run with a `python3` first on PATH that writes down every start and then
runs this Python, as a pyenv shim would: it must never start, and no
command Meson wrote (build.ninja) may name it. Negative control: the same
release with src/build_side/cpudispatch_python.py made executable configures with
the shim started, and configure says why (its warning). Also: the launcher
has no execute bit in the source tree, nor in git's index. Exit 0 pass, 1
fail, 77 skip (no C compiler or no git to make the release).
"""
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import doc_blocks  # noqa: E402  (test/doc_blocks.py)

LAUNCHER = os.path.join('src', 'build_side', 'cpudispatch_python.py')
SHIM = '''#!/bin/sh
# stands for a pyenv shim: every start is written down, then a real Python
echo "$0 $*" >> {log}
exec {python} "$@"
'''


def run(cmd, env, cwd=None):
    r = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def consumer(root, dest):
    """A C consumer from the docs' blocks (the dict: one C source), with
    the release wrap in its subprojects/."""
    os.makedirs(os.path.join(dest, 'src'))
    snippet = doc_blocks.block(os.path.join(root, 'docs', 'quickstart.md'), 'snippet')
    at = next(i for i, l in enumerate(snippet) if l.startswith('foreach src, want : {'))
    snippet[at] = "foreach src, want : {'src/k.dispatch.c': 'baseline SSE42 AVX2 ASIMDDP'}"
    with open(os.path.join(dest, 'meson.build'), 'w') as fh:
        fh.write("project('shimmed', 'c')\n" + '\n'.join(snippet) + '\n'
                 "app = executable('app', 'src/main.c', link_with: kernels, dependencies: dependency('cpudispatch'))\n")
    with open(os.path.join(dest, 'src', 'k.dispatch.c'), 'w') as fh:
        fh.write('#include "k.dispatch.h"\nint CPUD_FN(k)(int x) { return x + 1; }\n')
    with open(os.path.join(dest, 'src', 'main.c'), 'w') as fh:
        fh.write('#include "k.dispatch.h"\nCPUD_DISPATCH_DECLARE(int k, (int))\n'
                 'int main(void) { return CPUD_DISPATCH_CALL(k, (41)) == 42 ? 0 : 1; }\n')
    r = subprocess.run([sys.executable, os.path.join(root, 'tools', 'make-wrap.py'), os.path.join(dest, 'subprojects'),
                        '--allow-dirty'], capture_output=True, text=True)
    return None if r.returncode == 0 else r.stdout + r.stderr


def main():
    root = os.path.abspath(sys.argv[1])
    failures = []
    if os.stat(os.path.join(root, LAUNCHER)).st_mode & 0o111:
        failures.append('%s has an execute bit in the source tree' % LAUNCHER)
    idx = subprocess.run(['git', '-C', root, 'ls-files', '-s', LAUNCHER], capture_output=True, text=True)
    if idx.returncode != 0 or not idx.stdout:
        print('SKIP: no git checkout to make the release from')
        return 77
    if not idx.stdout.startswith('100644 '):
        failures.append('git records %s as %s (must be 100644: no execute bit)' % (LAUNCHER, idx.stdout.split()[0]))
    tmp = tempfile.mkdtemp(prefix='cpud-pypath-')
    try:
        log = os.path.join(tmp, 'shim.log')
        shim = os.path.join(tmp, 'shim')
        os.makedirs(shim)
        with open(os.path.join(shim, 'python3'), 'w') as fh:
            fh.write(SHIM.format(log=log, python=sys.executable))
        os.chmod(os.path.join(shim, 'python3'), 0o755)
        env = dict(os.environ, PATH=shim + os.pathsep + os.environ.get('PATH', ''))
        proj = os.path.join(tmp, 'proj')
        err = consumer(root, proj)
        if err:
            print('FAIL: make-wrap.py: %s' % err)
            return 1
        build = os.path.join(tmp, 'build')
        for what, cmd in [('configure', ['meson', 'setup', build, proj]), ('build', ['ninja', '-C', build]),
                          ('run', [os.path.join(build, 'app')])]:
            rc, out = run(cmd, env)
            print('%s: status %d' % (what, rc))
            if rc != 0:
                print(out[-3000:])
                failures.append('%s failed (%d)' % (what, rc))
                break
        started = open(log).read().splitlines() if os.path.exists(log) else []
        if started:
            failures.append('the python3 on PATH was started %d times:\n    %s' % (len(started),
                                                                             '\n    '.join(started[:5])))
        ninja = os.path.join(build, 'build.ninja')
        if os.path.exists(ninja) and shim in open(ninja).read():
            failures.append('build.ninja names the python3 on PATH (%s)' % shim)
        else:
            print('the python3 on PATH was never started; build.ninja does not name it')
        # The control: the same release, its launcher made executable.
        extracted = [d for d in os.listdir(os.path.join(proj, 'subprojects')) if d.startswith('cpudispatch-')
                     and os.path.isdir(os.path.join(proj, 'subprojects', d))]
        if not extracted:
            failures.append('the release was not extracted into subprojects/ (%s)'
                            % os.listdir(os.path.join(proj, 'subprojects')))
        else:
            ctl = os.path.join(tmp, 'control')
            shutil.copytree(proj, ctl, symlinks=True, ignore=shutil.ignore_patterns('packagecache'))
            sub = os.path.join(ctl, 'subprojects')
            os.remove(os.path.join(sub, 'cpudispatch.wrap'))
            os.rename(os.path.join(sub, extracted[0]), os.path.join(sub, 'cpudispatch'))
            shutil.rmtree(os.path.join(sub, 'packagefiles'), ignore_errors=True)
            path = os.path.join(sub, 'cpudispatch', LAUNCHER)
            os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
            if os.path.exists(log):
                os.remove(log)
            rc, out = run(['meson', 'setup', os.path.join(tmp, 'control-build'), ctl], env)
            started = open(log).read().splitlines() if os.path.exists(log) else []
            warned = re.search(r'WARNING: .*cpudispatch_python\.py has an execute bit, so Meson starts '
                               r'cpudispatch\'s scripts with the python3 that PATH finds', out)
            print('control (launcher executable): configure status %d, the python3 on PATH started %d times, '
                  'warned: %s' % (rc, len(started), bool(warned)))
            if rc != 0 or not started or not warned:
                print(out[-3000:])
                failures.append('control: expected a configure that starts the python3 on PATH and warns, got '
                                'status %d, %d starts, warning %s' % (rc, len(started), bool(warned)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print('\n'.join('FAIL: ' + f for f in failures))
        return 1
    print('PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())
