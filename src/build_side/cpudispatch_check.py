#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Build-time check of the libraries a dispatch loop produced, and the one
archive a program links them through.

  cpudispatch_check.py --config TARGETS.txt [--ar AR] [--objcopy OBJCOPY]
                      [--objdump OBJDUMP] --archive OUT.a LIB...
      checks LIBs and writes OUT.a, an archive of all their objects in a safe
      link order: the libraries built as baseline code first, then the
      target builds in ascending interest (docs/pitfalls.md). Link OUT.a.
      With objcopy, the inline and template functions of each target's
      objects are also renamed NAME.cpud.NAMESPACE.TARGET (their copies in
      OUT.p/), so each target of this build keeps its own copies whatever
      the link order, beside any other library's. OUT.a is a
      regular archive (its members are copies, so it can be installed) with
      the name the caller chose.
  cpudispatch_check.py --config TARGETS.txt --cc CC [--cc ARG...] [...]
                      --object OUT.o LIB...
      the same, written as one relocatable object (CC -r over that
      archive): an object a library target takes as a source, so that
      libfoo.a and libfoo.so each hold every kernel and a static library
      can be installed alone (docs/libraries.md).
  cpudispatch_check.py --config TARGETS.txt --stamp STAMP LIB...
      checks LIBs in the order given, for a project that links them itself
      in that order, and writes STAMP.
  --foreign-names (any mode): the libraries' kernels have their project's
      own names, as NumPy's sources built by the generator's NumPy format
      (cpud['check_numpy']): the namespace rule below is not applied.

A library's target is read from its objects: every object compiled for a
dispatch target carries a `.cpud_target` section naming the target
(cpudispatch_config.h puts it there); a library without one is baseline
code. ELF objects are read with readelf, PE/COFF objects (Windows, MinGW)
with objdump. The checks:
  - no static initialiser (.init_array / .ctors / .preinit_array; COFF:
    .ctors, where MinGW GCC and Clang put them, and the C runtime's tables
    .CRT$XI* / .CRT$XC* / .CRT$XL*, the C and C++ initialisers and TLS
    callbacks, where MSVC-style code puts them) in a target object: it
    would run at load time, on every CPU, before any dispatch, as code
    built for the target;
  - no link-time-optimisation bytecode (.gnu.lto_*) in a target object: the
    linker could inline target code into callers that run on any CPU;
  - the link order: an inline or template function (a weak symbol: header
    helpers, std::sort, std::vector, ...) defined by several libraries is
    kept once, from the first library that defines it, and serves the code
    of all of them. That first library must be built for features every
    other defining library has (baseline code, or a target all the others
    imply); otherwise code built for a lower target could run a higher
    target's copy on a CPU without that target. In --archive mode the
    renamed functions are per target and cannot clash; what is left (weak
    functions outside COMDAT groups, groups that also hold data) is checked.
    In COFF an inline function is a COMDAT section of code whose key is the
    function's symbol: that is what "weak" and renamable mean there;
  - (ELF) every other symbol a library defines for others carries the
    build's namespace (cpudispatch/namespace.h): a kernel whose name the
    generated header did not map (not written as CPUD_FN(NAME) in the
    source) would meet another library's of the same name in a static link.
Failures name the objects, the symbol and the libraries; exit status 1.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written next to the scripts
import cpudispatch_grammar as grammar  # noqa: E402  (src/build_side/cpudispatch_grammar.py)
from cpudispatch_model import Model  # noqa: E402  (src/build_side/cpudispatch_model.py)

BAD = ('.init_array', '.ctors', '.preinit_array')
# COFF: every section the C runtime runs entries of at start-up (or at
# each thread's start: TLS callbacks), by prefix (.CRT$XCU, .CRT$XLB).
BAD_COFF_PREFIX = ('.CRT$XI', '.CRT$XC', '.CRT$XL')
# Constructors a sanitizer adds to every object (they only call the
# sanitizer's runtime initialiser): not the program's static initialisers.
SANITIZER_CTOR = re.compile(r'^(\.text\.)?(\w+\.module_ctor|_GLOBAL__sub_I_00099_\d+_.*)$')
FILE_LINE = re.compile(r'^File: (.*?)[\[(](.*)[\])]$')


