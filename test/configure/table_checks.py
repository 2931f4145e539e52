#!/usr/bin/env python3
"""The rules every feature table must follow (src/build_side/cpudispatch_tables.py,
run by every configure), each broken on purpose in a copy of the tables:
the check must fail naming the rule, the row and the arch. And the real
tables must read and pass, with the rows their files hold.

  table_checks.py SOURCE_ROOT      exit 0 pass, 1 fail"""
import ast
import os
import re
import shutil
import sys
import tempfile

root = sys.argv[1]
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(root, 'src', 'build_side'))
import cpudispatch_tables as T  # noqa: E402

X86 = os.path.join('x86_64', 'table.py')
X86_32 = os.path.join('x86', 'table.py')
PPC = os.path.join('ppc64le', 'table.py')
AVX2 = "{'name': 'AVX2', 'implies': ['F16C'], 'flags': ['-mavx2'],"
AVX2_END = "'detect': ['cpuid', 7, 0, 'ebx', 5], 'xcr0': 0x6}"
# (what is broken, file, text to replace, replacement, the message's words)
CASES = [
    ('a table key missing', X86, "'retired': ['AVX512_KNL', 'AVX512_KNM'],", '',
     'feature table x86_64 lacks key "retired"'),
    ('an unknown table key', X86, "'retired': ['AVX512_KNL', 'AVX512_KNM'],",
     "'retired': ['AVX512_KNL', 'AVX512_KNM'], 'arch': 'x86_64',", 'x86_64/table.py: unknown key "arch"'),
    ('a row key missing', X86, AVX2, AVX2.replace("'implies': ['F16C'], ", ''),
     'feature table x86_64: row AVX2 lacks key "implies"'),
    # Derivable fields are not written down: the position is the interest,
    # the name gives the test program.
    ('an interest field', X86, AVX2, AVX2.replace("'name': 'AVX2',", "'name': 'AVX2', 'interest': 23,"),
     'row AVX2 has unknown key "interest"'),
    ('a test field', X86, AVX2_END, AVX2_END[:-1] + ", 'test': 'avx2.c'}", 'row AVX2 has unknown key "test"'),
    ('implies a later row', X86, AVX2, AVX2.replace("['F16C']", "['AVX512F']"),
     'AVX2 implies AVX512F, which is not an earlier row'),
    ('a lower-case name', X86, "'name': 'AVX2',", "'name': 'Avx2',", 'bad name "Avx2"'),
    ('a keyword as name', X86, "'name': 'AVX2',", "'name': 'MAX',", 'bad name "MAX"'),
    ('a group separator in a name', X86, "'name': 'AVX2',", "'name': 'AVX__2',", 'bad name "AVX__2"'),
    ('an unknown detect kind', X86, AVX2_END, AVX2_END.replace("'cpuid'", "'cpuidx'"),
     'AVX2 has an unknown detect kind'),
    ('a detect spec of the wrong length', X86, AVX2_END, AVX2_END.replace(", 5]", "]"),
     'AVX2: a "cpuid" detect spec has 4 items'),
    ('a test program that is missing', X86, "'name': 'AVX2',", "'name': 'AVX3',",
     'AVX3: its test program src/features/x86_64/avx3.c does not exist'),
    ('a spelling two arches use', os.path.join('aarch64', 'table.py'), "'name': 'SVE',",
     "'name': 'SVE', 'aliases': ['AVX2'],",
     '"AVX2" is used by both'),
    ('min names an unknown feature', X86, "'min': ['SSE', 'SSE2'],", "'min': ['SSE', 'SSE9'],",
     'min names unknown feature SSE9'),
    ('a detection source that is missing', X86, "'detect_source': 'detect_x86.c',",
     "'detect_source': 'detect_x87.cpp',", 'detect_source src/runtime/detect_x87.cpp does not exist'),
    ('a broken entry with an unknown compiler', os.path.join('ppc64le', 'table.py'), "{'compiler': 'gcc',",
     "{'compiler': 'icc',", 'names compiler "icc"'),
    ('a broken entry with a bad version', os.path.join('ppc64le', 'table.py'), "'versions': ['>=12.0',",
     "'versions': ['=>12.0',", '"=>12.0" is not a version constraint'),
    ('adds_to on a feature', X86, AVX2_END, AVX2_END[:-1] + ", 'adds_to': []}", 'AVX2 has "adds_to" but is no group'),
    ('a group without adds_to', X86, "'adds_to': ['X86_V2'],", '', 'group X86_V3 lacks "adds_to"'),
    ('adds_to a later row', X86, "'adds_to': ['X86_V2'],", "'adds_to': ['X86_V4'],",
     'X86_V3 adds to X86_V4, which is not an earlier row'),
    ('a group adding nothing', X86, "'adds_to': ['X86_V3'],\n     'detect': [], 'xcr0': 0xe6},\n    {'name': 'AVX512VNNI'",
     "'adds_to': ['AVX512_SKX', 'X86_V3'],\n     'detect': [], 'xcr0': 0xe6},\n    {'name': 'AVX512VNNI'",
     'group X86_V4 adds nothing to AVX512_SKX X86_V3 min'),
    ('unreadable text', X86, "'name': 'AVX2',", "'name': AVX2',", 'x86_64/table.py:'),
    ('a NumPy name without interest', X86, "{'name': 'SSE3', 'interest': 3},", "{'name': 'SSE3'},",
     "numpy entry 'SSE3' lacks a key of name interest"),
    ('a NumPy name out of order', X86, "{'name': 'SSE3', 'interest': 3},", "{'name': 'SSE3', 'interest': 30},",
     "numpy entry 'SSSE3': names come once, in ascending interest"),
    ('a NumPy name meaning no row', X86, "{'name': 'AVX512CD', 'interest': 41},",
     "{'name': 'AVX512CD', 'interest': 41, 'means': ['AVX512ER']},", '"means" names no row of the table (AVX512ER)'),
    ('a NumPy extra without its program', X86, "'AVX512BW_MASK': 'avx512bw_mask.c'",
     "'AVX512BW_MASK': 'avx512bw_masks.c'", 'its program x86_64/numpy/avx512bw_masks.c does not exist'),
    ('an unknown NumPy key', X86, "{'name': 'FMA3', 'interest': 24},", "{'name': 'FMA3', 'interest': 24, 'implies': []},",
     'numpy entry \'FMA3\': unknown key "implies"'),
    ('code, not a literal', X86, "'min': ['SSE', 'SSE2'],", "'min': ['SSE'] + ['SSE2'],", 'cannot read the table'),
    # A table that takes another's rows (x86 takes x86_64's: read_table).
    ('rows_from an arch without a table', X86_32, "'rows_from': 'x86_64',", "'rows_from': 'x86_65',",
     'feature table x86: rows_from names x86_65, which has no table'),
    ('rows taken from a table that takes its own', PPC, "'retired': [],", "'retired': [], 'rows_from': 'x86',",
     'feature table ppc64le: takes the rows of x86, which takes its own from x86_64'),
    ('rows_without a row the other table lacks', X86_32, "'CX16',", "'CX17',",
     'feature table x86: rows_without names CX17, which is no row of x86_64'),
    ('leaving out a row that a taken row implies', X86_32, "'CX16',", "'CX16', 'SSE42',",
     'feature table x86: AVX implies SSE42, which rows_without leaves out'),
    ('an own row that is a taken row too', X86_32, "{'name': 'MMX',", "{'name': 'SSE',",
     'feature table x86: its own row SSE is a row of x86_64 too'),
    ('rows_also_imply a taken row', X86_32, "{'SSE': ['MMX']}", "{'SSE': ['SSE2']}",
     'feature table x86: rows_also_imply: SSE implies SSE2, which is not one of its own rows'),
    ('rows_also_imply a row left out', X86_32, "{'SSE': ['MMX']}", "{'SSE': ['MMX'], 'CX16': ['MMX']}",
     'feature table x86: rows_also_imply names CX16, which is no row it takes from x86_64'),
    ('row_dirs written down', X86_32, "'rows_from': 'x86_64',", "'rows_from': 'x86_64', 'row_dirs': {},",
     'x86/table.py: unknown key "row_dirs"'),
    # A broken row of the table whose rows x86 takes is that table's error.
    ('a taken row broken', X86, AVX2, AVX2.replace("['F16C']", "['AVX512F']"),
     'feature table x86_64: AVX2 implies AVX512F'),
]

