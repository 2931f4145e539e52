#!/usr/bin/env python3
"""The runtime's files form layers and every call between them goes down
(docs/architecture.md, "The runtime's layers"): for each object of the
runtime library, every symbol it leaves undefined that another object of
the library defines must be defined in a lower layer. Read with nm; the
layers are src/runtime/meson.build's cpud_runtime_layers, bottom first.

Control: an object of the bottom layer made to call start-up (layer 5)
in the same library must be reported: an object compiled with that file's
own command from the build's compile_commands.json, calling it, is read as
part of that file's object.

Usage: layers.py NM LIBRARY BUILD_ROOT LAYER [LAYER ...]
  each LAYER a comma-separated list of the layer's source file names."""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

CONTROL_CALLER = 'feature_table.c'
CONTROL_CALLEE = 'cpud__usable_slow'


def nm_rows(nm, path):
    """(member, type, symbol) of each symbol row of an archive or object."""
    out = subprocess.run([nm, '-A', path], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        # "lib.a:member.o:ADDR T sym", "lib.a:member.o:                 U sym"
        m = re.match(r'^(?:.*?\.a:)?(.*?):\s*(?:[0-9a-fA-F]+\s+)?([A-Za-z?])\s+(\S+)$', line)
        if m:
            rows.append((os.path.basename(m.group(1)), m.group(2), m.group(3)))
    return rows


def source_of(member):
    """feature_table.c.o (or a Meson object name with a path) -> feature_table.c"""
    base = re.sub(r'\.(o|obj)$', '', member)
    return base.split('_src_runtime_')[-1] if '_src_runtime_' in base else base


def check(rows, layers):
    """Problems (strings) and the calls seen between files."""
    layer_of = {f: i for i, files in enumerate(layers) for f in files}
    defined, undefined = {}, {}
    for member, kind, sym in rows:
        src = source_of(member)
        if kind in 'Uw':
            undefined.setdefault(src, set()).add(sym)
        elif kind.isupper():
            defined[sym] = src
    problems, calls = [], []
    members = set(defined.values()) | set(undefined)
    for src in sorted(members):
        if src not in layer_of:
            problems.append('%s is an object of the runtime in no layer of cpud_runtime_layers' % src)
    for f in sorted(layer_of):
        if f not in members:
            problems.append('%s is in cpud_runtime_layers but no object of the library' % f)
    for src in sorted(undefined):
        for sym in sorted(undefined[src]):
            to = defined.get(sym)
            if to is None or to == src or src not in layer_of or to not in layer_of:
                continue
            calls.append((src, sym, to))
            if layer_of[to] >= layer_of[src]:
                problems.append('%s (layer %d) uses %s of %s (layer %d): not a lower layer'
                                % (src, layer_of[src] + 1, sym, to, layer_of[to] + 1))
    return problems, calls


def control_rows(nm, rows, build_root):
    """rows with CONTROL_CALLER's object replaced by one that also calls
    CONTROL_CALLEE; None (with a reason printed) where it cannot be made."""
    with open(os.path.join(build_root, 'compile_commands.json')) as fh:
        db = json.load(fh)
    entry = next((e for e in db if e['file'].endswith('/src/runtime/' + CONTROL_CALLER)
                  and e['output'].startswith('src/runtime/libcpudispatch.a.p/')), None)
    if entry is None:
        print('control: no compile command for %s in compile_commands.json' % CONTROL_CALLER)
        return None
    args = shlex.split(entry['command'])
    keep, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in ('-o', '-MQ', '-MF', '-c'):
            skip = True
        elif a != '-MD' and not a.endswith(CONTROL_CALLER):
            keep.append(a)
    tmp = tempfile.mkdtemp(prefix='cpud-layers-')
    src = os.path.join(tmp, 'upward.c')
    with open(src, 'w') as fh:
        fh.write('#include "cpudispatch/cpudispatch.h"\n'
                 'void cpud__layer_control(void);\n'
                 'void cpud__layer_control(void) { (void)%s(); }\n' % CONTROL_CALLEE)
    up = os.path.join(tmp, 'upward.o')
    subprocess.run(keep + ['-c', src, '-o', up], cwd=entry['directory'], check=True)
    member = os.path.basename(entry['output'])
    extra = [(member, k, s) for _, k, s in nm_rows(nm, up)]
    shutil.rmtree(tmp)
    return rows + extra


def main():
    nm, lib, build_root = sys.argv[1:4]
    layers = [[f for f in arg.split(',') if f] for arg in sys.argv[4:]]
    rows = nm_rows(nm, lib)
    problems, calls = check(rows, layers)
    for p in problems:
        print('FAIL: ' + p)
    print('%d calls between the runtime\'s files, in %d layers' % (len(calls), len(layers)))
    for src, sym, to in calls:
        print('  %s -> %s (%s)' % (src, to, sym))
    if not calls:
        problems.append('no call between the files was seen: nm read nothing')
        print('FAIL: ' + problems[-1])
    ctl = control_rows(nm, rows, build_root)
    if ctl is None:
        return 1
    ctl_problems, _ = check(ctl, layers)
    caught = [p for p in ctl_problems if p.startswith(CONTROL_CALLER) and CONTROL_CALLEE in p]
    if caught:
        print('control: an upward call is reported: ' + caught[0])
    else:
        print('FAIL: control: %s calling %s was not reported' % (CONTROL_CALLER, CONTROL_CALLEE))
        return 1
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
