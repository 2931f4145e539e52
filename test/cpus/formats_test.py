#!/usr/bin/env python3
"""The dump grammar of `cpudispatch-info --cpu-dump FILE`, case by case
(docs/runtime.md): each case is a small dump written here, run through the
program the way a user runs it, with what it must detect (names that must
and must not be in the JSON `detected` list) or the one-line error and
status 2 it must give. Cases of this build's arch run; the auxv cases of
every arch also run on x86_64 and must be refused there.

  formats_test.py PATH/TO/cpudispatch-info
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import cpu_facts  # noqa: E402  (test/cpu_facts.py)
import exe_wrapper  # noqa: E402  (test/exe_wrapper.py)

INFO = sys.argv[1]
WRAPPER = exe_wrapper.command()
failures = []


def leaf_r(leaf, sub, a, b, c, d):
    return '   0x%08x 0x%02x: eax=0x%08x ebx=0x%08x ecx=0x%08x edx=0x%08x' % (leaf, sub, a, b, c, d)


def leaf_i(leaf, sub, a, b, c, d):
    return 'CPUID %08X: %08X-%08X-%08X-%08X [SL %02X]' % (leaf, a, b, c, d, sub)


# A Haswell-like CPU, by bits (Intel SDM vol. 2, CPUID): leaf 1 ECX SSE3(0)
# SSSE3(9) FMA(12) CX16(13) SSE4.1(19) SSE4.2(20) MOVBE(22) POPCNT(23)
# AES(25) OSXSAVE(27) AVX(28) F16C(29) PCLMUL(1); EDX MMX(23) SSE(25) SSE2(26);
# leaf 7 EBX BMI1(3) AVX2(5) BMI2(8); 0x80000001 ECX LAHF(0) LZCNT(5).
L1_ECX = (1 << 0) | (1 << 1) | (1 << 9) | (1 << 12) | (1 << 13) | (1 << 19) | (1 << 20) | (1 << 22) | \
    (1 << 23) | (1 << 25) | (1 << 27) | (1 << 28) | (1 << 29)
L1_EDX = (1 << 23) | (1 << 25) | (1 << 26)
L7_EBX = (1 << 3) | (1 << 5) | (1 << 8)
AVX512F = 1 << 16  # leaf 7 EBX
BF16 = 1 << 5      # leaf 7 subleaf 1 EAX


def x86(fmt=leaf_r, max_basic=0xd, max_ext=0x80000001, l1_ecx=L1_ECX, l7_ebx=L7_EBX, l7_1_eax=0,
        xsave_mask=None, extra=()):
    lines = [fmt(0, 0, max_basic, 0x756E6547, 0x6C65746E, 0x49656E69),
             fmt(1, 0, 0x306C3, 0, l1_ecx, L1_EDX),
             fmt(7, 0, 1, l7_ebx, 0, 0),
             fmt(7, 1, l7_1_eax, 0, 0, 0)]
    if xsave_mask is not None:
        lines.append(fmt(0xd, 0, xsave_mask, 0, 0, 0))
    lines += [fmt(0x80000000, 0, max_ext, 0, 0, 0), fmt(0x80000001, 0, 0, 0, 1 | (1 << 5), 0)]
    return '\n'.join(list(lines) + list(extra)) + '\n'


def ok(has=(), lacks=()):
    return ('ok', set(has), set(lacks))


def err(*needles):
    return ('error', needles)


HASWELL_R = x86(xsave_mask=0x7)
CASES = {
    'x86_64': [
        ('cpuid -r, XCR0 from leaf 0xD', HASWELL_R, ok({'SSE42', 'AVX2', 'X86_V3', 'LAHF'}, {'AVX512F'})),
        ('InstLatx64 lines', x86(leaf_i, xsave_mask=0x7), ok({'AVX2', 'X86_V3'})),
        ('InstLatx64 without [SL]: subleaf 0',
         x86(leaf_i, xsave_mask=0x7).replace(' [SL 00]', ''), ok({'AVX2'})),
        ('cpuid -r under CPU headers: the first CPU counts',
         'CPU 0:\n' + HASWELL_R + 'CPU 1:\n' + x86(l7_ebx=0, xsave_mask=0x7), ok({'AVX2'})),
        ('... and not any CPU',
         'CPU 0:\n' + x86(l7_ebx=0, xsave_mask=0x7) + 'CPU 1:\n' + HASWELL_R, ok({'AVX'}, {'AVX2'})),
        ('InstLatx64 CPU# blocks: the first counts',
         'CPU#000 AffMask: 0x1\n' + x86(leaf_i, l7_ebx=0, xsave_mask=0x7) +
         'CPU#001 AffMask: 0x2\n' + x86(leaf_i, xsave_mask=0x7), ok({'AVX'}, {'AVX2'})),
        ('CRLF line ends', HASWELL_R.replace('\n', '\r\n'), ok({'AVX2'})),
        ('comments and unknown lines are skipped',
         '# a note\nsome tool banner: v1\n' + HASWELL_R + 'brand = "Intel(R) Core(TM)"\n', ok({'AVX2'})),
        ('XCR0 line wins over leaf 0xD', x86(xsave_mask=0xe7, l7_ebx=L7_EBX | AVX512F, extra=['XCR0: 0x7']),
         ok({'AVX2'}, {'AVX512F'})),
        ('XCR0 line without 0x', x86(l7_ebx=L7_EBX | AVX512F, extra=['XCR0: e7']), ok({'AVX512F'})),
        ('leaf 0xD says ZMM state', x86(xsave_mask=0xe7, l7_ebx=L7_EBX | AVX512F), ok({'AVX512F'})),
        ('no XCR0 line, no leaf 0xD: no OS state', x86(), ok({'SSE42', 'BMI2'}, {'AVX', 'AVX2'})),
        ('OSXSAVE clear: the XCR0 line is not used',
         x86(l1_ecx=L1_ECX & ~(1 << 27), extra=['XCR0: 0xe7']), ok({'SSE42', 'BMI2'}, {'AVX', 'AVX2'})),
        ('maximum basic leaf 6: leaf 7 reads as zero', x86(max_basic=6, extra=['XCR0: 0x7']),
         ok({'AVX'}, {'AVX2', 'BMI'})),
        ('maximum basic leaf 0xC: leaf 0xD reads as zero', x86(max_basic=0xc, xsave_mask=0x7),
         ok({'SSE42'}, {'AVX'})),
        ('maximum extended leaf 0x80000000: 0x80000001 reads as zero',
         x86(max_ext=0x80000000, xsave_mask=0x7), ok({'AVX2'}, {'LAHF', 'LZCNT'})),
        ('a subleaf is its own leaf: BF16 in 7.1 counts', x86(l7_ebx=L7_EBX | AVX512F | (1 << 30), l7_1_eax=BF16,
                                                            extra=['XCR0: 0xe7']), ok({'AVX512BF16'})),
        ('... and the same bit in 7.0 EAX does not',
         x86(l7_ebx=L7_EBX | AVX512F | (1 << 30), extra=['XCR0: 0xe7']).replace(
             leaf_r(7, 0, 1, L7_EBX | AVX512F | (1 << 30), 0, 0), leaf_r(7, 0, BF16, L7_EBX | AVX512F | (1 << 30), 0, 0)),
         ok({'AVX512F'}, {'AVX512BF16'})),
        ('junk', 'hello\nworld\n', err('describes no CPU')),
        ('empty file', '', err('describes no CPU')),
        ('a bad InstLatx64 line names its line', 'CPUID 00000000: 0000000D-756E6547\n', err(':1:', 'InstLatx64')),
        ('a bad cpuid -r line', '   0x00000001 0x00: eax=0x1 ebx=zz ecx=0x0 edx=0x0\n', err(':1:', 'cpuid -r')),
        ('a bad XCR0', HASWELL_R + 'XCR0: seven\n', err('XCR0')),
        ('only an XCR0 line', 'XCR0: 0x7\n', err('no CPUID leaf')),
        ('an auxv dump', 'AT_HWCAP: 0x2\nAT_PLATFORM: aarch64\n', err('auxiliary-vector', 'aarch64')),
        ('a glibc-named ppc64le auxv dump', 'AT_HWCAP:  vsx arch_2_06 fpu altivec ppc64\n', err('ppc64le')),
    ],
    'aarch64': [
        ('hex without 0x (glibc)', 'AT_HWCAP:             2\nAT_HWCAP2:            0x0\n', ok({'ASIMD'}, {'SVE'})),
        ('hex with 0x, SVE (hwcap bit 22)', 'AT_HWCAP: 0x400402\nAT_HWCAP2: 0x0\n', ok({'SVE', 'ASIMDHP'})),
        ('hwcap2: SVE2 (bit 1)', 'AT_HWCAP: 0x400402\nAT_HWCAP2: 0x2\n', ok({'SVE2'})),
        ('no AT_HWCAP2 line', 'AT_HWCAP: 0x400402\n', ok({'SVE'}, {'SVE2'})),
        ('qemu-user prints its host vector first: the last counts',
         'AT_HWCAP: 178bfbff\nAT_HWCAP2: 0x2\nAT_PLATFORM: x86_64\nAT_PHDR: 0x40\nAT_HWCAP: 2\nAT_HWCAP2: 0x0\n'
         'AT_PLATFORM: aarch64\n', ok({'ASIMD'}, {'SVE', 'SVE2'})),
        ('AT_PLATFORM of another arch', 'AT_HWCAP: 2\nAT_PLATFORM: x86_64\n', err('x86_64')),
        ('AT_PLATFORM of a 32-bit arm program', 'AT_HWCAP: 2\nAT_PLATFORM: v8l\n', err('arm')),
        ('32-bit arm names', 'AT_HWCAP: half thumb vfp neon vfpv4\n', err('arm')),
        ('s390x names', 'AT_HWCAP:    esan3 zarch stfle msa ldisp eimm etf3eh highgprs vx\n', err('s390x')),
        ('a CPUID dump', HASWELL_R, err('x86')),
        ('not hex, not a name', 'AT_HWCAP: 0xZZ\n', err('"0xZZ"')),
        ('junk', 'hello\n', err('describes no CPU')),
    ],
    'ppc64le': [
        ('glibc prints names', 'AT_HWCAP:  vsx arch_2_06 dfp fpu altivec ppc64\nAT_HWCAP2: darn ieee128 arch_3_00 '
         'vcrypto tar isel arch_2_07\n', ok({'VSX', 'VSX2', 'VSX3'}, {'VSX4'})),
        ('hex words', 'AT_HWCAP: 0xdc0065c2\nAT_HWCAP2: 0x80040000\n', ok({'VSX2'}, {'VSX3'})),
        ('an unknown name', 'AT_HWCAP: vsx frobnicate\n', err('"frobnicate"')),
        ('s390x names', 'AT_HWCAP: esan3 zarch vx\n', err('s390x')),
        ('a CPUID dump', HASWELL_R, err('x86')),
    ],
    's390x': [
        ('glibc prints names', 'AT_HWCAP:    esan3 zarch stfle msa ldisp eimm etf3eh highgprs vx vxe\n',
         ok({'VX', 'VXE'}, {'VXE2'})),
        ('hex word', 'AT_HWCAP: 0xa800\n', ok({'VX', 'VXE', 'VXE2'})),
        ('ppc64le names', 'AT_HWCAP: vsx altivec\n', err('ppc64le')),
        ('a CPUID dump', HASWELL_R, err('x86')),
    ],
    # 32-bit arm: the words of arch/arm/include/uapi/asm/hwcap.h (HWCAP_NEON
    # 12, HWCAP_VFPv4 16, HWCAP_ASIMDHP 23, HWCAP_ASIMDDP 24, HWCAP_ASIMDFHM
    # 25; HWCAP2_CRC32 4), by glibc's names or as hex.
    'arm': [
        ('glibc prints names (qemu-arm -cpu cortex-a15)',
         'AT_HWCAP:       swp half thumb fastmult vfp edsp thumbee neon vfpv3 tls vfpv4 idiva idivt vfpd32 lpae\n'
         'AT_HWCAP2:      \nAT_PLATFORM:     v7l\n', ok({'NEON', 'NEON_FP16', 'NEON_VFPV4'}, {'ASIMD'})),
        ('NEON without VFPv4 (a Cortex-A8 or A9)',
         'AT_HWCAP: swp half thumb fastmult vfp edsp thumbee neon vfpv3 tls vfpd32\n',
         ok({'NEON'}, {'NEON_FP16', 'NEON_VFPV4'})),
        ('VFPv3-D16 without NEON (hex: swp half thumb fastmult vfp edsp vfpv3 vfpv3d16 tls)', 'AT_HWCAP: 0xe0d7\n',
         ok((), {'NEON', 'NEON_FP16'})),
        ('hwcap2 names: Armv8 in AArch32 (crc32)',
         'AT_HWCAP: half thumb fastmult vfp edsp neon vfpv3 tls vfpv4 idiva idivt vfpd32 lpae evtstrm\n'
         'AT_HWCAP2: crc32\nAT_PLATFORM: v8l\n', ok({'ASIMD', 'NEON_VFPV4'}, {'ASIMDHP', 'ASIMDDP'})),
        ('hex words with Linux 6.2 bits: fphp asimdhp asimddp, no asimdfhm',
         'AT_HWCAP: 0x1ffb0d6\nAT_HWCAP2: 0x1f\n', ok({'ASIMD', 'ASIMDHP', 'ASIMDDP'}, {'ASIMDFHM'})),
        ('an unknown name', 'AT_HWCAP: neon frobnicate\n', err('"frobnicate"')),
        ('AT_PLATFORM aarch64', 'AT_HWCAP: 0x1000\nAT_PLATFORM: aarch64\n', err('aarch64')),
        ('ppc64le names', 'AT_HWCAP: vsx altivec\n', err('ppc64le')),
        ('a CPUID dump', HASWELL_R, err('x86')),
    ],
    'riscv64': [
        ('hwcap V without hwprobe lines: RVV', 'AT_HWCAP: 0x20112d\n', ok({'RVV'})),
        ('hwprobe is read before hwcap', 'AT_HWCAP: 0x20112d\nHWPROBE 4: 0x3\n', ok((), {'RVV'})),
        ('hwprobe V', 'AT_HWCAP: 0x112d\nHWPROBE 4: 0x7\n', ok({'RVV'})),
        ('a bad hwprobe line', 'AT_HWCAP: 0x112d\nHWPROBE four: 0x7\n', err('HWPROBE')),
        ('SVE_VL belongs to aarch64', 'AT_HWCAP: 0x112d\nHWPROBE 4: 0x7\nSVE_VL: 32\n', err('SVE_VL')),
        ('a CPUID dump', HASWELL_R, err('x86')),
    ],
}


def info(args, env=None):
    """cpudispatch-info ARGS, through the wrapper; qemu's model warnings dropped."""
    p = subprocess.run(WRAPPER + [INFO] + args, capture_output=True, text=True, env=env)
    if INFO.endswith('.exe') and p.returncode == 1 and not p.stdout and not p.stderr.strip():
        # Status 1 with no output is Wine's, never cpudispatch-info's (0, 2,
        # 69 or 78, each with output): a client that lost its wineserver (CI
        # saw it with a dump, and once with a missing FILE). Said, and run
        # once more.
        print('note: Wine returned status 1 with no output for %r; ran it again' % ' '.join(args)[:60])
        p = subprocess.run(WRAPPER + [INFO] + args, capture_output=True, text=True, env=env)
    p.stderr = ''.join(l for l in p.stderr.splitlines(True) if "TCG doesn't support" not in l)
    return p


