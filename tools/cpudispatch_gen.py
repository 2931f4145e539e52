#!/usr/bin/env python3
"""Resolve the targets of one dispatch source, write its dispatch header,
and print what each target's library is compiled with.

Run by the parent project at configure time, through run_command() (the
loop of docs/quickstart.md):

  cpudispatch_gen.py --config cpudispatch_targets.txt [--register DIR]
                     [--out-dir DIR] SOURCE "WANTED"

SOURCE is the dispatch source's path as the loop names it (relative to the
calling meson.build's folder); its file name up to the first dot, NAME, is
the source's name (sum for src/sum.dispatch.c). WANTED is its target list,
e.g. "baseline SSE42 AVX512F AVX2+FMA3": the grammar of
tools/cpudispatch_grammar.py (names of other arches are ignored, so one list
serves every arch).

Writes NAME.dispatch.h, the C/C++ header that declares and calls the
targets, into --out-dir, by default the calling meson.build's build folder
($MESON_BUILD_ROOT/$MESON_SUBDIR, which run_command() sets); the file is
left alone when its text is unchanged, so nothing rebuilds for nothing.

Prints one word per target in the link order (baseline first, then
ascending interest; see docs/quickstart.md):

  LIBRARY:ARG|ARG|...     e.g. sum_AVX2:-mavx2|-mfma|...|-DCPUD_TARGET=AVX2

LIBRARY is NAME_TARGET; the ARGs are the target's flags (the baseline's
and its features', merged) and its CPUD_TARGET defines, the same for a
single feature and a group (AVX2__FMA3). Errors: one line on stderr, exit 1.

Kernel names carry the build's namespace: the header maps every name the
source defines with CPUD_FN(NAME) (read from the source, and the files it
includes with quotes; where a macro of the file makes them, CPUD_FN(add_##T),
as the preprocessor of --cc/--cxx expands it) and each compiled target,
NAME_AVX2, to
NAMESPACE__NAME_AVX2, so that callers and the source keep writing NAME_AVX2
and two libraries' kernels of one name never meet in a link. The namespace
is the build's; a project that is a subproject of the build (a library
built inside a program's build) gets its own beside it.
"""
import argparse
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # nothing written next to the scripts
import cpudispatch_grammar as grammar  # noqa: E402  (tools/)
import cpudispatch_project as project  # noqa: E402
from cpudispatch_model import Model, write_if_changed  # noqa: E402

# What separates a word's library from its arguments, and the arguments.
LIB_SEP, ARG_SEP = ':', '|'


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
MARK = re.compile(r'\bcpud_fn_marker_\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)')


def expanded_names(text, cpp):
    """The names CPUD_FN gets once the source's own macros are expanded: the
    source without its #include lines, run through the compiler's
    preprocessor (cpp: its command, or None) with CPUD_FN as a marker."""
    if not cpp:
        return []
    body = re.sub(r'^[ \t]*#[ \t]*include\b.*$', '', text, flags=re.M)
    try:
        p = subprocess.run(cpp + ['-E', '-P', '-w', '-DCPUD_FN(N)=cpud_fn_marker_(N)', '-'], input=body,
                           capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return MARK.findall(p.stdout)


def kernel_names(path, cpp=None, seen=None):
    """The NAMEs a dispatch source defines with CPUD_FN(NAME), in the source
    and in the files it includes with quotes (those that exist beside it),
    in the order met; where a macro of the file makes them, as the
    preprocessor expands it."""
    seen = set() if seen is None else seen
    real = os.path.realpath(path)
    if real in seen or len(seen) > 200:
        return []
    seen.add(real)
    try:
        with open(path, encoding='utf-8', errors='replace') as fh:
            text = fh.read()
    except OSError:
        return []
    names = FN_NAME.findall(text)
    if MACRO_USES_FN.search(text):
        names += expanded_names(text, cpp)
    for inc in INCLUDE.findall(text):
        sub = os.path.join(os.path.dirname(path), inc)
        if os.path.isfile(sub):
            names += kernel_names(sub, cpp, seen)
    return list(dict.fromkeys(names))


def kernel_namespace(cfg):
    """The namespace of this source's kernels: the build's, and for a
    project that is not the build's top level (a library built as a
    subproject of a program that uses cpudispatch too), the build's and that
    project's name: its sources never share names with the program's."""
    ns = cfg.namespace or 'cpud'
    root, subdir = os.environ.get('MESON_SOURCE_ROOT'), os.environ.get('MESON_SUBDIR', '')
    if not root:
        return ns
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--config', required=True)
    ap.add_argument('--register', metavar='DIR', help='record the targets in DIR/NAME.txt, for cpudispatch-run')
    ap.add_argument('--out-dir', metavar='DIR', help='where NAME.dispatch.h goes (default: the calling '
                    'meson.build\'s build folder)')
    ap.add_argument('--cc', action='append', default=[], help='the C compiler\'s command, one argument each: its '
                    'preprocessor expands the macros that make kernel names')
    ap.add_argument('--cxx', action='append', default=[], help='the same for C++ sources')
    ap.add_argument('source')
    ap.add_argument('wanted')
    a = ap.parse_args()
    name = os.path.basename(a.source).split('.')[0]
    if not re.match(r'^[A-Za-z_][A-Za-z0-9_]*$', name):
        fail('dispatch source "%s": its name "%s" (the file name up to the first dot) must be a C identifier'
             % (a.source, name))
    out_dir = a.out_dir
    if out_dir is None:
        if 'MESON_BUILD_ROOT' not in os.environ:
            fail('dispatch source "%s": no --out-dir, and not run by Meson\'s run_command() (MESON_BUILD_ROOT '
                 'is unset)' % a.source)
        out_dir = os.path.join(os.environ['MESON_BUILD_ROOT'], os.environ.get('MESON_SUBDIR', ''))
    try:
        cfg = Model.load(a.config)
    except OSError as e:
        fail('cannot read the configuration %s (%s); is cpudispatch configured?' % (a.config, e.strerror))
    try:
        targets, with_baseline, notes = grammar.resolve_source(
            cfg, name, a.wanted, lambda text: sys.stderr.write('cpudispatch: %s\n' % text))
    except grammar.ListError as e:
        fail(str(e))
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
        words.append('%s_%s%s%s' % (name, t, LIB_SEP, ARG_SEP.join(args)))
    kns = kernel_namespace(cfg)
    cxx = os.path.splitext(a.source)[1] in ('.cpp', '.cc', '.cxx', '.C', '.c++')
    cpp = (a.cxx + ['-x', 'c++']) if cxx and a.cxx else ((a.cc + ['-x', 'c++' if cxx else 'c']) if a.cc else None)
    fns = kernel_names(a.source, cpp)
    write_if_changed(os.path.join(out_dir, name + '.dispatch.h'),
                     header(cfg, name, a.wanted, targets, with_baseline, notes, kns, fns))
    if a.register:
        register(a.register, name, listed)
    print('\n'.join(words))


if __name__ == '__main__':
    main()
