#!/usr/bin/env python3
"""The rules every feature table must follow (tools/cpudispatch_tables.py,
run by every configure), each broken on purpose in a copy of the tables:
the check must fail naming the rule, the row and the arch. And the real
tables must read and pass, with the rows the Meson literal holds.

  table_checks.py SOURCE_ROOT      exit 0 pass, 1 fail"""
import os
import re
import shutil
import sys
import tempfile

root = sys.argv[1]
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(root, 'tools'))
import cpudispatch_tables as T  # noqa: E402

X86 = os.path.join('x86_64', 'meson.build')
AVX2 = "{'name': 'AVX2', 'interest': 23, 'implies': ['F16C'], 'flags': ['-mavx2'],"
# (what is broken, file, text to replace, replacement, the message's words)
CASES = [
    ('a table key missing', X86, "'retired': ['AVX512_KNL', 'AVX512_KNM'],", '',
     'feature table x86_64 lacks key "retired"'),
    ('a row key missing', X86, "'xcr0': 0x6, 'test': 'avx2.c'}", "'test': 'avx2.c'}",
     'feature table x86_64: row AVX2 lacks key "xcr0"'),
    ('interest out of order', X86, "'name': 'AVX2', 'interest': 23,", "'name': 'AVX2', 'interest': 2,",
     'AVX2 is out of interest order'),
    ('implies a later row', X86, AVX2, AVX2.replace("['F16C']", "['AVX512F']"),
     'AVX2 implies AVX512F, which is not an earlier row'),
    ('a lower-case name', X86, "'name': 'AVX2',", "'name': 'Avx2',", 'bad name "Avx2"'),
    ('a keyword as name', X86, "'name': 'AVX2',", "'name': 'MAX',", 'bad name "MAX"'),
    ('an unknown detect kind', X86, "'detect': ['cpuid', 7, 0, 'ebx', 5], 'xcr0': 0x6, 'test': 'avx2.c'",
     "'detect': ['cpuidx', 7, 0, 'ebx', 5], 'xcr0': 0x6, 'test': 'avx2.c'", 'AVX2 has an unknown detect kind'),
    ('a detect spec of the wrong length', X86, "'detect': ['cpuid', 7, 0, 'ebx', 5], 'xcr0': 0x6, 'test': 'avx2.c'",
     "'detect': ['cpuid', 7, 0, 'ebx'], 'xcr0': 0x6, 'test': 'avx2.c'", 'AVX2: a "cpuid" detect spec has 4 items'),
    ('a test program that is missing', X86, "'test': 'avx2.c'", "'test': 'avx3.c'",
     'AVX2: its test program src/features/x86_64/avx3.c does not exist'),
    ('a test that is no file name', X86, "'test': 'avx2.c'", "'test': 'x/avx2.c'", '"test" must name a .c file'),
    ('a spelling two arches use', os.path.join('aarch64', 'meson.build'), "'name': 'SVE',", "'name': 'AVX2',",
     '"AVX2" is used by both'),
    ('min names an unknown feature', X86, "'min': ['SSE', 'SSE2'],", "'min': ['SSE', 'SSE9'],",
     'min names unknown feature SSE9'),
    ('a broken entry with an unknown compiler', os.path.join('ppc64le', 'meson.build'), "{'compiler': 'gcc',",
     "{'compiler': 'icc',", 'names compiler "icc"'),
    ('a broken entry with a bad version', os.path.join('ppc64le', 'meson.build'), "'versions': ['>=12.0',",
     "'versions': ['=>12.0',", '"=>12.0" is not a version constraint'),
    ('adds_to on a feature', X86, "'xcr0': 0x6, 'test': 'avx2.c'}", "'xcr0': 0x6, 'adds_to': [], 'test': 'avx2.c'}",
     'AVX2 has "adds_to" but is no group'),
    ('a group without adds_to', X86, "'adds_to': ['X86_V2'],", '', 'group X86_V3 lacks "adds_to"'),
    ('adds_to a later row', X86, "'adds_to': ['X86_V2'],", "'adds_to': ['X86_V4'],",
     'X86_V3 adds to X86_V4, which is not an earlier row'),
    ('a group adding nothing', X86, "'adds_to': ['X86_V3'],\n     'detect': [], 'xcr0': 0xe6, 'test': 'x86_v4.c'",
     "'adds_to': ['AVX512_SKX', 'X86_V3'],\n     'detect': [], 'xcr0': 0xe6, 'test': 'x86_v4.c'",
     'group X86_V4 adds nothing to AVX512_SKX X86_V3 min'),
    ('unreadable text', X86, "'name': 'AVX2',", "'name': AVX2',", 'cannot read'),
]

failures = []
real = T.read_tables(os.path.join(root, 'src', 'features'))
T.check(real, os.path.join(root, 'src', 'features'))
counts = {t['arch']: len(t['features']) for t in real}
for arch in T.ARCHES:
    with open(os.path.join(root, 'src', 'features', arch, 'meson.build')) as fh:
        rows = len(re.findall(r"\{'name': '", fh.read()))
    if counts[arch] != rows:
        failures.append('%s: read %d rows, the file has %d' % (arch, counts[arch], rows))
print('real tables: ' + ', '.join('%s %d rows' % kv for kv in counts.items()))

for what, rel, old, new, words in CASES:
    with tempfile.TemporaryDirectory() as tmp:
        feats = os.path.join(tmp, 'features')
        shutil.copytree(os.path.join(root, 'src', 'features'), feats)
        path = os.path.join(feats, rel)
        text = open(path).read()
        if text.count(old) < 1:
            failures.append('%s: the table no longer holds %r (update this test)' % (what, old))
            continue
        with open(path, 'w') as fh:
            fh.write(text.replace(old, new, 1))
        try:
            T.check(T.read_tables(feats), feats)
            got = 'no error'
        except T.TableError as e:
            got = str(e)
        ok = words in got
        print('%-40s -> %s' % (what, got[:110]))
        if not ok:
            failures.append('%s: expected an error with %r, got %r' % (what, words, got))
if failures:
    print('\n'.join('FAIL: ' + f for f in failures))
    sys.exit(1)
print('PASS')