failures = []
real = T.read_tables(os.path.join(root, 'src', 'features'))
T.check(real, os.path.join(root, 'src', 'features'))
counts = {t['arch']: len(t['features']) for t in real}
written = {}
for arch in T.arches(os.path.join(root, 'src', 'features')):
    with open(os.path.join(root, 'src', 'features', arch, 'table.py')) as fh:
        # A row starts {'name': ..., 'implies' (the NumPy names, 'numpy',
        # have no 'implies').
        written[arch] = len(re.findall(r"\{'name': '\w+', 'implies'", fh.read()))
for arch in written:
    # A table that takes another's rows: its own, then the other's less
    # those it leaves out.
    lit = ast.literal_eval(open(os.path.join(root, 'src', 'features', arch, 'table.py')).read())
    rows = written[arch] + (written[lit['rows_from']] - len(lit['rows_without']) if 'rows_from' in lit else 0)
    if counts[arch] != rows:
        failures.append('%s: read %d rows, the files have %d' % (arch, counts[arch], rows))
print('real tables: ' + ', '.join('%s %d rows' % kv for kv in counts.items()))

for what, rel, old, new, words in CASES:
    with tempfile.TemporaryDirectory() as tmp:
        feats = os.path.join(tmp, 'features')
        shutil.copytree(os.path.join(root, 'src', 'features'), feats)
        # The detection sources are checked beside the tables (src/runtime).
        shutil.copytree(os.path.join(root, 'src', 'runtime'), os.path.join(tmp, 'runtime'))
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