def fail(problems):
    sys.stderr.write('cpudispatch check failed:\n' + ''.join('  ' + p + '\n' for p in problems))
    sys.exit(1)


def readelf(args, lib):
    out = subprocess.run(['readelf', '-W'] + args + [lib], capture_output=True, text=True)
    if out.returncode != 0 and not out.stdout:
        sys.exit('cpudispatch check: readelf cannot read %s: %s' % (lib, out.stderr.strip()))
    return out.stdout


def per_object(text, lib):
    """Splits readelf output over an archive into {member: [lines]}."""
    objs, current, head = {}, None, []
    for line in text.splitlines():
        m = FILE_LINE.match(line)
        if m:
            current = m.group(2)
            objs.setdefault(current, [])
        elif current is None:
            head.append(line)
        else:
            objs[current].append(line)
    # Not an archive: readelf names no member.
    return objs if current is not None else {os.path.basename(lib): head}


def is_coff(path):
    """Whether an archive's (or object's) first object is PE/COFF rather than
    ELF. x86-64 COFF objects start with the machine number 0x8664."""
    with open(path, 'rb') as fh:
        head = fh.read(8)
    if head in (b'!<arch>\n', b'!<thin>\n'):
        members = ar_members(path)
        if not members:
            return False
        name, member, body = members[0]
        if body is None:
            with open(member, 'rb') as fh:
                body = fh.read(4)
        head = body[:4]
    return head[:4] != b'\x7fELF' and head[:2] in (b'\x64\x86', b'\x4c\x01', b'\x64\xaa')


COFF_OBJ = re.compile(r'^(\S.*?):\s+file format (\S+)$')
COFF_SEC = re.compile(r'^\s*\d+\s+(\S+)\s+[0-9a-f]{8}\s')
COFF_COMDAT = re.compile(r'LINK_ONCE_\w+ \(COMDAT (\S+) \d+\)')


def objdump_objects(objdump, args, path):
    """objdump's output over an archive (or one object), split into
    {member: [lines]}."""
    out = subprocess.run([objdump] + args + [path], capture_output=True, text=True)
    if out.returncode != 0 and not out.stdout:
        sys.exit('cpudispatch check: %s cannot read %s: %s' % (objdump, path, out.stderr.strip()))
    objs, current = {}, None
    for line in out.stdout.splitlines():
        m = COFF_OBJ.match(line)
        if m:
            current = m.group(1)
            objs.setdefault(current, [])
        elif current is not None:
            objs[current].append(line)
    return objs


