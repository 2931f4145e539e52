#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""cpudispatch's configure step, run once by src/config/meson.build.

Reads the feature tables into the build's model (src/build_side/cpudispatch_model.py),
resolves the options cpu-baseline / cpu-dispatch / allow-broken-compilers
(src/build_side/cpudispatch_grammar.py), runs the compiler checks
(src/build_side/cpudispatch_probe.py: batched, cached in the build directory), and
writes the generated files under --build-root: include/cpudispatch_config.h
and include/cpudispatch_features.h (from the templates beside them),
include/cpudispatch_targets.txt (the model, for gen and check) and, in
cpudispatch's own builds, docs/features.md (from docs/features.md.in). Meson
interpreting the same work statement by statement was most of a warm
reconfigure (docs/performance.md).

  cpudispatch_configure.py --source-root DIR --build-root DIR --out-dir DIR
      --arch ARCH --system SYSTEM --main-source-root DIR --version VERSION
      --option NAME VALUE ...         cpu-baseline, cpu-dispatch,
                                      allow-broken-compilers,
                                      disable-optimization, env-prefix,
                                      namespace, mode
                                      (program/library/init),
                                      summary-skipped (asked/all)
      --compiler LANG ID VERSION -- CMD... ---   (c, cpp)
      --args LANG ARG... ---          what Meson adds to a check
      [--clear-dir DIR]               removed first (the dispatch sources'
                                      records: meson.build)
      [--project-name=NAME --project-version=VERSION]
                                      whose build this is, as the front end
                                      knows it (CMake's top-level project());
                                      without them, read from the
                                      --main-source-root's meson.build
      [--front-end cmake]             messages name the CMake variables
                                      (CPUD_CPU_BASELINE) where they name the
                                      Meson options (cpu-baseline)
      [--main-project]                cpudispatch is the main project: also
                                      docs/features.md and the test programs
                                      to watch
      [--demo SOURCE OUT_DIR WANTED]  the demo's dispatch source: its header
                                      written to OUT_DIR and its words listed
                                      (demo-words), as the loop's generator
                                      (src/build_side/cpudispatch_gen.py) would, in
                                      this run; recorded for cpudispatch-run
                                      in the main project only

Prints only what Meson acts on, one line each, fields separated by tabs, in
order: `message TEXT`, `warning TEXT`, `error TEXT` (the last line, then
exit 0: Meson raises it, so the user sees a configure error naming the
option), and `list NAME ITEMS` for the variables the build uses (flags,
summaries, files to watch), ITEMS joined by the unit separator (0x1f).
--out-dir holds the compiler checks' cache. --main-source-root is the
top-level project's folder (meson.global_source_root()): whose build this
is (src/build_side/cpudispatch_project.py); --version is cpudispatch's.
"""
import concurrent.futures
import os
import re
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written next to the scripts
import cpudispatch_probe as probe  # noqa: E402  (src/build_side/)
import cpudispatch_project as project  # noqa: E402
import cpudispatch_grammar as grammar  # noqa: E402
from cpudispatch_model import Model, write_if_changed  # noqa: E402
from cpudispatch_tables import (BROKEN_COMPILERS, TableError, hex_of, removal_sets, table_paths,  # noqa: E402
                                version_matches)

SEP = '\x1f'  # between a list's items: Meson 1.0.1 can split on it, no item holds it


class ConfigureError(Exception):
    pass


# The options as each front end spells them (src/cmake/cpudispatch_options.cmake).
CMAKE_NAMES = {'cpu-baseline': 'CPUD_CPU_BASELINE', 'cpu-dispatch': 'CPUD_CPU_DISPATCH',
               'disable-optimization': 'CPUD_DISABLE_OPTIMIZATION',
               'allow-broken-compilers': 'CPUD_ALLOW_BROKEN_COMPILERS', 'env-prefix': 'CPUD_ENV_PREFIX',
               'namespace': 'CPUD_NAMESPACE', 'mode': 'CPUD_MODE', 'summary-skipped': 'CPUD_SUMMARY_SKIPPED'}


def cmake_words(text):
    """text with the Meson options' names as CMake's: -Dcpudispatch:NAME=V
    and NAME=V, and the hyphenated names and a leading `NAME:` anywhere."""
    def opt(m):
        return '-D%s=' % CMAKE_NAMES[m.group(1)]
    text = re.sub(r'-Dcpudispatch:([a-z-]+)=', opt, text)
    hyphenated = '|'.join(n for n in CMAKE_NAMES if '-' in n)
    text = re.sub(r'(?<![\w-])(%s)(?![\w-])' % hyphenated, lambda m: CMAKE_NAMES[m.group(1)], text)
    text = re.sub(r'(?<![\w-])(mode|namespace)(?==)', lambda m: CMAKE_NAMES[m.group(1)], text)
    return re.sub(r'^(mode|namespace):', lambda m: CMAKE_NAMES[m.group(1)] + ':', text)


class Out:
    def __init__(self, front_end='meson'):
        self.lines = []
        self.cmake = front_end == 'cmake'

    def emit(self, kind, *fields):
        for f in fields:
            if '\t' in f or '\n' in f or (kind in ('message', 'warning', 'error') and SEP in f):
                raise ValueError('a field holds a tab or newline: %r' % f)
        if self.cmake and kind in ('message', 'warning', 'error'):
            fields = tuple(cmake_words(f) for f in fields)
        self.lines.append('\t'.join((kind,) + fields))

    def message(self, text):
        self.emit('message', text)

    def warning(self, text):
        self.emit('warning', text)

    def list(self, name, items):
        if self.cmake and name.startswith('skipped-'):
            items = [cmake_words(i) for i in items]  # the summary's words
        self.emit('list', name, SEP.join(items))



def parse_args(argv):
    a = {'option': {}, 'compiler': {}, 'args': {}, 'main': False}
    i = 0
    while i < len(argv):
        k = argv[i]
        if k in ('--source-root', '--build-root', '--out-dir', '--arch', '--clear-dir', '--main-source-root',
                 '--version', '--system'):
            a[k[2:].replace('-', '_')] = argv[i + 1]
            i += 2
        elif k == '--option' and '=' in argv[i + 1]:
            # NAME=VALUE, one word: a front end whose lists drop empty
            # words (CMake) passes an empty value so.
            name, _, value = argv[i + 1].partition('=')
            a['option'][name] = value
            i += 2
        elif k == '--option':
            a['option'][argv[i + 1]] = argv[i + 2]
            i += 3
        elif k == '--compiler':
            lang, cid, ver = argv[i + 1:i + 4]
            cmd, i = probe.take(argv, i + 4)
            a['compiler'][lang] = (cid, ver, cmd)
        elif k == '--args':
            end = argv.index('---', i + 2)
            a['args'][argv[i + 1]], i = argv[i + 2:end], end + 1
        elif k.startswith('--project-name=') or k.startswith('--project-version='):
            key, _, value = k[2:].partition('=')
            a[key.replace('-', '_')] = project.clean(value)
            i += 1
        elif k == '--front-end':
            if argv[i + 1] not in ('meson', 'cmake'):
                sys.exit('cpudispatch_configure: --front-end is meson or cmake, not %r' % argv[i + 1])
            a['front_end'] = argv[i + 1]
            i += 2
        elif k == '--main-project':
            a['main'] = True
            i += 1
        elif k == '--demo':
            a['demo'] = argv[i + 1:i + 4]
            i += 4
        else:
            sys.exit('cpudispatch_configure: unknown argument %r' % k)
    return a


def c_identifier(s):
    return bool(s) and s.isascii() and all(c.isalnum() or c == '_' for c in s) and not s[0].isdigit()


def identity(a):
    """Whose build this is and what follows from it: the top-level
    project's name and version, the env prefix (given, or the name's) and
    the namespace (given, or the name's and a hash of this build's facts)."""
    opt = a['option']
    if 'project_name' in a:
        name, version = a['project_name'], a.get('project_version', '')
    else:
        name, version = project.read(a.get('main_source_root') or a['source_root'])
    prefix = opt.get('env-prefix', '')
    derived = not prefix
    if derived:
        prefix = project.env_prefix(name)
    elif not c_identifier(prefix):
        raise ConfigureError('env-prefix: "%s" is not a valid environment variable prefix (letters, digits and _, '
                             'not starting with a digit)' % prefix)
    ns = opt.get('namespace', '')
    if ns and (not c_identifier(ns) or len(ns) > 40 or '__' in ns or ns.endswith('_')):
        raise ConfigureError('namespace: "%s" is not a valid namespace (a C identifier of at most 40 letters, digits '
                             'and single _, not starting with a digit or ending with _); empty derives one from the '
                             'project\'s name' % ns)
    if not ns:
        facts = [a.get('version', ''), a['arch'], prefix] + ['%s=%s' % kv for kv in sorted(opt.items())
                                                             if kv[0] not in ('summary-skipped',)]
        ns = project.namespace(name, version, facts)
    return {'name': name, 'version': version, 'env_prefix': prefix, 'env_prefix_derived': derived,
            'namespace': ns, 'namespace_id': project.namespace_id(ns)}


def loader_level(arch, baseline, levels):
    """The lowest of the table's loader ISA levels (x86_64: the psABI's
    x86-64-v2/v3/v4, which glibc >= 2.33 checks before it loads an object)
    whose group covers the baseline: (group, property bits); ('', 0) for a
    baseline of the arch's minimum alone; None where no level covers it."""
    extra = [n for n in baseline if n not in arch.table['min']]
    if not extra:
        return '', 0
    for group, bits in levels:
        if all(n == group or n in arch.closure[group] for n in extra):
            return group, bits
    return None


