#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Resolve the targets of a loop's dispatch sources, write each source's
dispatch header, and print what each target's library is compiled with: one
run for all the sources of the loop.

Run by the parent project at configure time, through run_command() (the
loop of docs/quickstart.md, cpud['generate']):

  cpudispatch_gen.py --config cpudispatch_targets.txt [--register DIR]
                     [--out-dir DIR] [--cc=ARG ...] [--cxx=ARG ...]
                     [--caller-project REL NAME]
                     SOURCE "WANTED" [SOURCE "WANTED" ...]

Each SOURCE is a dispatch source's path as the loop names it (relative to
the calling meson.build's folder); its file name up to the first dot, NAME,
is the source's name (sum for src/sum.dispatch.c). WANTED is its target
list, e.g. "baseline SSE42 AVX512F AVX2+FMA3": the grammar of
src/build_side/cpudispatch_grammar.py (names of other arches are ignored, so one list
serves every arch).

Writes NAME.dispatch.h, the C/C++ header that declares and calls the
targets, into --out-dir, by default the calling meson.build's build folder
($MESON_BUILD_ROOT/$MESON_SUBDIR, which run_command() sets); a file whose
text is unchanged is left alone, so nothing rebuilds for nothing.

Prints one word per target, source after source in the order given, each
source's in the link order (baseline first, then ascending interest; see
docs/quickstart.md):

  LIBRARY:ARG|ARG|...:SOURCE   e.g. sum_AVX2:-mavx2|-mfma|...|-DCPUD_TARGET=AVX2:src/sum.dispatch.c

LIBRARY is NAME_TARGET; the ARGs are the target's flags (the baseline's
and its features', merged) and its CPUD_TARGET defines, the same for a
single feature and a group (AVX2__FMA3); SOURCE is the source as given.
Errors: one line on stderr, exit 1, and no header written.

