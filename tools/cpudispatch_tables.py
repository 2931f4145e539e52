"""The feature tables, read from src/features/<arch>/meson.build, checked,
and what the rest of the build derives from them.

Each table file is one Meson assignment of a literal (`cpud_arch_x86_64 =
{...}`: dicts, lists, strings, integers, booleans, comments); this module
reads that literal grammar itself, so the tables stay the one source of
truth while configure's work runs in Python (tools/cpudispatch_configure.py).
check() holds every rule a table must follow: all five tables are checked on
every configure, so a broken row of any arch fails CI on x86_64 too.
"""
import os
import re

ARCHES = ['x86_64', 'aarch64', 'ppc64le', 's390x', 'riscv64']
KEYWORDS = ['MIN', 'MAX', 'NATIVE', 'NONE', 'DETECT']
TABLE_KEYS = ['arch', 'min', 'native', 'floor', 'retired', 'features']
ROW_KEYS = ['name', 'interest', 'implies', 'flags', 'headers', 'cdef', 'detect', 'xcr0', 'test']
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


class TableError(Exception):
    pass


# --- the literal grammar ----------------------------------------------------
TOKEN = re.compile(r"""\s+|\#[^\n]*|'(?:[^'\\\n]|\\.)*'|0[xX][0-9a-fA-F]+|-?\d+|true|false|[\[\]{}:,=]|[A-Za-z_]\w*""")
ESCAPES = {'n': '\n', 't': '\t', '\\': '\\', "'": "'"}


def tokens(text, path):
    out, pos = [], 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            line = text.count('\n', 0, pos) + 1
            raise TableError('%s:%d: cannot read %r' % (path, line, text[pos:pos + 20]))
        pos = m.end()
        if m.group(0).strip() and not m.group(0).startswith('#'):
            out.append(m.group(0))
    return out


class Reader:
    def __init__(self, toks, path):
        self.toks, self.i, self.path = toks, 0, path

    def next(self):
        if self.i >= len(self.toks):
            raise TableError('%s: the literal ends early' % self.path)
        self.i += 1
        return self.toks[self.i - 1]

    def value(self):
        tok = self.next()
        if tok in ('[', '{'):
            close = ']' if tok == '[' else '}'
            out = [] if tok == '[' else {}
            while True:
                if self.toks[self.i:self.i + 1] == [close]:
                    self.i += 1
                    return out
                item = self.value()
                if tok == '{':
                    if self.next() != ':':
                        raise TableError('%s: a dict key without ":"' % self.path)
                    out[item] = self.value()
                else:
                    out.append(item)
                sep = self.next()
                if sep == close:
                    return out
                if sep != ',':
                    raise TableError('%s: expected "," or "%s", not %r' % (self.path, close, sep))
        if tok.startswith("'"):
            return re.sub(r'\\(.)', lambda m: ESCAPES.get(m.group(1), '\\' + m.group(1)), tok[1:-1])
        if tok in ('true', 'false'):
            return tok == 'true'
        if re.match(r'^-?(\d+|0[xX][0-9a-fA-F]+)$', tok):
            return int(tok, 0)
        raise TableError('%s: unexpected %r' % (self.path, tok))


def read_table(path):
    """The literal assigned in a table file."""
    with open(path, encoding='utf-8') as fh:
        r = Reader(tokens(fh.read(), path), path)
    name, eq = r.next(), r.next()
    if eq != '=' or not name.startswith('cpud_arch_'):
        raise TableError('%s: expected "cpud_arch_ARCH = {...}"' % path)
    value = r.value()
    if r.i != len(r.toks):
        raise TableError('%s: more after the literal: %r' % (path, r.toks[r.i]))
    return value


def read_tables(features_dir):
    return [read_table(os.path.join(features_dir, a, 'meson.build')) for a in ARCHES]


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
        arch, seen, last = t['arch'], [], 0
        for r in t['features']:
            for k in ROW_KEYS:
                if k not in r:
                    raise TableError('feature table %s: row %s lacks key "%s"' % (arch, r.get('name', '?'), k))
            n = r['name']
            if n != n.upper() or n in KEYWORDS:
                raise TableError('feature table %s: bad name "%s"' % (arch, n))
            if r['interest'] <= last:
                raise TableError('feature table %s: %s is out of interest order' % (arch, n))
            last = r['interest']
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
            if not r['test'].endswith('.c') or '/' in r['test']:
                raise TableError('feature table %s: %s: "test" must name a .c file beside the table '
                                 '(src/features/%s/), not "%s"' % (arch, n, arch, r['test'].split('\n')[0]))
            if not os.path.isfile(os.path.join(features_dir, arch, r['test'])):
                raise TableError('feature table %s: %s: its test program src/features/%s/%s does not exist'
                                 % (arch, n, arch, r['test']))
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


class Arch:
    """The host arch's table and what is derived from it."""

    def __init__(self, tables, arch, features_dir, flag_key='flags'):
        all_tokens = check(tables, features_dir)
        empty = {'arch': arch, 'min': [], 'native': [], 'floor': [], 'retired': [], 'features': []}
        self.table = next((t for t in tables if t['arch'] == arch), empty)
        self.arch = arch
        self.tables = tables
        self.rows = self.table['features']
        self.names = [r['name'] for r in self.rows]            # ascending interest
        self.row = {r['name']: r for r in self.rows}
        self.test_path = {r['name']: os.path.join(features_dir, arch, r['test']) for r in self.rows}
        self.closure = {}                                        # name -> implied, ascending
        for r in self.rows:
            got = set()
            for i in r['implies']:
                got |= set(self.closure[i]) | {i}
            self.closure[r['name']] = [n for n in self.names if n in got]
        self.implied_by = {n: [m for m in self.names if n in self.closure[m]] for n in self.names}
        self.adds, self.removes = removal_sets(self.table)
        self.token = {}                                          # spelling -> name
        for r in self.rows:
            for tok in [r['name']] + r.get('aliases', []):
                self.token[tok] = r['name']
        self.foreign = {tok: a for tok, a in all_tokens.items() if a != arch}
        for t in tables:
            if t['arch'] != arch:
                for tok in t['retired']:
                    self.foreign[tok] = t['arch']
        self.flag_key = flag_key
        self.own_flags = {r['name']: r.get(flag_key, r['flags']) for r in self.rows}
        self.ext_sep = '_' if arch == 'riscv64' else '+'

    def floor_flags(self):
        """The arch-reset flags, then -mno-X for every single-feature flag -mX
        of a feature above 'min' (an earlier -march cannot undo an explicit
        -mX): given after the global flags, they leave only what every CPU
        of the arch has (the runtime's own code; test/floor/)."""
        out = list(self.table['floor'])
        for n in self.names:
            if n in self.table['min']:
                continue
            for f in self.own_flags[n]:
                no = '-mno-' + f[2:]
                if f.startswith('-m') and '=' not in f and no not in out:
                    out.append(no)
        return out


def hex_of(v):
    return '0x%x' % v
