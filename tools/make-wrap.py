#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Makes a cpudispatch release for consumers: the source tarball and the
[wrap-file] that points at it, ready to drop into a project's subprojects/.

  make-wrap.py SUBPROJECTS_DIR [--allow-dirty]

The version is the one project() names in HEAD's meson.build (no build
directory, no Meson run). Writes
SUBPROJECTS_DIR/packagefiles/cpudispatch-VERSION.tar.xz and
SUBPROJECTS_DIR/cpudispatch.wrap (no source_url: the tarball is local, so
`meson setup --wrap-mode=nodownload` works offline).

The tarball holds the committed tree of HEAD (`git archive`: entries in git's
order, every mtime the commit's time, no owner names), compressed by xz with
fixed settings: the same commit always gives the same bytes and the same
source_hash. Uncommitted changes are never packed; without --allow-dirty
they are an error.
"""
import hashlib
import lzma
import os
import re
import subprocess
import sys

WRAP = '''[wrap-file]
directory = {directory}
source_filename = {filename}
source_hash = {sha256}

[provide]
dependency_names = cpudispatch
program_names = cpudispatch-info, cpudispatch-run
'''
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def git(*args):
    r = subprocess.run(['git', '-C', ROOT] + list(args), capture_output=True)
    if r.returncode != 0:
        sys.exit('make-wrap: git %s failed: %s' % (' '.join(args), r.stderr.decode().strip()))
    return r.stdout


def head_version():
    """version: of project('cpudispatch', ...) in HEAD's meson.build: the
    tree that is packed, not the working tree."""
    text = git('show', 'HEAD:meson.build').decode()
    m = re.search(r"^project\('cpudispatch'.*?\bversion\s*:\s*'([^']+)'", text, re.S | re.M)
    if not m:
        sys.exit("make-wrap: HEAD's meson.build has no project('cpudispatch', ..., version: '...')")
    return m.group(1)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    unknown = [a for a in sys.argv[1:] if a.startswith('--') and a != '--allow-dirty']
    if len(args) == 2 and not unknown:
        sys.exit('make-wrap: give only SUBPROJECTS_DIR (%s); a build directory is no longer needed' % args[1])
    if len(args) != 1 or unknown:
        sys.exit(__doc__)
    subprojects = args[0]
    version = head_version()
    if '--allow-dirty' not in sys.argv and git('status', '--porcelain', '--untracked-files=no').strip():
        sys.exit('make-wrap: the repository has uncommitted changes (they would not be packed); '
                 'commit them or pass --allow-dirty')
    directory = 'cpudispatch-' + version
    tar = git('archive', '--format=tar', '--prefix=' + directory + '/', 'HEAD')
    data = lzma.compress(tar, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=6)
    filename = directory + '.tar.xz'
    os.makedirs(os.path.join(subprojects, 'packagefiles'), exist_ok=True)
    with open(os.path.join(subprojects, 'packagefiles', filename), 'wb') as fh:
        fh.write(data)
    sha256 = hashlib.sha256(data).hexdigest()
    with open(os.path.join(subprojects, 'cpudispatch.wrap'), 'w') as fh:
        fh.write(WRAP.format(directory=directory, filename=filename, sha256=sha256))
    print('%s (sha256 %s) and cpudispatch.wrap written to %s' % (filename, sha256, subprojects))


if __name__ == '__main__':
    main()