def launcher_check(src, out):
    """src/build_side/cpudispatch_python.py must have no execute bit: Meson runs a
    found script without one on its own Python, and one with it through
    its first line, /usr/bin/env python3: whatever PATH finds."""
    path = os.path.join(src, 'src', 'build_side', 'cpudispatch_python.py')
    try:
        executable = os.stat(path).st_mode & 0o111
    except OSError:
        return
    if executable:
        out.warning('%s has an execute bit, so Meson starts cpudispatch\'s scripts with the python3 that PATH '
                    'finds (here %s), not with the Python that runs Meson: slower where that is a shim (pyenv), '
                    'and another Python. Remove the bit: chmod a-x %s' % (path, sys.executable, path))


def configure(a, out):
    opt = a['option']
    who = identity(a)
    src = a['source_root']
    launcher_check(src, out)
    features_dir = os.path.join(src, 'src', 'features')
    cc_id, cc_ver, _ = a['compiler']['c']
    try:
        arch = Model.from_tables(features_dir, a['arch'])
    except TableError as e:
        raise ConfigureError(str(e))
    names = arch.names
    raw = {'baseline': opt['cpu-baseline'], 'dispatch': opt['cpu-dispatch']}

    # --- known compiler bugs ---------------------------------------------------
    broken = {}
    for n in names:
        for b in arch.row[n].get('broken', []):
            if b['compiler'] == cc_id and all(version_matches(cc_ver, v) for v in b['versions']) and n not in broken:
                broken[n] = '%s %s is known to miscompile it (%s)' % (BROKEN_COMPILERS[cc_id], cc_ver, b['why'])
    allow_raw = opt['allow-broken-compilers']
    allow = []
    for tok in grammar.split_list(allow_raw.upper()):
        if tok in arch.token:
            n = arch.token[tok]
            if n in broken:
                allow.append(n)
            else:
                out.message('allow-broken-compilers: no known bug of %s %s affects %s; nothing to override'
                            % (BROKEN_COMPILERS.get(cc_id, cc_id), cc_ver, n))
        elif tok in arch.foreign:
            out.message('allow-broken-compilers: "%s" is a feature of %s; ignored on %s' % (tok, arch.foreign[tok],
                                                                                            arch.arch))
        elif tok in arch.retired:
            out.message('allow-broken-compilers: "%s" is retired on %s; ignored' % (tok, arch.arch))
        else:
            raise ConfigureError('allow-broken-compilers: unknown CPU feature "%s" in "%s"; valid names on %s: %s '
                                 '(case-insensitive)' % (tok, allow_raw, arch.arch,
                                                         ' '.join(names) if names else '(none)'))

    # --- compiler checks, batched (src/build_side/cpudispatch_probe.py) -----------------
    table = arch
    o = {'cache': os.path.join(a['out_dir'], 'compiler-checks.json'), 'jobs': os.cpu_count() or 2,
         'compiler': a['compiler'], 'args': a['args'],
         'cdef': [(n, arch.row[n]['cdef']) for n in names if arch.row[n]['cdef']], 'req': [], 'table': table}
    tmp = tempfile.mkdtemp(prefix='cpudispatch-configure-')
    try:
        r = probe.Runner(o, tmp)
        result = resolve(a, out, arch, raw, broken, allow, r, table)
        r.save()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    result['who'] = who
    check_mode(a, arch, result, out)
    return arch, result


