#!/usr/bin/env python3
"""Every copy of the dispatch loop is docs/quickstart.md's, word for word.

  snippet_copies.py SOURCE_ROOT

The loop of the quickstart's snippet block (from `kernel_gen =
cpud['generate']` through the second `endforeach`) is what cpudispatch's own
examples, fixtures, tests, benchmarks and docs use. This finds every file of
the repository that runs the generator (meson.build files and Markdown docs' code
blocks; not subprojects/, hidden folders or build directories): a line that names
`['generate']` or calls run_command() on `kernel_gen`, or an old-interface
spelling (cpudispatch 0.2's `run_command(cpud['gen'] ...`, 0.1's
cpudispatch_gen or cpud_gen in a run_command(), `cpudispatch_targets[...]`,
get_variable('cpudispatch_gen'|'cpudispatch_targets')). Each such line must
belong to a copy: `kernel_gen = cpud['generate']` right after a line that
sets `cpud`, then a `foreach src, want : {...}` line, whose dict literal may
differ (other sources and lists, over several lines), and then the block's
lines exactly, all at one indentation (a copy may sit inside an `if` or
another loop). The lines around the loop (what sets `cpud`, the
custom_target that takes `kernel_libs`) may differ.

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

MAX_LINES = 12
# The copies when this test was written: bench (2), test/{docs,
# hello, hazards (3), runtime (and nobase, twolibs), typed, vector_length,
# groups, c_only, strict, asm, library_mode, multilib/library, setups,
# shapes, consumer, configure fixtures}, examples/{consumer, pyext,
# typed-array, per-isa-files, fallback-chain, universal}, README.md,
# docs/{quickstart, python, porting-from-numpy, libraries}.md.
MIN_COPIES = 34
START = "kernel_gen = cpud['generate']"
MENTION = re.compile(r"\['generate'\]|run_command\(\s*kernel_gen\b")
OLD = re.compile(r"run_command\(\s*cpud\['gen'\]|cpudispatch_targets\s*\[|get_variable\('cpudispatch_(gen|targets)'\)|"
                 r"\bcpud_gen\b|cpudispatch_gen\s*\+\s*\['--(list|header|flags)'")
FOREACH = 'foreach src, want : {'


def reference(block):
    """The block's loop: from `kernel_gen = cpud['generate']` through the
    second endforeach."""
    start = block.index(START)
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
    if path.endswith('.md'):
        # Markdown: its code blocks only (the prose may name the old forms).
        fence = False
        for i, line in enumerate(lines):
            if line.lstrip().startswith('```'):
                fence = not fence
                lines[i] = ''
            elif not fence:
                lines[i] = ''
    problems = []
    covered = set()  # the lines of the copies checked
    for n, line in enumerate(lines):
        if OLD.search(line):
            problems.append('%s:%d: an old interface (cpudispatch 0.2\'s cpud[\'gen\'] loop, 0.1\'s '
                            'cpudispatch_gen --list/--header/--flags, cpudispatch_targets): %s' % (rel, n + 1,
                                                                                                 line.strip()))
            continue
        if line.strip() != START:
            if MENTION.search(line) and n not in covered:
                problems.append('%s:%d: a generator call that is not part of a copy of the loop (which opens '
                                'with `%s`): %s' % (rel, n + 1, START, line.strip()))
            continue
        pad = line[:len(line) - len(line.lstrip())]
        if line != pad + ref[0]:
            problems.append('%s:%d: expected %r, found %r' % (rel, n + 1, pad + ref[0], line))
            continue
        if n == 0 or not re.match(r'\s*cpud = ', lines[n - 1]):
            problems.append('%s:%d: expected a line setting `cpud` (the snippet\'s dict) right before `%s`, '
                            'found %r' % (rel, n + 1, START, lines[n - 1] if n else '(start of file)'))
        f = n + 1
        end = dict_end(lines, f) if f < len(lines) and lines[f].startswith(pad + FOREACH) else None
        if end is None:
            problems.append('%s:%d: expected `%s...}` after `%s`, found %r' % (
                rel, f + 1, pad + FOREACH, START, lines[f] if f < len(lines) else '(end of file)'))
            continue
        want = [pad + l for l in ref[2:]]
        have = lines[end + 1:end + 1 + len(want)]
        for k, w in enumerate(want):
            h = have[k] if k < len(have) else None
            if h == w:
                continue
            problems.append('%s:%d: differs from the docs\' loop (docs/quickstart.md):\n    expected: %s\n'
                            '    found:    %s' % (rel, end + 2 + k, w, '(end of file)' if h is None else h))
        covered.update(range(n, end + 1 + len(want)))
        found.append('%s:%d' % (rel, n + 1))
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
    run_line = next(i for i, l in enumerate(block) if 'run_command(' in l)
    lib_line = next(i for i, l in enumerate(block) if 'static_library(' in l)
    add_line = next(i for i, l in enumerate(block) if '+= [src, want]' in l)
    cases = {
        # name: (lines, line number that must be reported; None: nothing may be)
        'unchanged, dict over two lines, nested': (nested, None),
        'a changed line': (block[:run_line] + [block[run_line].replace('check: false', 'check: true')]
                           + block[run_line + 1:], run_line + 1),
        'a line left out': (block[:run_line + 1] + block[run_line + 2:], run_line + 2),
        'an extra kwarg': (block[:lib_line] + [block[lib_line][:-1] + ", c_args: '-DX'"] + block[lib_line + 1:],
                           lib_line + 1),
        'one line indented differently': (nested[:lib_line + 1] + [' ' + nested[lib_line + 1]]
                                          + nested[lib_line + 2:], lib_line + 2),
        'an extra line inside the dict loop': (block[:add_line + 1] + ["  kernel_gen += ['-v']"]
                                               + block[add_line + 1:], add_line + 2),
        'no line setting cpud before': (block[1:], 1),
        'a generator call outside a copy': (block + ["x = run_command(kernel_gen + ['k.dispatch.c', 'AVX2'])"],
                                            len(block) + 1),
        'the 0.2 loop': (['cpud = cpudispatch', 'kernel_libs = []', block[2], block[3],
                          "  r = run_command(cpud['gen'] + [src, want], check: false)"], 5),
        'the old interface': (['cpud_gen = cpud.get_variable(\'cpudispatch_gen\')', 'kernel_libs = []', block[2],
                               block[3], "  r = run_command(cpud_gen + ['--list', name, want], check: false)"], 1),
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
