#!/usr/bin/env python3
"""The docs' marked code blocks, read one way by every test that holds the
docs to what they say: the lines between <!-- NAME:start --> and
<!-- NAME:end --> in a docs file, without the ``` fence lines.

As a module (with the test directory on sys.path):
    doc_blocks.block(DOC_PATH, NAME) -> [line, ...]   (ValueError: no such block)
As a program, for a build step that compiles a block as written:
    doc_blocks.py DOC NAME OUT   (writes the block to OUT; exit 1 if missing)
"""
import sys


def block(doc, name):
    with open(doc, encoding='utf-8') as fh:
        text = fh.read()
    start, end = '<!-- %s:start -->' % name, '<!-- %s:end -->' % name
    if start not in text or end not in text.split(start, 1)[1]:
        raise ValueError('%s has no block "%s"' % (doc, name))
    inner = text.split(start, 1)[1].split(end, 1)[0]
    return [l for l in inner.strip().splitlines() if not l.startswith('```')]


if __name__ == '__main__':
    doc, name, out = sys.argv[1:4]
    try:
        lines = block(doc, name)
    except ValueError as e:
        sys.exit('doc_blocks: %s' % e)
    with open(out, 'w', encoding='utf-8') as fh:
        fh.write('// From %s, block "%s" (written by test/doc_blocks.py).\n%s\n' % (doc, name, '\n'.join(lines)))