class Library:
    def __init__(self, path, cfg, objdump='objdump'):
        self.path = path
        self.name = os.path.basename(path)
        self.coff = is_coff(path)
        self.objdump = objdump
        self.sections = {}
        self.targets = {}   # object -> target named by its .cpud_target section
        self.weak = {}      # weak function symbol -> object defining it
        self.strong = {}    # global (not weak) defined symbol -> object defining it (ELF)
        self.renamable = set()  # COMDAT groups of functions only: signatures and functions
        if self.coff:
            self.read_coff()
        else:
            self.read_elf()
        self.check_target(cfg)

    def read_coff(self):
        """Sections, the .cpud_target mark and the inline functions (COMDAT
        sections of code, keyed by the function's own symbol) of PE/COFF
        objects."""
        for obj, lines in objdump_objects(self.objdump, ['-h'], self.path).items():
            secs, last = set(), None
            for l in lines:
                m = COFF_SEC.match(l)
                if m:
                    last = m.group(1)
                    secs.add(last)
                    continue
                c = COFF_COMDAT.search(l)
                if c and last is not None and re.search(r'\bCODE\b', l):
                    self.weak.setdefault(c.group(1), obj)
                    self.renamable.add(c.group(1))
            self.sections[obj] = secs
        if any('.cpud_target' in s for s in self.sections.values()):
            for obj, lines in objdump_objects(self.objdump, ['-s', '-j', '.cpud_target'], self.path).items():
                data = bytearray()
                for l in lines:
                    m = re.match(r'^ [0-9a-f]{4,} ((?:[0-9a-f]{2,8} ?){1,4})', l)
                    if m:
                        data += bytes.fromhex(m.group(1).replace(' ', ''))
                m = re.search(r'cpudispatch target (\S+)', data.split(b'\0')[0].decode('ascii', 'replace'))
                if m:
                    self.targets[obj] = m.group(1)

    def read_elf(self):
        path = self.path
        for obj, lines in per_object(readelf(['-S'], path), path).items():
            self.sections[obj] = {m.group(1) for m in (re.match(r'^\s*\[\s*\d+\]\s+(\S+)', l) for l in lines) if m}
        marked = [o for o, s in self.sections.items() if '.cpud_target' in s]
        if marked:
            for obj, lines in per_object(readelf(['-p', '.cpud_target'], path), path).items():
                for l in lines:
                    m = re.search(r'cpudispatch target (\S+)', l)
                    if m:
                        self.targets[obj] = m.group(1)
        self.read_elf_symbols()

    def check_target(self, cfg):
        kinds = set(self.targets.values())
        self.problems = []
        if len(kinds) > 1 or (kinds and len(self.targets) != len(self.sections)):
            if len(self.targets) != len(self.sections):
                kinds.add('baseline')
            self.problems.append('%s: objects built for different targets (%s) in one library; build each '
                                 'target of a dispatch source into its own library'
                                 % (self.name, ', '.join(sorted(kinds, key=lambda t: grammar.rank(cfg, t)))))
        self.target = kinds.pop() if len(kinds) == 1 else 'baseline'
        if self.target != 'baseline' and grammar.members(cfg, self.target) is None:
            self.problems.append('%s: built for %s, which this build of cpudispatch does not know (a library '
                                 'of another configuration?)' % (self.name, self.target))
            self.target = 'baseline'

    def read_elf_symbols(self):
        """The weak functions and the all-function COMDAT groups of ELF
        objects."""
        path = self.path
        for obj, lines in per_object(readelf(['-g', '-s'], path), path).items():
            groups, sig, defs = {}, None, {}
            for l in lines:
                m = re.match(r"^COMDAT group section \[\s*\d+\] `[^']*' \[(.*)\] contains", l)
                if m:
                    sig = m.group(1)
                    groups[sig] = set()
                    continue
                m = re.match(r'^\s+\[\s*(\d+)\]\s+\S', l)
                if m and sig is not None:
                    groups[sig].add(m.group(1))
                    continue
                # ppc64 ELFv2 adds "[<localentry>: 8]" after the visibility.
                f = re.sub(r'\s\[<[^\]]*\]', '', l).split()
                if len(f) >= 8 and re.match(r'^\d+:$', f[0]):
                    sig = None
                    if f[6] != 'UND' and f[4] != 'LOCAL':
                        defs.setdefault(f[6], []).append((f[3], f[7].split('@')[0]))
                    if f[3] == 'FUNC' and f[4] == 'WEAK' and f[6] != 'UND':
                        self.weak.setdefault(f[7].split('@')[0], obj)
                    if f[4] == 'GLOBAL' and f[6] != 'UND' and f[3] in ('FUNC', 'OBJECT', 'NOTYPE', 'TLS'):
                        self.strong.setdefault(f[7].split('@')[0], obj)
            for sig, secs in groups.items():
                syms = [d for s in secs for d in defs.get(s, [])]
                # Data (a function's static variable, a vtable) must stay one
                # object for the whole program: only all-function groups.
                if syms and all(t == 'FUNC' for t, _ in syms):
                    self.renamable.add(sig)
                    self.renamable.update(n for _, n in syms)

    def init_functions(self):
        """Object -> functions its .init_array/.ctors relocations point at
        (ELF; a COFF object's static initialiser is never a sanitizer's)."""
        funcs = {}
        if self.coff:
            return funcs
        for obj, lines in per_object(readelf(['-r'], self.path), self.path).items():
            in_init = False
            for line in lines:
                m = re.match(r"^Relocation section '\.rela?(\.\S+)'", line)
                if m:
                    in_init = any(m.group(1) == b or m.group(1).startswith(b + '.') for b in BAD)
                    continue
                fields = line.split()
                if in_init and len(fields) >= 5 and re.match(r'^[0-9a-f]+$', fields[0]):
                    funcs.setdefault(obj, []).append(fields[4])
        return funcs


