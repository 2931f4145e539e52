#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs/interface.md's lists are the project's: the cpudispatch dictionary's
keys (meson.build), the subproject's variables (assigned in a meson.build of
the project), the environment variables' suffixes (the runtime's sources)
the exit statuses (cpudispatch.h) and the CMake side's functions and
targets (src/cmake/). Usage: interface_documented.py ROOT"""
import glob
import os
import re
import sys

root = sys.argv[1]
sys.path.insert(0, os.path.join(root, 'test'))
import doc_blocks  # noqa: E402

doc = os.path.join(root, 'docs', 'interface.md')
problems = []


def words(name, col=0):
    return [line.split()[col] for line in doc_blocks.block(doc, name) if line.strip()]


with open(os.path.join(root, 'meson.build'), encoding='utf-8') as fh:
    top = fh.read()
m = re.search(r'^cpudispatch = \{(.*?)\}\n', top, re.S | re.M)
keys = sorted(re.findall(r"'(\w+)':", m.group(1))) if m else []
if sorted(words('interface-dict')) != keys:
    problems.append('the dictionary has %s, docs/interface.md lists %s' % (keys, sorted(words('interface-dict'))))

builds = ''
for f in glob.glob(os.path.join(root, '**', 'meson.build'), recursive=True):
    rel = os.path.relpath(f, root)
    if rel.split(os.sep)[0] in ('src', 'include') or rel == 'meson.build':
        with open(f, encoding='utf-8') as fh:
            builds += fh.read()
for v in words('interface-variables'):
    if not re.search(r'^%s = ' % re.escape(v), builds, re.M):
        problems.append('docs/interface.md lists variable %s, which no meson.build of the project assigns' % v)

runtime = ''
for f in glob.glob(os.path.join(root, 'src', 'runtime', '*.c')):
    with open(f, encoding='utf-8') as fh:
        runtime += fh.read()
for v in words('interface-env'):
    suffix = v.replace('PREFIX_', '', 1)
    if '"_%s"' % suffix not in runtime and '_%s"' % suffix not in runtime:
        problems.append('the runtime reads no variable ending %s' % suffix)

with open(os.path.join(root, 'include', 'cpudispatch', 'cpudispatch.h'), encoding='utf-8') as fh:
    header = fh.read()
exits = dict(re.findall(r'#define (CPUD_EXIT_\w+) (\d+)', header))
listed = {line.split()[1]: line.split()[0] for line in doc_blocks.block(doc, 'interface-exit') if line.strip()}
if listed != exits:
    problems.append('cpudispatch.h has exit statuses %s, docs/interface.md lists %s' % (exits, listed))

# The CMake side: each function defined, each target made, in src/cmake/.
cmake = ''
for f in glob.glob(os.path.join(root, 'src', 'cmake', '*.cmake')):
    with open(f, encoding='utf-8') as fh:
        cmake += fh.read()
cmake_names = words('interface-cmake')
for v in cmake_names:
    made = (r'^function\(%s\b' % re.escape(v), r'^add_library\(%s ALIAS ' % re.escape(v),
            r'^add_executable\(%s ' % re.escape(v))
    if not any(re.search(p, cmake, re.M) for p in made):
        problems.append('docs/interface.md lists %s, which src/cmake/ neither defines nor makes' % v)
defined = set(re.findall(r'^function\((cpudispatch_\w+)', cmake, re.M))
for v in sorted(defined - set(cmake_names)):
    problems.append('src/cmake/ defines function %s, which docs/interface.md does not list' % v)

for p in problems:
    print('FAIL: ' + p)
print('%d keys, %d variables, %d environment variables, %d exit statuses, %d CMake names checked'
      % (len(keys), len(words('interface-variables')), len(words('interface-env')), len(exits), len(cmake_names)))
sys.exit(1 if problems else 0)
