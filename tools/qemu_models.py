# SPDX-License-Identifier: MIT
"""The one reader of src/run/qemu-models.txt for Python (tools/qemu-matrix.py,
test/cpu_facts.py); Meson reads it in src/run/meson.build.

    read_models() -> {arch: (qemu binary, sysroot or None, {model: {feature, ...}})}, in file order
"""
import os

MODELS_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'src', 'run',
                           'qemu-models.txt')


def read_models(path=MODELS_FILE):
    arches = {}
    with open(path, encoding='utf-8') as fh:
        for line in fh:
            w = line.split()
            if len(w) < 4 or w[0].startswith('#'):
                continue
            arch, qemu, sysroot, model = w[:4]
            entry = arches.setdefault(arch, (qemu, None if sysroot == '-' else sysroot, {}))
            entry[2][model] = set(w[4:])
    return arches
