#!/usr/bin/env python3
"""The two recipes of docs/architecture.md, followed once in a copy of the
configure half: adding a feature touches its table row and its test program,
adding an arch its folder (table and test programs); no code changes. Each
copy is configured by src/build_side/cpudispatch_configure.py with this build's C
compiler, and what it writes must carry the new feature or arch:

  recipes.py SOURCE_ROOT CC_ID CC_VERSION CC...     exit 0 pass, 1 fail

The new arch ("toyarch") is configured as the host arch with the real
compiler: its one feature's flag is a define the compiler always accepts,
so the checks run as they would for a real arch. The control: the same copy
without the new row must not carry it (the generated files come from the
tables, not from somewhere the test wrote)."""
import os
import platform
import shutil
import subprocess
import sys
import tempfile

root, cc_id, cc_ver, cc = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
failures = []
if platform.machine() not in ('x86_64', 'AMD64'):
    # The copy adds its row to the x86_64 table and configures that table
    # with this build's compiler, which must then be an x86_64 one.
    print('SKIP: the recipes are followed on the x86_64 table; this host is %s' % platform.machine())
    sys.exit(77)

NEW_ROW = """    {'name': 'TOYFEAT', 'implies': ['SSE2'], 'flags': ['-DCPUD_TOYFEAT'],
     'headers': [], 'cdef': 'defined(CPUD_TOYFEAT)', 'detect': ['cpuid', 1, 0, 'ecx', 31]},
"""
TEST_PROGRAM = 'int main(void) {\n#ifndef CPUD_TOYFEAT\n#error no flag\n#endif\n  return 0;\n}\n'
TOY_TABLE = """# A made-up arch (test/configure/recipes.py).
{
  'march_ext_sep': '+',
  'detect_source': 'detect_none.c',
  'min': [],
  'native': [],
  'floor': [],
  'retired': [],
  'features': [
    {'name': 'TOY1', 'implies': [], 'flags': ['-DCPUD_TOY1'], 'headers': [], 'cdef': 'defined(CPUD_TOY1)',
     'detect': ['hwcap', 3], 'aliases': ['TOY_ONE']},
  ],
}
"""


def copy_tree(dst):
    """The configure half: the build side's scripts, tables, runtime sources
    (detect_source), templates."""
    for d in (os.path.join('src', 'build_side'), os.path.join('src', 'features'), os.path.join('src', 'runtime')):
        shutil.copytree(os.path.join(root, d), os.path.join(dst, d))
    os.makedirs(os.path.join(dst, 'include'))
    os.makedirs(os.path.join(dst, 'docs'))
    for f in ('cpudispatch_config.h.in', 'cpudispatch_features.h.in', 'cpudispatch_namespace.h.in'):
        shutil.copy(os.path.join(root, 'include', f), os.path.join(dst, 'include', f))
    shutil.copy(os.path.join(root, 'docs', 'features.md.in'), os.path.join(dst, 'docs', 'features.md.in'))


def configure(src, arch, dispatch):
    build = os.path.join(src, 'build')
    os.makedirs(os.path.join(build, 'cfg'), exist_ok=True)  # Meson makes it
    cmd = [sys.executable, os.path.join(src, 'src', 'build_side', 'cpudispatch_configure.py'), '--source-root', src,
           '--build-root', build, '--out-dir', os.path.join(build, 'cfg'), '--arch', arch, '--main-project']
    for k, v in (('cpu-baseline', 'min'), ('cpu-dispatch', dispatch), ('allow-broken-compilers', ''),
                 ('env-prefix', 'CPUD'), ('disable-optimization', 'false'), ('mode', 'program')):
        cmd += ['--option', k, v]
    for lang in ('c', 'cpp'):
        cmd += ['--compiler', lang, cc_id, cc_ver, '--'] + cc + ['---', '--args', lang, '---']
    r = subprocess.run(cmd, capture_output=True, text=True)
    lines = r.stdout.splitlines()
    errors = [l for l in lines if l.startswith('error\t')]
    if r.returncode != 0 or errors:
        failures.append('%s: configure failed: %s%s' % (arch, r.stderr.strip(), ' '.join(errors)))
        return None
    out = {'lists': {l.split('\t')[1]: l.split('\t')[2] for l in lines if l.startswith('list\t')}}
    for rel in ('include/cpudispatch_features.h', 'include/cpudispatch_config.h', 'include/cpudispatch_targets.txt',
                'docs/features.md'):
        with open(os.path.join(build, rel)) as fh:
            out[rel] = fh.read()
    return out


