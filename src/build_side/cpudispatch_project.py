# SPDX-License-Identifier: MIT
"""Who a build of cpudispatch belongs to: the project whose meson.build
calls project() at the top of the build (the library or program a user
builds), its name and version, and what is derived from them so that
every library made with cpudispatch is its own inside any program:

  - the namespace: the prefix of every symbol the runtime, the kernels and
    the C++ API define (cpudispatch/namespace.h). Two libraries linked
    statically into one program never share a runtime, a table or a
    kernel (docs/architecture.md, "Several libraries in one program");
  - the default env-prefix: the project's name, as NumPy's NPY_, so that
    one library's variables never steer or end another's program;
  - the name the start-up check's message gives ("alpha 1.2 in this
    program was built for ...").

Read from the top-level meson.build's project() call, not run: Meson 1.0.1
gives a subproject no way to ask for its parent's name. The call's first
argument is the name; `version:` a string or files('FILE') (its first
line). Anything else (a version computed by run_command) leaves the
version unknown.
"""
import os
import re

# hashlib (OpenSSL: a few ms to import) only where a hash is made: the
# generator, which runs at every configure, needs none.

# A Meson string literal: '...' with \' and \\ escapes, or '''...'''.
_STRING = r"(?:'''(.*?)'''|'((?:[^'\\\n]|\\.)*)')"


def _unescape(m, group):
    if m.group(group) is not None:
        return m.group(group)
    return re.sub(r"\\(.)", r'\1', m.group(group + 1))


def _strip_comments(text):
    """Meson comments (# to the end of the line) outside strings."""
    out, i = [], 0
    pat = re.compile(_STRING + r"|#[^\n]*", re.S)
    for m in pat.finditer(text):
        out.append(text[i:m.start()])
        out.append(m.group(0) if not m.group(0).startswith('#') else '')
        i = m.end()
    out.append(text[i:])
    return ''.join(out)


def _call_args(text, start):
    """The text between project('s parentheses (start: just after '(')."""
    depth, i = 1, start
    pat = re.compile(_STRING + r"|[()]", re.S)
    while depth and i < len(text):
        m = pat.search(text, i)
        if not m:
            break
        if m.group(0) == '(':
            depth += 1
        elif m.group(0) == ')':
            depth -= 1
        i = m.end()
    return text[start:i - 1]


def read(source_root):
    """(name, version) of the project() call in source_root/meson.build;
    name '' when there is none, version '' when it is not a literal."""
    try:
        with open(os.path.join(source_root, 'meson.build'), encoding='utf-8') as fh:
            text = _strip_comments(fh.read())
    except (OSError, UnicodeDecodeError):
        return '', ''
    m = re.search(r'^\s*project\s*\(', text, re.M)
    if not m:
        return '', ''
    args = _call_args(text, m.end())
    first = re.match(r'\s*' + _STRING, args, re.S)
    if not first:
        return '', ''
    name = _unescape(first, 1)
    version = ''
    v = re.search(r'\bversion\s*:\s*' + _STRING, args, re.S)
    if v:
        version = _unescape(v, 1)
    else:
        f = re.search(r'\bversion\s*:\s*files\s*\(\s*' + _STRING + r'\s*\)', args, re.S)
        if f:
            try:
                with open(os.path.join(source_root, _unescape(f, 1)), encoding='utf-8') as fh:
                    version = fh.readline().strip()
            except (OSError, UnicodeDecodeError):
                version = ''
    return clean(name), clean(version)


def clean(s):
    """One printable line: a name or version ends up in C strings and
    messages."""
    return ''.join(c for c in s if ' ' <= c <= '~' and c not in '"\\')[:80]


def identifier(name, upper=False, limit=24):
    """name as a C identifier (letters, digits, _; not starting with a
    digit), at most `limit` characters; '' for a name with no letter."""
    s = re.sub(r'[^A-Za-z0-9]+', '_', name).strip('_')
    s = s.upper() if upper else s.lower()
    if not s:
        return ''
    if s[0].isdigit():
        s = ('P' if upper else 'p') + s
    return s[:limit].rstrip('_')


def env_prefix(name):
    """The default env-prefix: the project's name in upper case
    (xxhash -> XXHASH_DISABLE_CPU_FEATURES); CPUDISPATCH without a name."""
    return identifier(name, upper=True, limit=40) or 'CPUDISPATCH'


def namespace(name, version, facts):
    """The build's namespace: the project's name and a hash of what makes
    this build of it (its version, cpudispatch's version and options),
    e.g. xxhash_3f09a2c1. Reproducible: no path, no time, no random part.
    Two builds of one project with the same options get the same one (and
    would collide on the project's own symbols anyway)."""
    import hashlib
    h = hashlib.sha256('\0'.join([name, version] + list(facts)).encode('utf-8')).hexdigest()[:8]
    return '%s_%s' % (identifier(name) or 'cpud', h)


def namespace_id(ns):
    """A 32-bit number for the namespace, in the records a library's
    dispatch sources leave (cpudispatch/compiled.h): never 0."""
    import hashlib
    v = int(hashlib.sha256(ns.encode('utf-8')).hexdigest()[:8], 16)
    return v or 1


def caller_project(source_root, subdir):
    """The project whose meson.build runs a command (run_command's
    MESON_SOURCE_ROOT and MESON_SUBDIR): the nearest folder from subdir up
    whose meson.build calls project(), as a path relative to source_root
    ('' for the top-level project), and its name."""
    parts = [p for p in subdir.replace('\\', '/').split('/') if p]
    for n in range(len(parts), -1, -1):
        rel = '/'.join(parts[:n])
        name, _ = read(os.path.join(source_root, rel))
        if name:
            return rel, name
    return '', ''
