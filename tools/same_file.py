#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""same_file.py GENERATED COMMITTED: exit 1, with a diff, if they differ."""
import difflib
import sys

gen, committed = sys.argv[1], sys.argv[2]
a, b = open(committed).read().splitlines(), open(gen).read().splitlines()
if a != b:
    print('%s is out of date; regenerate it from %s' % (committed, gen))
    print('\n'.join(difflib.unified_diff(a, b, committed, gen, lineterm='')))
    sys.exit(1)
print('%s matches the generated copy' % committed)
