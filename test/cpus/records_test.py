#!/usr/bin/env python3
"""Recorded real CPUs through `cpudispatch-info --cpu-dump FILE --json`:
every record of this build's arch (test/cpus/<arch>/*.txt) must give exactly
the features its `# expect:` line names (written from what is published about
the CPU, never from cpudispatch's tables), select for each demo function the
highest compiled target among them, and be refused by the start-up check
exactly when it lacks part of the build's baseline; every record of another
arch must be refused with one line and status 2. Under MESON_EXE_WRAPPER
(qemu) the host CPU differs and the answers must not.

x86_64 and 32-bit x86 read the same CPUID (a 32-bit program on an x86-64
CPU sees what a 64-bit one does), so each replays the other's records too,
their `# expect:` names less those that exist in the other mode only
(test/cpu_facts.py's X86_ONLY_IN, written from the ISA, not from the tables).

  records_test.py PATH/TO/cpudispatch-info RECORDS_DIR
"""
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import cpu_facts  # noqa: E402  (test/cpu_facts.py)
import exe_wrapper  # noqa: E402  (test/exe_wrapper.py)

INFO, ROOT = sys.argv[1], sys.argv[2]
WRAPPER = exe_wrapper.command()
EXIT_BASELINE, EXIT_BAD_DUMP = 69, 2
HEADER = ('cpu', 'source', 'expect')
failures = []


# Names of one x86 mode only (test/cpu_facts.py): 64-bit mode's CX16, LAHF,
# psABI levels, CMPCCXADD, AMX, APX; 32-bit x86's MMX, part of x86-64
# itself, so every x86_64 record's CPU has it and no x86_64 `expect:` line
# names it.
X86 = ('x86', 'x86_64')
ONLY_IN = cpu_facts.X86_ONLY_IN
IMPLIED_BY_ARCH = {('x86', 'x86_64'): ['MMX']}  # (build, record's arch): names the record's arch has by definition


def mine(arch):
    """Whether a record of `arch` describes a CPU this build replays."""
    return arch == BUILD_ARCH or (arch in X86 and BUILD_ARCH in X86)


def read_record(path):
    """The header fields ({'cpu': ..., 'source': ..., 'expect': [...]})."""
    fields, order = {}, []
    for line in open(path):
        if not line.startswith('#'):
            continue
        key, _, val = line[1:].strip().partition(':')
        if key in HEADER + ('note',) and ' ' not in key:
            order.append(key)
            fields[key] = fields.get(key, '') + ' ' + val.strip()
    missing = [k for k in HEADER if k not in fields]
    if missing:
        failures.append('%s: header lacks %s' % (path, ', '.join(missing)))
        return None
    first = [k for i, k in enumerate(order) if k in HEADER and k not in order[:i]]
    if first != list(HEADER):
        failures.append('%s: header fields not in the order cpu, source, expect' % path)
    fields['expect'] = fields['expect'].split()
    return fields


UNDER_WINE = any(os.path.basename(w).startswith('wine') for w in WRAPPER[:1])


def run(path):
    p = subprocess.run(WRAPPER + [INFO, '--json', '--cpu-dump', path], capture_output=True, text=True)
    if UNDER_WINE and p.returncode == 1 and not p.stdout and not p.stderr:
        # Status 1 and not a byte written: Wine failed to start the program
        # (seen once in CI under load, 1 run of about 1,900); cpudispatch-info
        # itself exits 0, 2 or 69, each with a line. One more try, said.
        print('%s: Wine gave status 1 and no output; run again' % path)
        p = subprocess.run(WRAPPER + [INFO, '--json', '--cpu-dump', path], capture_output=True, text=True)
    p.stderr = ''.join(l for l in p.stderr.splitlines(True) if "TCG doesn't support" not in l)
    return p


def check_record(path, arch):
    rec = read_record(path)
    if rec is None:
        return
    if arch != BUILD_ARCH:  # the other x86 mode's record
        rec['expect'] = (IMPLIED_BY_ARCH.get((BUILD_ARCH, arch), []) +
                         [n for n in rec['expect'] if n not in ONLY_IN[arch]])
    p = run(path)
    try:
        data = json.loads(p.stdout)
    except ValueError:
        failures.append('%s: no JSON (status %d): %s' % (path, p.returncode, p.stderr.strip()))
        return
    names = list(data['features'])
    expect = rec['expect']
    unknown = [n for n in expect if n not in names]
    if unknown:
        failures.append('%s: expects %s, not features of this build\'s table' % (path, ' '.join(unknown)))
    if data['cpu'] != path:
        failures.append('%s: the report is not of the dump (cpu = %r)' % (path, data['cpu']))
    want = [n for n in names if n in expect]
    if data['detected'] != want:
        got = set(data['detected'])
        failures.append('%s (%s):\n    missing %s\n    extra   %s' % (
            path, rec['cpu'].strip(), ' '.join(n for n in want if n not in got) or '-',
            ' '.join(n for n in data['detected'] if n not in expect) or '-'))
    lacking = [n for n in data['baseline'] if n not in expect]
    if lacking:
        ok = (p.returncode == EXIT_BASELINE and data['startup'] and all(n in data['startup'] for n in lacking))
        if not ok:
            failures.append('%s: lacks baseline %s: status %d and a start-up refusal naming it expected, got %d, %r'
                            % (path, ' '.join(lacking), EXIT_BASELINE, p.returncode, data['startup']))
    elif p.returncode != 0 or data['startup'] is not None:
        failures.append('%s: status %d, startup %r: the CPU has the baseline %s'
                        % (path, p.returncode, data['startup'], ' '.join(data['baseline'])))
    # The dump's vector length (the record's published one), reported only
    # with the feature of those vectors: 0 for a CPU without it.
    vl = next((int(l.split(':')[1]) for l in open(path) if l.startswith(('SVE_VL:', 'VLENB:'))), 0)
    want_vl = vl if VECTORS.get(BUILD_ARCH) in expect else 0
    if data['vector_bytes'] != want_vl:
        failures.append('%s: vector_bytes %r, %d expected' % (path, data['vector_bytes'], want_vl))
    # Start-up's CPUID instructions there (x86), replayed with a model of
    # glibc's copy of leaves 1, 7.0, 7.1 and 0x80000001 (glibc >= 2.33):
    # none, since start-up reads only the build's features and their leaves
    # are all in the copy, except AVX10_2's leaf 0x24 (and leaf 0 for the
    # maximum). Without a copy: leaves 0, 1, 7.0, 7.1, 0x24, 0x80000000 and
    # 0x80000001 at most, once each.
    if BUILD_ARCH in X86:
        cost = data['startup_cpuid']
        bound = 2 if 'AVX10_2' in data['dispatch'] else 0
        if cost is None or cost['glibc_copy'] > bound or not 2 <= cost['no_copy'] <= 7:
            failures.append('%s: start-up CPUID %r: with glibc\'s copy at most %d, without it 2 to 7 expected'
                            % (path, cost, bound))
    usable = set(data['detected']) | set(data['baseline'])
    for fn, f in data['functions'].items():
        # compiled: highest interest first; a target's name is a feature
        # whose usable bit already means "and all it implies".
        best = next((t for t in f['compiled'] if t == 'baseline' or t in usable), 'none')
        if f['selected'] != best:
            failures.append('%s: %s selected %s, %s expected' % (path, fn, f['selected'], best))