Kernel names carry the build's namespace: the header maps every name the
source defines with CPUD_FN(NAME) (read from the source, and the files it
includes with quotes; where a macro of the file makes them, CPUD_FN(add_##T),
as the preprocessor of --cc/--cxx expands it: one preprocessor run for all
such files of the loop) and each compiled target, NAME_AVX2, to
NAMESPACE__NAME_AVX2, so that callers and the source keep writing NAME_AVX2
and two libraries' kernels of one name never meet in a link. The namespace
is the build's; a project that is a subproject of the build (a library
built inside a program's build) gets its own beside it.

A reconfigure redoes only the sources whose inputs changed: each source's
result is kept in the out folder (CACHE_NAME) with what it was made from
(its list, the files read and their times, the configuration, this
generator's code), and reused while all of them are the same.

  cpudispatch_gen.py --format numpy [--prefix NPY_] [--keep-sort] ...
                     HEADER "WANTED" [HEADER "WANTED" ...]
      NumPy's format (src/build_side/cpudispatch_numpy.py): HEADER is the
      name NumPy's callers include (argfunc.dispatch.h), WANTED NumPy's
      list for it ("baseline" for its baseline: argument); words as above,
      SOURCE being HEADER. With --numpy-summary and no pairs: the NumPy
      names of the baseline and of dispatch, and the baseline's arguments
      (docs/porting-from-numpy.md).

  cpudispatch_gen.py --moved ...   cpudispatch 0.2's loop (cpud['gen'], one
                                   run per source): its migration, exit 1
"""
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # nothing written next to the scripts
import cpudispatch_grammar as grammar  # noqa: E402  (src/build_side/)
import cpudispatch_project as project  # noqa: E402
from cpudispatch_model import Model, write_if_changed  # noqa: E402

# What separates a word's library, arguments and source, and the arguments.
LIB_SEP, ARG_SEP = ':', '|'
CACHE_NAME = '.cpudispatch-gen-cache.json'
# The files whose code makes a header: a change to any of them redoes every
# source (the cache's key holds their times).
TOOL_FILES = ('cpudispatch_gen.py', 'cpudispatch_grammar.py', 'cpudispatch_model.py', 'cpudispatch_project.py',
              'cpudispatch_numpy.py')
MOVED = ('cpudispatch 0.3 runs the generator once for all of a loop\'s dispatch sources, and cpud[\'gen\'] '
         '(one run per source, cpudispatch 0.2\'s loop) is gone. Replace the loop with the block of '
         'docs/quickstart.md: `kernel_gen = cpud[\'generate\']`, then `foreach src, want : {...}` with '
         '`kernel_gen += [src, want]` alone inside, then one `r = run_command(kernel_gen, check: false)` and '
         '`foreach t : r.stdout().split()`, whose static_library() takes its source as `t.split(\':\')[2]` '
         '(NEWS.md, 0.3.0)')
# cpudispatch 0.1's loop: cpudispatch_gen with --list, --header or --flags
# per source and target, and the cpudispatch_targets dictionary.
MOVED_01 = ('cpudispatch 0.2 replaced the loop of cpudispatch_gen --list/--header/--flags and '
            'cpudispatch_targets with the block of docs/quickstart.md: `cpud = '
            'subproject(\'cpudispatch\').get_variable(\'cpudispatch\')`, `kernel_gen = cpud[\'generate\']`, '
            'then `foreach src, want : {...}` with `kernel_gen += [src, want]` alone inside, one '
            '`r = run_command(kernel_gen, check: false)`, and `foreach t : r.stdout().split()` making '
            '`static_library(t.split(\':\')[0], t.split(\':\')[2], ...)` (NEWS.md, 0.2.0 and 0.3.0)')


def shown(msg):
    """One printable ASCII line: every other byte as \\xHH (a list's text may
    hold anything), as the run-time parser shows a token."""
    return ''.join(c if ' ' <= c <= '~' else ''.join('\\x%02x' % b for b in c.encode('utf-8', 'surrogateescape'))
                   for c in msg)


def fail(msg):
    sys.stderr.write('cpudispatch: ' + shown(msg) + '\n')
    sys.exit(1)


FN_NAME = re.compile(r'\bCPUD_FN\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)')
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
# A #define (with its continuation lines) that uses CPUD_FN: the names it
# makes (CPUD_FN(add_##T)) are known only once the macro is expanded.
MACRO_USES_FN = re.compile(r'^[ \t]*#[ \t]*define\b(?:[^\n]*\\\n)*[^\n]*\bCPUD_FN\b', re.M)
DEFINED = re.compile(r'^[ \t]*#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]*)', re.M)
MARK = re.compile(r'\bcpud_fn_marker_\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)')
# Between two files' texts in one preprocessor run.
FILE_MARK = re.compile(r'\bcpud_gen_file_\s+(\d+)\s+cpud_gen_file_end_\b')


def stat_of(path):
    """[mtime_ns, size] of a file, None if there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_mtime_ns, st.st_size]


def scan(path, looked, seen):
    """The names a dispatch source defines with CPUD_FN(NAME), in the source
    and in the files it includes with quotes (those that exist beside it),
    in the order met, as parts: ['names', NAME...], or ['expand', TEXT] for
    a file whose own macros make names (expanded later: every such file of
    the loop in one preprocessor run). looked: path -> stat, every file
    opened or looked for."""
    real = os.path.realpath(path)
    if real in seen or len(seen) > 200:
        return []
    seen.add(real)
    looked[path] = stat_of(path)
    try:
        with open(path, encoding='utf-8', errors='replace') as fh:
            text = fh.read()
    except OSError:
        return []
    parts = [['names'] + FN_NAME.findall(text)]
    if MACRO_USES_FN.search(text):
        parts.append(['expand', text])
    for inc in INCLUDE.findall(text):
        sub = os.path.join(os.path.dirname(path), inc)
        if os.path.isfile(sub):
            parts += scan(sub, looked, seen)
        else:
            looked[sub] = None
    return parts


def strip_includes(text):
    return re.sub(r'^[ \t]*#[ \t]*include\b.*$', '', text, flags=re.M)


