#!/usr/bin/env python3
"""Makes a cpudispatch release for consumers: the `meson dist` tarball and the
[wrap-file] that points at it, ready to drop into a project's subprojects/.

  make-wrap.py BUILD_DIR SUBPROJECTS_DIR [--allow-dirty]

BUILD_DIR is a configured build of this repository. Writes
SUBPROJECTS_DIR/packagefiles/cpudispatch-VERSION.tar.xz and
SUBPROJECTS_DIR/cpudispatch.wrap (no source_url: the tarball is local, so
`meson setup --wrap-mode=nodownload` works offline).
"""
import glob
import hashlib
import os
import shutil
import subprocess
import sys

WRAP = '''[wrap-file]
directory = {directory}
source_filename = {filename}
source_hash = {sha256}

[provide]
dependency_names = cpudispatch
program_names = cpudispatch-info
'''


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    if len(args) != 2:
        sys.exit(__doc__)
    build, subprojects = args
    cmd = ['meson', 'dist', '-C', build, '--no-tests', '--formats', 'xztar']
    if '--allow-dirty' in sys.argv:
        cmd.append('--allow-dirty')
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    tarballs = sorted(glob.glob(os.path.join(build, 'meson-dist', 'cpudispatch-*.tar.xz')))
    if not tarballs:
        sys.exit('meson dist produced no tarball')
    tarball = tarballs[-1]
    filename = os.path.basename(tarball)
    os.makedirs(os.path.join(subprojects, 'packagefiles'), exist_ok=True)
    shutil.copy(tarball, os.path.join(subprojects, 'packagefiles', filename))
    sha256 = hashlib.sha256(open(tarball, 'rb').read()).hexdigest()
    with open(os.path.join(subprojects, 'cpudispatch.wrap'), 'w') as fh:
        fh.write(WRAP.format(directory=filename[:-len('.tar.xz')], filename=filename, sha256=sha256))
    print('%s (sha256 %s) and cpudispatch.wrap written to %s' % (filename, sha256, subprojects))


if __name__ == '__main__':
    main()
