#!/usr/bin/env python3
"""Builds of one consumer project made side by side, for the tests that
build an example or a fixture several ways through a release wrap
(test/example/run_per_isa.py, run_fallback_chain.py, test/asm/run_asm.py).

As a module (with the test directory on sys.path):

    failures                  what went wrong, over every build
    Build(tmp, name, opts, env)
        a copy of TMP/release as TMP/src-NAME, built in TMP/build-NAME with
        `meson setup ... --wrap-mode=nodownload OPTS`, under ENV added to
        the environment; .sh(cmd) runs and logs a command (a failure is
        recorded unless check=False), .fail(what) records one,
        .meson_test(setup) runs `meson test` (under cpudispatch:SETUP) and
        gives (status, the tests' stdout)
    runs(stdout, plain_run)   (run, line) for each line of that stdout: the
                              run is the one cpudispatch-run's banner
                              (`# cpudispatch-run: == cpu Nehalem ==`) last
                              named, plain_run before any banner
    run_all(jobs)             runs each (function, build) in a thread of its
                              own, prints each build's log, then FAIL lines
                              or PASS; the exit status
"""
import json
import os
import re
import shutil
import subprocess
import threading
import time

failures = []
BANNER = re.compile(r'# cpudispatch-run: == (?:target|cpu) (\S+) ==$')


class Build:
    def __init__(self, tmp, name, opts, env=None):
        self.name, self.opts, self.log = name, opts, []
        self.src, self.dir = os.path.join(tmp, 'src-' + name), os.path.join(tmp, 'build-' + name)
        shutil.copytree(os.path.join(tmp, 'release'), self.src)
        self.env = dict(os.environ, **(env or {}))

    def sh(self, cmd, check=True, cwd=None):
        t0 = time.time()
        r = subprocess.run(cmd, capture_output=True, text=True, env=self.env, cwd=cwd)
        self.log.append('$ %s  (%.1f s)' % (' '.join(cmd), time.time() - t0))
        if r.returncode != 0 and check:
            self.fail('failed (%d): %s\n%s' % (r.returncode, ' '.join(cmd), (r.stdout + r.stderr)[-3000:]))
        return r

    def fail(self, what):
        failures.append('%s: %s' % (self.name, what))

    def setup(self, extra=()):
        return self.sh(['meson', 'setup', self.dir, self.src, '--wrap-mode=nodownload'] + self.opts
                       + list(extra)).returncode == 0

    def meson_test(self, setup=None, check=True):
        r = self.sh(['meson', 'test', '-C', self.dir, '--print-errorlogs']
                    + (['--setup', 'cpudispatch:' + setup] if setup else []), check=check)
        log = os.path.join(self.dir, 'meson-logs', 'testlog%s.json' % ('-cpudispatch_' + setup if setup else ''))
        out = ''.join(json.loads(l).get('stdout') or '' for l in open(log)) if os.path.exists(log) else ''
        return r.returncode, out


def runs(stdout, plain_run):
    run = plain_run
    for line in stdout.splitlines():
        m = BANNER.match(line)
        if m:
            run = m.group(1)
        yield run, line


def run_all(jobs):
    t0 = time.time()
    threads = [threading.Thread(target=job, args=(b,)) for job, b in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for _, b in jobs:
        print('[%s]\n%s' % (b.name, '\n'.join(b.log)))
    print('%.0f s' % (time.time() - t0))
    if failures:
        print('\n'.join('FAIL: ' + f for f in failures))
        return 1
    print('PASS')
    return 0
