# SPDX-License-Identifier: MIT
"""Running Windows (MinGW) programs here, for tools/qemu-matrix.py and the
tests that drive whole Windows builds (docs/windows.md).

  WINE                   Debian's wine64 itself (the `wine` script prints a
                         wine32 notice on stderr); cross/x86_64-w64-mingw32*.txt
                         name the same program as their exe_wrapper
  IN_QEMU_ENV            what Wine needs to stay inside qemu-user (it
                         re-executes itself otherwise) and to stay quiet
  keep_wineserver()      a server that outlives each program by a minute,
                         its session started
"""
import os
import subprocess

WINE = '/usr/lib/wine/wine64'
IN_QEMU_ENV = {'WINELOADERNOEXEC': '1', 'WINEDEBUG': '-all'}


def keep_wineserver():
    """Wine otherwise starts a server per program, and a program that
    connects while the last one shuts down fails with "wine client error"
    (seen under load). A server already running (tools/run-tests.sh starts a
    persistent one) is kept. Returns an error string, or None."""
    try:
        subprocess.Popen(['wineserver', '-p60'], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
        # The session (services, explorer) started natively first: a fresh
        # server's first program under qemu-user hangs waiting for it.
        subprocess.run([WINE, 'wineboot'], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=dict(os.environ, WINEDEBUG='-all'), timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        return 'wineserver/wineboot: %s (tools/install-deps.sh installs wine64)' % e
    return None
