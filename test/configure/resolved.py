"""What a configured cpudispatch subproject resolved, read from the file
its configure step writes for src/build_side/cpudispatch_gen.py
(BUILD/subprojects/cpudispatch/include/cpudispatch_targets.txt).

    resolved.read_resolved(BUILD) -> {'baseline': [...], 'dispatch': [...]}
"""
import os


def read_resolved(build):
    path = os.path.join(build, 'subprojects', 'cpudispatch', 'include', 'cpudispatch_targets.txt')
    res = {'baseline': [], 'dispatch': []}
    with open(path) as fh:
        for line in fh:
            w = line.split()
            if w and w[0] == 'baseline':
                res['baseline'] = w[1:]
            elif w and w[0] == 'target':
                res['dispatch'].append(w[1])
    return res