def run(text):
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False, newline='') as fh:
        fh.write(text)
        path = fh.name
    try:
        return info(['--json', '--cpu-dump', path])
    finally:
        os.unlink(path)


arch = json.loads(subprocess.run(WRAPPER + [INFO, '--json'], capture_output=True, text=True, check=True).stdout)['arch']
cases = list(CASES.get(arch, []))
if arch == 'x86':
    # 32-bit x86 reads the same dumps (the same parser, the same CPUID):
    # x86_64's cases, less the names that exist in 64-bit mode only.
    only_64bit = cpu_facts.X86_ONLY_IN['x86_64']
    cases = [(d, text, ('ok', want[1] - only_64bit, want[2] - only_64bit) if want[0] == 'ok' else want)
             for d, text, want in CASES['x86_64']]
if arch in ('x86_64', 'x86'):
    # Every other arch's dumps are refused here.
    cases += [('%s: %s' % (a, d), text, err('auxiliary-vector') if 'AT_HWCAP' in text and 'CPUID' not in d
               and 'eax=' not in text else want)
              for a, cs in CASES.items() if a != 'x86_64' for d, text, want in cs if want[0] == 'ok']
for desc, text, want in cases:
    p = run(text)
    if want[0] == 'ok':
        try:
            got = set(json.loads(p.stdout)['detected'])
        except ValueError:
            failures.append('%s: no report (status %d): %s' % (desc, p.returncode, p.stderr.strip()))
            continue
        if not want[1] <= got or want[2] & got:
            failures.append('%s: detected %s; must have %s, must lack %s' % (
                desc, ' '.join(sorted(got)), ' '.join(sorted(want[1])), ' '.join(sorted(want[2]))))
    else:
        lines = p.stderr.strip().splitlines()
        if p.returncode != 2 or len(lines) != 1 or p.stdout or not all(n in lines[0] for n in want[1]):
            failures.append('%s: status 2 and one line with %s expected; got %d: %r' % (
                desc, want[1], p.returncode, p.stderr))

