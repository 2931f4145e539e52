#!/usr/bin/env python3
"""Every option of meson_options.txt is in docs/options.md's table with its
real default, and the table names no option that does not exist.

  options_documented.py SOURCE_ROOT
"""
import os
import re
import sys

root = sys.argv[1]
text = open(os.path.join(root, 'meson_options.txt')).read()
options = {}
for m in re.finditer(r"option\(\s*'([^']+)'\s*,(.*?)\)\s*$", text, re.S | re.M):
    body = m.group(2)
    v = re.search(r"value:\s*('([^']*)'|true|false)", body)
    kind = re.search(r"type:\s*'([^']+)'", body).group(1)
    default = v.group(2) if v and v.group(2) is not None else (v.group(1) if v else
                                                                  {'feature': 'auto', 'boolean': 'true'}.get(kind, ''))
    options[m.group(1)] = default

rows = {}
doc = open(os.path.join(root, 'docs', 'options.md')).read()
for line in doc.splitlines():
    cells = [c.strip() for c in line.strip().strip('|').split('|')]
    if line.startswith('| `') and len(cells) >= 3:
        for name in re.findall(r'`([^`]+)`', cells[0]):
            rows[name] = cells[1].strip('`')

bad = []
for name, default in options.items():
    if name not in rows:
        bad.append('option %s (default %s) is missing from docs/options.md' % (name, default))
    elif rows[name] != default:
        bad.append('option %s: docs/options.md says default %r, meson_options.txt has %r' % (name, rows[name], default))
for name in rows:
    if name not in options:
        bad.append('docs/options.md lists %s, which is not an option' % name)
print('%d options checked' % len(options))
print('\n'.join('FAIL: ' + b for b in bad))
sys.exit(1 if bad or not options else 0)
