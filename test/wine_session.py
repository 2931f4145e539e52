#!/usr/bin/env python3
"""What test/exe_wrapper.py does for a test script under Wine when a server
runs already, shown in a Wine prefix of this test's own (a server is per
prefix, so the build's other tests keep theirs):

  control  a program started with no server leaves one with no
           persistence, which ends on its own a moment after the program
           (a script's next program then starts a new one, and a program
           that connects while a server shuts down fails: the CI failure
           this mends, status 1 and no output);
  held     a script that calls exe_wrapper.command() on that server keeps
           it: the same server before and after 4 s with no program;
  released once the script ends, its holder is gone and the server ends.

  wine_session.py PATH/TO/cpudispatch-info.exe
                       (the program it runs; MESON_EXE_WRAPPER: Wine; exit 0
                        pass, 1 fail, 77 skip: not a Windows build run
                        under Wine)

It costs a fresh prefix (wineboot --init, about 10 s), so one configuration
runs it: the one that starts no server before `meson test` (test/meson.build)."""
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

TEST_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, TEST_DIR)
import exe_wrapper  # noqa: E402

words = shlex.split(os.environ.get('MESON_EXE_WRAPPER', ''))
if not exe_wrapper.is_wine(words) or not shutil.which('wineserver'):
    print('SKIP: not run under Wine (MESON_EXE_WRAPPER %r)' % os.environ.get('MESON_EXE_WRAPPER', ''))
    sys.exit(77)
WINE, INFO = words[0], sys.argv[1]
prefix = tempfile.mkdtemp(prefix='cpud-wine-session-')
env = dict(os.environ, WINEPREFIX=prefix, WINEDEBUG='-all')
null = subprocess.DEVNULL
failures = []


def server():
    """The PID of this prefix's wineserver, or None."""
    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        try:
            with open('/proc/%s/cmdline' % pid, 'rb') as f:
                if not os.path.basename(f.read().split(b'\0')[0]).startswith(b'wineserver'):
                    continue
            with open('/proc/%s/environ' % pid, 'rb') as f:
                if ('WINEPREFIX=%s' % prefix).encode() in f.read().split(b'\0'):
                    return int(pid)
        except OSError:
            pass
    return None


def ends_within(seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server() is None:
            return True
        time.sleep(0.2)
    return False


def program():
    return subprocess.run([WINE, INFO, '--json'], env=env, stdin=null, capture_output=True,
                          timeout=120).returncode


CHILD = r'''
import os, sys, time
sys.path.insert(0, sys.argv[1])
import exe_wrapper
exe_wrapper.command()
print(len(exe_wrapper._holders), flush=True)
time.sleep(4)
print('done', flush=True)
'''

try:
    subprocess.run([WINE, 'wineboot', '--init'], env=env, stdin=null, stdout=null, stderr=null, timeout=300)
    subprocess.run(['wineserver', '-w'], env=env, stdin=null, timeout=120)
    # control
    if program() != 0:
        failures.append('control: cpudispatch-info failed under Wine')
    if not ends_within(10):
        failures.append('control: the server a program started was still there 10 s after it ended')
    else:
        print('control: the server a program started ended on its own after the program')
    # held
    # A program runs (and so the server it started) while the script
    # starts, as a compiled test's does beside it; then it ends.
    other = subprocess.Popen([WINE, 'cmd', '/c', 'echo ready& pause'], env=env, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=null)
    if other.stdout.readline().strip() != b'ready':
        failures.append('held: a program waiting on a pipe did not start')
    before = server()
    child = subprocess.Popen([sys.executable, '-c', CHILD, TEST_DIR], env=dict(env, MESON_EXE_WRAPPER=WINE),
                             stdin=null, stdout=subprocess.PIPE, text=True)
    holders = child.stdout.readline().strip()
    other.stdin.close()
    other.wait(timeout=30)
    if holders != '1':
        failures.append('held: the script holds %r Wine programs, expected 1' % holders)
    if child.stdout.readline().strip() != 'done':
        failures.append('held: the script did not finish')
    after = server()
    if before is None or after != before:
        failures.append('held: server %s before the 4 s without a program, %s after' % (before, after))
    else:
        print('held: server %d before and after 4 s without a program' % before)
    child.wait(timeout=30)
    # released
    if not ends_within(10):
        failures.append('released: the server was still there 10 s after the script ended')
    else:
        print('released: the server ended after the script')
finally:
    subprocess.run(['wineserver', '-k'], env=env, stdin=null, stdout=null, stderr=null, timeout=60)
    shutil.rmtree(prefix, ignore_errors=True)

if failures:
    print('\n'.join('FAIL: ' + f for f in failures))
    sys.exit(1)
print('PASS')