def check_mode(a, arch, res, out):
    """mode=library (a library without an init function) never exits, so
    only the loader can keep its baseline code off a CPU below the
    baseline: a baseline no loader level covers is refused here, with the
    ways out."""
    res['loader'] = ('', 0)
    if a['option']['mode'] != 'library':
        return
    # The property is ELF's and glibc's: Linux only (musl ignores it; the
    # start-up check then still prints the refusal, docs/libraries.md).
    levels = arch.table.get('loader_isa_levels', []) if a.get('system', 'linux') == 'linux' else []
    level = loader_level(arch, res['baseline'], levels)
    if level is None:
        levels = [g for g, _ in levels]
        above = [n for n in res['baseline'] if n not in arch.table['min']]
        raise ConfigureError(
            'mode=library (a library without an init function) with cpu-baseline "%s": nothing can keep this '
            'library\'s baseline code (%s) off a CPU below it, so a host that loads it there would die of an '
            'illegal instruction. Use cpu-baseline=min%s, or give the library an init function that calls '
            'cpud_library_init() before any baseline code and build it with mode=init '
            '(docs/libraries.md, "Library mode")' % (
                res['raw']['baseline'].strip(), ' '.join(above),
                (' or one the loader enforces (%s: glibc refuses to load the library on an older CPU)'
                 % ', '.join(levels)) if levels else ' (no loader checks the CPU on %s %s)'
                % (a.get('system', 'linux'), arch.arch)))
    res['loader'] = level
    if level[0]:
        more = [n for n in [level[0]] + arch.closure[level[0]] if n not in res['baseline'] and n not in arch.table['min']]
        if more:
            out.message('mode=library: the loader refuses this library on CPUs below %s, which holds %s '
                        'besides the baseline: a CPU with the baseline but without those is refused too'
                        % (level[0], ' '.join(more)))


