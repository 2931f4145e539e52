#!/usr/bin/env python3
"""The command a test script puts before the build's programs:
MESON_EXE_WRAPPER split (qemu-user in a cross build, Wine in a Windows one).

Under Wine it first keeps a wineserver running, one that stays 60 s after
its last program (`wineserver -p60`; where one runs already, started by
someone else, the script holds a Wine program of its own open so that it
stays: keep_wineserver). Without one, every program starts Wine anew,
about 2.8 s each on a 2-core machine, and a script that runs dozens of programs outlasts its
timeout under a plain `meson test` of a Windows build (docs/windows.md,
"Building": the commands as written). It also quiets Wine's own
diagnostics (WINEDEBUG=-all unless set) for the programs the script
runs. A program of a compiled test keeps no server (the one it starts
ends with the last program), but the scripts' first one leaves it.

As a module (with the test directory on sys.path):
    exe_wrapper.command() -> ['wine64'] / ['qemu-aarch64', '-L', ...] / []
"""
import atexit
import fcntl
import os
import select
import shlex
import subprocess
import tempfile


def is_wine(words):
    base = os.path.basename(words[0]) if words else ''
    return base.startswith('wine') and not base.startswith('wineserver')


def keep_wineserver(wine):
    """One script at a time (a lock file): a server started here (status 0)
    gets its Wine session started too (wineboot: the services that each
    program would otherwise wait for), before any program of this script
    runs. Two scripts that started Wine side by side on no server saw one
    of them hang until its timeout.

    A server that runs already (status 2) keeps the persistence it was
    started with: none (`wineserver -p0`) where a program of a compiled test
    started it, so it may shut down between two programs of this script, and a program that
    connects to a server shutting down fails (seen: status 1, no output, in
    CI's mingw-clang stage, which starts no server beforehand). So this
    script then holds a Wine program of its own (cmd, waiting on a pipe) for
    its whole life: a server with a client does not shut down. The holder
    says "ready" once it runs; where it could not start (the server was
    shutting down), the server is asked for again."""
    null = subprocess.DEVNULL
    env = dict(os.environ, WINEDEBUG=os.environ.get('WINEDEBUG', '-all'))
    lock_path = os.path.join(tempfile.gettempdir(), 'cpudispatch-wineserver-%d.lock' % os.getuid())
    with open(lock_path, 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            for _ in range(3):
                status = subprocess.run(['wineserver', '-p60'], stdin=null, stdout=null, stderr=null,
                                        timeout=30).returncode
                if status == 0:
                    subprocess.run([wine, 'wineboot'], stdin=null, stdout=null, stderr=null, timeout=300,
                                   env=env)
                    return
                if hold_session(wine, env):
                    return
        except (OSError, subprocess.TimeoutExpired):
            pass  # no wineserver on PATH: Wine starts its own per program, slower


_holders = []


def hold_session(wine, env):
    """Starts the holder; True once it runs. It ends when this process's
    end closes its pipe (also where this script is killed)."""
    p = subprocess.Popen([wine, 'cmd', '/c', 'echo ready& pause'], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    # A holder that never says so (a Wine session that hangs) is given up
    # after a minute, not waited on past the test's timeout.
    if select.select([p.stdout], [], [], 60)[0] and p.stdout.readline().strip() == b'ready':
        _holders.append(p)  # the pipe stays open while the script runs
        atexit.register(release, p)
        return True
    release(p)
    return False


def release(p):
    try:
        p.stdin.close()
        p.wait(timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        p.kill()


def command():
    words = shlex.split(os.environ.get('MESON_EXE_WRAPPER', ''))
    if is_wine(words):
        # Wine's own diagnostics (a session starting: "err:winediag ...
        # explorer process failed to start", fixme lines) are not the
        # program's: the scripts read the programs' stderr. WINEDEBUG set
        # by the user is kept.
        os.environ.setdefault('WINEDEBUG', '-all')
        keep_wineserver(words[0])
    return words
