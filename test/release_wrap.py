#!/usr/bin/env python3
"""An example project as a consumer gets it: examples/NAME copied to DEST
with the release wrap (tools/make-wrap.py: the tarball of git HEAD and its
[wrap-file]) in place of its [wrap-git]. One helper for every test that
builds an example through the release wrap.

As a module (with the test directory on sys.path):
    release_wrap.example(ROOT, NAME, DEST) -> None, or the error's text
"""
import os
import shutil
import subprocess
import sys


def example(root, name, dest):
    shutil.copytree(os.path.join(root, 'examples', name), dest,
                    ignore=shutil.ignore_patterns('cpudispatch', 'cpudispatch-*', 'packagefiles', 'packagecache'))
    os.remove(os.path.join(dest, 'subprojects', 'cpudispatch.wrap'))
    r = subprocess.run([sys.executable, os.path.join(root, 'tools', 'make-wrap.py'),
                        os.path.join(dest, 'subprojects'), '--allow-dirty'], capture_output=True, text=True)
    return None if r.returncode == 0 else 'make-wrap.py failed (%d): %s%s' % (r.returncode, r.stdout, r.stderr)