def resolve(a, out, arch, raw, broken, allow, r, table):
    names = arch.names
    # `detect`: what the compiler flags the user already passes (CFLAGS,
    # c_args, a cross file) enable. Computed always: those features are
    # compiled into every object whatever cpu-baseline says, so they join the
    # baseline and the start-up check guards them. C and C++ flags may differ
    # (CFLAGS vs CXXFLAGS): either one enabling a feature puts its
    # instructions into the program. `native`: the same under the arch's
    # "this CPU" flag, only when asked for.
    probe_args = {'DETECT': []}
    if 'NATIVE' in (raw['baseline'] + ' ' + raw['dispatch']).upper():
        if arch.table['native']:
            probe_args['NATIVE'] = arch.table['native']
        else:
            out.warning('"native": the compiler has no native-CPU flag on %s; it selects no feature' % arch.arch)
    # The checks that depend on nothing run side by side from the start,
    # while the test programs' unit (the longest compile) runs here: the
    # feature macros of each language, then the floor flags' accepted part.
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, r.o['jobs']))
    langs = [l for l in ('c', 'cpp') if l in r.o['compiler']]
    macro_f = {kw: [pool.submit(probe.macros, r, [l], args) for l in (langs if kw == 'DETECT' else ['c'])]
               for kw, args in probe_args.items()}
    floor_f = {lang: pool.submit(probe.subset, r, lang, arch.floor_flags() + ['-fno-lto']) for lang in langs}
    try:
        return resolve_with(a, out, arch, raw, broken, allow, r, table, pool, probe_args, macro_f, floor_f)
    finally:
        pool.shutdown(wait=True)


