# SPDX-License-Identifier: MIT
"""The feature tables, src/features/<arch>/table.py, read and checked.

Each table is a Python literal (a dict: see x86_64/table.py's header for
its keys), read with ast.literal_eval: data, never run. The arch is its
folder's name, and the arches are the folders that hold a table. check()
holds every rule a table must follow: all tables are checked on every
configure, so a broken row of any arch fails CI on x86_64 too. What a
build derives from them is src/build_side/cpudispatch_model.py.
"""
import ast
import os
import re

# Names a feature cannot have: the options' keywords.
from cpudispatch_grammar import KEYWORDS

TABLE_KEYS = ['march_ext_sep', 'detect_source', 'min', 'native', 'floor', 'retired', 'features']
# Optional: merged -march extensions put single-letter ones first (riscv64);
# a table that takes another arch's rows (x86 takes x86_64's: read_table):
# that arch, the rows it leaves out, and what a taken row implies besides
# (its own rows, which come first).
OPTIONAL_TABLE_KEYS = ['march_short_exts_first', 'rows_from', 'rows_without', 'rows_also_imply', 'loader_isa_levels',
                       'numpy']
# NumPy's names (a table's 'numpy', for the generator's NumPy format): the
# keys of an entry, required and optional.
NUMPY_KEYS = ['name', 'interest']
OPTIONAL_NUMPY_KEYS = ['means', 'group', 'drop', 'flags', 'extras']
# Keys read_table adds: the arch (the folder's name) and, per row, the folder
# that holds it and its test program.
READ_KEYS = ['arch', 'row_dirs']
ROW_KEYS = ['name', 'implies', 'flags', 'headers', 'cdef', 'detect']
# Optional: other spellings, a group's base, OS state (XGETBV(0) mask; none
# if absent), known compiler bugs.
OPTIONAL_ROW_KEYS = ['aliases', 'adds_to', 'xcr0', 'broken']
# Detect specs (a row's 'detect'), with their lengths:
#   ['cpuid', LEAF, SUBLEAF, REG, BIT]       CPUID bit
#   ['cpuid_ge', LEAF, SUBLEAF, REG, SHIFT, MIN]
#                                            the 8-bit field at SHIFT >= MIN
#   ['hwcap', BIT] / ['hwcap2', BIT]         AT_HWCAP / AT_HWCAP2 bit
#   ['hwprobe', KEY, BIT, HWCAP_BIT]         riscv_hwprobe KEY's bit; where the
#                                            kernel lacks the call, AT_HWCAP's
#                                            HWCAP_BIT (-1: none)
#   ['vector_bytes', N]                      the scalable vectors are exactly N
#                                            bytes long
#   []                                       a group
DETECT_KINDS = {'cpuid': 5, 'cpuid_ge': 6, 'hwcap': 2, 'hwcap2': 2, 'hwprobe': 4, 'vector_bytes': 2}
# Known compiler bugs (a row's optional 'broken'): compiler ids (Meson's
# get_id()) with the name messages use, the keys of an entry, and the
# operators a version constraint may start with.
BROKEN_COMPILERS = {'gcc': 'GCC', 'clang': 'Clang'}
BROKEN_KEYS = ['compiler', 'versions', 'why']
VERSION_OPS = ['>=', '<=', '==', '!=', '>', '<']
TABLE_FILE = 'table.py'


class TableError(Exception):
    pass


def arches(features_dir):
    """The arches that have a table, by name."""
    return sorted(a for a in os.listdir(features_dir) if os.path.isfile(os.path.join(features_dir, a, TABLE_FILE)))


def table_paths(features_dir):
    return [os.path.join(features_dir, a, TABLE_FILE) for a in arches(features_dir)]


def read_table(path):
    """The literal of a table file, with its arch (the folder's name)."""
    with open(path, encoding='utf-8') as fh:
        text = fh.read()
    try:
        value = ast.literal_eval(text)
    except SyntaxError as e:
        raise TableError('%s:%s: cannot read the table: %s' % (path, e.lineno, e.msg))
    except ValueError as e:
        # literal_eval names the line of the first thing that is no literal.
        line = re.search(r'on line (\d+)', str(e))
        raise TableError('%s:%s: cannot read the table: not a literal (a table holds only dicts, lists, strings, '
                         'numbers and booleans)' % (path, line.group(1) if line else '?'))
    if not isinstance(value, dict):
        raise TableError('%s: a table is one dict literal' % path)
    if 'arch' in value:
        raise TableError('%s: unknown key "arch" (the arch is the folder\'s name)' % path)
    if 'row_dirs' in value:
        raise TableError('%s: unknown key "row_dirs" (where a row is written is read, not written down)' % path)
    value['arch'] = os.path.basename(os.path.dirname(os.path.abspath(path)))
    value['row_dirs'] = {r['name']: value['arch'] for r in value.get('features', [])
                         if isinstance(r, dict) and 'name' in r}
    if 'rows_from' in value:
        take_rows(value, path)
    return value