def object_problems(lib):
    problems, inits = [], None
    for obj in lib.targets:
        secs = lib.sections[obj]
        for sec in BAD:
            if sec in secs or any(s.startswith(sec + '.') for s in secs):
                if inits is None:
                    inits = lib.init_functions()
                if inits.get(obj) and all(SANITIZER_CTOR.match(f) for f in inits[obj]):
                    continue
                problems.append('%s(%s): %s holds a static initialiser, which would run at load time on every '
                                'CPU, before any dispatch, as code built for %s. Move it to baseline code, or '
                                'make it constant (constexpr / constinit).' % (lib.name, obj, sec, lib.target))
        for sec in sorted(s for s in secs if lib.coff and s.startswith(BAD_COFF_PREFIX)):
            problems.append('%s(%s): %s holds a start-up function of the C runtime, which would run on every CPU, '
                            'before any dispatch, as code built for %s. Move it to baseline code.'
                            % (lib.name, obj, sec, lib.target))
        if any(s.startswith('.gnu.lto_') for s in secs):
            problems.append('%s(%s): contains LTO bytecode; dispatch targets must be built with -fno-lto'
                            % (lib.name, obj))
    return problems


def namespace_problems(lib, cfg):
    """Every symbol a dispatch source's build defines for others (not
    static, not an inline copy) must carry the build's namespace: in a
    static link another library's symbol of the same name would otherwise
    serve this library's calls, or this one's theirs. The generated header
    maps the names it reads as CPUD_FN(NAME) in the source."""
    ns = cfg.namespace
    if not ns:
        return []
    out = []
    for sym, obj in sorted(lib.strong.items()):
        if ns in sym or sym.startswith(('__', '.', '_GLOBAL_')):
            continue
        pretty = demangle([sym])[sym]
        base = re.sub(r'_(baseline|%s)$' % re.escape(lib.target), '', pretty)
        out.append('%s(%s) defines %s outside this build\'s namespace %s: in a static link another library\'s '
                   '%s could serve this library\'s calls. Name it CPUD_FN(%s) in the dispatch source itself '
                   '(cpudispatch-gen reads the names CPUD_FN gets there, expanding the source\'s own macros but '
                   'not those of the headers it includes; a comment that says CPUD_FN(%s) will do), put it in '
                   'namespace CPUD_TARGET_NS, or make it static.'
                   % (lib.name, obj, pretty, ns, pretty, *(2 * [base if re.match(r'^\w+$', base) else 'NAME'])))
    return out


def demangle(names):
    try:
        r = subprocess.run(['c++filt'], input='\n'.join(names), capture_output=True, text=True)
        out = r.stdout.splitlines()
        if r.returncode == 0 and len(out) == len(names):
            return dict(zip(names, out))
    except OSError:
        pass
    return {n: n for n in names}


