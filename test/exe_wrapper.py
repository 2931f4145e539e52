#!/usr/bin/env python3
"""The command a test script puts before the build's programs:
MESON_EXE_WRAPPER split (qemu-user in a cross build, Wine in a Windows one).

Under Wine it first keeps a wineserver running, one that stays 60 s after
its last program (`wineserver -p60`; where one runs already it returns at
once). Without one, every program starts Wine anew, about 2.8 s each on a
2-core machine, and a script that runs dozens of programs outlasts its
timeout under a plain `meson test` of a Windows build (docs/windows.md,
"Building": the commands as written). It also quiets Wine's own
diagnostics (WINEDEBUG=-all unless set) for the programs the script runs. A program of a compiled test starts
no server, but the scripts' first one leaves it for them.

As a module (with the test directory on sys.path):
    exe_wrapper.command() -> ['wine64'] / ['qemu-aarch64', '-L', ...] / []
"""
import fcntl
import os
import shlex
import subprocess
import tempfile


def is_wine(words):
    base = os.path.basename(words[0]) if words else ''
    return base.startswith('wine') and not base.startswith('wineserver')


def keep_wineserver(wine):
    """One script at a time (a lock file): a server started here (status 0;
    2: one runs already) gets its Wine session started too (wineboot: the
    services that each program would otherwise wait for), before any
    program of this script runs. Two scripts that started Wine side by side
    on no server saw one of them hang until its timeout."""
    null = subprocess.DEVNULL
    lock_path = os.path.join(tempfile.gettempdir(), 'cpudispatch-wineserver-%d.lock' % os.getuid())
    with open(lock_path, 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            started = subprocess.run(['wineserver', '-p60'], stdin=null, stdout=null, stderr=null,
                                     timeout=30).returncode == 0
            if started:
                subprocess.run([wine, 'wineboot'], stdin=null, stdout=null, stderr=null, timeout=300,
                               env=dict(os.environ, WINEDEBUG=os.environ.get('WINEDEBUG', '-all')))
        except (OSError, subprocess.TimeoutExpired):
            pass  # no wineserver on PATH: Wine starts its own per program, slower


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
