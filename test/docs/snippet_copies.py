#!/usr/bin/env python3
"""Every copy of the dispatch loop is docs/quickstart.md's, word for word.

  snippet_copies.py SOURCE_ROOT

The loop of the quickstart's snippet block (from `kernel_libs = []` through
the second `endforeach`) is what cpudispatch's own examples, fixtures, tests,
benchmarks and docs use. This finds every file of the repository that runs
the generator from a loop (meson.build files and Markdown docs; not
subprojects/, hidden folders or build directories): a line that calls
run_command() with `['gen']`, or an old-interface spelling (cpudispatch_gen
or cpud_gen in a run_command(), `cpudispatch_targets[...]`,
get_variable('cpudispatch_gen'|'cpudispatch_targets')). Each such call
must be the run_command() line of a copy: a `foreach src, want : {...}`
line, whose dict literal may differ (other sources and lists, over several
lines), right after `kernel_libs = []` and right after a line that sets
`cpud`, and then the block's lines exactly, all at one indentation (a copy
may sit inside an `if` or another loop). One exception, documented in
src/demo/meson.build: the demo's static_library() line ends with
`, build_by_default: cpud_top)` (a consumer's ninja must not build the
demo). The lines around the loop (what sets `cpud`, the custom_target that
takes `kernel_libs`) may differ.

Also: the block has at most MAX_LINES lines and the quickstart's prose
("These N lines") gives its count; at least MIN_COPIES copies are found (a
scan that finds fewer has lost some); and a negative control: mutated copies
written to a temporary file must each be reported, with the file and line,
and an unchanged copy there must not. Exit 0 pass, 1 fail.
"""
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import doc_blocks  # noqa: E402  (test/doc_blocks.py)

MAX_LINES = 10
# The copies when this test was written: src/demo, bench, test/{docs, hello,
# hazards (2), runtime/nobase, runtime/twolibs, typed, vector_length, groups,
# setups/fixture, shapes/fixture, consumer/fixture, configure/fixture},
# examples/{consumer, pyext, typed-array}, README.md, docs/{quickstart,
# python, porting-from-numpy}.md.
MIN_COPIES = 22
DEMO = os.path.join('src', 'demo', 'meson.build')
DEMO_KWARG = ', build_by_default: cpud_top)'
GEN_CALL = re.compile(r"run_command\(.*(\['gen'\]|\bcpudispatch_gen\b|\bcpud_gen\b)")
OLD = re.compile(r"cpudispatch_targets\s*\[|get_variable\('cpudispatch_(gen|targets)'\)|\bcpud_gen\b|"
                 r"cpudispatch_gen\s*\+\s*\['--(list|header|flags)'")
FOREACH = 'foreach src, want : {'


def reference(block):
    """The block's loop: from `kernel_libs = []` through the second endforeach."""
    start = block.index('kernel_libs = []')
    ends = [i for i in range(start, len(block)) if block[i].strip() == 'endforeach']
    loop = block[start:ends[1] + 1]
    if not loop[1].startswith(FOREACH) or dict_end(loop, 1) != 1:
        raise ValueError('the block\'s loop does not open with `%s...}` on one line' % FOREACH)
    return loop


def dict_end(lines, i):
    """The index of the line closing the dict literal opened on line i
    (its braces outside strings and comments balance), or None."""
    depth = 0
    for j in range(i, len(lines)):
        text = re.sub(r"'(?:[^'\\]|\\.)*'", "''", lines[j]).split('#')[0]
        depth += text.count('{') - text.count('}')
        if depth <= 0:
            return j if depth == 0 else None
    return None


def check_file(path, rel, ref, found):
    """Problems of one file, as 'REL:LINE: what'; appends each copy's first
    line to found."""
    try:
        with open(path, encoding='utf-8') as fh:
            lines = fh.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    problems = []
    seen = set()
    for n, line in enumerate(lines):
        if OLD.search(line):
            problems.append('%s:%d: the old interface (cpudispatch_gen --list/--header/--flags, '
                            'cpudispatch_targets): %s' % (rel, n + 1, line.strip()))
            continue
        if not GEN_CALL.search(line):
            continue
        # The copy's foreach line: the nearest one above.
        f = next((i for i in range(n, -1, -1) if lines[i].lstrip().startswith(FOREACH)), None)
        end = dict_end(lines, f) if f is not None else None
        if f is None or end is None or end + 1 != n:
            problems.append('%s:%d: a generator call that is not the run_command() line of a copy of the '
                            'loop (right after `%s...}`): %s' % (rel, n + 1, FOREACH, line.strip()))
            continue
        if f in seen:
            continue
        seen.add(f)
        pad = lines[f][:len(lines[f]) - len(lines[f].lstrip())]
        if f == 0 or lines[f - 1] != pad + ref[0]:
            problems.append('%s:%d: expected %r right before the loop, found %r'
                            % (rel, f, pad + ref[0], lines[f - 1] if f else '(start of file)'))
        elif f < 2 or not re.match(r'\s*cpud = ', lines[f - 2]):
            problems.append('%s:%d: expected a line setting `cpud` (the snippet\'s dict) right before '
                            '`kernel_libs = []`, found %r' % (rel, f - 1, lines[f - 2] if f >= 2 else ''))
        want = [pad + l for l in ref[2:]]
        have = lines[end + 1:end + 1 + len(want)]
        for k, w in enumerate(want):
            h = have[k] if k < len(have) else None
            if h == w or (rel == DEMO and w.endswith(')') and h == w[:-1] + DEMO_KWARG):
                continue
            problems.append('%s:%d: differs from the docs\' loop (docs/quickstart.md):\n    expected: %s\n'
                            '    found:    %s' % (rel, end + 2 + k, w, '(end of file)' if h is None else h))
        found.append('%s:%d' % (rel, f))
    return problems