def resolve_with(a, out, arch, raw, broken, allow, r, table, pool, probe_args, macro_f, floor_f):
    names = arch.names
    probed = {'NATIVE': []}
    for kw, args in probe_args.items():
        hits = set().union(*(set(f.result()) for f in macro_f[kw]))
        got = []
        for n in names:
            if (not arch.row[n]['cdef'] or n in hits) and all(i in got for i in arch.closure[n]):
                got.append(n)
        # A feature can be enabled without all it implies (-mavx2 alone: no
        # F16C), and its instructions are in every object all the same: it
        # joins with everything it implies (any CPU with it has those).
        more = set()
        for n in names:
            if n in hits and n not in got:
                more |= set(arch.closure[n]) | {n}
        if more:
            full = set(got) | more
            got = []
            for n in names:
                if n in full or (not arch.row[n]['cdef'] and all(i in got for i in arch.closure[n])):
                    got.append(n)
        probed[kw] = got

    # "max" in cpu-baseline: every feature whose own flags this compiler
    # accepts (and so do those of all it implies), as NumPy's MAX ("all the
    # compiler supports"). A feature named outright that it cannot build
    # stays an error below; in cpu-dispatch such features are skipped with
    # the reason anyway.
    max_baseline = list(names)
    if 'MAX' in raw['baseline'].upper():
        max_baseline = []
        accepted = dict(zip(names, pool.map(lambda n: not arch.flags[n] or r.accepts('c', arch.flags[n]), names)))
        for n in names:
            if accepted[n] and all(i in max_baseline for i in arch.closure[n]):
                max_baseline.append(n)

    try:
        requested = {which: grammar.parse_option(arch, which, text, probed, max_baseline, out.message)
                     for which, text in raw.items()}
    except grammar.ListError as e:
        raise ConfigureError(str(e))

    skipped = {'baseline': [], 'dispatch': []}
    baseline = requested['baseline']
    from_flags = [n for n in probed['DETECT'] if n not in baseline]
    if from_flags:
        out.message('cpu-baseline: the compiler, with its defaults and the flags given to it, already enables %s; '
                    'added to the baseline so the start-up check covers them' % ' '.join(from_flags))
        baseline = arch.with_implied(baseline + from_flags)
    cand = []
    for n in requested['dispatch']:
        if n in baseline:
            skipped['dispatch'].append('%s: in the baseline' % n)
        else:
            cand.append(n)

    # --- flags and validation ---------------------------------------------------
    cc_id, cc_ver, _ = a['compiler']['c']
    cc_desc = '%s %s' % (cc_id, cc_ver)
    flags = lambda feats: table.merged_flags(set(feats))
    baseline_flags = flags(baseline)
    disabled = a['option']['disable-optimization'] == 'true'
    tests = [('baseline:' + n, arch.test_path[n], arch.closure[n] + [n]) for n in baseline]
    if not disabled:
        tests += [('dispatch:' + d, arch.test_path[d], baseline + arch.closure[d] + [d]) for d in cand
                  if d not in broken or d in allow]
    passed = probe.tests_together(r, tests, table)
    results = dict(zip([t[0] for t in tests],
                       pool.map(lambda t: passed.get(t[0]) or probe.test_one(r, t[1], flags(t[2])), tests)))
    for n in baseline:
        fl = flags(arch.closure[n] + [n])
        if n in broken and n not in allow:
            raise ConfigureError('cpu-baseline: baseline feature %s: %s. Leave it out of cpu-baseline (and out of '
                                 'the compiler flags, if they enable it), use another compiler version, or set '
                                 '-Dallow-broken-compilers=%s to build it all the same.' % (n, broken[n], n))
        elif n in broken:
            out.warning('allow-broken-compilers: baseline feature %s is built although %s' % (n, broken[n]))
        res = results['baseline:' + n]
        if res != 'yes':
            why = 'its test program does not compile' if res == 'no' else 'the flags are rejected'
            raise ConfigureError('cpu-baseline: the compiler (%s) cannot build baseline feature %s with flags "%s": '
                                 '%s. Lower cpu-baseline or use a newer compiler.' % (cc_desc, n, ' '.join(fl), why))
    if baseline and not r.accepts('c', baseline_flags):
        raise ConfigureError('cpu-baseline: the compiler (%s) rejects the combined baseline flags "%s"'
                             % (cc_desc, ' '.join(baseline_flags)))
    dispatch, target_flags = [], {}
    for d in cand:
        fl = flags(baseline + arch.closure[d] + [d])
        if disabled:
            skipped['dispatch'].append('%s: disable-optimization is set' % d)
            continue
        lost = [i for i in arch.closure[d] if i not in baseline and i not in dispatch]
        if lost:
            why = 'needs %s, which is not enabled' % ' '.join(lost)
        elif d in broken and d not in allow:
            why = '%s; -Dallow-broken-compilers=%s overrides' % (broken[d], d)
        elif results['dispatch:' + d] == 'yes':
            why = ''
        elif results['dispatch:' + d] == 'no':
            why = 'its test program does not compile with "%s"' % ' '.join(fl)
        else:
            why = 'the compiler rejects "%s"' % ' '.join(fl)
        if why:
            skipped['dispatch'].append('%s: %s' % (d, why))
            continue
        if d in broken:
            out.warning('allow-broken-compilers: dispatch target %s is built although %s' % (d, broken[d]))
        dispatch.append(d)
        target_flags[d] = fl
    # C++ only where the build has a C++ compiler (a C project may not).
    floor = {lang: floor_f[lang].result() if lang in floor_f else [] for lang in ('c', 'cpp')}
    known_broken = [n + ' (allowed)' if n in allow else n for n in names if n in broken]
    return {'raw': raw, 'baseline': baseline, 'dispatch': dispatch, 'baseline_flags': baseline_flags,
            'target_flags': target_flags, 'skipped': skipped, 'known_broken': known_broken, 'cc_desc': cc_desc,
            'floor': floor}


# --- outputs ----------------------------------------------------------------------
def asked_for(arch, text):
    """The features an option's text names outright, with all they imply:
    not those a keyword (max, native, ...) brings, nor those it removes."""
    asked, op = set(), ''
    for tok in grammar.split_list(text.upper()):
        if tok in ('+', '-'):
            op = tok
            continue
        if tok[:1] in ('+', '-'):
            op, tok = tok[0], tok[1:]
        name = arch.token.get(tok)
        if name and op != '-':
            asked.update([name] + arch.closure[name])
        op = ''
    return asked


