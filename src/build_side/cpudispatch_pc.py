#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Install script (meson.add_install_script, tag devel): the pkg-config
files the build installs give their consumers none of cpudispatch's
machine flags.

Meson writes a static library's dependencies' compile arguments into its
.pc file's Cflags, so `pkg-config --cflags foo` of a library made with
cpudispatch would hand the library's baseline flags (-mavx2 -mfma ... at
x86_v3) to every program that uses it: the program's own code would be
built for the library's baseline, and two such files merged would build it
for the higher of the two. A library's consumers need none of them (its
public headers include no cpudispatch header), so after `meson install`
this script takes them out of every .pc file of this build that names
this build of cpudispatch, and records them in a variable instead, for a
consumer that wants its own code built for the library's baseline:

  cc main.c $(pkg-config --variable=cpudispatch_cflags foo) $(pkg-config --cflags --libs foo)

  cpudispatch_pc.py NAMESPACE [FLAG ...]

NAMESPACE is the build's (it names the files that are this build's:
their link arguments hold NAMESPACE__cpud__); the FLAGs are what to take
out (the baseline's flags, then the floor dependency's defines). Reads
meson-info/intro-installed.json for where each .pc file went; honours
DESTDIR.
"""
import json
import os
import sys

VARIABLE = 'cpudispatch_cflags'


def installed_pc_files(build_root):
    """Installed paths (DESTDIR applied) of the .pc files Meson generated."""
    try:
        with open(os.path.join(build_root, 'meson-info', 'intro-installed.json'), encoding='utf-8') as fh:
            installed = json.load(fh)
    except (OSError, ValueError):
        return []
    prefix = os.environ.get('MESON_INSTALL_PREFIX', '')
    dest_prefix = os.environ.get('MESON_INSTALL_DESTDIR_PREFIX', prefix)
    destdir = os.environ.get('DESTDIR', '')
    out = []
    for src, dest in installed.items():
        if not src.endswith('.pc') or os.path.basename(os.path.dirname(src)) != 'meson-private':
            continue
        if prefix and os.path.commonpath([prefix, dest]) == prefix:
            path = os.path.join(dest_prefix, os.path.relpath(dest, prefix))
        elif destdir:
            path = destdir + dest if os.path.isabs(dest) else os.path.join(destdir, dest)
        else:
            path = dest
        out.append(path)
    return out


def without(words, flags):
    """words less flags: the run of them where it stands whole, else each."""
    n = len(flags)
    for i in range(len(words) - n + 1):
        if n and words[i:i + n] == flags:
            return words[:i] + words[i + n:], True
    kept = [w for w in words if w not in flags]
    return kept, len(kept) != len(words)


def rewrite(text, ns, flags, floor_defines):
    lines = text.split('\n')
    if not any(ns + '__cpud__' in l for l in lines if l.startswith(('Libs:', 'Libs.private:'))):
        return None  # another project's file, or one that links no cpudispatch
    changed = False
    for i, l in enumerate(lines):
        if l.startswith('Cflags:'):
            words, took = without(l[len('Cflags:'):].split(), flags)
            rest = [w for w in words if w not in floor_defines]
            if took or rest != words:
                lines[i] = ('Cflags: ' + ' '.join(rest)) if rest else None
                changed = True
    lines = [l for l in lines if l is not None]
    if not any(l.startswith(VARIABLE + '=') for l in lines):
        # Variables come first, before the first blank line.
        at = lines.index('') if '' in lines else 0
        lines.insert(at, '%s=%s' % (VARIABLE, ' '.join(flags)))
        changed = True
    return '\n'.join(lines) if changed else None


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    ns, args = sys.argv[1], sys.argv[2:]
    floor_defines = [a for a in args if a.startswith('-DCPUD_')]
    flags = [a for a in args if a not in floor_defines]
    for path in installed_pc_files(os.environ.get('MESON_BUILD_ROOT', '.')):
        try:
            with open(path, encoding='utf-8') as fh:
                text = fh.read()
        except OSError:
            continue
        new = rewrite(text, ns, flags, floor_defines)
        if new is not None:
            with open(path, 'w', encoding='utf-8') as fh:
                fh.write(new)
            print('cpudispatch: %s: its consumers get none of the baseline\'s flags (pkg-config --variable=%s)'
                  % (path, VARIABLE))


if __name__ == '__main__':
    main()
