#!/usr/bin/env python3
"""wrap_reproducible.py ROOT: tools/make-wrap.py run twice, a
couple of seconds apart, must write the same tarball bytes and the same
source_hash, and the tarball must hold exactly the files git tracks at HEAD,
each with the commit's time as mtime and root (uid 0) as owner, as git archive writes."""
import hashlib
import os
import subprocess
import sys
import tarfile
import tempfile
import time

root = sys.argv[1]
script = os.path.join(root, 'tools', 'make-wrap.py')
errors, runs = [], []
with tempfile.TemporaryDirectory() as tmp:
    for i in range(2):
        out = os.path.join(tmp, str(i))
        r = subprocess.run([sys.executable, script, out, '--allow-dirty'], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit('FAIL: make-wrap.py: ' + r.stdout + r.stderr)
        wrap = open(os.path.join(out, 'cpudispatch.wrap')).read()
        name = [l.split('=', 1)[1].strip() for l in wrap.splitlines() if l.startswith('source_filename')][0]
        path = os.path.join(out, 'packagefiles', name)
        runs.append((wrap, hashlib.sha256(open(path, 'rb').read()).hexdigest(), path))
        time.sleep(2)
    (w0, h0, p0), (w1, h1, p1) = runs
    print('run 1: %s\nrun 2: %s' % (h0, h1))
    if h0 != h1 or w0 != w1:
        errors.append('two runs gave different tarballs or wraps')
    wrap_hash = [l.split('=', 1)[1].strip() for l in w0.splitlines() if l.startswith('source_hash')][0]
    if wrap_hash != h0:
        errors.append('source_hash %s is not the tarball\'s sha256 %s' % (wrap_hash, h0))
    tracked = subprocess.run(['git', '-C', root, 'ls-tree', '-r', '--name-only', 'HEAD'],
                             capture_output=True, text=True, check=True).stdout.split('\n')
    when = int(subprocess.run(['git', '-C', root, 'log', '-1', '--format=%ct'],
                              capture_output=True, text=True, check=True).stdout)
    with tarfile.open(p0) as t:
        members = [m for m in t.getmembers() if m.isfile()]
        names = sorted(m.name.split('/', 1)[1] for m in members)
        if names != sorted(n for n in tracked if n):
            errors.append('the tarball does not hold exactly the tracked files of HEAD')
        odd = [m.name for m in members if m.mtime != when or (m.uid, m.gid, m.uname, m.gname) != (0, 0, 'root', 'root')]
        if odd:
            errors.append('%d entries with another mtime or owner than the commit time and root, e.g. %s' % (len(odd), odd[0]))
# The two-argument form of older releases (a build directory first) is one
# clear line, not a wrap written somewhere unexpected.
r = subprocess.run([sys.executable, script, 'build', 'subprojects'], capture_output=True, text=True)
one_line = 'make-wrap: give only SUBPROJECTS_DIR (subprojects); a build directory is no longer needed'
if r.returncode == 0 or r.stderr.strip() != one_line:
    errors.append('make-wrap.py BUILD_DIR SUBPROJECTS_DIR: expected the one-line error, got %d %r' % (r.returncode, r.stderr))
if errors:
    sys.exit('FAIL: ' + '; '.join(errors))
print('PASS: %d files, sha256 %s both times' % (len(names), h0))