# The command line around the dump: one line and status 2 for a missing
# FILE or one that cannot be read; the env masks apply to the described CPU
# as to this one (docs/runtime.md: masked features stay detected, not usable).
def command(args, env=None):
    return info(args, dict(os.environ, **(env or {})))


for desc, args, needle in [('--cpu-dump without FILE', ['--cpu-dump'], '--cpu-dump needs a FILE'),
                           ('a FILE that does not exist', ['--cpu-dump', '/nonexistent/cpu.txt'],
                            '/nonexistent/cpu.txt')]:
    cases.append((desc, None, None))
    p = command(args)
    lines = p.stderr.strip().splitlines()
    if p.returncode != 2 or len(lines) != 1 or needle not in lines[0] or p.stdout:
        failures.append('%s: status 2 and one line with %r expected; got %d: %r' % (desc, needle, p.returncode,
                                                                                p.stderr))
# Two masks over recorded x86 CPUs: AVX2 over a Haswell and AVX512F over a
# Skylake-SP. A feature of this build's baseline cannot be masked: then one
# line naming it and status 78 (docs/api.md, CPUD_EXIT_ENV), not a report.
CPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)))
SKYLAKE_SP = open(os.path.join(CPUS, 'x86_64', 'intel-skylake-sp.txt')).read()
masked_cases = {'x86_64': [(HASWELL_R, 'AVX2', 'X86_V3'), (SKYLAKE_SP, 'AVX512F', 'AVX512_SKX')],
                'x86': [(SKYLAKE_SP, 'AVX512F', 'AVX512_SKX')]}.get(arch, [])
