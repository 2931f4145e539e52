#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The functions that left cpudispatch.h in 0.4.0 (docs/api.md, "Headers";
NEWS.md 0.4.0): called through cpudispatch.h alone, each stops the compile
with one line naming the header that declares it now; with that header
included, before or after cpudispatch.h, the same call compiles (the
control: the message comes from the missing include, nothing else).

Usage: moved_names.py INCLUDE_DIR INCLUDE_DIR --cc=ARG... [--cxx=ARG...] [-- FLAG...]"""
import os
import subprocess
import sys
import tempfile

# name, its header since 0.4.0, a call of it
MOVED = [
    ('cpud_set_usable_mask', 'testing.h', 'cpud_set_usable_mask(cpud_mask_none())'),
    ('cpud_detect_cpu', 'testing.h', 'cpud_detect_cpu(NULL)'),
    ('cpud_assume_cpu', 'testing.h', 'cpud_assume_cpu(NULL)'),
    ('cpud_functions', 'functions.h', 'cpud_functions()'),
    ('cpud_for_each_operator', 'operators.h', 'cpud_for_each_operator(NULL, NULL)'),
]


def compile_text(cmd, text, suffix):
    with tempfile.NamedTemporaryFile('w', suffix=suffix, delete=False) as fh:
        fh.write(text)
        path = fh.name
    try:
        r = subprocess.run(cmd + ['-fsyntax-only', path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    return r.returncode, r.stdout + r.stderr


def main():
    incs, cc, cxx, flags = [], [], [], []
    argv = sys.argv[1:]
    if '--' in argv:
        flags = argv[argv.index('--') + 1:]
        argv = argv[:argv.index('--')]
    for a in argv:
        if a.startswith('--cc='):
            cc.append(a[5:])
        elif a.startswith('--cxx='):
            cxx.append(a[6:])
        else:
            incs.append('-I' + a)
    failures = 0
    langs = [('C', cc, '.c')] + ([('C++', cxx, '.cpp')] if cxx else [])
    for lang, comp, suffix in langs:
        cmd = comp + incs + flags
        for name, header, call in MOVED:
            body = 'void f(void);\nvoid f(void) { (void)%s; }\n' % call
            alone = '#include <stddef.h>\n#include "cpudispatch/cpudispatch.h"\n' + body
            rc, out = compile_text(cmd, alone, suffix)
            want = '%s is declared in cpudispatch/%s since cpudispatch 0.4.0: include it (NEWS.md)' % (name, header)
            if rc == 0 or want not in out:
                print('FAIL (%s): %s through cpudispatch.h alone: status %d, no line "%s"\n%s'
                      % (lang, name, rc, want, out[-1500:]))
                failures += 1
            else:
                print('%s: %s alone -> "%s"' % (lang, name, want))
            for first, second in (('cpudispatch.h', header), (header, 'cpudispatch.h')):
                text = ('#include <stddef.h>\n#include "cpudispatch/%s"\n#include "cpudispatch/%s"\n'
                        % (first, second)) + body
                rc, out = compile_text(cmd, text, suffix)
                if rc != 0:
                    print('FAIL (%s): %s with %s then %s does not compile:\n%s'
                          % (lang, name, first, second, out[-1500:]))
                    failures += 1
            print('%s: %s with cpudispatch/%s (either order) compiles' % (lang, name, header))
    if failures:
        print('%d failure(s)' % failures)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
