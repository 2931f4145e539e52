#!/usr/bin/env python3
"""Writes the code block of DOC between <!-- NAME:start --> and <!-- NAME:end -->
to OUT, so a test compiles the docs' example as written.
  doc_block.py DOC NAME OUT   (exit 1 when the markers are missing)"""
import sys

doc, name, out = sys.argv[1:4]
text = open(doc, encoding='utf-8').read()
try:
    block = text.split('<!-- %s:start -->' % name, 1)[1].split('<!-- %s:end -->' % name, 1)[0]
except IndexError:
    sys.exit('doc_block: %s has no block "%s"' % (doc, name))
lines = [l for l in block.strip().splitlines() if not l.startswith('```')]
with open(out, 'w', encoding='utf-8') as fh:
    fh.write('// From %s, block "%s" (written by test/typed/doc_block.py).\n%s\n' % (doc, name, '\n'.join(lines)))
