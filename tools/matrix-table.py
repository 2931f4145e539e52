#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Renders the arch x model x compiler table of docs/testing.md from the
summaries tools/qemu-matrix.py wrote, and checks the committed copy.

  matrix-table.py BUILD_DIR...            print the table
  matrix-table.py --check DOC BUILD_DIR...  exit 1 (with a diff) if the table
                                          between the markers in DOC differs
"""
import difflib
import glob
import json
import os
import sys

BEGIN, END = '<!-- matrix:start -->', '<!-- matrix:end -->'


def table(builds):
    rows = []
    for b in builds:
        for f in sorted(glob.glob(os.path.join(b, 'qemu-*', 'summary.json'))):
            rows.append(json.load(open(f)))
    order = ['x86_64', 'x86', 'aarch64', 'arm', 'ppc64le', 's390x', 'riscv64']
    rows.sort(key=lambda r: (order.index(r['arch']) if r['arch'] in order else 99, r['compiler'], r['order']))
    out = ['| arch | qemu -cpu | compiler | detected (cpudispatch names) | demo kernels selected | '
           'compiled targets run (isa suite) | compiled targets the model lacks |',
           '|---|---|---|---|---|---|---|']
    for r in rows:
        out.append('| %s | `%s` | %s | %s | %s | %s | %s |' % (
            r['arch'], r['model'], r['compiler'], ' '.join(r['detected']) or '(none)',
            ' '.join(r['selected']) or '?', ' '.join(r['targets_run']) or '-',
            ' '.join(r['targets_absent']) or '-'))
    return out


def main():
    args = sys.argv[1:]
    if args and args[0] == '--check':
        doc, builds = args[1], args[2:]
        text = open(doc).read()
        committed = text.split(BEGIN)[1].split(END)[0].strip().splitlines()
        fresh = table(builds)
        if committed != fresh:
            print('%s: the matrix table is out of date; regenerate it with tools/matrix-table.py' % doc)
            print('\n'.join(difflib.unified_diff(committed, fresh, 'committed', 'this run', lineterm='')))
            return 1
        print('%s: matrix table matches this run (%d rows)' % (doc, len(fresh) - 2))
        return 0
    print('\n'.join(table(args)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