for text, feature, implier in masked_cases:
    cases.append(('env mask over a dump: ' + feature, None, None))
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as fh:
        fh.write(text)
    try:
        baseline = json.loads(command(['--json']).stdout)['baseline']
        p = command(['--json', '--cpu-dump', fh.name], {'CPUDISPATCH_DISABLE_CPU_FEATURES': feature})
    finally:
        os.unlink(fh.name)
    if feature in baseline:
        lines = p.stderr.strip().splitlines()
        if p.returncode != 78 or p.stdout or len(lines) != 1 or "part of this build's baseline" not in lines[0] \
                or feature not in lines[0]:
            failures.append('env mask over a dump: DISABLE=%s of the baseline: status 78 and one line expected; '
                            'got %d: %r' % (feature, p.returncode, p.stderr))
        continue
    try:
        d = json.loads(p.stdout)
        got = (feature in d['detected'], feature in d['masked'], d['features'][feature], d['features'][implier])
    except (ValueError, KeyError) as e:
        got = 'no report (%s, status %d): %s' % (e, p.returncode, p.stderr.strip())
    # Detected, masked, not usable, and neither is what implies it.
    if got != (True, True, False, False):
        failures.append('env mask over a dump: DISABLE=%s: (detected, masked, usable %s, usable %s) = %s, '
                        'expected (True, True, False, False)' % (feature, feature, implier, got))

for f in failures:
    print('FAIL:', f)
print('%d cases on %s, %d failures' % (len(cases), arch, len(failures)))
sys.exit(1 if failures else 0 if cases else 77)