def preprocess(cpp, texts):
    """The names CPUD_FN gets in each text once its own macros are expanded:
    the texts without their #include lines, through the compiler's
    preprocessor (cpp: its command) with CPUD_FN as a marker; all of them in
    one run, each file's macros undefined after it. A run that fails (one
    file the preprocessor refuses) is redone file by file, so one bad file
    costs only its own names."""
    import subprocess

    def run(body):
        try:
            p = subprocess.run(cpp + ['-E', '-P', '-w', '-DCPUD_FN(N)=cpud_fn_marker_(N)', '-'], input=body,
                               capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return p.stdout if p.returncode == 0 else None

    if len(texts) > 1:
        body = ''
        for i, text in enumerate(texts):
            body += 'cpud_gen_file_ %d cpud_gen_file_end_\n%s\n' % (i, strip_includes(text))
            body += ''.join('#undef %s\n' % m for m in dict.fromkeys(DEFINED.findall(text)))
        out = run(body)
        if out is not None:
            pieces = FILE_MARK.split(out)
            got = {int(pieces[k]): MARK.findall(pieces[k + 1]) for k in range(1, len(pieces) - 1, 2)}
            if sorted(got) == list(range(len(texts))):
                return [got[i] for i in range(len(texts))]
    outs = [run(strip_includes(t)) for t in texts]
    return [MARK.findall(o) if o is not None else [] for o in outs]


def kernel_namespace(cfg, caller=None):
    """The namespace of this loop's kernels: the build's, and for a project
    that is not the build's top level (a library built as a subproject of a
    program that uses cpudispatch too), the build's and that project's
    name: its sources never share names with the program's. caller: (the
    project's folder relative to the top, its name) as the front end
    knows it (CMake's PROJECT_NAME); else Meson's run_command variables and
    the meson.build files say."""
    ns = cfg.namespace or 'cpud'
    root, subdir = os.environ.get('MESON_SOURCE_ROOT'), os.environ.get('MESON_SUBDIR', '')
    if caller is not None:
        rel, name = caller
    elif not root:
        return ns
    else:
        rel, name = project.caller_project(root, subdir)
    if not rel:
        return ns
    return '%s_%s' % (ns, project.identifier(name) or project.namespace_id(rel))


def header(cfg, name, wanted, targets, with_baseline, notes, kns, fns):
    """The text of NAME.dispatch.h."""
    ident = re.sub(r'[^A-Za-z0-9_]', '_', name)
    guard = 'CPUD_DISPATCH_%s_H_' % ident.upper()
    p = 'CPUD_%s__' % ident
    compiled = targets + (['baseline'] if with_baseline else [])
    lines = [
        '/*',
        ' * %s.dispatch.h: generated by cpudispatch for the dispatch source "%s"; do not edit.' % (name, name),
        ' * Targets asked for: "%s"' % wanted,
        ' * Compiled on %s, highest interest first: %s' % (cfg.arch, ' '.join(compiled) or '(none)'),
    ]
    lines += [' *   %s' % n for n in notes]
    lines += [
        ' * Each target was compiled into NAME_<TARGET> (CPUD_FN(NAME) in the source), whose',
        ' * symbol carries the namespace %s (cpudispatch/namespace.h).' % kns,
        ' */',
        '#ifndef %s' % guard,
        '#define %s' % guard,
        '#include "cpudispatch/dispatch.h"',
        '',
        '/* The kernels\' symbols: NAME_TARGET behind this library\'s namespace, for',
        ' * every name the source defines with CPUD_FN(NAME) (%s) and every' % (' '.join(fns) or 'none found'),
        ' * compiled target. Two libraries\' sources of one name never meet in a link. */',
    ]
    for fn in fns:
        for t in (['baseline'] if with_baseline else []) + targets:
            lines.append('#define %s_%s %s__%s_%s' % (fn, t, kns, fn, t))
    lines += [
        '',
        '/* Whose lists CPUD_DISPATCH_DEFINE(..., NAME, ...) and C++\'s CPUD_DISPATCH',
        ' * use for each NAME of this source, in a file that includes several dispatch',
        ' * headers in any order (cpudispatch/dispatch.h, CPUD__OF). */',
    ]
    for fn in fns:
        lines.append('#define CPUD__SOURCE_OF_%s %s' % (fn, p))
        lines.append('#define %s_is_no_CPUD_FN_name_of_an_included_dispatch_header 1' % fn)
    lines += [
        '',
        '/* CB(CHECK, TARGET, ...) for each compiled target, highest interest first.',
        ' * CHECK tests, with CHK(FEATURE), every feature the target needs beyond the',
        ' * baseline, so CHECK alone tells whether the target may run. */',
    ]
    body = []
    for t in targets:
        need = sorted(grammar.needs(cfg, t), key=cfg.index.get, reverse=True)
        check = ' && '.join('CHK(%s)' % f for f in need)
        body.append('  CB((%s), %s, __VA_ARGS__)' % (check, t))
    lines.append('#define %sDISPATCH_CALL(CHK, CB, ...) \\' % p)
    lines.append(' \\\n'.join(body + ['  /* end */']))
    lines.append('/* CB(...) once if the source was also compiled as baseline code. */')
    if with_baseline:
        lines.append('#define %sDISPATCH_BASELINE_CALL(CB, ...) CB(__VA_ARGS__)' % p)
        lines.append('#define %sDISPATCH_FALLBACK(WITH_BASELINE, WITHOUT) WITH_BASELINE' % p)
    else:
        lines.append('#define %sDISPATCH_BASELINE_CALL(CB, ...)' % p)
        lines.append('#define %sDISPATCH_FALLBACK(WITH_BASELINE, WITHOUT) WITHOUT' % p)
    if targets:
        lines.append('/* Per target, for the C++ dispatcher\'s key set: its key, the feature it')
        lines.append(' * ranks by (a group\'s highest member), and X(MEMBER) for each member. */')
    for t in targets:
        lines.append('#ifndef CPUD__KEY_%s' % t)
        lines.append('#define CPUD__KEY_%s %s' % (t, grammar.members(cfg, t)[0]))
        lines.append('#define CPUD__MEMBERS_%s(X) %s' % (t, ' '.join('X(%s)' % m for m in grammar.members(cfg, t))))
        lines.append('#endif')
    # Records of what was compiled, which the runtime reads at start-up for
    # the environment variables' warnings (cpudispatch/compiled.h).
    words = 2 * (len(cfg.names) // 64 + 1)  # CPUD__NOTE_WORDS
    lines.append('/* What this source was compiled for, read at run time (cpudispatch/compiled.h):')
    lines.append(' * the source itself, then each target\'s members. C\'s: an assembly')
    lines.append(' * source (.S) has its C callers write them. */')
    lines.append('#if !defined(__ASSEMBLER__)')
    lines.append('#include "cpudispatch/compiled.h"')
    lines.append('CPUD__COMPILED_RECORD(cpud__compiled_%s) = CPUD__COMPILED_NOTE(%s);' % (ident, ', '.join(['0'] * words)))
    for t in targets:
        ws = [' | '.join('CPUD__COMPILED_W(%d, %s)' % (i, m) for m in grammar.members(cfg, t)) for i in range(words)]
        lines.append('CPUD__COMPILED_RECORD(cpud__compiled_%s_%s) = CPUD__COMPILED_NOTE(%s);' % (ident, t, ', '.join(ws)))
    lines.append('#endif')
    lines.append('#define %sTARGET_COUNT %d' % (p, len(compiled)))
    lines.append('#define %sTARGET_NAMES "%s"' % (p, ' '.join(compiled)))
    # Nothing compiled (only other arches' names, no baseline): a call links
    # against a name that says why it is missing.
    lines.append('/* The lowest compiled target (CPUD_DISPATCH_CALL without a baseline build). */')
    lines.append('#define %sLOWEST_TARGET %s' % (p, targets[-1] if targets else
                                                 ('baseline' if with_baseline else 'nothing_compiled_on_' + cfg.arch)))
    lines += [
        '#endif /* %s */' % guard,
        '',
        '/* The unprefixed macros of cpudispatch/dispatch.h follow the most recently',
        ' * included dispatch header. */',
    ]
    for m in ('DISPATCH_CALL', 'DISPATCH_BASELINE_CALL', 'DISPATCH_FALLBACK', 'TARGET_COUNT', 'TARGET_NAMES',
              'LOWEST_TARGET'):
        lines.append('#undef CPUD__%s' % m)
        lines.append('#define CPUD__%s %s%s' % (m, p, m))
    # CPUD_FN and CPUD_TARGET_NS (dispatch.h) paste it in.
    lines.append('#undef CPUD__KERNEL_NS')
    lines.append('#define CPUD__KERNEL_NS %s' % kns)
    return '\n'.join(lines) + '\n'


def register(directory, name, listed):
    """cpudispatch-run --each-target runs a test once per target some
    source was compiled for (not once per feature of the build). The
    configure starts with an empty DIR, so a record already there is
    another project's source of the same name: keep both."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name + '.txt')
    have = open(path).read().split() if os.path.exists(path) else []
    merged = have + [t for t in listed if t not in have]
    if merged != have:
        with open(path, 'w') as fh:
            fh.write(' '.join(merged) + '\n')


def source_name(source):
    """NAME of a dispatch source: its file name up to the first dot, which
    must be a C identifier; and its path must pass through the words."""
    name = os.path.basename(source).split('.')[0]
    if not re.match(r'^[A-Za-z_][A-Za-z0-9_]*$', name):
        fail('dispatch source "%s": its name "%s" (the file name up to the first dot) must be a C identifier'
             % (source, name))
    if any(c.isspace() or c == LIB_SEP for c in source):
        fail('dispatch source "%s": its path holds whitespace or "%s", which the loop\'s words cannot carry; '
             'name it by a path relative to this meson.build without them' % (source, LIB_SEP))
    return name


def one_name_each(pairs, what):
    """Fails where two of the pairs' sources (or headers) have one NAME."""
    names = {}
    for source, _ in pairs:
        name = source_name(source)
        if name in names:
            fail('%s "%s" and "%s" have one name, "%s" (the file name up to the first dot): their headers and '
                 'libraries would be one; rename one' % (what, names[name], source, name))
        names[name] = source


def words_of(cfg, name, targets, with_baseline, source):
    # The link order: the linker keeps the first copy of an inline or
    # template function it meets, so baseline first (baseline code never
    # gets a target's copy), then ascending interest (a lower target's copy
    # serves a higher one, never the reverse).
    listed = (['baseline'] if with_baseline else []) + list(reversed(targets))
    words = []
    for t in listed:
        args = grammar.target_args(cfg, t)
        bad = [x for x in args if not x or any(c.isspace() or c in LIB_SEP + ARG_SEP for c in x)]
        if bad:
            fail('dispatch source "%s": flag "%s" of %s holds whitespace, "%s" or "%s"; it cannot pass through '
                 'the list the loop splits' % (name, bad[0], t, LIB_SEP, ARG_SEP))
        words.append('%s_%s%s%s%s%s' % (name, t, LIB_SEP, ARG_SEP.join(args), LIB_SEP, source))
    return listed, words


class Loop:
    """One run: the sources of a loop, resolved, their headers written."""

    def __init__(self, config, out_dir, cc, cxx, register_dir):
        self.config, self.out_dir, self.cc, self.cxx = config, out_dir, cc, cxx
        self.register_dir = register_dir
        self.caller = None  # (REL, NAME): --caller-project
        self._cfg = None
        self.cache_path = os.path.join(out_dir, CACHE_NAME)
        try:
            with open(self.cache_path, encoding='utf-8') as fh:
                self.cache = json.load(fh)
        except (OSError, ValueError):
            self.cache = {}
        if not isinstance(self.cache, dict) or self.cache.get('format') != 1:
            self.cache = {'format': 1, 'sources': {}}
        here = os.path.dirname(os.path.abspath(__file__))
        self.tool = [stat_of(os.path.join(here, f)) for f in TOOL_FILES]
        self.config_stat = stat_of(config)
        self.redone = []

    @property
    def cfg(self):
        if self._cfg is None:
            try:
                self._cfg = Model.load(self.config)
            except OSError as e:
                fail('cannot read the configuration %s (%s); is cpudispatch configured?' % (self.config, e.strerror))
        return self._cfg

    def cpp_for(self, source):
        cxx = os.path.splitext(source)[1] in ('.cpp', '.cc', '.cxx', '.C', '.c++')
        if cxx and self.cxx:
            return self.cxx + ['-x', 'c++']
        return (self.cc + ['-x', 'c++' if cxx else 'c']) if self.cc else None

    def cached(self, name, key):
        """The kept result of a source whose inputs are all unchanged, or None."""
        e = self.cache['sources'].get(name)
        if not e or e.get('key') != key:
            return None
        if any(stat_of(p) != s for p, s in e['files']):
            return None
        if stat_of(os.path.join(self.out_dir, name + '.dispatch.h')) != e['header']:
            return None
        return e

    def run(self, pairs):
        if self.config_stat is None:
            self.cfg  # the error naming the configuration
        one_name_each(pairs, 'dispatch sources')
        kns = kernel_namespace(self.cfg, self.caller) if pairs else ''
        results, todo = [], []
        for source, wanted in pairs:
            name = source_name(source)
            cpp = self.cpp_for(source)
            key = [source, wanted, kns, cpp, self.config_stat, self.tool]
            hit = self.cached(name, key)
            if hit:
                results.append(hit)
                continue
            # Resolve first, every source's, so that an error writes nothing.
            notes, warnings = [], []
            try:
                targets, with_baseline, notes = grammar.resolve_source(self.cfg, name, wanted, warnings.append)
            except grammar.ListError as e:
                fail(str(e))
            listed, words = words_of(self.cfg, name, targets, with_baseline, source)
            looked = {}
            e = {'key': key, 'name': name, 'words': words, 'listed': listed, 'warnings': warnings,
                 'parts': scan(source, looked, set()), 'looked': looked, 'cpp': cpp,
                 'resolved': (wanted, targets, with_baseline, notes)}
            results.append(e)
            todo.append(e)
        # Kernel names a file's own macros make: one preprocessor run per
        # compiler for every such file of the loop.
        by_cpp = {}
        for e in todo:
            for part in e['parts']:
                if part[0] == 'expand':
                    by_cpp.setdefault(tuple(e['cpp'] or ()), []).append(part)
        for cpp, parts in by_cpp.items():
            found = preprocess(list(cpp), [p[1] for p in parts]) if cpp else [[] for _ in parts]
            for part, names_found in zip(parts, found):
                part[:] = ['names'] + names_found
        for e in todo:
            fns = [n for part in e['parts'] for n in part[1:]]
            e['fns'] = list(dict.fromkeys(fns))
            wanted, targets, with_baseline, notes = e.pop('resolved')
            path = os.path.join(self.out_dir, e['name'] + '.dispatch.h')
            write_if_changed(path, header(self.cfg, e['name'], wanted, targets, with_baseline, notes, kns, e['fns']))
            e['header'] = stat_of(path)
            e['files'] = sorted(e.pop('looked').items())
            del e['parts'], e['cpp']
            self.cache['sources'][e['name']] = e
            self.redone.append(e['name'])
        for e in results:
            for w in e['warnings']:
                sys.stderr.write('cpudispatch: %s\n' % w)
            if self.register_dir:
                register(self.register_dir, e['name'], e['listed'])
        if self.redone:
            self.cache['last_redone'] = self.redone
            self.save()
        elif self.cache.get('last_redone'):
            self.cache['last_redone'] = []
            self.save()
        return [w for e in results for w in e['words']]

    def run_numpy(self, pairs, prefix, keep_sort, summary):
        """The NumPy format (src/build_side/cpudispatch_numpy.py): each
        pair is a header's name (argfunc.dispatch.h) and NumPy's list for it;
        the words as run()'s, SOURCE being the header's name. Headers are
        written only when every list resolved."""
        import cpudispatch_numpy as numpy_format
        try:
            nn = numpy_format.NumpyNames(self.cfg)
        except numpy_format.NumpyError as e:
            fail(str(e))
        probes = self.cache.setdefault('numpy_extras', {})
        before = dict(probes)
        extra_ok = numpy_format.ExtraProbe(nn, self.cc, probes, stat_of)
        if summary:
            return numpy_format.summary(nn, prefix, extra_ok)
        one_name_each(pairs, 'NumPy headers')
        texts, words = [], []
        for config_name, wanted in pairs:
            name = source_name(config_name)
            notes = []
            try:
                with_baseline, targets = numpy_format.resolve(nn, config_name, wanted, keep_sort, notes)
            except grammar.ListError as e:
                fail(str(e))
            texts.append((config_name, numpy_format.header(nn, prefix, config_name, wanted, with_baseline, targets,
                                                           notes)))
            listed = ([[]] if with_baseline else []) + list(reversed(targets))
            for t in listed:
                args = numpy_format.target_args(nn, prefix, t, extra_ok)
                bad = [x for x in args if not x or any(c.isspace() or c in LIB_SEP + ARG_SEP for c in x)]
                if bad:
                    fail('NumPy header "%s": flag "%s" holds whitespace, "%s" or "%s"; it cannot pass through the '
                         'list the loop splits' % (config_name, bad[0], LIB_SEP, ARG_SEP))
                lib = '%s_%s' % (name, nn.target_name(t) if t else 'baseline')
                words.append('%s%s%s%s%s' % (lib, LIB_SEP, ARG_SEP.join(args), LIB_SEP, config_name))
        for config_name, text in texts:
            write_if_changed(os.path.join(self.out_dir, config_name), text)
        if probes != before:
            self.save()
        return words

    def save(self):
        tmp = '%s.%d.tmp' % (self.cache_path, os.getpid())
        try:
            with open(tmp, 'w', encoding='utf-8') as fh:
                json.dump(self.cache, fh)
            os.replace(tmp, self.cache_path)
        except OSError:
            pass  # a cache that cannot be written only costs the next run


def parse(argv):
    o = {'config': None, 'register': None, 'out_dir': None, 'cc': [], 'cxx': [], 'moved': False, 'pos': [],
         'caller': None,
         'format': 'cpudispatch', 'prefix': 'NPY_', 'keep_sort': False, 'numpy_summary': False}
    i = 0
    usage = ('usage: cpudispatch_gen.py --config FILE [--register DIR] [--out-dir DIR] [--cc=ARG ...] '
             '[--cxx=ARG ...] [--format cpudispatch|numpy [--prefix P] [--keep-sort] [--numpy-summary]] '
             'SOURCE WANTED [SOURCE WANTED ...]')
    while i < len(argv):
        a = argv[i]
        if a in ('--config', '--register', '--out-dir', '--format', '--prefix'):
            if i + 1 >= len(argv):
                fail('%s needs a value; %s' % (a, usage))
            o[a[2:].replace('-', '_')] = argv[i + 1]
            i += 2
        elif a == '--caller-project':
            if i + 2 >= len(argv):
                fail('--caller-project needs REL and NAME; %s' % usage)
            o['caller'] = (argv[i + 1], argv[i + 2])
            i += 3
        elif a.startswith('--cc=') or a.startswith('--cxx='):
            k, _, v = a[2:].partition('=')
            o[k].append(v)
            i += 1
        elif a in ('--keep-sort', '--numpy-summary'):
            o[a[2:].replace('-', '_')] = True
            i += 1
        elif a == '--moved':
            o['moved'] = True
            i += 1
        elif a == '--':
            o['pos'] += argv[i + 1:]
            break
        elif a in ('--list', '--header', '--flags'):
            fail(MOVED_01)
        elif a.startswith('--'):
            fail('unknown argument "%s"; %s' % (a, usage))
        else:
            o['pos'].append(a)
            i += 1
    if o['moved']:
        fail(MOVED)
    if o['config'] is None:
        fail(usage)
    if o['format'] not in ('cpudispatch', 'numpy'):
        fail('--format "%s": the formats are cpudispatch (the default) and numpy' % o['format'])
    if o['format'] != 'numpy' and (o['keep_sort'] or o['numpy_summary']):
        fail('--keep-sort and --numpy-summary are options of --format numpy')
    if not re.match(r'^[A-Za-z_][A-Za-z0-9_]*$', o['prefix']):
        fail('--prefix "%s": a prefix of C macro names (NPY_) must be a C identifier' % o['prefix'])
    if len(o['pos']) % 2:
        fail('dispatch source "%s" has no target list: the arguments are pairs, SOURCE WANTED (%s)'
             % (o['pos'][-1], usage))
    return o


def main():
    o = parse(sys.argv[1:])
    pairs = list(zip(o['pos'][0::2], o['pos'][1::2]))
    out_dir = o['out_dir']
    if out_dir is None:
        if 'MESON_BUILD_ROOT' not in os.environ:
            fail('dispatch source "%s": no --out-dir, and not run by Meson\'s run_command() (MESON_BUILD_ROOT '
                 'is unset)' % (pairs[0][0] if pairs else ''))
        out_dir = os.path.join(os.environ['MESON_BUILD_ROOT'], os.environ.get('MESON_SUBDIR', ''))
    loop = Loop(o['config'], out_dir, o['cc'], o['cxx'], o['register'])
    loop.caller = o['caller']
    if o['format'] == 'numpy':
        words = loop.run_numpy(pairs, o['prefix'], o['keep_sort'], o['numpy_summary'])
    else:
        words = loop.run(pairs)
    if words:
        print('\n'.join(words))


if __name__ == '__main__':
    main()