def scan(root, ref):
    problems, found = [], []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith('.') and x not in ('subprojects', '__pycache__')
                         and not os.path.isdir(os.path.join(d, x, 'meson-private')))
        for name in sorted(files):
            if name == 'meson.build' or name.endswith('.md'):
                path = os.path.join(d, name)
                problems += check_file(path, os.path.relpath(path, root), ref, found)
    return problems, found


def control(ref):
    """Problems of the negative and positive controls (empty: they behave)."""
    block = ['cpud = cpudispatch', ref[0], FOREACH + "'a.dispatch.c': 'baseline AVX2',",
             "                     'b.dispatch.cpp': 'baseline X86_V3'}"] + ref[2:]
    nested = ['if true'] + ['  ' + l for l in block] + ['endif']
    run_line = next(i for i, l in enumerate(block) if GEN_CALL.search(l))
    lib_line = next(i for i, l in enumerate(block) if 'static_library(' in l)
    cases = {
        # name: (lines, line number that must be reported; None: nothing may be)
        'unchanged, dict over two lines, nested': (nested, None),
        'a changed line': (block[:run_line] + [block[run_line].replace('check: false', 'check: true')]
                           + block[run_line + 1:], run_line + 1),
        'a line left out': (block[:run_line + 1] + block[run_line + 2:], run_line + 2),
        'an extra kwarg': (block[:lib_line] + [block[lib_line][:-1] + ", c_args: '-DX'"] + block[lib_line + 1:],
                           lib_line + 1),
        "src/demo's kwarg elsewhere": (block[:lib_line] + [block[lib_line][:-1] + DEMO_KWARG]
                                       + block[lib_line + 1:], lib_line + 1),
        'one line indented differently': (nested[:lib_line + 1] + [' ' + nested[lib_line + 1]]
                                          + nested[lib_line + 2:], lib_line + 2),
        'no kernel_libs = [] before': (block[:1] + block[2:], 1),
        'the old interface': (['cpud_gen = cpud.get_variable(\'cpudispatch_gen\')', ref[0], block[2], block[3],
                               "  r = run_command(cpud_gen + ['--list', name, want], check: false)"], 1),
    }
    out = []
    with tempfile.TemporaryDirectory() as d:
        for what, (lines, must) in cases.items():
            path = os.path.join(d, 'meson.build')
            with open(path, 'w') as fh:
                fh.write('\n'.join(lines) + '\n')
            got = check_file(path, 'control', ref, [])
            lines_named = {int(p.split(':')[1]) for p in got}
            if must is None and got:
                out.append('control "%s": reported, but it is a true copy:\n  %s' % (what, '\n  '.join(got)))
            elif must is not None and must not in lines_named:
                out.append('control "%s": line %d not reported (got %s)' % (what, must, got or 'nothing'))
    return out


def main():
    root = sys.argv[1]
    quickstart = os.path.join(root, 'docs', 'quickstart.md')
    failures = []
    block = doc_blocks.block(quickstart, 'snippet')
    if len(block) > MAX_LINES:
        failures.append('docs/quickstart.md: the snippet has %d lines; the promise is at most %d'
                        % (len(block), MAX_LINES))
    said = re.findall(r'These (\d+) lines', open(quickstart, encoding='utf-8').read())
    if said != [str(len(block))]:
        failures.append('docs/quickstart.md: its prose says "These %s lines"; the snippet has %d'
                        % (' / '.join(said) or '(no count)', len(block)))
    try:
        ref = reference(block)
    except (ValueError, IndexError) as e:
        print('FAIL: docs/quickstart.md: no loop in the snippet block: %s' % e)
        return 1
    failures += control(ref)
    problems, found = scan(root, ref)
    failures += problems
    print('%d copies of the loop (%d lines each):\n  %s' % (len(found), len(ref), '\n  '.join(found)))
    if len(found) < MIN_COPIES:
        failures.append('%d copies found, at least %d expected: a copy was lost, or the scan no longer '
                        'finds them (lower MIN_COPIES only with the copy removed on purpose)'
                        % (len(found), MIN_COPIES))
    if failures:
        print('\n'.join('FAIL: ' + f for f in failures))
        return 1
    print('PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())