def take_rows(t, path):
    """A table with 'rows_from': its own rows, then every row of that arch's
    table in its order, less 'rows_without' (rows its mode does not have),
    each taken row implying also what 'rows_also_imply' adds. One source of
    truth: the rows and their test programs stay in the other arch's folder
    (row_dirs). A row it leaves out may not be implied by one it takes; a
    group's base ('adds_to') that it leaves out stands for what that row
    implies (what the group adds is the same)."""
    arch, src_arch = t['arch'], t['rows_from']
    src_path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(path))), str(src_arch), TABLE_FILE)
    if not os.path.isfile(src_path):
        raise TableError('feature table %s: rows_from names %s, which has no table' % (arch, src_arch))
    src = read_table(src_path)
    if 'rows_from' in src:
        raise TableError('feature table %s: takes the rows of %s, which takes its own from %s (one step only)'
                         % (arch, src_arch, src['rows_from']))
    # (A malformed row of either table is check()'s to report: it checks
    # the tables rows are taken from first.)
    rows = [r for r in src.get('features', []) if isinstance(r, dict) and 'name' in r]
    by = {r['name']: r for r in rows}
    own = [r.get('name') for r in t.get('features', []) if isinstance(r, dict)]
    without = t.get('rows_without', [])
    also = t.get('rows_also_imply', {})
    for n in without:
        if n not in by:
            raise TableError('feature table %s: rows_without names %s, which is no row of %s' % (arch, n, src_arch))
    for n in own:
        if n in by:
            raise TableError('feature table %s: its own row %s is a row of %s too (take it from there, or leave '
                             'it out with rows_without)' % (arch, n, src_arch))
    for n, implied in also.items():
        if n not in by or n in without:
            raise TableError('feature table %s: rows_also_imply names %s, which is no row it takes from %s'
                             % (arch, n, src_arch))
        for i in implied:
            if i not in own:
                raise TableError('feature table %s: rows_also_imply: %s implies %s, which is not one of its own '
                                 'rows (they come first)' % (arch, n, i))

    def base(names):
        out = []
        for n in names:
            for m in (base(by[n].get('implies', [])) if n in without else [n]):
                if m not in out:
                    out.append(m)
        return out

    taken = []
    for r in rows:
        n = r['name']
        if n in without:
            continue
        implies = list(r.get('implies', []))
        left = [i for i in implies if i in without]
        if left:
            raise TableError('feature table %s: %s implies %s, which rows_without leaves out (a row needs what it '
                             'implies)' % (arch, n, ' '.join(left)))
        if n in also:
            r = dict(r, implies=implies + [i for i in also[n] if i not in implies])
        if 'adds_to' in r:
            r = dict(r, adds_to=base(r['adds_to']))
        taken.append(r)
        t['row_dirs'][n] = src_arch
    t['features'] = list(t.get('features', [])) + taken


def read_tables(features_dir):
    return [read_table(p) for p in table_paths(features_dir)]


# --- the rules ----------------------------------------------------------------
def version_ok(constraint):
    op = next((o for o in VERSION_OPS if constraint.startswith(o)), None)
    rest = constraint[len(op):].strip() if op else ''
    return op is not None and rest[:1].isdigit()


def version_matches(version, constraint):
    """Meson's version_compare() for the constraints the tables use:
    numeric components compared in order."""
    op = next(o for o in VERSION_OPS if constraint.startswith(o))
    num = lambda v: [int(x) for x in re.findall(r'\d+', v)]
    a, b = num(version), num(constraint[len(op):])
    n = max(len(a), len(b))
    a, b = a + [0] * (n - len(a)), b + [0] * (n - len(b))
    return {'>=': a >= b, '<=': a <= b, '==': a == b, '!=': a != b, '>': a > b, '<': a < b}[op]


