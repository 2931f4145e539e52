# SPDX-License-Identifier: MIT
"""The edits tools/numpy-port.py makes to a NumPy checkout's meson.build
files, by pattern: each `X = mod_features.multi_targets(...)` call becomes
the loop of the generator's NumPy format (cpud_numpy, one run per call),
`X.extend(Y)` list concatenation, `X.static_lib(NAME)` the checked archive
of X's libraries, `import('features')` nothing. NumPy's text stays NumPy's:
nothing of it is kept here, the calls' arguments are carried over as the
file has them."""
import re

CALL = re.compile(r'^([ \t]*)(\w+)\s*=\s*mod_features\.multi_targets\(', re.M)
EXTEND = re.compile(r'(\w+)\.extend\((\w+)\)')
STATIC_LIB = re.compile(r'(\w+)\.static_lib\(([^()]*)\)')
TRIPLE = "'" * 3
IMPORT = re.compile(r'^([ \t]*)mod_features\s*=\s*import\(\s*\'features\'\s*\)[ \t]*$', re.M)


class RewriteError(Exception):
    pass


def scan(text, start=0):
    """(index, char, depth, code) for each character of Meson text from
    `start` but comments': code is False inside strings; depth counts the
    brackets open before the character."""
    depth, i, quote = 0, start, None
    while i < len(text):
        c = text[i]
        if quote:
            n = len(quote) if text.startswith(quote, i) else 2 if c == '\\' else 1
            for k in range(n):
                yield i + k, text[i + k], depth, False
            if n == len(quote) and text.startswith(quote, i):
                quote = None
            i += n
            continue
        if c == '#':
            while i < len(text) and text[i] != '\n':
                i += 1
            continue
        if c == "'":
            quote = TRIPLE if text.startswith(TRIPLE, i) else "'"
            for k in range(len(quote)):
                yield i + k, text[i + k], depth, False
            i += len(quote)
            continue
        if c in ')]}':
            depth -= 1
        yield i, c, depth, True
        if c in '([{':
            depth += 1
        i += 1


def split_args(text):
    """Top-level comma-separated arguments of a Meson call's text (brackets
    and strings respected), without its comments."""
    out, cur = [], ''
    for _, c, depth, code in scan(text):
        if code and c == ',' and depth == 0:
            out.append(cur)
            cur = ''
        else:
            cur += c
    out.append(cur)
    return [a.strip() for a in out if a.strip()]


def call_end(text, start):
    """The index just past the ')' closing the call opened at text[start-1]."""
    for i, c, depth, code in scan(text, start):
        if code and c == ')' and depth == -1:
            return i + 1
    raise RewriteError('a multi_targets call is not closed')


def loop(pad, lhs, args, n):
    """The replacement of one call: the generator's run and the libraries."""
    pos = [a for a in args if not re.match(r'^\w+\s*:', a)]
    kw = dict((m.group(1), m.group(2).strip()) for m in (re.match(r'^(\w+)\s*:(.*)$', a, re.S) for a in args) if m)
    if len(pos) != 2 or 'dispatch' not in kw:
        raise RewriteError('a multi_targets call without its header name, sources and dispatch: %r' % args[:3])
    config, sources = pos
    opts = []
    if kw.pop('keep_sort', 'false') == 'true':
        opts.append("'--keep-sort'")
    if 'prefix' in kw:
        opts += ["'--prefix'", kw.pop('prefix')]
    kw.pop('cached', None)
    dispatch = kw.pop('dispatch')
    has_baseline = 'baseline' in kw
    kw.pop('baseline', None)
    v = '_cpud%d' % n
    lines = [
        '# cpudispatch (tools/numpy-port.py): this source\'s targets in NumPy\'s format',
        "%s_want = '%s'" % (v, 'baseline' if has_baseline else ''),
        'foreach %s_d : %s' % (v, dispatch),
        "  %s_j = ' '.join(%s_d)  # a name, or a group's names; [] (NumPy: part of the baseline) adds none" % (v, v),
        "  %s_want += %s_j == '' ? '' : ' (' + %s_j + ')'" % (v, v, v),
        'endforeach',
        "%s_r = run_command(cpud_numpy + [%s'--out-dir', meson.current_build_dir(), %s, %s_want], check: false)"
        % (v, ''.join(o + ', ' for o in opts), config, v),
        'assert(%s_r.returncode() == 0, %s_r.stderr())' % (v, v),
        '%s = []' % lhs,
        'foreach %s_t : %s_r.stdout().split()' % (v, v),
    ]
    deps = kw.pop('dependencies', '[]')
    c_args, cpp_args = kw.pop('c_args', '[]'), kw.pop('cpp_args', '[]')
    rest = ''.join(', %s: %s' % (k, val) for k, val in kw.items())
    lines.append("  %s += static_library(%s_t.split(':')[0], %s, dependencies: [cpud_target] + %s, "
                 "c_args: %s + %s_t.split(':')[1].split('|'), cpp_args: %s + %s_t.split(':')[1].split('|')%s)"
                 % (lhs, v, sources, deps, c_args, v, cpp_args, v, rest))
    lines.append('endforeach')
    return '\n'.join(pad + l for l in lines)


def rewrite(text):
    """(the new text, how many calls were rewritten)."""
    out, pos, n = '', 0, 0
    for m in CALL.finditer(text):
        if m.start() < pos:
            continue
        end = call_end(text, m.end())
        out += text[pos:m.start()] + loop(m.group(1), m.group(2), split_args(text[m.end():end - 1]), n)
        pos, n = end, n + 1
    text = out + text[pos:]
    text = EXTEND.sub(lambda m: '%s += %s' % (m.group(1), m.group(2)), text)
    text = STATIC_LIB.sub(lambda m: "custom_target(%s, input: %s, output: 'lib' + %s + '.a', "
                                    "command: cpud_check_numpy + ['--archive', '@OUTPUT@', '@INPUT@'])"
                          % (m.group(2), m.group(1), m.group(2)), text)
    text = IMPORT.sub(lambda m: m.group(1) + '# (the features module: not needed with cpudispatch)', text)
    return text, n
