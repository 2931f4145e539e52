#!/usr/bin/env python3
"""newer_meson.py ROOT: examples/consumer through the release wrap, built and
tested with each Meson named in CPUD_TEST_MESONS (a `meson.py` of upstream's
source or a `meson` program; several separated by ':'), as docs/wrap.md
("Meson versions") says. Without CPUD_TEST_MESONS it skips (77) and says so.

For each Meson, with the example copied, its wrap replaced by the release
wrap and docs/wrap.md's info-test block appended to its meson.build:
  configure  the example's buildtype=release (its default_options),
             b_ndebug=if-release: no DEPRECATION and no
             WARNING line; the same with each cross file of cross/;
  test       `meson test` on the fresh build (nothing built before it)
             passes, the cpudispatch-info test included; then under
             --setup cpudispatch:each_target;
  build type the runtime's objects are compiled with the parent's -O3 and
             -DNDEBUG, and without -O2 (cpudispatch 4d73d73, whose
             project() named buildtype=debugoptimized, gives -O2 -g and
             no -DNDEBUG there on Meson 1.12.0: the control, run by hand).
Also shown, not asserted (a later Meson may mend it): whether the
find_program('cpudispatch-info') form of that test runs on this Meson.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import doc_blocks  # noqa: E402  (test/doc_blocks.py)
import release_wrap  # noqa: E402  (test/release_wrap.py)

root = os.path.abspath(sys.argv[1])
failures = []


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def meson_cmd(entry):
    return [sys.executable, entry] if entry.endswith('.py') else [entry]


def make_project(tmp, info_line):
    dst = os.path.join(tmp, 'proj')
    shutil.rmtree(dst, ignore_errors=True)
    error = release_wrap.example(root, 'consumer', dst)
    if error:
        sys.exit('FAIL: ' + error)
    with open(os.path.join(dst, 'meson.build'), 'a') as fh:
        fh.write(info_line + '\n')
    return dst


def noisy(out):
    """Configure output lines a consumer should not see (the example itself
    is clean: what warns comes from us or from our cross files)."""
    return [l for l in out.splitlines() if 'DEPRECATION' in l or 'WARNING' in l]


def check(meson, tmp, info_line):
    version = run(meson + ['--version']).stdout.strip()
    tag = 'Meson %s' % version
    print('== %s (%s)' % (tag, ' '.join(meson)))
    proj = make_project(tmp, info_line)
    b = os.path.join(tmp, 'build-' + version)
    # The build type from the example's own default_options (release), not
    # the command line: that is what a subproject's buildtype overrode.
    r = run(meson + ['setup', b, proj, '--wrap-mode=nodownload', '-Db_ndebug=if-release'])
    if r.returncode:
        failures.append('%s: configure failed:\n%s' % (tag, (r.stdout + r.stderr)[-3000:]))
        return
    if noisy(r.stdout + r.stderr):
        failures.append('%s: configure printed:\n%s' % (tag, '\n'.join(noisy(r.stdout + r.stderr))))
    r = run(meson + ['test', '-C', b, '--print-errorlogs'])
    tests = {}
    log = os.path.join(b, 'meson-logs', 'testlog.json')
    if os.path.exists(log):
        # Meson 1.12 names a test PROJECT:NAME in the log, 1.0 NAME.
        tests = {json.loads(l)['name'].split(':')[-1]: json.loads(l)['result'] for l in open(log)}
    print('  meson test (fresh build): status %d, %s' % (r.returncode, tests))
    if r.returncode or tests.get('cpudispatch-info') != 'OK' or tests.get('example') != 'OK':
        failures.append('%s: meson test on a fresh build:\n%s' % (tag, (r.stdout + r.stderr)[-3000:]))
    r = run(meson + ['test', '-C', b, '--print-errorlogs', '--setup', 'cpudispatch:each_target'])
    print('  meson test --setup cpudispatch:each_target: status %d' % r.returncode)
    if r.returncode:
        failures.append('%s: meson test --setup cpudispatch:each_target:\n%s' % (tag, (r.stdout + r.stderr)[-3000:]))
    commands = json.load(open(os.path.join(b, 'compile_commands.json')))
    runtime = [c for c in commands if '/src/runtime/' in c['file'] and 'subprojects' in c['file']]
    wrong = [os.path.basename(c['file']) for c in runtime
             if ' -O3 ' not in ' %s ' % c['command'] or '-DNDEBUG' not in c['command'] or ' -O2 ' in ' %s ' % c['command']]
    print('  runtime objects: %d, with the parent\'s -O3 -DNDEBUG: %d' % (len(runtime), len(runtime) - len(wrong)))
    if not runtime or wrong:
        failures.append('%s: runtime objects without the parent\'s release flags: %s' % (tag, wrong or 'none found'))
    for cross in sorted(glob.glob(os.path.join(root, 'cross', '*.txt'))):
        cc = re.search(r"^c = \[?'([^']+)'", open(cross).read(), re.M)
        if not cc or not shutil.which(cc.group(1)):
            print('  configure with %s: not run, no %s on this machine (tools/install-deps.sh installs it)'
                  % (os.path.relpath(cross, root), cc.group(1) if cc else 'c compiler entry'))
            continue
        cb = os.path.join(tmp, 'cross-%s-%s' % (version, os.path.basename(cross)[:-4]))
        r = run(meson + ['setup', cb, proj, '--wrap-mode=nodownload', '--cross-file', cross])
        shown = noisy(r.stdout + r.stderr)
        print('  configure with %s: status %d, %d deprecation/warning lines'
              % (os.path.relpath(cross, root), r.returncode, len(shown)))
        if r.returncode or shown:
            failures.append('%s, %s: %s' % (tag, os.path.relpath(cross, root),
                                            '\n'.join(shown) or (r.stdout + r.stderr)[-2000:]))
        shutil.rmtree(cb, ignore_errors=True)
    # Shown only: the find_program() form of the same test.
    proj = make_project(tmp, "test('cpudispatch-info', find_program('cpudispatch-info'), args: ['--json'])")
    cb = os.path.join(tmp, 'fp-' + version)
    r = run(meson + ['setup', cb, proj, '--wrap-mode=nodownload'])
    r = r if r.returncode else run(meson + ['test', '-C', cb])
    print('  (shown, not asserted) the find_program() form: %s' % (
        'passes' if r.returncode == 0 else 'fails: ' + ([l for l in (r.stdout + r.stderr).splitlines()
                                                        if 'Error' in l or 'ERROR' in l] or ['?'])[-1]))
    shutil.rmtree(b, ignore_errors=True)
    shutil.rmtree(cb, ignore_errors=True)


def main():
    mesons = [m for m in os.environ.get('CPUD_TEST_MESONS', '').split(':') if m]
    if not mesons:
        print('SKIP: no newer Meson to test: set CPUD_TEST_MESONS to upstream meson.py files (docs/wrap.md, '
              '"Meson versions"); this build\'s own Meson runs every other test')
        return 77
    info_line = doc_blocks.block(os.path.join(root, 'docs', 'wrap.md'), 'info-test')
    if len(info_line) != 1:
        sys.exit('FAIL: docs/wrap.md\'s info-test block is not one line: %r' % info_line)
    with tempfile.TemporaryDirectory(prefix='cpud-newer-meson-') as tmp:
        for m in mesons:
            if not os.path.exists(m) and not shutil.which(m):
                failures.append('CPUD_TEST_MESONS names %s, which does not exist' % m)
                continue
            check(meson_cmd(m), tmp, info_line[0])
    if failures:
        print('FAIL:\n' + '\n'.join(failures))
        return 1
    print('PASS: %d Meson versions' % len(mesons))
    return 0


if __name__ == '__main__':
    sys.exit(main())