def summary_skipped(a, arch, res):
    """The dispatch features the summary lists as skipped, with the reason:
    with summary-skipped=asked (the default), those cpu-dispatch named (and
    what they imply); what a keyword such as max brought and this compiler
    cannot build, or the baseline holds, is one count."""
    skipped = res['skipped']['dispatch']
    if a['option'].get('summary-skipped', 'asked') == 'all':
        return skipped
    asked = asked_for(arch, res['raw']['dispatch'])
    shown = [s for s in skipped if s.split(':', 1)[0] in asked]
    quiet = len(skipped) - len(shown)
    if quiet:
        shown.append('%d %s %s brought: in the baseline, or not built by this compiler '
                     '(-Dcpudispatch:summary-skipped=all lists them)'
                     % (quiet, 'more that' if shown else 'that', res['raw']['dispatch'].strip()))
    return shown


def fill(template_path, values):
    with open(template_path, encoding='utf-8') as fh:
        text = fh.read()
    for k, v in values.items():
        text = text.replace('@%s@' % k, v)
    return text


def config_h(a, arch, res):
    src = a['source_root']
    baseline, dispatch = res['baseline'], res['dispatch']
    desc = list(reversed(dispatch))
    opt = a['option']
    lines = lambda items: ''.join(l + '\n' for l in items)
    # One #if per header, on the lowest features that need it: a target
    # defines CPUD_TARGET_<F> for everything it implies, so those cover the rest.
    headers, done = [], []
    for n in baseline:
        for h in arch.row[n]['headers']:
            if h not in done:
                headers.append('#include <%s>' % h)
                done.append(h)
    for n in dispatch:
        for h in arch.row[n]['headers']:
            if h in done:
                continue
            done.append(h)
            users = []
            for m in dispatch:
                if h in arch.row[m]['headers'] and not any(u in arch.closure[m] for u in users):
                    users.append(m)
            headers += ['#if ' + ' || '.join('defined(CPUD_TARGET_%s)' % u for u in users), '#include <%s>' % h,
                        '#endif']
    conds = ['(%s)' % arch.row[n]['cdef'] for n in baseline if arch.row[n]['cdef']]
    guard = ''
    if conds:
        guard = lines(['/* Code built without the baseline flags would not be what the start-up',
                       ' * check promises: compile it with dependency(\'cpudispatch\'). */',
                       '#if !defined(CPUD_NO_BASELINE_GUARD) && !(%s)' % ' && '.join(conds),
                       '#error "cpudispatch: compiled without the baseline flags (%s); use dependency(\'cpudispatch\')"'
                       % ' '.join(res['baseline_flags']),
                       '#endif', ''])
    return fill(os.path.join(src, 'include', 'cpudispatch_config.h.in'), {
        'ARCH_UPPER': ''.join(c if c.isalnum() else '_' for c in arch.arch.upper()),
        'ARCH': arch.arch,
        'CPU_BASELINE': res['raw']['baseline'],
        'CPU_DISPATCH': res['raw']['dispatch'],
        'DISABLE_OPTIMIZATION_01': '1' if opt['disable-optimization'] == 'true' else '0',
        'DISABLE_OPTIMIZATION': opt['disable-optimization'],
        'STARTUP_CHECK_01': '1' if opt['mode'] == 'program' else '0',
        'MODE_LIBRARY_01': '1' if opt['mode'] == 'library' else '0',
        'MODE': opt['mode'],
        'LOADER_GROUP': res['loader'][0] or '(none)',
        'LOADER_ISA_NEEDED': '0x%x' % res['loader'][1],
        'COMPILER': res['cc_desc'],
        'ENV_PREFIX': res['who']['env_prefix'],
        'ENV_PREFIX_DERIVED_01': '1' if res['who']['env_prefix_derived'] else '0',
        'LIBRARY_NAME': res['who']['name'],
        'LIBRARY_VERSION': res['who']['version'],
        'BASELINE_N': str(len(baseline)),
        'BASELINE_NAMES': ' '.join(baseline),
        'BASELINE_X': ' '.join('X(%s)' % n for n in baseline),
        'BASELINE_HAVE': lines('#define CPUD_HAVE_%s 1' % n for n in baseline),
        'DISPATCH_N': str(len(dispatch)),
        'DISPATCH_NAMES': ' '.join(desc),
        'DISPATCH_X': ' '.join('X(%s)' % n for n in desc),
        'TARGET_HAVE': lines(l for n in dispatch for l in ('#ifdef CPUD_TARGET_%s' % n, '#define CPUD_HAVE_%s 1' % n,
                                                            '#endif')),
        'INTRINSIC_HEADERS': lines(headers),
        'BASELINE_GUARD': guard,
    })


def namespace_h(a, res):
    who = res['who']
    return fill(os.path.join(a['source_root'], 'include', 'cpudispatch_namespace.h.in'), {
        'NAME': who['name'] or '(unknown)',
        'VERSION': who['version'] or '(unknown)',
        'NAMESPACE': who['namespace'],
        'NAMESPACE_ID': '0x%08xu' % who['namespace_id'],
        'HOW': 'the namespace option' if a['option'].get('namespace') else
               'derived from the project\'s name, its version and the options',
    })


