#!/usr/bin/env python3
"""The runtime's own code runs on any CPU of the arch, whatever global flags
the consumer builds with (issue 9). Usage: floor_consumer.py --list | CASE
(exit 0 pass, 1 fail, 77 skip).

Each case configures one consumer project (test/configure/fixture, with
main.cpp and the dispatch sources of examples/consumer/src, cpudispatch as its
subproject: the documented way) with global flags that go beyond the arch's
floor, given the way a consumer gives them (CFLAGS/CXXFLAGS, -Dc_args, a
native file, a cross file), builds `app` once, then:

  objects  the runtime's objects in that build (BUILD/subprojects/cpudispatch/
           src/runtime/libcpudispatch.a.p/*.o):
           - x86: no VEX/EVEX instruction (ymm/zmm/k registers, v-prefixed AVX
             mnemonics, BMI1/BMI2 VEX mnemonics);
           - every arch: the disassembly is identical to what the same compile
             command gives with the global flags removed;
           - no weak, unique or COMDAT-group symbol is defined (the consumer's
             copy of a same-named inline function, compiled with its global
             flags, could otherwise serve the runtime);
           - every undefined symbol is defined by another runtime object or by
             the C library (libc.so.6 / libc_nonshared.a of the target): no
             compiler-runtime helper (libgcc), whose control is a double-width
             division (128-bit; 64-bit on 32-bit arches) compiled with the
             runtime's command, which needs one.
  controls the same runtime sources compiled with the build's own commands but
           the floor flags stripped: on x86 the checker must find VEX in them;
           and test/floor/probe.c (loops that vectorise) compiled with the
           runtime's command must be free of above-floor instructions, and
           full of them with the floor stripped. In the cases marked
           `relink`, the app is linked again with those unfloored runtime
           objects: it must die of SIGILL under a model below the flags and
           still pass under the model that has them, which proves the floor
           is what turns SIGILL into the start-up check's message.
  qemu     `app` under every listed CPU model below the flags' level: status 69
           and the start-up message on stderr, naming a missing baseline
           feature the flags added; under a model that has them: status 0.
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(HERE))
import messages  # noqa: E402  (test/messages.py)
ROOT = os.path.dirname(os.path.dirname(HERE))
LOW_X86 = ['qemu64', 'core2duo', 'Nehalem', 'SandyBridge']

# name: compilers (C, C++), how the global flags are given, the flags, the
# feature the flags add to the baseline (it must be reported missing below),
# buildtype, qemu models below (-> 69) and at (-> 0) the flags' level.
CASES = {
    'haswell-gcc': dict(cc=('gcc', 'g++'), how='env', flags=['-march=haswell'], key='AVX2',
                        buildtype='release', low=LOW_X86, high=['Haswell'], relink=True),
    'haswell-clang': dict(cc=('clang', 'clang++'), how='env', flags=['-march=haswell'], key='AVX2',
                          buildtype='release', low=LOW_X86, high=['Haswell'], relink=True),
    # -mavx2 alone enables AVX2 without F16C (which AVX2 implies in the
    # table): detection still puts AVX2 in the baseline, so SandyBridge (AVX,
    # no AVX2) refuses to start instead of running the program's own AVX2
    # static initialiser (static_init.cpp).
    'avx2-c_args-gcc': dict(cc=('gcc', 'g++'), how='args', flags=['-mavx2'], key='AVX2',
                            buildtype='debug', low=LOW_X86, high=['Haswell']),
    'x86-64-v3-native-file-clang': dict(cc=('clang', 'clang++'), how='native-file', flags=['-march=x86-64-v3'],
                                        key='X86_V3', buildtype='debug', low=LOW_X86, high=['Haswell']),
    'aarch64-cross-file-gcc': dict(cross='aarch64-linux-gnu', how='cross-file', flags=['-march=armv8.2-a+dotprod'],
                                   key='ASIMDDP', buildtype='release', low=['cortex-a53'], high=['cortex-a76'],
                                   relink=True),
    # Clang keeps the target CPU of an earlier -mcpu= through a later -march=
    # (and with it dotprod, fp16, LSE atomics): the floor resets -mcpu too.
    'aarch64-mcpu-cross-file-clang': dict(cross='aarch64-linux-gnu', clang=True, how='cross-file',
                                          flags=['-mcpu=cortex-a76'], key='ASIMDDP', buildtype='release',
                                          low=['cortex-a53'], high=['cortex-a76'], relink=True),
    # 32-bit arm (armhf: no NEON in the floor). An -mfpu=neon in the cross
    # file, and Clang with -mcpu=cortex-a15 (NEON, VFPv4 and hardware divide
    # from the CPU name alone: the floor resets the FPU and the CPU).
    # cortex-r5f: VFPv3-D16 without NEON (src/run/qemu-models.txt).
    'arm-cross-file-gcc': dict(cross='arm-linux-gnueabihf', how='cross-file', flags=['-mfpu=neon'], key='NEON',
                               buildtype='release', low=['cortex-r5f'], high=['cortex-a8'], relink=True),
    'arm-mcpu-cross-file-clang': dict(cross='arm-linux-gnueabihf', clang=True, how='cross-file',
                                      flags=['-mcpu=cortex-a15'], key='NEON_VFPV4', buildtype='release',
                                      low=['cortex-r5f', 'cortex-a8'], high=['cortex-a15'], relink=True),
    # 32-bit x86 (i686: no MMX or SSE in the floor), with the usual recipe for
    # SSE2 maths on i686 in the cross file: -march=pentium4 -mfpmath=sse.
    # Clang 14 stops at -mfpmath=sse next to the floor's -mno-sse unless
    # the floor also says -mfpmath=387. pentium2 (MMX, no SSE) traps SSE.
    'i686-cross-file-clang': dict(cross='i686-linux-gnu', clang=True, how='cross-file',
                                  flags=['-march=pentium4', '-mfpmath=sse'], key='SSE2', buildtype='release',
                                  low=['pentium2'], high=['coreduo'], relink=True),
}
ARCH_OF_TRIPLE = {'aarch64-linux-gnu': 'aarch64', 'arm-linux-gnueabihf': 'arm', 'i686-linux-gnu': 'x86'}
# Fewer configure-time compiler checks: the targets the fixture's sources use.
DISPATCH = {'x86_64': 'X86_V3 AVX512_SKX', 'aarch64': 'max', 'arm': 'max', 'x86': 'SSE42 AVX2 FMA3 AVX512_SKX'}

BMI_VEX = {'andn', 'bextr', 'blsi', 'blsmsk', 'blsr', 'bzhi', 'mulx', 'pdep', 'pext', 'rorx', 'sarx', 'shlx', 'shrx'}
# v-prefixed mnemonics that are not AVX (VMX/SVM, segment verification).
NOT_AVX = re.compile(r'^(verr|verw|vmcall|vmlaunch|vmresume|vmxoff|vmxon|vmread|vmwrite|vmptrld|vmptrst|vmclear|'
                     r'vmfunc|vmrun|vmload|vmsave|vmmcall)$')
# Armv8.1 LSE atomics (GCC's outline atomics call libgcc helpers instead).
LSE = re.compile(r'^(casp?|ld(add|clr|eor|set|smax|smin|umax|umin)|st(add|clr|eor|set|smax|smin|umax|umin)|swp)'
                 r'(a|al|l)?[bh]?$')
# 32-bit arm: what VFPv3-D16 has (the floor); any other v-mnemonic, a Q
# register or D16-D31 is NEON or later (VFPv4's VFMA, Armv8's VRINT/VMAXNM,
# FP16), as are hardware divide (Cortex-A7/A15, not A8/A9) and the Armv8
# instructions (CRC32, crypto, load-acquire/store-release).
ARM_COND = r'(eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?'
ARM_VFP = re.compile(r'^(vldr|vstr|vldm(ia|db)?|vstm(ia|db)?|vpush|vpop|vmov|vmrs|vmsr|vadd|vsub|vmul|vnmul|vdiv|vmla|'
                     r'vmls|vnmla|vnmls|vneg|vabs|vsqrt|vcmpe?|vcvtr?)' + ARM_COND + r'(\.(f32|f64|s32|u32|32|64))*$')
ARM_NEON_REGS = re.compile(r'\bq\d+\b|\bd(1[6-9]|2\d|3[01])\b')
ARM_ABOVE = re.compile(r'^(sdiv|udiv|crc32\w*|aes\w+|sha1\w+|sha256\w+|lda\w*|stl\w*)' + ARM_COND + r'(\.\w+)?$')
X86_32_ABOVE = {'mfence', 'lfence', 'sfence', 'movnti', 'ldmxcsr', 'stmxcsr', 'popcnt', 'lzcnt', 'movbe'}
PREFIXES = {'lock', 'rep', 'repz', 'repnz', 'repe', 'repne', 'data16', 'addr32', 'notrack', 'bnd', 'cs', 'ds', 'es',
            'fs', 'gs', 'ss', 'rex', 'rex.w', 'xacquire', 'xrelease'}


def instructions(objdump, path):
    """(mnemonic, operands, line) of every instruction objdump shows."""
    out = subprocess.run([objdump, '-d', '--no-show-raw-insn', path], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        m = re.match(r'^\s+[0-9a-f]+:\t(.*)$', line)
        if not m:
            continue
        words = m.group(1).split()
        while words and words[0] in PREFIXES:
            words = words[1:]
        if words:
            yield words[0], ' '.join(words[1:]), line.strip()


def above_floor(arch, objdump, path):
    """Instructions of `path` that the arch's floor lacks (a detector, not a
    full ISA decoder: VEX/EVEX on x86; LSE atomics, RCpc loads, dot product,
    SVE, fp16 arithmetic on aarch64; NEON and later on 32-bit arm)."""
    bad = []
    for mn, ops, line in instructions(objdump, path):
        if arch == 'x86_64':
            vex = (re.search(r'%[yz]mm\d|%k[0-7]\b', ops) or mn in BMI_VEX
                   or (mn.startswith('v') and not NOT_AVX.match(mn)))
            if vex:
                bad.append(line)
        elif arch == 'aarch64':
            if (mn in ('udot', 'sdot', 'usdot', 'ldapr', 'ldaprb', 'ldaprh') or LSE.match(mn)
                    or re.search(r'\bz\d+\.[bhsdq]\b|\bp\d+(/[mz])?\b', ops)
                    or (mn.startswith('f') and not mn.startswith('fcvt') and re.search(r'\.[48]h\b|\bh\d+\b', ops))):
                bad.append(line)
        elif arch == 'arm':
            if (mn.startswith('v') and (not ARM_VFP.match(mn) or ARM_NEON_REGS.search(ops))) or ARM_ABOVE.match(mn):
                bad.append(line)
        elif arch == 'x86':
            # i686: x87 and the general registers; no MMX, SSE or AVX register,
            # no VEX, and none of SSE2's fences and non-temporal stores.
            if (re.search(r'%[xyz]?mm\d|%k[0-7]\b', ops) or mn in BMI_VEX or mn in X86_32_ABOVE
                    or (mn.startswith('v') and not NOT_AVX.match(mn))):
                bad.append(line)
    return bad


def disassembly(objdump, path):
    out = subprocess.run([objdump, '-d', '--no-show-raw-insn', path], capture_output=True, text=True,
                         check=True).stdout
    # The first lines name the file.
    return out.split('Disassembly of section', 1)[-1]


def which_all(names):
    return all(shutil.which(n) for n in names)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


class Case:
    def __init__(self, name, tmp):
        self.name = name
        self.c = CASES[name]
        self.tmp = tmp
        self.failures = []
        self.build = os.path.join(tmp, 'build')
        self.arch = ARCH_OF_TRIPLE[self.c['cross']] if self.c.get('cross') else 'x86_64'
        prefix = self.c['cross'] + '-' if self.c.get('cross') else ''
        self.tools = {t: prefix + t for t in ('objdump', 'readelf', 'nm', 'ar')}
        if 'cc' in self.c:
            self.cc, self.cxx = [self.c['cc'][0]], [self.c['cc'][1]]
        elif self.c.get('clang'):
            self.cc, self.cxx = ['clang', '--target=' + self.c['cross']], ['clang++', '--target=' + self.c['cross']]
        else:
            self.cc, self.cxx = [prefix + 'gcc'], [prefix + 'g++']
        self.qemu = {'x86': 'qemu-i386'}.get(self.arch, 'qemu-' + self.arch)
        self.qemu_args = ['-L', '/usr/' + self.c['cross']] if self.c.get('cross') else []
        if self.arch == 'x86':  # the sysroot's C library with its loader (cross/i686-linux-gnu.txt)
            self.qemu_args += ['-E', 'LD_LIBRARY_PATH=/usr/%s/lib' % self.c['cross']]

    def fail(self, msg):
        print('FAIL:', msg)
        self.failures.append(msg)

    def missing_tools(self):
        need = [self.cc[0], self.cxx[0], self.qemu, 'meson', 'ninja'] + list(self.tools.values())
        if self.c.get('cross'):
            need += [self.c['cross'] + '-g++']  # its headers and libraries
        return [n for n in need if not shutil.which(n)]

    # -- configure and build -------------------------------------------------
    def setup(self):
        proj = os.path.join(self.tmp, 'proj')
        shutil.copytree(os.path.join(ROOT, 'test', 'configure', 'fixture'), proj)
        for f in ('sum.dispatch.c', 'scale.dispatch.cpp', 'main.cpp'):
            shutil.copy(os.path.join(ROOT, 'examples', 'consumer', 'src', f), os.path.join(proj, 'src', f))
        os.makedirs(os.path.join(proj, 'subprojects'))
        os.symlink(ROOT, os.path.join(proj, 'subprojects', 'cpudispatch'))
        env = {k: v for k, v in os.environ.items()
               if k not in ('CFLAGS', 'CXXFLAGS', 'CPPFLAGS', 'LDFLAGS', 'CC', 'CXX')}
        cmd = ['meson', 'setup', self.build, proj, '-Dbuildtype=' + self.c['buildtype'], '--wrap-mode=nodownload',
               '-Dcpudispatch:cpu-dispatch=' + DISPATCH[self.arch]]
        flags = self.c['flags']
        how = self.c['how']
        lst = '[' + ', '.join(repr(f) for f in flags) + ']'
        if how == 'cross-file':
            extra = os.path.join(self.tmp, 'flags.ini')
            with open(extra, 'w') as fh:
                if self.c.get('clang'):
                    fh.write('[binaries]\nc = %r\ncpp = %r\n' % (self.cc, self.cxx))
                fh.write('[built-in options]\nc_args = %s\ncpp_args = %s\n' % (lst, lst))
            cmd += ['--cross-file', os.path.join(ROOT, 'cross', self.c['cross'] + '.txt'), '--cross-file', extra]
        else:
            env['CC'], env['CXX'] = self.cc[0], self.cxx[0]
            if how == 'env':
                env['CFLAGS'] = env['CXXFLAGS'] = ' '.join(flags)
            elif how == 'args':
                cmd += ['-Dc_args=' + ' '.join(flags), '-Dcpp_args=' + ' '.join(flags)]
            elif how == 'native-file':
                nat = os.path.join(self.tmp, 'native.ini')
                with open(nat, 'w') as fh:
                    fh.write('[built-in options]\nc_args = %s\ncpp_args = %s\n' % (lst, lst))
                cmd += ['--native-file', nat]
        print('$', ' '.join(shlex.quote(a) for a in cmd), ' (%s)' % ' '.join(
            '%s=%s' % (k, shlex.quote(env[k])) for k in ('CC', 'CXX', 'CFLAGS', 'CXXFLAGS') if k in env))
        t = time.time()
        p = run(cmd, env=env)
        print('  configure: %.1f s' % (time.time() - t))
        if p.returncode != 0:
            print((p.stdout + p.stderr)[-4000:])
            self.fail('configure failed')
            return False
        t = time.time()
        p = run(['ninja', '-C', self.build, 'app'])
        print('  build app: %.1f s' % (time.time() - t))
        if p.returncode != 0:
            print(p.stdout[-4000:])
            self.fail('build failed')
            return False
        return True

    def baseline(self):
        path = os.path.join(self.build, 'subprojects', 'cpudispatch', 'include', 'cpudispatch_targets.txt')
        with open(path) as fh:
            for line in fh:
                w = line.split()
                if w and w[0] == 'baseline':
                    return w[1:]
        return []

    def runtime_commands(self):
        with open(os.path.join(self.build, 'compile_commands.json')) as fh:
            cmds = [e for e in json.load(fh) if 'libcpudispatch.a.p' in e['output']]
        return cmds

    def strip_floor(self, args):
        """The command with the floor flags removed: the arch-setting flags
        and -mno-X / -fno-lto that come after the consumer's last global flag.
        (Spelled generically on purpose, not as a copy of the table.)"""
        flags = self.c['flags']
        last = max(i for i, a in enumerate(args) if a in flags)
        floor = re.compile(r'^(-m(arch|tune|cpu|fpu|fpmath)=.*|-mno-.*|-fno-lto)$')
        return args[:last + 1] + [a for a in args[last + 1:] if not floor.match(a)], \
            [a for a in args[last + 1:] if floor.match(a)]

    def recompile(self, entry, args, out, source=None):
        args = list(args)
        # Drop the depfile options; write elsewhere; optionally swap the source.
        for opt in ('-MQ', '-MF'):
            while opt in args:
                i = args.index(opt)
                del args[i:i + 2]
        args = [a for a in args if a != '-MD']
        args[args.index('-o') + 1] = out
        if source:
            args[args.index('-c') + 1] = source
        p = run(args, cwd=entry['directory'])
        if p.returncode != 0:
            self.fail('recompiling %s failed: %s' % (entry['file'], p.stderr[-2000:]))
            return False
        return True

    # -- object checks -------------------------------------------------------
    def check_objects(self):
        objdump, readelf, nm = self.tools['objdump'], self.tools['readelf'], self.tools['nm']
        cmds = self.runtime_commands()
        if len(cmds) < 5:
            self.fail('expected the 5 runtime sources in compile_commands.json, found %d' % len(cmds))
            return
        objs = [os.path.join(e['directory'], e['output']) for e in cmds]
        ctl_dir = os.path.join(self.tmp, 'nofloor')
        os.makedirs(ctl_dir)
        control_vex = 0
        floor_seen = None
        for e, obj in zip(cmds, objs):
            src = os.path.basename(e['file'])
            bad = above_floor(self.arch, objdump, obj)
            if bad:
                self.fail('%s: %d above-floor instructions, e.g. %s' % (src, len(bad), bad[:3]))
            args = shlex.split(e['command'])
            if not any(f in args for f in self.c['flags']):
                self.fail('%s: the global flags %s are not in its compile command: the case tests nothing'
                          % (src, self.c['flags']))
                continue
            # Same command without the global flags: same code.
            clean = os.path.join(self.tmp, 'clean.o')
            if self.recompile(e, [a for a in args if a not in self.c['flags']], clean):
                if disassembly(objdump, clean) != disassembly(objdump, obj):
                    self.fail('%s: the global flags %s change its code' % (src, self.c['flags']))
            # Control: the floor stripped.
            stripped, floor_seen = self.strip_floor(args)
            out = os.path.join(ctl_dir, os.path.basename(obj))
            if self.recompile(e, stripped, out):
                n = len(above_floor(self.arch, objdump, out))
                control_vex += n
                print('  %-20s above-floor instructions: %d; without the floor flags: %d' % (src, len(bad), n))
        print('  floor flags found in the commands: %s' % ' '.join(floor_seen or []))
        if not floor_seen:
            self.fail('no floor flags after the global flags in the runtime\'s compile commands')
        # Probe: loops that vectorise, compiled with the runtime's command.
        e = cmds[0]
        args = shlex.split(e['command'])
        probe = os.path.join(HERE, 'probe.c')
        with_floor, without = os.path.join(self.tmp, 'probe-floor.o'), os.path.join(self.tmp, 'probe-nofloor.o')
        probe_vex = 0
        if self.recompile(e, args, with_floor, probe) and self.recompile(e, self.strip_floor(args)[0], without, probe):
            a, b = above_floor(self.arch, objdump, with_floor), above_floor(self.arch, objdump, without)
            probe_vex = len(b)
            print('  probe.c above-floor instructions: %d with the floor flags, %d without' % (len(a), len(b)))
            if a:
                self.fail('probe.c compiled with the runtime\'s command has above-floor code: %s' % a[:3])
            if not b:
                self.fail('control: probe.c without the floor flags has no above-floor code: the detector '
                          'proves nothing')
        # The control: without the floor flags, the same commands make code
        # the detector flags. The runtime's own C has nothing to vectorise at
        # -O0 (GCC's debug build copies its sets through general registers),
        # so there the probe, compiled with the same command, is the control.
        if control_vex == 0 and probe_vex == 0:
            self.fail('control: the runtime and probe.c compiled without the floor flags show no above-floor '
                      'instruction: the detector (or the case) proves nothing')
        # Symbols.
        weak = []
        defined = set()
        undefined = set()
        for obj in objs:
            syms = run([readelf, '-sW', obj], check=True).stdout
            for line in syms.splitlines():
                w = line.split()
                if len(w) < 8 or not w[0].endswith(':'):
                    continue
                bind, ndx, name = w[4], w[6], w[7]
                if ndx == 'UND':
                    if name:
                        undefined.add(name)
                    continue
                if bind in ('WEAK', 'UNIQUE'):
                    weak.append('%s: %s %s' % (os.path.basename(obj), bind, name))
                if bind in ('GLOBAL', 'WEAK', 'UNIQUE'):
                    defined.add(name)
            groups = run([readelf, '-gW', obj], check=True).stdout
            for line in groups.splitlines():
                if 'COMDAT group' in line:
                    weak.append('%s: %s' % (os.path.basename(obj), line.strip()))
        if weak:
            self.fail('the runtime defines weak/COMDAT symbols, which a consumer\'s copy could replace: %s' % weak)
        # libc alone: no compiler-runtime helper (libgcc's __popcountdi2
        # below POPCNT, GCC's outline atomics on aarch64) may join a C
        # program's link, as libgcc_s would.
        libc = set()
        for lib in ('libc.so.6', 'libc_nonshared.a'):
            path = run(self.cc + ['-print-file-name=' + lib]).stdout.strip()
            if not os.path.isabs(path) or not os.path.exists(path):
                self.fail('cannot find %s of %s' % (lib, ' '.join(self.cc)))
                continue
            opt = ['-D'] if lib.endswith('.so.6') else []
            out = run([nm] + opt + ['--defined-only', path]).stdout
            libc.update(l.split()[-1].split('@')[0] for l in out.splitlines() if len(l.split()) >= 3)
        foreign = sorted(s for s in undefined - defined if s not in libc and s != '_GLOBAL_OFFSET_TABLE_')
        print('  runtime: %d objects, %d defined global symbols, %d undefined from libc, no weak: %s'
              % (len(objs), len(defined), len(undefined - defined), not weak))
        if foreign:
            self.fail('the runtime needs symbols that are not libc\'s (a compiler-runtime helper?): %s' % foreign)
        # Control: a helper the compiler must call (a division of twice the
        # register width: 128-bit on 64-bit arches, 64-bit on 32-bit ones,
        # which have no __int128) is seen by the same reading of undefined
        # symbols.
        helper_src = os.path.join(self.tmp, 'needs_helper.c')
        with open(helper_src, 'w') as fh:
            fh.write('#if defined(__SIZEOF_INT128__)\ntypedef unsigned __int128 wide;\n#else\n'
                     'typedef unsigned long long wide;\n#endif\n'
                     'wide cpud_probe_div(wide a, wide b) { return a / b; }\n')
        helper_obj = os.path.join(self.tmp, 'needs_helper.o')
        if self.recompile(e, shlex.split(e['command']), helper_obj, helper_src):
            und = [l.split()[7] for l in run([readelf, '-sW', helper_obj], check=True).stdout.splitlines()
                   if len(l.split()) >= 8 and l.split()[6] == 'UND' and l.split()[7]]
            if not [s for s in und if s not in libc]:
                self.fail('control: a double-width division compiled with the runtime\'s command shows no helper '
                          'outside libc (%s): the symbol check proves nothing' % und)
        if self.c.get('relink'):
            self.relink(ctl_dir)

    def relink(self, ctl_dir):
        """The app linked again with the runtime compiled without the floor."""
        lib = os.path.join(self.tmp, 'libnofloor.a')
        objs = sorted(os.path.join(ctl_dir, f) for f in os.listdir(ctl_dir))
        run([self.tools['ar'], 'rcs', lib] + objs, check=True)
        link = run(['ninja', '-C', self.build, '-t', 'commands', 'app'], check=True).stdout.strip().splitlines()[-1]
        args = shlex.split(link)
        rt = 'subprojects/cpudispatch/src/runtime/libcpudispatch.a'
        if rt not in args or '-o' not in args:
            self.fail('cannot find the runtime archive in the link command: %s' % link)
            return
        args[args.index(rt)] = lib
        self.nofloor_app = os.path.join(self.tmp, 'app-nofloor')
        args[args.index('-o') + 1] = self.nofloor_app
        p = run(args, cwd=self.build)
        if p.returncode != 0:
            self.fail('relinking without the floor failed: %s' % p.stderr[-2000:])
            self.nofloor_app = None

    # -- runs under qemu -----------------------------------------------------
    def qemu_run(self, model, exe):
        r = run([self.qemu] + self.qemu_args + ['-cpu', model, exe], timeout=120)
        # qemu warns about model features TCG lacks; those lines are not the program's.
        err = '\n'.join(l for l in r.stderr.splitlines() if 'TCG doesn' not in l)
        return r.returncode, r.stdout, err

    def check_runs(self):
        base = self.baseline()
        key = self.c['key']
        print('  baseline of the build: %s' % ' '.join(base))
        if key not in base:
            self.fail('the global flags %s did not put %s in the baseline: the case tests nothing'
                      % (self.c['flags'], key))
            return
        app = os.path.join(self.build, 'app')
        rx = messages.refusal('cpud_fixture')  # test/configure/fixture's project()
        for model in self.c['low']:
            rc, out, err = self.qemu_run(model, app)
            m = rx.search(err)
            print('  -cpu %-12s app -> %d  %s' % (model, rc, err.strip()[:150]))
            if rc == 132 or rc == -4:
                self.fail('-cpu %s: SIGILL before the start-up check' % model)
                continue
            if rc != 69 or not m:
                self.fail('-cpu %s: expected status 69 and the start-up message, got %d: %s' % (model, rc, err))
                continue
            lacks = m.group(3).split()
            if m.group(1) != self.arch or m.group(2).split() != base or key not in lacks \
                    or not set(lacks) <= set(base):
                self.fail('-cpu %s: the message does not fit the build (arch %s, baseline %s, key %s): %s'
                          % (model, self.arch, base, key, m.group(0)))
        for model in self.c['high']:
            rc, out, err = self.qemu_run(model, app)
            print('  -cpu %-12s app -> %d  %s' % (model, rc, out.strip().splitlines()[-1:] or err[:150]))
            if rc != 0 or 'match the plain loops' not in out:
                self.fail('-cpu %s: expected status 0 and matching results, got %d: %s %s' % (model, rc, out, err))
        if self.c.get('relink') and getattr(self, 'nofloor_app', None):
            model = 'Nehalem' if 'Nehalem' in self.c['low'] else self.c['low'][0]
            rc, out, err = self.qemu_run(model, self.nofloor_app)
            print('  control: -cpu %s app without the floor -> %d  %s' % (model, rc, err.strip()[:150]))
            if rc not in (132, -4):
                self.fail('control: the app linked with a runtime compiled without the floor flags did not die '
                          'of SIGILL under -cpu %s (status %d): the floor is not shown to matter' % (model, rc))
            rc, out, err = self.qemu_run(self.c['high'][0], self.nofloor_app)
            print('  control: -cpu %s app without the floor -> %d' % (self.c['high'][0], rc))
            if rc != 0:
                self.fail('control: the relinked app does not even run under -cpu %s (status %d): %s'
                          % (self.c['high'][0], rc, err))


def main():
    if sys.argv[1:] == ['--list']:
        print('\n'.join(CASES))
        return 0
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        sys.exit('usage: floor_consumer.py --list | CASE (one of: %s)' % ' '.join(CASES))
    name = sys.argv[1]
    t0 = time.time()
    tmp = tempfile.mkdtemp(prefix='cpud-floor-')
    try:
        case = Case(name, tmp)
        missing = case.missing_tools()
        if missing:
            print('SKIP: %s needs %s' % (name, ' '.join(missing)))
            return 77
        if case.setup():
            case.check_objects()
            case.check_runs()
        print('%s: %.1f s' % (name, time.time() - t0))
        if case.failures:
            print('%d failure(s)' % len(case.failures))
            return 1
        print('PASS')
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
