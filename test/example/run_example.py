#!/usr/bin/env python3
"""Builds and tests examples/consumer from scratch, as a user would:

  release: `meson dist` tarball + [wrap-file] (tools/make-wrap.py) in the
           example's subprojects/, `meson setup --wrap-mode=nodownload`, with
           default options, -Dcpudispatch:cpu-dispatch=none and
           -Dcpudispatch:disable-optimization=true;
           The default build's own test also runs under cpudispatch's test
           setups each_target and each_cpu (every qemu model of the arch):
           both pass, and each function ran on every target the CPUs select;
           with --cross, the same in an aarch64 cross build under qemu-aarch64,
           and a Windows (MinGW-w64) build whose app runs under Wine, natively
           and inside qemu-user under every x86_64 model;
  git:     a clone of this repository, the example's committed [wrap-git]
           (it clones the repository's committed HEAD, three levels up).
Also checks that the example's meson.build holds docs/quickstart.md's
snippet verbatim. And examples/typed-array (the typed operators through the
release wrap): GCC release and Clang debug builds pass their test, and under
each_target and each_cpu its library ran on exactly the builds the CPUs
select.   run_example.py ROOT [--cross]
"""
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import cpu_facts  # noqa: E402  (test/cpu_facts.py)
import doc_blocks  # noqa: E402  (test/doc_blocks.py)
import release_wrap  # noqa: E402  (test/release_wrap.py)

root = sys.argv[1]
with_cross = '--cross' in sys.argv[2:]
failures = []