def expect(what, cond):
    print('%-70s %s' % (what, 'ok' if cond else 'FAIL'))
    if not cond:
        failures.append(what)


with tempfile.TemporaryDirectory() as tmp:
    # Recipe 1: a feature = its row + its test program.
    src = os.path.join(tmp, 'feature')
    copy_tree(src)
    control = configure(src, 'x86_64', 'SSE3')
    table = os.path.join(src, 'src', 'features', 'x86_64', 'table.py')
    text = open(table).read()
    anchor = "    {'name': 'SSE3',"
    with open(table, 'w') as fh:
        fh.write(text.replace(anchor, NEW_ROW + anchor, 1))
    with open(os.path.join(src, 'src', 'features', 'x86_64', 'toyfeat.c'), 'w') as fh:
        fh.write(TEST_PROGRAM)
    got = configure(src, 'x86_64', 'TOYFEAT')
    if control and got:
        expect('control: without the row, no TOYFEAT anywhere',
               all('TOYFEAT' not in v for k, v in control.items() if k != 'lists'))
        expect('the runtime table has it, after SSE2', 'X(SSE2,' in got['include/cpudispatch_features.h']
               and 'X(TOYFEAT, 3, CPUD_DETECT_CPUID' in got['include/cpudispatch_features.h'])
        expect('it implies SSE2 and SSE (closure)', 'X(TOYFEAT, SSE) X(TOYFEAT, SSE2)'
               in got['include/cpudispatch_features.h'])
        expect('cpu-dispatch=TOYFEAT enables it (its test program compiled)',
               got['lists'].get('dispatch') == 'TOYFEAT')
        expect('the model file names it', 'feature TOYFEAT SSE SSE2' in got['include/cpudispatch_targets.txt'])
        expect('docs/features.md lists it', '| TOYFEAT | 3 | SSE2 |' in got['docs/features.md'])

    # Recipe 2: an arch = its folder (table, test programs).
    src = os.path.join(tmp, 'arch')
    copy_tree(src)
    os.makedirs(os.path.join(src, 'src', 'features', 'toyarch'))
    with open(os.path.join(src, 'src', 'features', 'toyarch', 'table.py'), 'w') as fh:
        fh.write(TOY_TABLE)
    with open(os.path.join(src, 'src', 'features', 'toyarch', 'toy1.c'), 'w') as fh:
        fh.write(TEST_PROGRAM.replace('CPUD_TOYFEAT', 'CPUD_TOY1'))
    toy = configure(src, 'toyarch', 'max')
    x86 = configure(src, 'x86_64', 'min')
    if toy and x86:
        expect('toyarch: its one feature is a dispatch target', toy['lists'].get('dispatch') == 'TOY1')
        expect('toyarch: its detection source is the table\'s', toy['lists'].get('detect-source') == 'detect_none.c')
        expect('toyarch: the alias is accepted', 'X(TOY1, "TOY_ONE")' in toy['include/cpudispatch_features.h'])
        expect('x86_64: toyarch\'s names are another arch\'s (ignored, not unknown)',
               'foreign TOY1 toyarch' in x86['include/cpudispatch_targets.txt']
               and 'TOY_ONE' in x86['include/cpudispatch_features.h'])
        expect('x86_64: the table list to watch has toyarch\'s', 'toyarch' in x86['lists'].get('tables', ''))
        expect('docs/features.md has a toyarch section', '## toyarch' in x86['docs/features.md'])

if failures:
    print('\n'.join('FAIL: ' + f for f in failures))
    sys.exit(1)
print('PASS')