def check(tables, features_dir):
    """Raises TableError naming the first broken rule; returns every
    spelling (names and aliases) -> the arches using it, in table order."""
    all_tokens, feature_of = {}, {}
    # A table whose rows another takes is checked first: a broken row is
    # reported in the table that holds it (the arches are listed in table
    # order all the same, below).
    for t in sorted(tables, key=lambda t: 'rows_from' in t):
        for k in TABLE_KEYS:
            if k not in t:
                raise TableError('feature table %s lacks key "%s"' % (t.get('arch', '?'), k))
        for k in t:
            if k not in TABLE_KEYS + OPTIONAL_TABLE_KEYS + READ_KEYS:  # READ_KEYS: read_table's
                raise TableError('feature table %s: unknown key "%s" (keys: %s; optional: %s)'
                                 % (t['arch'], k, ' '.join(TABLE_KEYS), ' '.join(OPTIONAL_TABLE_KEYS)))
        arch, seen = t['arch'], []
        if not os.path.isfile(os.path.join(os.path.dirname(features_dir), 'runtime', t['detect_source'])):
            raise TableError('feature table %s: its detect_source src/runtime/%s does not exist'
                             % (arch, t['detect_source']))
        for r in t['features']:
            for k in ROW_KEYS:
                if k not in r:
                    raise TableError('feature table %s: row %s lacks key "%s"' % (arch, r.get('name', '?'), k))
            for k in r:
                if k not in ROW_KEYS + OPTIONAL_ROW_KEYS:
                    # 'interest' is the row's position, 'test' its name:
                    # nothing derivable is written down.
                    raise TableError('feature table %s: row %s has unknown key "%s" (keys: %s; optional: %s)'
                                     % (arch, r['name'], k, ' '.join(ROW_KEYS), ' '.join(OPTIONAL_ROW_KEYS)))
            n = r['name']
            if n != n.upper() or n in KEYWORDS or not re.match(r'^[A-Z][A-Z0-9_]*$', n) or '__' in n:
                raise TableError('feature table %s: bad name "%s"' % (arch, n))
            for i in r['implies']:
                if i not in seen:
                    raise TableError('feature table %s: %s implies %s, which is not an earlier row' % (arch, n, i))
            d = r['detect']
            if d and d[0] not in DETECT_KINDS:
                raise TableError('feature table %s: %s has an unknown detect kind' % (arch, n))
            if d and len(d) != DETECT_KINDS[d[0]]:
                raise TableError('feature table %s: %s: a "%s" detect spec has %d items' % (arch, n, d[0], len(d)))
            if not d and not r['implies']:
                raise TableError('feature table %s: %s has neither a detect spec nor implied features' % (arch, n))
            # 'adds_to': a group's base, from which what disabling it turns
            # off is derived (Arch.adds); groups only, and every group.
            if d and 'adds_to' in r:
                raise TableError('feature table %s: %s has "adds_to" but is no group (only a row with detect [] '
                                 'builds on others)' % (arch, n))
            if not d and 'adds_to' not in r:
                raise TableError('feature table %s: group %s lacks "adds_to" (the features and groups it builds on; '
                                 '[] for none)' % (arch, n))
            for b in r.get('adds_to', []):
                if b not in seen:
                    raise TableError('feature table %s: %s adds to %s, which is not an earlier row' % (arch, n, b))
            where = t.get('row_dirs', {}).get(n, arch)  # a taken row's test program is beside its table
            if not os.path.isfile(os.path.join(features_dir, where, n.lower() + '.c')):
                raise TableError('feature table %s: %s: its test program src/features/%s/%s does not exist'
                                 % (arch, n, where, n.lower() + '.c'))
            for b in r.get('broken', []):
                for k in b:
                    if k not in BROKEN_KEYS:
                        raise TableError('feature table %s: %s: a "broken" entry has an unknown key "%s" (keys: %s)'
                                         % (arch, n, k, ' '.join(BROKEN_KEYS)))
                for k in BROKEN_KEYS:
                    if k not in b:
                        raise TableError('feature table %s: %s: a "broken" entry lacks "%s"' % (arch, n, k))
                if b['compiler'] not in BROKEN_COMPILERS:
                    raise TableError('feature table %s: %s: a "broken" entry names compiler "%s"; known: %s'
                                     % (arch, n, b['compiler'], ' '.join(BROKEN_COMPILERS)))
                if not b['versions'] or not b['why']:
                    raise TableError('feature table %s: %s: a "broken" entry needs versions and a reason' % (arch, n))
                for v in b['versions']:
                    if not version_ok(v):
                        raise TableError('feature table %s: %s: "%s" is not a version constraint (%s and a version)'
                                         % (arch, n, v, ' '.join(VERSION_OPS)))
            seen.append(n)
            for tok in [n] + r.get('aliases', []):
                # A spelling names one feature: several arches may share it
                # only as the same feature's name (NumPy's NEON ... ASIMDFHM
                # on aarch64 and 32-bit arm), so that one value serves every
                # arch and "ignored on this arch" names the arches it belongs
                # to; an alias of one arch may not be another's feature.
                for other, name in feature_of.get(tok, {}).items():
                    if other != arch and name != n:
                        raise TableError('feature tables: "%s" is used by both %s (%s) and %s (%s): arches share a '
                                         'spelling only as the name of the same feature' % (tok, other, name, arch, n))
                feature_of.setdefault(tok, {})[arch] = n
                if arch not in all_tokens.setdefault(tok, []):
                    all_tokens[tok].append(arch)
        for r in t['features']:
            # A `min` feature is in every build: a 'broken' entry there would
            # fail every default configure with that compiler.
            if r['name'] in t['min'] and r.get('broken'):
                raise TableError('feature table %s: %s is in min and cannot carry "broken" entries' % (arch, r['name']))
        for m in t['min']:
            if m not in seen:
                raise TableError('feature table %s: min names unknown feature %s' % (arch, m))
        # The loader's ISA levels: [GROUP, PROPERTY BIT] in ascending order.
        last = 0
        for lv in t.get('loader_isa_levels', []):
            if (not isinstance(lv, list) or len(lv) != 2 or lv[0] not in seen or not isinstance(lv[1], int)
                    or lv[1] <= last):
                raise TableError('feature table %s: loader_isa_levels entry %r is not [a row, a property bit above '
                                 'the last]' % (arch, lv))
            last = lv[1]
        check_numpy(t, seen, features_dir)
        adds, _ = removal_sets(t)
        for r in t['features']:
            if 'adds_to' in r and not adds[r['name']]:
                # Disabling it would leave every feature it stands for on.
                raise TableError('feature table %s: group %s adds nothing to %s' % (
                    arch, r['name'], ' '.join(r['adds_to'] + ['min'])))
    order = [t['arch'] for t in tables]
    return {tok: sorted(used_by, key=order.index) for tok, used_by in all_tokens.items()}


