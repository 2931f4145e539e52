#!/usr/bin/env python3
"""Writes numpy_conversions.txt from NumPy itself (not run by the tests,
which compare against the committed file; needs python3-numpy):

    /usr/bin/python3 test/typed/numpy_conversions.py > test/typed/numpy_conversions.txt

A cast NumPy calls safe (numpy.can_cast(a, b, 'safe')) is a promotion within
one kind (bool, signed, unsigned, float, complex) and safe across kinds;
every other cast is unsafe: NumPy performs any cast with casting='unsafe'."""
import numpy as np

NAMES = ['bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64',
         'float16', 'float32', 'float64', 'complex64', 'complex128']
DT = [np.dtype(n) for n in NAMES]


def kind(a, b):
    if a == b:
        return 'exact'
    if np.can_cast(a, b, 'safe'):
        return 'promote' if a.kind == b.kind else 'safe'
    return 'unsafe'


print('# The conversion kind of every pair of built-in types under NumPy %s\'s casting' % np.__version__)
print('# rules, written by numpy_conversions.py from numpy.can_cast(from, to, "safe").')
print('# Rows: from; columns: to.')
print(('%-10s %s' % ('from\\to', ' '.join('%-10s' % n for n in NAMES))).rstrip())
for a, n in zip(DT, NAMES):
    print(('%-10s %s' % (n, ' '.join('%-10s' % kind(a, b) for b in DT))).rstrip())
