"""Reads test/grammar/cases.txt: [(input, kind, words)], kind 'names'
(words: the features), 'nothing' or 'error' (words: [the token])."""
import re

ESC = {'t': '\t', 'n': '\n', 'r': '\r', 'v': '\v', '\\': '\\', '"': '"'}


def unescape(s):
    return re.sub(r'\\(.)', lambda m: ESC[m.group(1)], s)


def read(path):
    out = []
    for line in open(path, encoding='utf-8'):
        line = line.rstrip('\n')
        if not line.strip() or line.startswith('#'):
            continue
        m = re.match(r'^"((?:[^"\\]|\\.)*)" -> (.*)$', line)
        if not m:
            raise ValueError('cases.txt: cannot read %r' % line)
        text, rest = unescape(m.group(1)), m.group(2).split(' ', 1)
        if rest[0] == 'error':
            out.append((text, 'error', [unescape(rest[1])]))
        elif rest[0] == 'nothing':
            out.append((text, 'nothing', []))
        else:
            out.append((text, 'names', m.group(2).split()))
    return out
