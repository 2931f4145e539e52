#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Installs files configure wrote (the generated headers), run by `meson
install` (include/meson.build). No build target makes them, and naming a
build-directory file by its path in install_data() is deprecated (an error
from Meson 2.0), so they are copied here.

  install_generated.py DIR FILE...     DIR: relative to the prefix, or absolute
Honours DESTDIR, and MESON_INSTALL_DRY_RUN (nothing written)."""
import os
import shutil
import sys

sub, files = sys.argv[1], sys.argv[2:]
if os.path.isabs(sub):
    dest = sub
    if os.environ.get('DESTDIR'):
        dest = os.path.join(os.environ['DESTDIR'], os.path.splitdrive(sub)[1].lstrip('/\\'))
else:
    dest = os.path.join(os.environ['MESON_INSTALL_DESTDIR_PREFIX'], sub)
for f in files:
    target = os.path.join(dest, os.path.basename(f))
    if not os.environ.get('MESON_INSTALL_QUIET'):
        print('Installing %s to %s' % (f, dest))
    if os.environ.get('MESON_INSTALL_DRY_RUN'):
        continue
    os.makedirs(dest, exist_ok=True)
    shutil.copyfile(f, target)
