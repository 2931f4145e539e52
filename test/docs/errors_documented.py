#!/usr/bin/env python3
"""docs/options.md's example errors are what the option reader says: each
line of its option-errors block is `OPTION="VALUE": MESSAGE`; the value is
read as the x86_64 build reads that option (src/build_side/cpudispatch_grammar.py)
and must fail with MESSAGE, where "..." stands for any run of names.
Control: a message with one word changed must not match.

  errors_documented.py SOURCE_ROOT
"""
import os
import re
import sys

root = sys.argv[1]
sys.path.insert(0, os.path.join(root, 'src', 'build_side'))
sys.path.insert(0, os.path.join(root, 'test'))
sys.dont_write_bytecode = True
import cpudispatch_grammar as grammar  # noqa: E402
import doc_blocks  # noqa: E402
from cpudispatch_model import Model  # noqa: E402

LINE = re.compile(r'^(cpu-baseline|cpu-dispatch)="([^"]*)": (.*)$')


def matches(documented, actual):
    pattern = '.*'.join(re.escape(part) for part in documented.split(' ... '))
    return re.fullmatch(pattern, actual) is not None


def main():
    model = Model.from_tables(os.path.join(root, 'src', 'features'), 'x86_64')
    lines = doc_blocks.block(os.path.join(root, 'docs', 'options.md'), 'option-errors')
    failures = 0
    for line in lines:
        m = LINE.match(line)
        if not m:
            print('FAIL: not OPTION="VALUE": MESSAGE: %r' % line)
            failures += 1
            continue
        option, value, documented = m.groups()
        which = option.split('-')[1]
        try:
            grammar.parse_option(model, which, value, {'DETECT': [], 'NATIVE': []}, model.names, lambda t: None)
            actual = '(no error)'
        except grammar.ListError as e:
            actual = str(e)
        ok = matches(documented, actual)
        print('%s %s="%s"%s' % ('ok  ' if ok else 'FAIL', option, value, '' if ok else '\n  docs: %s\n  says: %s'
                                                                           % (documented, actual)))
        failures += not ok
        # Control: the same check rejects a changed word.
        words = documented.split(' ')
        changed = ' '.join(words[:-1] + ['X' + words[-1]])
        if matches(changed, actual):
            print('FAIL control: a changed last word still matches for %s="%s"' % (option, value))
            failures += 1
    if not lines:
        failures += 1
    print('%d examples; %s' % (len(lines), 'FAILED' if failures else 'PASS'))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