def check_numpy(t, rows, features_dir):
    """A table's NumPy names: known keys, names once, interest ascending,
    'means' naming rows of the table (a name that is itself a row means
    that row by default), the extras' programs present."""
    arch, last, names = t['arch'], 0, set()
    for e in t.get('numpy', []):
        what = 'feature table %s: numpy entry %r' % (arch, e.get('name') if isinstance(e, dict) else e)
        if not isinstance(e, dict) or any(k not in e for k in NUMPY_KEYS):
            raise TableError('%s lacks a key of %s' % (what, ' '.join(NUMPY_KEYS)))
        for k in e:
            if k not in NUMPY_KEYS + OPTIONAL_NUMPY_KEYS:
                raise TableError('%s: unknown key "%s" (keys: %s; optional: %s)'
                                 % (what, k, ' '.join(NUMPY_KEYS), ' '.join(OPTIONAL_NUMPY_KEYS)))
        if e['name'] in names or not isinstance(e['interest'], int) or e['interest'] <= last:
            raise TableError('%s: names come once, in ascending interest (after %d)' % (what, last))
        names.add(e['name'])
        last = e['interest']
        means = e.get('means', [e['name']])
        bad = [m for m in means if m not in rows]
        if not means or bad:
            raise TableError('%s: "means" names no row of the table (%s)' % (what, ' '.join(bad) or 'empty'))
        for k in ('group', 'flags'):
            if not all(isinstance(x, str) and x for x in e.get(k, [])):
                raise TableError('%s: "%s" is a list of names' % (what, k))
        if 'drop' in e:
            try:
                re.compile(e['drop'])
            except re.error as err:
                raise TableError('%s: "drop" is no regex (%s)' % (what, err))
        for x, prog in e.get('extras', {}).items():
            if not os.path.isfile(os.path.join(features_dir, arch, 'numpy', prog)):
                raise TableError('%s: extra %s: its program %s/numpy/%s does not exist' % (what, x, arch, prog))


def removal_sets(table):
    """(adds, removes) of a table, name -> names in interest order. What a
    group adds: its closure less its base's ('adds_to') and less 'min'.
    "-NAME" / DISABLE=NAME turn off NAME, what it adds and everything
    implying one of them (docs/options.md, "Removing a feature or group");
    for a feature that is NAME and what implies it."""
    names = [r['name'] for r in table['features']]
    closure = {}
    for r in table['features']:
        closure[r['name']] = set(r['implies']).union(*[closure[i] for i in r['implies']])
    base_min = set(table['min']).union(*[closure[m] for m in table['min']])
    adds, removes = {}, {}
    for r in table['features']:
        n = r['name']
        base = base_min.union(r.get('adds_to', []), *[closure[b] for b in r.get('adds_to', [])])
        adds[n] = [x for x in names if x in closure[n] and x not in base] if 'adds_to' in r else []
        off = {n} | set(adds[n])
        removes[n] = [x for x in names if x in off or closure[x] & off]
    return adds, removes


def hex_of(v):
    return '0x%x' % v
