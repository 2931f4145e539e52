#!/usr/bin/env python3
"""The qemu models the docs say `--setup cpudispatch:each_cpu` runs are the
ones it runs: src/run/qemu-models.txt, the one list cpudispatch-run reads.

  models_documented.py SOURCE_ROOT

Every docs/*.md line `meson test ... --setup cpudispatch:each_cpu  # ...`
whose comment names models either lists an arch's models (`a, b, c`: all
of them, in the file's order) or gives their range (`first ... last`: the
arch's first and last); `, ` separates the names, since a model may hold a
comma (max,sve256=on). A comment that names no model (a sentence) is left
alone. Control: the same check must reject each listed comment with one
model dropped.
"""
import glob
import os
import re
import sys

SETUP = re.compile(r'--setup cpudispatch:each_cpu\s+#\s*(.*)$')


def models_by_arch(root):
    arches = {}
    with open(os.path.join(root, 'src', 'run', 'qemu-models.txt')) as fh:
        for line in fh:
            w = line.split()
            if len(w) >= 4 and not w[0].startswith('#'):
                arches.setdefault(w[0], []).append(w[3])
    return arches


def check_comment(comment, arches):
    """None if the comment names no model, else (ok, what it said)."""
    text = comment.split(':')[-1].strip()  # "Wine in qemu-x86_64: qemu64 ... Haswell"
    every = {m for ms in arches.values() for m in ms}
    if '...' in text:
        first, last = [t.strip() for t in text.split('...', 1)]
        for arch, ms in arches.items():
            if first in ms:
                return (first == ms[0] and last == ms[-1],
                        '%s: range %s ... %s, the models are %s' % (arch, first, last, ' '.join(ms)))
        return None
    # ", " separates; a model may hold a comma itself (max,sve256=on).
    names = [t.strip() for t in re.split(r',\s+', text)]
    if not names or not all(n in every for n in names):
        return None if not any(n in every for n in names) else (False, 'unknown model in %r' % text)
    arch = next(a for a, ms in arches.items() if names[0] in ms)
    return names == arches[arch], '%s: %s listed, the models are %s' % (arch, ', '.join(names),
                                                                     ', '.join(arches[arch]))


def main():
    root = sys.argv[1]
    arches = models_by_arch(root)
    failures, checked, controls = 0, 0, 0
    for path in sorted(glob.glob(os.path.join(root, 'docs', '*.md'))):
        for n, line in enumerate(open(path, encoding='utf-8'), 1):
            m = SETUP.search(line.rstrip())
            if not m:
                continue
            r = check_comment(m.group(1), arches)
            if r is None:
                continue
            checked += 1
            where = '%s:%d' % (os.path.relpath(path, root), n)
            print('%s %s: %s' % ('ok  ' if r[0] else 'FAIL', where, r[1]))
            failures += not r[0]
            # Control: one model fewer must be caught.
            comment = m.group(1)
            if '...' not in comment:
                dropped = ', '.join(re.split(r',\s+', comment.split(':')[-1].strip())[:-1])
                mutated = check_comment(dropped, arches)
                controls += 1
                if mutated is None or mutated[0]:
                    print('FAIL control %s: a list without its last model passes' % where)
                    failures += 1
    if checked == 0:
        print('FAIL: no each_cpu comment naming models found in docs/*.md')
        failures += 1
    print('%d comments checked, %d controls; %s' % (checked, controls, 'FAILED' if failures else 'PASS'))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
