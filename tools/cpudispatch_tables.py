"""The feature tables, src/features/<arch>/table.py, read and checked.

Each table is a Python literal (a dict: see x86_64/table.py's header for
its keys), read with ast.literal_eval: data, never run. The arch is its
folder's name, and the arches are the folders that hold a table. check()
holds every rule a table must follow: all tables are checked on every
configure, so a broken row of any arch fails CI on x86_64 too. What a
build derives from them is tools/cpudispatch_model.py.
"""
import ast
import os
import re

# Names a feature cannot have: the options' keywords.
from cpudispatch_grammar import KEYWORDS

TABLE_KEYS = ['march_ext_sep', 'detect_source', 'min', 'native', 'floor', 'retired', 'features']
# Optional: merged -march extensions put single-letter ones first (riscv64).
OPTIONAL_TABLE_KEYS = ['march_short_exts_first']
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
    value['arch'] = os.path.basename(os.path.dirname(os.path.abspath(path)))
    return value


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
    """Raises TableError naming the first broken rule."""
    all_tokens = {}
    for t in tables:
        for k in TABLE_KEYS:
            if k not in t:
                raise TableError('feature table %s lacks key "%s"' % (t.get('arch', '?'), k))
        for k in t:
            if k not in TABLE_KEYS + OPTIONAL_TABLE_KEYS + ['arch']:  # 'arch': read_table's, from the folder
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
            if not os.path.isfile(os.path.join(features_dir, arch, n.lower() + '.c')):
                raise TableError('feature table %s: %s: its test program src/features/%s/%s does not exist'
                                 % (arch, n, arch, n.lower() + '.c'))
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
                # Each spelling names one feature of one arch: otherwise
                # "ignored, it belongs to another arch" would be ambiguous.
                if all_tokens.get(tok, arch) != arch:
                    raise TableError('feature tables: "%s" is used by both %s and %s' % (tok, all_tokens[tok], arch))
                all_tokens[tok] = arch
        for r in t['features']:
            # A `min` feature is in every build: a 'broken' entry there would
            # fail every default configure with that compiler.
            if r['name'] in t['min'] and r.get('broken'):
                raise TableError('feature table %s: %s is in min and cannot carry "broken" entries' % (arch, r['name']))
        for m in t['min']:
            if m not in seen:
                raise TableError('feature table %s: min names unknown feature %s' % (arch, m))
        adds, _ = removal_sets(t)
        for r in t['features']:
            if 'adds_to' in r and not adds[r['name']]:
                # Disabling it would leave every feature it stands for on.
                raise TableError('feature table %s: group %s adds nothing to %s' % (
                    arch, r['name'], ' '.join(r['adds_to'] + ['min'])))
    return all_tokens


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