def sh(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        failures.append('$ %s\n%s' % (' '.join(cmd), (r.stdout + r.stderr)[-3000:]))
    return r


def docs_block(marker, doc='quickstart.md'):
    return doc_blocks.block(os.path.join(root, 'docs', doc), marker)


def release_copy(tmp, example):
    """examples/EXAMPLE copied under tmp/release with the release wrap
    (tools/make-wrap.py: the `meson dist` tarball and its [wrap-file]) in
    place of its [wrap-git]."""
    dst = os.path.join(tmp, 'release', example)
    error = release_wrap.example(root, example, dst)
    if error:
        failures.append(error)
    return dst


def setup_output(b, setup):
    """stdout and stderr of every test of `meson test --setup cpudispatch:SETUP`."""
    log = os.path.join(b, 'meson-logs', 'testlog-cpudispatch_%s.json' % setup)
    out = ''
    if os.path.exists(log):
        for line in open(log):
            t = json.loads(line)
            out += '%s\n%s\n' % (t.get('stdout') or '', t.get('stderr') or '')
    return out


def build_and_test(src, name, opts, expect_target=None, offline=True, run_app=True):
    b = os.path.join(tmp, 'build-' + name)
    r = sh(['meson', 'setup', b, src] + (['--wrap-mode=nodownload'] if offline else []) + opts)
    if r.returncode != 0:
        return
    # Configuring through the wrap shows the consumer no Meson warning of ours.
    warned = [l for l in (r.stdout + r.stderr).splitlines()
              if 'WARNING' in l and ('subprojects/cpudispatch' in l or 'cpudispatch-' in l)]
    if warned:
        failures.append('%s: configure printed warnings from cpudispatch:\n%s' % (name, '\n'.join(warned)))
    r = sh(['ninja', '-C', b])
    if r.returncode != 0:
        return
    # A consumer's build compiles nothing of ours but the runtime, and its
    # log carries no warning from us (docs/wrap.md).
    ours = [l for l in r.stdout.splitlines() if 'cpud_demo' in l or 'cpudispatch-info' in l]
    warned = [l for l in r.stdout.splitlines() if 'warning:' in l and 'subprojects/cpudispatch' in l]
    if ours or warned:
        failures.append('%s: the default build compiled demo code or printed warnings:\n%s'
                        % (name, '\n'.join(ours + warned)))
    sh(['meson', 'test', '-C', b])
    if not run_app:  # a cross-built app runs only through meson test
        return
    out = sh([os.path.join(b, 'app')]).stdout
    print('[%s %s]\n%s' % (name, ' '.join(opts), out), end='')
    picked = [l.split(':', 1)[1].strip() for l in out.splitlines() if l.startswith(('sum', 'axpy'))]
    if 'results match the plain loops' not in out or (expect_target and picked != [expect_target] * 2):
        failures.append('%s: expected both functions on %s:\n%s' % (name, expect_target, out))


# What the example's two functions run on, from facts about the CPUs
# (test/cpu_facts.py): each picks the best target of its list (meson.build)
# that the CPU has, highest first.
PICKS = {
    'x86_64': {'sum': [(t, cpu_facts.X86_NEEDS[t]) for t in ('AVX512_SKX', 'AVX2', 'SSE42')],
               'axpy': [(t, cpu_facts.X86_NEEDS[t]) for t in ('X86_V3', 'AVX2__FMA3')]},
    'aarch64': {'sum': [('ASIMDDP', {'asimddp'})], 'axpy': [('ASIMDHP', {'asimdhp'})]},
}


def picked(arch, fn, flags):
    return next((t for t, need in PICKS[arch][fn] if need <= flags), 'baseline')


def run_setups(b, arch, name):
    """The example's own test under cpudispatch:each_target and each_cpu:
    both pass, every model runs, and each function ran on every target the
    CPUs (the host's for each_target; each model's for each_cpu) select."""
    cpus = cpu_facts.models(arch)
    want_cpu = {fn: {picked(arch, fn, f) for f in cpus.values()} for fn in PICKS[arch]}
    if arch == 'x86_64':
        host = cpu_facts.host_flags(quiet=True)
        want_target = {fn: {'baseline'} | {t for t, need in PICKS[arch][fn] if need <= host} for fn in PICKS[arch]}
    else:  # qemu-aarch64's default CPU, "max", has every feature of the list
        want_target = {fn: {'baseline'} | {t for t, _ in PICKS[arch][fn]} for fn in PICKS[arch]}
    for setup, want, ok_line in (('each_target', want_target, 'ok under targets baseline'),
                                 ('each_cpu', want_cpu, 'ok under models ' + ' '.join(cpus))):
        r = sh(['meson', 'test', '-C', b, '--print-errorlogs', '--setup', 'cpudispatch:' + setup])
        out = setup_output(b, setup)
        seen = {fn: set(re.findall(r'^%s +\([^)]*\): +(\S+)$' % fn, out, re.M)) for fn in PICKS[arch]}
        print('[%s --setup cpudispatch:%s] %s' % (name, setup, ', '.join('%s ran on %s' % (fn, ' '.join(sorted(v)))
                                                                         for fn, v in seen.items())))
        if r.returncode != 0 or ok_line not in out:
            failures.append('%s: meson test --setup cpudispatch:%s did not pass (%r):\n%s'
                            % (name, setup, ok_line, out[-3000:]))
        elif seen != want:
            failures.append('%s: under cpudispatch:%s the functions ran on %s, expected %s' % (name, setup, seen, want))
    if arch == 'x86_64':
        group_wrapper(b, name, host)


def group_wrapper(b, name, host):
    """docs/testing-your-code.md's --wrapper command for a group target, which
    has no setup: the example's tests run with axpy on its AVX2+FMA3 build
    (and sum on AVX2, which the group implies); 77 where the CPU lacks them."""
    cmd = docs_block('group-wrapper', 'testing-your-code.md')[0]
    sub = glob.glob(os.path.join(b, 'subprojects', 'cpudispatch-*'))
    cmd = cmd.replace('"$(pwd)/build/subprojects/cpudispatch/', '"%s/' % (sub[0] if sub else '?'))
    cmd = shlex.split(cmd.replace('-C build', '-C ' + b, 1))
    r = sh(cmd)
    # Meson names the log of a --wrapper run after the wrapper's program.
    log = os.path.join(b, 'meson-logs', 'testlog-cpudispatch-run.json')
    tests = [json.loads(l) for l in open(log)] if os.path.exists(log) else []
    out = ''.join(t.get('stdout') or '' for t in tests)
    seen = {fn: re.findall(r'^%s +\([^)]*\): +(\S+)$' % fn, out, re.M) for fn in ('sum', 'axpy')}
    print('[%s %s] %s' % (name, ' '.join(cmd[3:]), seen))
    if not cpu_facts.X86_NEEDS['AVX2__FMA3'] <= host:
        if not tests or any(t['result'] != 'SKIP' for t in tests):
            failures.append('%s: the group wrapper on a CPU without AVX2+FMA3 should skip: %s' % (name, tests))
    elif r.returncode != 0 or seen != {'sum': ['AVX2'], 'axpy': ['AVX2__FMA3']}:
        failures.append('%s: %s should run sum on AVX2 and axpy on AVX2__FMA3, got %s:\n%s'
                        % (name, ' '.join(cmd), seen, (r.stdout + r.stderr)[-2000:]))


def run_windows(b, name):
    """A Windows build of the example (cpudispatch-run does not exist
    there): its app under Wine on this machine, then Wine inside qemu-user
    under every x86_64 model (WINELOADERNOEXEC keeps Wine in the emulator):
    each time both functions on the target the CPU's facts select."""
    app = os.path.join(b, 'app.exe')
    runs = [('this machine', [cpu_facts.WINE], cpu_facts.host_flags(quiet=True))]
    runs += [('qemu ' + m, ['qemu-x86_64', '-cpu', m, cpu_facts.WINE], f)
             for m, f in cpu_facts.models('x86_64').items()]
    env = dict(os.environ, **cpu_facts.IN_QEMU_ENV)
    for where, wrapper, flags in runs:
        r = subprocess.run(wrapper + [app], capture_output=True, text=True, env=env)
        got = {l.split()[0]: l.split(':', 1)[1].strip() for l in r.stdout.splitlines() if l.startswith(('sum', 'axpy'))}
        want = {fn: picked('x86_64', fn, flags) for fn in PICKS['x86_64']}
        print('[%s under Wine, %s] %s' % (name, where, ', '.join('%s ran on %s' % kv for kv in sorted(got.items()))))
        if r.returncode != 0 or 'results match the plain loops' not in r.stdout or got != want:
            failures.append('%s under Wine, %s: expected %s, status %d:\n%s%s' % (name, where, want, r.returncode,
                                                                                 r.stdout, r.stderr[-2000:]))


TYPED_ARRAY_TARGETS = ('AVX512_SKX', 'X86_V3', 'SSE42')  # its source's x86 list, highest first


def typed_array(tmp):
    """examples/typed-array through the release wrap: its test (every pair
    of element types, every kernel build against its baseline build) in a
    GCC release and a Clang debug build, then under each_target and each_cpu
    the builds it reports ("build: NAME") are the ones the CPUs select."""
    src = release_copy(tmp, 'typed-array')
    host = cpu_facts.host_flags(quiet=True)
    pick = lambda flags: next((t for t in TYPED_ARRAY_TARGETS if cpu_facts.X86_NEEDS[t] <= flags), 'baseline')
    for name, env, opts in (('typed-array-gcc-release', {}, []),
                            ('typed-array-clang-debug', {'CC': 'clang', 'CXX': 'clang++'}, ['-Dbuildtype=debug'])):
        b = os.path.join(tmp, 'build-' + name)
        e = dict(os.environ, **env)
        if sh(['meson', 'setup', b, src, '--wrap-mode=nodownload'] + opts, env=e).returncode != 0:
            continue
        if sh(['ninja', '-C', b]).returncode != 0:
            continue
        out = sh([os.path.join(b, 'typed_array_test')]).stdout
        print('[%s]\n%s' % (name, out), end='')
        if 'build: %s' % pick(host) not in out:
            failures.append('%s: expected build %s on this machine:\n%s' % (name, pick(host), out))
        want = {'each_target': {'baseline'} | {t for t in TYPED_ARRAY_TARGETS if cpu_facts.X86_NEEDS[t] <= host},
                'each_cpu': {pick(f) for f in cpu_facts.models('x86_64').values()}}
        for setup in ('each_target', 'each_cpu'):
            r = sh(['meson', 'test', '-C', b, '--print-errorlogs', '--setup', 'cpudispatch:' + setup])
            seen = set(re.findall(r'^build: (\S+)$', setup_output(b, setup), re.M))
            print('[%s --setup cpudispatch:%s] ran on %s' % (name, setup, ' '.join(sorted(seen))))
            if r.returncode == 0 and seen != want[setup]:
                failures.append('%s: under cpudispatch:%s the library ran on %s, expected %s'
                                % (name, setup, seen, want[setup]))


example_build = open(os.path.join(root, 'examples', 'consumer', 'meson.build')).read().splitlines()
for marker in ('snippet', 'snippet-use'):
    block = docs_block(marker)
    at = [i for i, l in enumerate(example_build) if l == block[0]]
    if not at or example_build[at[0]:at[0] + len(block)] != block:
        failures.append('examples/consumer/meson.build does not hold the docs %s block verbatim' % marker)

with tempfile.TemporaryDirectory() as tmp:
    rel = release_copy(tmp, 'consumer')
    build_and_test(rel, 'release', [])
    run_setups(os.path.join(tmp, 'build-release'), 'x86_64', 'release')
    # docs/runtime.md: cpudispatch-info on demand in a parent's build, by
    # target name (the release wrap's directory is cpudispatch-VERSION, so
    # no fixed ninja path works).
    info_cmd = docs_block('info-on-demand', 'runtime.md')[0].replace('build', os.path.join(tmp, 'build-release'), 1)
    if sh(shlex.split(info_cmd)).returncode != 0:
        failures.append('docs/runtime.md\'s on-demand command failed: %s' % info_cmd)
    else:
        infos = glob.glob(os.path.join(tmp, 'build-release', 'subprojects', '*', 'src', 'info', 'cpudispatch-info'))
        r = sh([infos[0], '--json']) if infos else None
        if not r or r.returncode != 0 or '"baseline"' not in r.stdout:
            failures.append('%s built no cpudispatch-info that runs (%s)' % (info_cmd, infos))
    if with_cross:  # the same through the wrap in a cross build, under qemu-aarch64's models
        build_and_test(rel, 'release-aarch64', ['--cross-file', os.path.join(root, 'cross', 'aarch64-linux-gnu.txt')],
                       run_app=False)
        run_setups(os.path.join(tmp, 'build-release-aarch64'), 'aarch64', 'release-aarch64')
        # And for Windows with MinGW-w64 GCC, run under Wine (docs/windows.md),
        # with a wineserver that outlives each program by a minute (one per
        # program may shut down as the next connects: "wine client error").
        err = cpu_facts.keep_wineserver()
        if err:
            failures.append(err)
        build_and_test(rel, 'release-mingw', ['--cross-file', os.path.join(root, 'cross', 'x86_64-w64-mingw32.txt')],
                       run_app=False)
        run_windows(os.path.join(tmp, 'build-release-mingw'), 'release-mingw')
    typed_array(tmp)
    build_and_test(rel, 'release-dispatch-none', ['-Dcpudispatch:cpu-dispatch=none'], 'baseline')
    build_and_test(rel, 'release-disable-optimization', ['-Dcpudispatch:disable-optimization=true'], 'baseline')

    clone = os.path.join(tmp, 'clone')
    if sh(['git', 'clone', '-q', root, clone]).returncode == 0:
        src = os.path.join(clone, 'examples', 'consumer')
        b = os.path.join(tmp, 'build-git')
        if sh(['meson', 'setup', b, src]).returncode == 0 and sh(['ninja', '-C', b]).returncode == 0:
            sh(['meson', 'test', '-C', b])
            print('[git wrap]\n' + sh([os.path.join(b, 'app')]).stdout, end='')
        # docs/wrap.md's [wrap-git] block as written, pointed at the clone and
        # its commit hash.
        head = sh(['git', '-C', clone, 'rev-parse', 'HEAD']).stdout.strip()
        wrap = [('url = ' + clone if l.startswith('url =') else 'revision = ' + head if l.startswith('revision =')
                 else l) for l in docs_block('wrap-git', 'wrap.md')]
        docs_git = os.path.join(tmp, 'docs-git')
        shutil.copytree(os.path.join(root, 'examples', 'consumer'), docs_git,
                        ignore=shutil.ignore_patterns('cpudispatch', 'packagefiles', 'packagecache'))
        with open(os.path.join(docs_git, 'subprojects', 'cpudispatch.wrap'), 'w') as fh:
            fh.write('\n'.join(wrap) + '\n')
        build_and_test(docs_git, 'docs-wrap-git', [], offline=False)  # a git wrap clones

    # docs/wrap.md's [wrap-file] block has the lines make-wrap.py writes
    # (the hash aside).
    written = open(os.path.join(rel, 'subprojects', 'cpudispatch.wrap')).read().splitlines()
    documented = docs_block('wrap-file', 'wrap.md')
    key = lambda l: 'source_hash' if l.startswith('source_hash =') else l
    if [key(l) for l in written if l.strip()] != [key(l) for l in documented if l.strip()]:
        failures.append('docs/wrap.md [wrap-file] block differs from what make-wrap.py writes:\n%s'
                        % '\n'.join(written))

if failures:
    print('\n'.join('FAIL: ' + f for f in failures))
    sys.exit(1)
print('PASS')
