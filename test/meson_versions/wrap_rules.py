#!/usr/bin/env python3
"""wrap_rules.py ROOT: the rules that keep a parent's build its own on every
Meson version (docs/wrap.md, "Meson versions"):

  - project()'s default_options in meson.build name no build-type option
    (buildtype, optimization, debug, b_ndebug): from Meson 1.8 a
    subproject's own would override the parent's, and WrapDB refuses them;
  - each cross file under cross/ that names pkg-config names it both ways
    (pkgconfig for Meson 1.0-1.2, pkg-config for 1.3 on), with one value.
"""
import ast
import glob
import os
import re
import sys

root = sys.argv[1]
FORBIDDEN = ('buildtype', 'optimization', 'debug', 'b_ndebug')
errors = []

text = open(os.path.join(root, 'meson.build')).read()
m = re.search(r"^project\((.*?)^\s*default_options\s*:\s*(\[.*?\])\)", text, re.S | re.M)
if not m:
    errors.append("meson.build: no project(..., default_options: [...]) found to check")
else:
    opts = ast.literal_eval(m.group(2))
    bad = [o for o in opts if o.split('=', 1)[0] in FORBIDDEN]
    print('project() default_options: %s' % opts)
    if bad:
        errors.append('meson.build: project() default_options set %s: a parent build would lose its '
                      'own build type for cpudispatch on Meson >= 1.8' % ', '.join(bad))

files = sorted(glob.glob(os.path.join(root, 'cross', '*.txt')))
for path in files:
    entries = dict(re.findall(r"^(pkgconfig|pkg-config)\s*=\s*(.+?)\s*$", open(path).read(), re.M))
    name = os.path.relpath(path, root)
    print('%s: %s' % (name, entries or 'no pkg-config entry'))
    if entries and (set(entries) != {'pkgconfig', 'pkg-config'} or len(set(entries.values())) != 1):
        errors.append('%s: pkg-config must be named as both pkgconfig and pkg-config, with one value (%s)'
                      % (name, entries))
if not files:
    errors.append('no cross files under cross/')
if errors:
    sys.exit('FAIL: ' + '\n'.join(errors))
print('PASS: %d cross files; no build-type default option' % len(files))
