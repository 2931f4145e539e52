#!/usr/bin/env python3
"""A consumer built with the strict warning flags real C libraries use and
-Werror, through the release wrap (docs/quickstart.md, "Strict warning
flags"): configure's compiler checks ignore the consumer's warning flags;
every cpudispatch header a consumer includes, and the generated headers,
compile without a warning; a dispatch source written as the docs write one
passes -Wmissing-prototypes (cpudispatch/dispatch.h quiets it in a dispatch
source's builds, and only there); cpudispatch's own compiled code, as a
subproject, answers to its own warnings, not the consumer's.

  run_strict.py --list               case names
  run_strict.py SOURCE_ROOT CASE     exit 0 pass, 1 fail, 77 skip

Each case configures test/strict/fixture with one compiler, C standard and
way of passing the flags (-Dc_args/-Dcpp_args, or CFLAGS/CXXFLAGS), builds
it (no line of the build says "warning:") and runs its program. The
control: the fixture's dispatch source built as ordinary code (target
`control`) fails with -Wmissing-prototypes, as the flags demand.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written into the source tree
HERE = os.path.dirname(os.path.abspath(__file__))

C_STRICT = ['-Wall', '-Wextra', '-Wpedantic', '-Wdeclaration-after-statement', '-Wshadow', '-Wundef',
            '-Wstrict-prototypes', '-Wmissing-prototypes', '-Wconversion', '-Werror']
CXX_STRICT = ['-Wall', '-Wextra', '-Wpedantic', '-Wold-style-cast', '-Wzero-as-null-pointer-constant', '-Wshadow',
              '-Wundef', '-Wconversion', '-Wmissing-declarations', '-Werror']
CASES = {
    'gcc-c-args-c99': dict(cc='gcc', cxx='g++', via='args', std='c99'),
    'gcc-cflags-c11': dict(cc='gcc', cxx='g++', via='env', std='c11'),
    'clang-c-args-c11': dict(cc='clang', cxx='clang++', via='args', std='c11'),
    'clang-cflags-c99': dict(cc='clang', cxx='clang++', via='env', std='c99'),
}


def run(cmd, **kw):
    print('$ ' + ' '.join(cmd))
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def main():
    if sys.argv[1:] == ['--list']:
        print('\n'.join(CASES))
        return 0
    root, name = sys.argv[1], sys.argv[2]
    c = CASES[name]
    missing = [t for t in (c['cc'], c['cxx'], 'meson', 'ninja', 'git') if not shutil.which(t)]
    if missing:
        print('SKIP: %s not found' % ' '.join(missing))
        return 77
    failures = []
    tmp = tempfile.mkdtemp(prefix='cpud-strict-')
    try:
        proj, build = os.path.join(tmp, 'proj'), os.path.join(tmp, 'build')
        shutil.copytree(os.path.join(HERE, 'fixture'), proj)
        os.makedirs(os.path.join(proj, 'subprojects'))
        p = run([sys.executable, os.path.join(root, 'tools', 'make-wrap.py'), os.path.join(proj, 'subprojects'),
                 '--allow-dirty'])
        if p.returncode:
            print(p.stdout + p.stderr)
            return 1
        env = {k: v for k, v in os.environ.items() if k not in ('CFLAGS', 'CXXFLAGS', 'CPPFLAGS', 'LDFLAGS')}
        env['CC'], env['CXX'] = c['cc'], c['cxx']
        cmd = ['meson', 'setup', build, proj, '--wrap-mode=nodownload', '-Dc_std=' + c['std']]
        if c['via'] == 'args':
            cmd += ['-Dc_args=' + ' '.join(C_STRICT), '-Dcpp_args=' + ' '.join(CXX_STRICT)]
        else:
            env['CFLAGS'], env['CXXFLAGS'] = ' '.join(C_STRICT), ' '.join(CXX_STRICT)
            print('  CFLAGS=%s CXXFLAGS=%s' % (env['CFLAGS'], env['CXXFLAGS']))
        p = run(cmd, env=env)
        if p.returncode:
            print((p.stdout + p.stderr)[-3000:])
            failures.append('configure failed with the strict flags')
        else:
            p = run(['ninja', '-C', build, '-v'], env=env)
            warned = [l for l in (p.stdout + p.stderr).splitlines() if 'warning:' in l]
            if p.returncode or warned:
                print((p.stdout + p.stderr)[-6000:])
                failures.append('the build failed or warned (%d warning lines)' % len(warned))
            else:
                flags = [l for l in p.stdout.splitlines() if 'sum.dispatch.c.o' in l and '-Werror' in l]
                print('  built with -Werror (%d compile lines of sum.dispatch.c carry it), no warning' % len(flags))
                if not flags:
                    failures.append('the dispatch source was not compiled with the strict flags: the case tests '
                                    'nothing')
                r = run([os.path.join(build, 'app')])
                print('  ' + r.stdout.strip())
                if r.returncode or 'ok' not in r.stdout:
                    failures.append('the program failed (status %d)' % r.returncode)
            p = run(['ninja', '-C', build, 'libcontrol.a'], env=env)
            if p.returncode == 0 or not re.search(r'no previous prototype', p.stdout + p.stderr):
                failures.append('control: the dispatch source built as ordinary code should fail with '
                                '-Wmissing-prototypes, status %d' % p.returncode)
            else:
                print('  control: as ordinary code it fails with -Wmissing-prototypes, as the flags demand')
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print('FAIL: ' + f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