def features_h(a, arch):
    rows = []
    for interest, n in enumerate(arch.names, 1):
        r = arch.row[n]
        d = r['detect']
        arg = 0
        if not d:
            spec = 'CPUD_DETECT_GROUP, 0, 0, 0, 0'
        elif d[0] in ('cpuid', 'cpuid_ge'):
            spec = 'CPUD_DETECT_%s, %s, %d, CPUD_REG_%s, %d' % (d[0].upper(), hex_of(d[1]), d[2], d[3].upper(), d[4])
            arg = d[5] if d[0] == 'cpuid_ge' else 0
        elif d[0] == 'hwprobe':
            spec = 'CPUD_DETECT_HWPROBE, %d, 0, 0, %d' % (d[1], d[2])
            arg = d[3]
        else:
            spec = 'CPUD_DETECT_%s, 0, 0, 0, %d' % (d[0].upper(), d[1])
        rows.append('  X(%s, %d, %s, %s, %d) \\\n' % (n, interest, spec, hex_of(r.get('xcr0', 0)), arg))
    implies = ['  %s \\\n' % ' '.join('X(%s, %s)' % (n, i) for i in arch.closure[n]) for n in arch.names
               if arch.closure[n]]
    aliases = ['  X(%s, "%s") \\\n' % (n, al) for n in arch.names for al in arch.row[n].get('aliases', [])]
    # The sets as words, for C's static tables (C has no constexpr to build
    # them from pairs): X(NAME, WORD0, WORD1, ...), feature id i at bit
    # i % 64 of word i / 64, as in cpud_mask. The implied pairs stay too:
    # readable, and the tests' independent oracle.
    ids = {n: i for i, n in enumerate(arch.names, 1)}
    n_words = len(arch.names) // 64 + 1

    def words(name, members):
        w = [0] * n_words
        for m in members:
            w[ids[m] // 64] |= 1 << (ids[m] % 64)
        return '  X(%s, %s) \\\n' % (name, ', '.join('0x%xull' % x for x in w))
    implied_sets = [words(n, arch.closure[n]) for n in arch.names]
    adds_sets = [words(n, arch.adds[n]) for n in arch.names]
    removes_sets = [words(n, arch.removes[n]) for n in arch.names]
    return fill(os.path.join(a['source_root'], 'include', 'cpudispatch_features.h.in'), {
        'ARCH': arch.arch,
        'FEATURE_COUNT': str(len(arch.names)),
        'FEATURE_ROWS': ''.join(rows),
        'IMPLIES_ROWS': ''.join(implies),
        'ALIAS_ROWS': ''.join(aliases),
        'IMPLIED_SETS': ''.join(implied_sets),
        'ADDS_SETS': ''.join(adds_sets),
        'REMOVES_SETS': ''.join(removes_sets),
        'FOREIGN': ' '.join(arch.foreign),
        'RETIRED': ' '.join(arch.retired),
    })


def features_md(a, arch):
    md = []
    for t in arch.tables:
        md += ['', '## ' + t['arch'], '',
               '`min` = %s; native flag: %s.' % (' '.join(t['min']) or '(nothing)',
                                                '`%s`' % ' '.join(t['native']) if t['native'] else '(none)')]
        if t['retired']:
            md.append('Accepted and ignored (retired): %s.' % ' '.join(t['retired']))
        md += ['', '| name | interest | implies | flags | detection | also spelled |',
               '|---|---|---|---|---|---|']
        broken = []
        for interest, r in enumerate(t['features'], 1):
            d = r['detect']
            if not d:
                det = 'group'
            elif d[0] == 'cpuid':
                det = 'cpuid %s.%d %s[%d]' % (hex_of(d[1]), d[2], d[3], d[4])
            elif d[0] == 'cpuid_ge':
                det = 'cpuid %s.%d %s[%d:%d] >= %d' % (hex_of(d[1]), d[2], d[3], d[4] + 7, d[4], d[5])
            elif d[0] == 'hwprobe':
                det = 'riscv_hwprobe key %d bit %d%s' % (d[1], d[2], ', else hwcap[%d]' % d[3] if d[3] >= 0 else '')
            elif d[0] == 'vector_bytes':
                det = 'vector length == %d bytes' % d[1]
            else:
                det = '%s[%d]' % (d[0], d[1])
            if d and d[0] in ('cpuid', 'cpuid_ge') and r.get('xcr0', 0) != 0:
                det += ', XCR0 & %s' % hex_of(r['xcr0'])
            flags = '`%s`' % ' '.join(r['flags']) if r['flags'] else '-'
            md.append('| %s | %d | %s | %s | %s | %s |' % (r['name'], interest, ' '.join(r['implies']), flags, det,
                                                         ' '.join(r.get('aliases', []))))
            for b in r.get('broken', []):
                broken.append('- %s: %s `%s`: %s' % (r['name'], BROKEN_COMPILERS[b['compiler']], ' '.join(b['versions']),
                                                     b['why']))
        if broken:
            md += ['', 'Known compiler bugs:', ''] + broken
        adds, removes = removal_sets(t)
        groups = [r for r in t['features'] if 'adds_to' in r]
        if groups:
            md += ['', 'Groups: what each adds to its base. `-NAME` in the options and NAME in '
                   '`<PREFIX>_DISABLE_CPU_FEATURES` turn off the group, what it adds and everything implying '
                   'one of them (docs/options.md, "Removing a feature or group").', '',
                   '| group | builds on | adds | `-NAME` / DISABLE also turns off |', '|---|---|---|---|']
            for r in groups:
                n = r['name']
                more = [x for x in removes[n] if x != n and x not in adds[n]]
                md.append('| %s | %s | %s | %s |' % (n, ' '.join(r['adds_to']) or '`min`', ' '.join(adds[n]),
                                                     ' '.join(more) or '-'))
    return fill(os.path.join(a['source_root'], 'docs', 'features.md.in'), {'TABLES': '\n'.join(md)})


def main():
    a = parse_args(sys.argv[1:])
    if a.get('clear_dir'):
        shutil.rmtree(a['clear_dir'], ignore_errors=True)
    out = Out(a.get('front_end', 'meson'))
    try:
        arch, res = configure(a, out)
    except ConfigureError as e:
        out.emit('error', str(e))
        print('\n'.join(out.lines))
        return 0
    os.makedirs(a['out_dir'], exist_ok=True)
    arch.baseline, arch.targets = res['baseline'], res['dispatch']
    arch.target_flags = res['target_flags']
    arch.disabled = a['option']['disable-optimization'] == 'true'
    arch.namespace = res['who']['namespace']
    files = {os.path.join('include', 'cpudispatch_config.h'): config_h(a, arch, res),
             os.path.join('include', 'cpudispatch_namespace.h'): namespace_h(a, res),
             os.path.join('include', 'cpudispatch_features.h'): features_h(a, arch),
             os.path.join('include', 'cpudispatch_targets.txt'): arch.text()}
    if a['main']:
        files[os.path.join('docs', 'features.md')] = features_md(a, arch)
    for rel, text in files.items():
        write_if_changed(os.path.join(a['build_root'], rel), text)
    features_dir = os.path.join(a['source_root'], 'src', 'features')
    out.list('names', arch.names)
    # What Meson must watch: an edited table reconfigures, and in
    # cpudispatch's own builds an edited test program too.
    out.list('tables', table_paths(features_dir))
    if a['main']:
        out.list('test-programs', [arch.test_path[n] for n in arch.names])
    out.list('detect-source', [arch.table['detect_source']])
    out.list('native', arch.table['native'])
    out.list('floor', arch.floor_flags())
    out.list('floor-c', res['floor']['c'])
    out.list('floor-cpp', res['floor']['cpp'])
    out.list('baseline', res['baseline'])
    out.list('dispatch', res['dispatch'])
    out.list('baseline-flags', res['baseline_flags'])
    out.list('skipped-baseline', res['skipped']['baseline'])
    out.list('skipped-dispatch', summary_skipped(a, arch, res))
    out.list('known-broken', res['known_broken'])
    out.list('compiler', [res['cc_desc']])
    who = res['who']
    out.list('identity', [who['name'], who['version'], who['env_prefix'], who['namespace']])
    if a.get('demo'):
        out.list('demo-words', demo_words(a))
    print('\n'.join(out.lines))
    return 0


def demo_words(a):
    """The demo source's words, its header written: the generator's own
    code, on the targets file just written (one process less per configure)."""
    import cpudispatch_gen as gen
    source, out_dir, wanted = a['demo']
    cmd = lambda lang: a['compiler'][lang][2] if lang in a['compiler'] else []
    os.makedirs(out_dir, exist_ok=True)
    loop = gen.Loop(os.path.join(os.path.abspath(a['build_root']), 'include', 'cpudispatch_targets.txt'),
                    os.path.abspath(out_dir), cmd('c'), cmd('cpp'),
                    os.path.abspath(a['clear_dir']) if a['main'] and a.get('clear_dir') else None)
    # From the source's folder, as the loop runs it there: its words name
    # it relative to that folder, whatever the path holds.
    os.chdir(os.path.dirname(os.path.abspath(source)))
    return loop.run([(os.path.basename(source), wanted)])


if __name__ == '__main__':
    sys.exit(main())
