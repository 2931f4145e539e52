# SPDX-License-Identifier: MIT
"""What one build of cpudispatch knows: the host arch's feature table and
what is derived from it, plus what configure resolved (the baseline, the
dispatch targets and their flags).

One class, Model, owns the boundary between configure and the tools that
run after it: configure makes it from the tables (Model.from_tables),
resolves the options into it and writes it as cpudispatch_targets.txt
(Model.text); cpudispatch_gen.py and cpudispatch_check.py read it back
(Model.load). So those tools hold no feature data of their own. The rules
of feature lists and target names over a Model are src/build_side/cpudispatch_grammar.py.
"""
import json
import os

# The tables' reader (ast, their checks) only where the tables are read:
# the generator and the check, which load a written Model, need none.


def write_if_changed(path, text):
    """As Meson's configure_file() does: a file whose text is unchanged keeps
    its time, so nothing that includes it rebuilds."""
    try:
        with open(path, encoding='utf-8') as fh:
            if fh.read() == text:
                return
    except OSError:
        pass
    os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
    with open(path, 'w', encoding='utf-8') as fh:
        fh.write(text)


class Model:
    def __init__(self):
        """Empty: no feature (the caller may fill flags and ext_sep, as
        src/build_side/cpudispatch_probe.py does for its flag merge)."""
        self.arch = ''
        self.disabled = False    # disable-optimization
        self.namespace = ''      # the build's namespace (cpudispatch/namespace.h)
        self.baseline = []       # enabled baseline features, ascending interest
        self.names = []          # every feature, ascending interest
        self.closure = {}        # feature -> implied features, ascending
        self.targets = []        # enabled dispatch targets, ascending interest
        self.token = {}          # accepted spelling -> feature
        self.foreign = {}        # spelling of other arches only -> those arches ("aarch64 and arm")
        self.elsewhere = {}      # any spelling other arches use -> those arches (a list)
        self.retired = []        # names no longer offered: ignored with a note
        self.flags = {}          # feature -> its own flags
        self.target_flags = {}   # enabled target -> the flags configure merged
        self.ext_sep = '+'       # joins -march=BASE+ext spellings
        self.short_exts_first = False  # single-letter extensions first
        self.index = {}          # feature -> its position
        # Known only when made from the tables (configure, the tests).
        self.table = None
        self.tables = []
        self.row = {}
        self.test_path = {}      # feature -> its test program
        self.adds, self.removes = {}, {}
        # NumPy's names (the table's 'numpy'), for the generator's NumPy
        # format; each extra's program as a path.
        self.numpy = []

    @property
    def order(self):
        return self.names

    @classmethod
    def from_tables(cls, features_dir, arch, tables=None):
        """The tables of features_dir, checked (every arch's, so a broken row
        of any arch fails every build), and `arch`'s facts; an arch without a
        table has no feature."""
        from cpudispatch_tables import check, read_tables, removal_sets
        m = cls()
        m.tables = read_tables(features_dir) if tables is None else tables
        all_tokens = check(m.tables, features_dir)
        empty = {'arch': arch, 'march_ext_sep': '+', 'detect_source': 'detect_none.c', 'min': [], 'native': [],
                 'floor': [], 'retired': [], 'features': []}
        m.table = next((t for t in m.tables if t['arch'] == arch), empty)
        m.arch = arch
        rows = m.table['features']
        m.names = [r['name'] for r in rows]
        m.row = {r['name']: r for r in rows}
        # A row taken from another arch's table has its test program there.
        m.test_path = {r['name']: os.path.join(features_dir, m.table.get('row_dirs', {}).get(r['name'], arch),
                                               r['name'].lower() + '.c') for r in rows}
        for r in rows:
            got = set()
            for i in r['implies']:
                got |= set(m.closure[i]) | {i}
            m.closure[r['name']] = [n for n in m.names if n in got]
        m.adds, m.removes = removal_sets(m.table)
        for r in rows:
            for tok in [r['name']] + r.get('aliases', []):
                m.token[tok] = r['name']
        # Arches may share a spelling (the same feature's name): a name of
        # this arch is its own, whoever else uses it.
        for tok, used_by in all_tokens.items():
            if [a for a in used_by if a != arch]:
                m.elsewhere[tok] = [a for a in used_by if a != arch]
        for t in m.tables:
            if t['arch'] != arch:
                for tok in t['retired']:
                    if t['arch'] not in m.elsewhere.setdefault(tok, []):
                        m.elsewhere[tok].append(t['arch'])
        m.foreign = {tok: ' and '.join(a) for tok, a in m.elsewhere.items()
                     if tok not in m.token and tok not in m.table['retired']}
        m.retired = list(m.table['retired'])
        m.flags = {r['name']: r['flags'] for r in rows}
        m.ext_sep = m.table['march_ext_sep']
        m.short_exts_first = m.table.get('march_short_exts_first', False)
        m.index = {f: i for i, f in enumerate(m.names)}
        arch_dir = os.path.join(features_dir, m.table.get('arch', arch))
        m.numpy = [dict(e, extras={x: os.path.abspath(os.path.join(arch_dir, 'numpy', p))
                                   for x, p in e.get('extras', {}).items()})
                   for e in m.table.get('numpy', [])]
        return m

    def floor_flags(self):
        """The arch-reset flags, then -mno-X for every single-feature flag -mX
        of a feature above 'min' (an earlier -march cannot undo an explicit
        -mX): given after the global flags, they leave only what every CPU
        of the arch has (the runtime's own code; test/floor/)."""
        out = list(self.table['floor'])
        for n in self.names:
            if n in self.table['min']:
                continue
            for f in self.flags[n]:
                no = '-mno-' + f[2:]
                if f.startswith('-m') and '=' not in f and no not in out:
                    out.append(no)
        return out

    # --- cpudispatch_targets.txt ------------------------------------------------
    def text(self):
        t = ['# cpudispatch resolved configuration, read by src/build_side/cpudispatch_gen.py',
             'arch %s' % self.arch,
             'disable-optimization %d' % self.disabled,
             'namespace %s' % self.namespace,
             'baseline %s' % ' '.join(self.baseline)]
        t += ['feature %s %s' % (n, ' '.join(self.closure[n])) for n in self.names]
        t += ['target %s' % d for d in self.targets]
        # For a group target (AVX2+FMA3, compiled as one), cpudispatch_gen
        # merges its flags from each feature's own, as configure merges a
        # target's.
        t += ['ext-sep %s' % self.ext_sep]
        t += ['short-exts-first 1'] if self.short_exts_first else []
        t += ['flags %s %s' % (n, ' '.join(self.flags[n])) for n in self.names]
        t += ['target-flags %s %s' % (d, ' '.join(self.target_flags[d])) for d in self.targets]
        t += ['token %s %s' % kv for kv in self.token.items()]
        # Spellings of other arches: 'foreign' (not this arch's) and 'shared'
        # (this arch's too), each with the other arches that use it.
        t += ['%s %s %s' % ('foreign' if tok in self.foreign else 'shared', tok, ' '.join(a))
              for tok, a in self.elsewhere.items()]
        t += ['retired %s' % n for n in self.retired]
        # One NumPy name per line, as JSON (a regex may hold anything).
        t += ['numpy %s' % json.dumps(e, sort_keys=True) for e in self.numpy]
        return '\n'.join(t) + '\n'

    @classmethod
    def load(cls, path):
        """From cpudispatch_targets.txt (OSError if unreadable)."""
        m = cls()
        with open(path, encoding='utf-8') as fh:
            for line in fh:
                words = line.split()
                if not words or words[0].startswith('#'):
                    continue
                key, rest = words[0], words[1:]
                if key == 'arch':
                    m.arch = rest[0]
                elif key == 'disable-optimization':
                    m.disabled = rest[0] == '1'
                elif key == 'namespace':
                    m.namespace = rest[0] if rest else ''
                elif key == 'baseline':
                    m.baseline = rest
                elif key == 'feature':
                    m.names.append(rest[0])
                    m.closure[rest[0]] = rest[1:]
                elif key == 'target':
                    m.targets.append(rest[0])
                elif key == 'token':
                    m.token[rest[0]] = rest[1]
                elif key in ('foreign', 'shared'):
                    m.elsewhere[rest[0]] = rest[1:]
                    if key == 'foreign':
                        m.foreign[rest[0]] = ' and '.join(rest[1:])
                elif key == 'retired':
                    m.retired.append(rest[0])
                elif key == 'numpy':
                    m.numpy.append(json.loads(line.split(None, 1)[1]))
                elif key == 'flags':
                    m.flags[rest[0]] = rest[1:]
                elif key == 'target-flags':
                    m.target_flags[rest[0]] = rest[1:]
                elif key == 'ext-sep':
                    m.ext_sep = rest[0]
                elif key == 'short-exts-first':
                    m.short_exts_first = rest[0] == '1'
        m.index = {f: i for i, f in enumerate(m.names)}
        return m

    # --- features and flags ---------------------------------------------------------
    def with_implied(self, features):
        """`features` and everything they imply, in table order."""
        got = set(features)
        for f in features:
            got.update(self.closure[f])
        return [f for f in self.names if f in got]

    def merged_flags(self, features):
        """The compiler flags of a set of features: the rows' flags in table
        order, -march=BASE+ext / -mcpu=BASE+ext spellings merged into one
        flag with the base of the highest feature and every extension
        (single-letter extensions first where the table says so); one
        -mfpu=, the highest feature's (32-bit arm: each row names the whole
        FPU it needs). Configure's merge and a
        group target's alike, so a group's flags are a target's."""
        plain, exts, bases = [], {}, {}
        for f in self.names:
            if f not in features:
                continue
            for flag in self.flags.get(f, []):
                key = next((p for p in ('-march=', '-mcpu=', '-mfpu=') if flag.startswith(p)), '')
                if not key:
                    if flag not in plain:
                        plain.append(flag)
                    continue
                parts = flag.replace(key, '').split(self.ext_sep)
                have = exts.setdefault(key, [])
                have += [e for e in parts[1:] if e not in have and e != parts[0]]
                bases[key] = parts[0]
        out = []
        for key, base in bases.items():
            e = exts[key]
            if self.short_exts_first:
                e = [x for x in e if len(x) == 1] + [x for x in e if len(x) != 1]
            out.append(self.ext_sep.join([key + base] + e))
        return out + plain
