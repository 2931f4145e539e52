#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A consumer may vendor cpudispatch: LICENSE is the MIT license that
project() names, and every source and header a consumer's build compiles
or runs (src/, include/, the top-level meson.build files) says so in an
SPDX line within its first three lines. Control: a copy of one file
without its line is reported.

Usage: license.py SOURCE_ROOT"""
import os
import re
import shutil
import sys
import tempfile

KINDS = ('.c', '.h', '.cpp', '.hpp', '.h.in', '.py')
NAMES = ('meson.build', 'meson_options.txt')
LINE = 'SPDX-License-Identifier: MIT'


def shipped(root):
    """The files of the consumer's build: src/, include/ and the top level's
    meson files."""
    out = [os.path.join(root, n) for n in NAMES]
    for top in ('src', 'include'):
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = [x for x in dirs if x != '__pycache__']
            out += [os.path.join(d, f) for f in files if f.endswith(KINDS) or f in NAMES]
    return sorted(out)


def missing(files):
    bad = []
    for f in files:
        with open(f, encoding='utf-8', errors='replace') as fh:
            head = [fh.readline() for _ in range(3)]
        if not any(LINE in line for line in head):
            bad.append(f)
    return bad


def main():
    root = sys.argv[1]
    problems = []
    with open(os.path.join(root, 'LICENSE'), encoding='utf-8') as fh:
        text = fh.read()
    if not text.startswith('MIT License') or 'Permission is hereby granted, free of charge' not in text:
        problems.append('LICENSE is not the MIT license')
    with open(os.path.join(root, 'meson.build'), encoding='utf-8') as fh:
        if not re.search(r"^project\('cpudispatch'.*?\blicense\s*:\s*'MIT'", fh.read(), re.S | re.M):
            problems.append("meson.build's project() does not say license: 'MIT'")
    files = shipped(root)
    bad = missing(files)
    problems += ['%s has no "%s" line in its first three lines' % (os.path.relpath(f, root), LINE) for f in bad]
    # Control: the check sees a file without the line.
    tmp = tempfile.mkdtemp(prefix='cpud-license-')
    try:
        copy = os.path.join(tmp, 'unlicensed.c')
        shutil.copy(next(f for f in files if f.endswith('.c')), copy)
        with open(copy, encoding='utf-8') as fh:
            lines = [line for line in fh if LINE not in line]
        with open(copy, 'w', encoding='utf-8') as fh:
            fh.writelines(lines)
        if missing([copy]) != [copy]:
            problems.append('control: a file without the line was not reported')
    finally:
        shutil.rmtree(tmp)
    for p in problems:
        print('FAIL: ' + p)
    print('%d files of the consumer\'s build checked' % len(files))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