def says_its_arch(path):
    """Whether a dump names its arch: CPUID leaves, AT_PLATFORM, glibc's
    hwcap names, or lines only one arch has. A bare hwcap word does not
    (riscv64 kernels pass no AT_PLATFORM): any hwcap build reads it."""
    for line in open(path):
        key, _, val = line.partition(':')
        if line.startswith(('CPUID ', '   0x', 'AT_PLATFORM', 'HWPROBE', 'SVE_VL', 'VLENB', 'XCR0')):
            return True
        if key.strip() in ('AT_HWCAP', 'AT_HWCAP2') and not all(
                c in '0123456789abcdefABCDEFxX' for c in val.strip()):
            return True
    return False


unnamed = []


def check_foreign(path, arch):
    # x86 builds read CPUID only: they refuse every auxiliary-vector dump.
    if BUILD_ARCH not in X86 and arch not in X86 and not says_its_arch(path):
        unnamed.append(path)
        return
    p = run(path)
    lines = p.stderr.strip().splitlines()
    if p.returncode != EXIT_BAD_DUMP or len(lines) != 1 or path not in lines[0] or p.stdout:
        failures.append('%s (%s) on a %s build: status %d and one line naming the file expected, got %d: %r'
                        % (path, arch, BUILD_ARCH, EXIT_BAD_DUMP, p.returncode, p.stderr))


# The feature whose scalable vectors cpudispatch-info's vector_bytes measures.
VECTORS = {'aarch64': 'SVE', 'riscv64': 'RVV'}
live = subprocess.run(WRAPPER + [INFO, '--json'], capture_output=True, text=True, check=True)
BUILD_ARCH = json.loads(live.stdout)['arch']
LIVE = json.loads(live.stdout)
# This CPU's start-up (x86): every constructor before main. With the C
# library's copy, the same bound as the records' (this CPU's bits: the
# replay of a recorded CPU cannot know them); without one, 7 leaves.
if BUILD_ARCH in X86:
    cost = LIVE['startup_cpuid']
    bound = (2 if 'AVX10_2' in LIVE['dispatch'] else 0) if cost and cost['libc_copy'] else 7
    if cost is None or cost['executed'] > bound:
        failures.append('this CPU: start-up executed %r CPUID, at most %d expected' % (cost, bound))
# This CPU (or qemu model): a length exactly when the vectors are usable,
# a whole number of 128-bit granules up to the architectures' 2048 bits.
vb = LIVE['vector_bytes']
if VECTORS.get(BUILD_ARCH) and LIVE['features'].get(VECTORS[BUILD_ARCH]):
    if not (vb >= 16 and vb % 16 == 0 and vb <= 256):
        failures.append('this CPU: %s usable, vector_bytes %r' % (VECTORS[BUILD_ARCH], vb))
elif vb != 0:
    failures.append('this CPU: no usable scalable vectors, vector_bytes %r (0 expected)' % vb)
arches = sorted(d for d in os.listdir(ROOT) if os.path.isdir(os.path.join(ROOT, d)))
count = 0
for arch in arches:
    for path in sorted(glob.glob(os.path.join(ROOT, arch, '*.txt'))):
        count += 1
        if mine(arch):
            check_record(path, arch)
        else:
            check_foreign(path, arch)
own = glob.glob(os.path.join(ROOT, BUILD_ARCH, '*.txt'))
replayed = [p for a in arches if mine(a) for p in glob.glob(os.path.join(ROOT, a, '*.txt'))]
# An arch without a feature table detects nothing: no record to replay.
tableless = not LIVE['features']
if not own and not tableless:
    failures.append('no records for %s under %s' % (BUILD_ARCH, ROOT))
for f in failures:
    print('FAIL:', f)
print('%d records (%d of %s, %d replayed; %d of other arches do not name theirs), %d failures'
      % (count, len(own), BUILD_ARCH, len(replayed), len(unnamed), len(failures)))
if tableless and not failures:
    print('SKIP: %s has no feature table, so no record of it to replay (the other arches\' records were read)'
          % BUILD_ARCH)
    sys.exit(77)
sys.exit(1 if failures else 0)