def order_problems(libs, cfg):
    """The copy the linker keeps (first definer in link order) must be built
    for features every other definer of the symbol has."""
    definers = {}
    for lib in libs:
        for sym in lib.weak:
            definers.setdefault(sym, []).append(lib)
    bad = []
    for sym, ds in definers.items():
        kept = ds[0]
        need = grammar.needs(cfg, kept.target)
        victims = [d for d in ds[1:] if not need <= grammar.needs(cfg, d.target)]
        if victims:
            bad.append((sym, kept, victims))
    if not bad:
        return []
    pretty = demangle([b[0] for b in bad])
    problems = []
    # Baseline callers first: those crash on every CPU below a target; then
    # by library and name. Constructor variants (C1/C2) demangle alike: one line.
    key = lambda b: (not any(v.target == 'baseline' for v in b[2]), b[1].name, pretty[b[0]])
    for sym, kept, victims in sorted(bad, key=key):
        missing = sorted(grammar.needs(cfg, kept.target) - grammar.needs(cfg, victims[0].target),
                         key=lambda f: grammar.rank(cfg, f))
        ds = definers[sym]
        safe = [d for d in ds if all(grammar.needs(cfg, d.target) <= grammar.needs(cfg, o.target) for o in ds)]
        if safe:
            fix = 'Link %s first (baseline libraries first, then targets by ascending interest: the ' \
                  '--archive mode does)' % safe[0].name
        else:
            fix = 'No link order makes one copy safe for all: let the --archive mode rename inline functions ' \
                  'per target (it needs objcopy), or keep the function per target (static, or in namespace ' \
                  'CPUD_TARGET_NS)'
        problems.append('%s is defined in %s (%s) and %s; the linker keeps the copy of %s, built for %s, and '
                        '%s code would run it on CPUs without %s. %s.'
                        % (pretty[sym], kept.name, kept.target,
                           ', '.join('%s (%s)' % (v.name, v.target) for v in victims),
                           kept.name, kept.target, '/'.join(sorted({v.target for v in victims})), ' '.join(missing),
                           fix))
    problems = list(dict.fromkeys(problems))
    if len(problems) > 20:
        problems = problems[:20] + ['... and %d more symbols' % (len(problems) - 20)]
    return problems


def ar_members(path):
    """(name, path-or-None, bytes-or-None) for each member of an archive:
    a thin archive's members are files beside it, a regular one's are inline."""
    with open(path, 'rb') as fh:
        data = fh.read()
    magic = data[:8]
    if magic not in (b'!<arch>\n', b'!<thin>\n'):
        sys.exit('cpudispatch check: %s is not an archive' % path)
    thin = magic == b'!<thin>\n'
    pos, names, out = 8, b'', []
    while pos + 60 <= len(data):
        hdr = data[pos:pos + 60]
        name, size = hdr[:16].decode().rstrip(), int(hdr[48:58].decode().strip())
        pos += 60
        special = name in ('/', '//', '/SYM64/')
        body = data[pos:pos + size] if (special or not thin) else None
        if name == '//':
            names = body
        elif not special:
            if name.startswith('/') and name[1:].isdigit():
                off = int(name[1:])
                name = names[off:names.index(b'\n', off)].decode().rstrip('/')
            else:
                name = name.rstrip('/')
            if thin:
                out.append((name, os.path.join(os.path.dirname(path), name), None))
            else:
                out.append((name, None, body))
        if special or not thin:
            pos += size + (size & 1)
    return out


def write_archive(out, libs, ar, objcopy, renames):
    """A regular archive of every library's objects in order. Each object is
    copied next to it first (OUT.p/), under a name no other member has, and
    renamed there for a target whose functions are renamed."""
    tmp = out + '.p'
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    maps = {}
    for target, names in renames.items():
        maps[target] = os.path.join(tmp, 'rename_%s.txt' % target)
        with open(maps[target], 'w') as fh:
            fh.write(''.join('%s %s\n' % (o, n) for o, n in sorted(names.items())))
    # COFF: the linker keeps one COMDAT section per *section name*
    # (.text$NAME, with its unwind data .xdata$NAME/.pdata$NAME), so the
    # sections of a renamed function are renamed too, and so are the
    # sections' own symbols: ld checks that a COMDAT section's first symbol
    # is its name ("COMDAT symbol ... does not match section name"), and
    # objcopy's --rename-section leaves some of them as they were.
    sections = {}
    lib_maps = {}  # per COFF library: the target's names and its sections' symbols
    for lib in libs:
        if lib.coff and lib.target in maps:
            names = renames[lib.target]
            secs = sorted({x for secs in lib.sections.values() for x in secs if x.partition('$')[2] in names})
            new = {x: '%s$%s' % (x.partition('$')[0], names[x.partition('$')[2]]) for x in secs}
            sections[lib.name] = os.path.join(tmp, 'sections_%s.txt' % lib.name)
            with open(sections[lib.name], 'w') as fh:
                fh.write(''.join('--rename-section %s=%s\n' % (x, new[x]) for x in secs))
            lib_maps[lib.name] = os.path.join(tmp, 'rename_%s.txt' % lib.name)
            with open(lib_maps[lib.name], 'w') as fh:
                fh.write(''.join('%s %s\n' % (o, n) for o, n in sorted(list(names.items()) + list(new.items()))))
    files = []
    for i, lib in enumerate(libs):
        for j, (name, path, body) in enumerate(ar_members(lib.path)):
            # Unique member names: tools that extract members (ar x) would
            # otherwise write one library's sum.dispatch.c.o over another's.
            copy = os.path.join(tmp, '%02d_%s' % (i, lib.name), '%02d_%03d_%s' % (i, j, os.path.basename(name)))
            os.makedirs(os.path.dirname(copy), exist_ok=True)
            if body is not None:
                with open(copy, 'wb') as fh:
                    fh.write(body)
            else:
                shutil.copyfile(path, copy)
            path = copy
            if lib.target in maps:
                renamed = copy + '.renamed.o'
                extra = ['@' + sections[lib.name]] if lib.name in sections else []
                r = subprocess.run([objcopy, '--redefine-syms=' + lib_maps.get(lib.name, maps[lib.target])] + extra + [path, renamed],
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    sys.exit('cpudispatch check: %s failed on %s(%s): %s' % (objcopy, lib.name, name, r.stderr.strip()))
                path = renamed
            files.append(os.path.relpath(path))
    if os.path.exists(out):
        os.remove(out)
    # q: append without replacing same-named members; s: index. Not thin
    # (T): a thin archive's members point into the build tree, so it
    # cannot be installed or moved.
    r = subprocess.run(ar + ['qcs', out] + files, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('cpudispatch check: %s failed: %s' % (' '.join(ar), r.stderr.strip()))


def write_object(out, libs, ar, objcopy, renames, cc):
    """One relocatable object of every object of the archive write_archive
    makes (OUT.p/all.a), in the same order: the linker's -r keeps the
    first copy of a COMDAT group it meets, as a program's link would."""
    tmp_archive = out + '.a'
    write_archive(tmp_archive, libs, ar, objcopy, renames)
    if os.path.exists(out):
        os.remove(out)
    cmd = cc + ['-r', '-nostdlib', '-o', out, '-Wl,--whole-archive', tmp_archive, '-Wl,--no-whole-archive']
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        sys.exit('cpudispatch check: cannot run %s: %s' % (cc[0], e.strerror))
    if r.returncode != 0:
        sys.exit('cpudispatch check: %s failed: %s' % (' '.join(cmd), r.stderr.strip()))
    os.remove(tmp_archive)


def can_rewrite(objcopy, libs):
    """Whether objcopy can rewrite this build's objects (a host objcopy
    cannot read another arch's): tried on the first target object."""
    for lib in libs:
        if lib.target == 'baseline' or not lib.renamable:
            continue
        name, path, body = ar_members(lib.path)[0]
        with tempfile.TemporaryDirectory() as d:
            if body is not None:
                path = os.path.join(d, 'in.o')
                with open(path, 'wb') as fh:
                    fh.write(body)
            try:
                r = subprocess.run([objcopy, path, os.path.join(d, 'out.o')], capture_output=True, text=True)
            except OSError as e:
                return '%s: %s' % (objcopy, e.strerror)
            return None if r.returncode == 0 else r.stderr.strip()
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--config', required=True)
    ap.add_argument('--config-digest', help='not read: the CMake side puts the digest of --config\'s file on '
                    'the command line so that Ninja reruns the check when the file changes')
    ap.add_argument('--ar', default='ar', help='archiver (the cross file\'s for a cross build)')
    ap.add_argument('--objdump', default='objdump', help='objdump, which reads PE/COFF objects (Windows builds)')
    ap.add_argument('--objcopy', help='objcopy (the cross file\'s for a cross build) to keep inline functions '
                    'per target in --archive mode')
    ap.add_argument('--no-rename', action='store_true', help='--archive without renaming (tests)')
    ap.add_argument('--foreign-names', action='store_true',
                    help='the objects\' kernels have their project\'s own names (the generator\'s NumPy format: '
                         'NumPy\'s, hidden in its extension module): no namespace check')
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument('--archive', metavar='OUT')
    mode.add_argument('--object', metavar='OUT')
    ap.add_argument('--cc', action='append', default=[],
                    help='with --object: the C compiler\'s command, one argument per --cc (cpudispatch_check '
                         'passes the build\'s)')
    mode.add_argument('--stamp', metavar='OUT')
    ap.add_argument('libs', nargs='*', metavar='LIB')
    a = ap.parse_args()
    try:
        cfg = Model.load(a.config)
    except OSError as e:
        sys.exit('cpudispatch check: cannot read the configuration %s (%s)' % (a.config, e.strerror))
    if a.object:
        if not a.cc:
            ap.error('--object needs the C compiler: --cc')
        a.archive, into_object = a.object, True
    else:
        into_object = False
    libs = [Library(p, cfg, a.objdump) for p in a.libs]
    problems = [p for lib in libs for p in lib.problems]
    if a.archive:
        # Stable: libraries of the same target keep the order given.
        libs.sort(key=lambda lib: grammar.rank(cfg, lib.target))
    for lib in libs:
        problems += object_problems(lib)
        problems += [] if a.foreign_names else namespace_problems(lib, cfg)
    renames, why_not = {}, None
    if a.archive and a.objcopy and not a.no_rename:
        why_not = can_rewrite(a.objcopy, libs)
        if why_not is None:
            for lib in libs:
                if lib.target != 'baseline':
                    # The build's namespace too: another library's copy of
                    # the same function for the same target may have been
                    # built with other flags (its baseline's).
                    renames.setdefault(lib.target, {}).update(
                        (s, '%s.cpud.%s.%s' % (s, cfg.namespace, lib.target) if cfg.namespace else
                         '%s.cpud.%s' % (s, lib.target)) for s in lib.renamable)
            # What the linker will see.
            for lib in libs:
                m = renames.get(lib.target, {})
                lib.weak = {m.get(s, s): o for s, o in lib.weak.items()}
    elif a.archive:
        why_not = '--no-rename' if a.no_rename else 'no objcopy was given'
    order = order_problems(libs, cfg)
    if order and why_not:
        order.append('(inline functions were not renamed per target: %s; a cross file should name `objcopy`)'
                     % why_not)
    problems += order
    if problems:
        fail(problems)
    if into_object:
        write_object(a.object, libs, [a.ar], a.objcopy, renames, a.cc)
    elif a.archive:
        write_archive(a.archive, libs, [a.ar], a.objcopy, renames)
    else:
        with open(a.stamp, 'w') as fh:
            fh.write('%d libraries checked, in this order:\n%s\n' % (len(libs), '\n'.join(l.name for l in libs)))


if __name__ == '__main__':
    main()
