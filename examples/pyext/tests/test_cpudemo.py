"""cpudemo against NumPy itself: every loop's results, the loop NumPy picks
against the one cpudispatch's operator picks, the CPU attributes against
cpudispatch-info, and what the environment variables change. Run once per
compiled target by `meson test --setup cpudispatch:each_target`, which sets
CPUDEMO_ENABLE_CPU_FEATURES to the target under test."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

ENABLE = os.environ.get('CPUDEMO_ENABLE_CPU_FEATURES', '').strip()
DISABLE = os.environ.get('CPUDEMO_DISABLE_CPU_FEATURES', '').upper().split()
INFO = os.environ.get('CPUDEMO_INFO')
# Every dtype both NumPy and the operator know.
DTYPES = ['bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float16', 'float32',
          'float64', 'complex64', 'complex128']


def arrays(dt, n, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dt).kind == 'f':
        return rng.standard_normal(n).astype(dt)
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)


@pytest.mark.parametrize('n', [0, 1, 7, 64, 1001])
def test_every_loop_matches_numpy(mod, n):
    """Contiguous, strided, broadcast, in place and reduced: the kernel this
    CPU (and the env variables) select gives NumPy's own result; integers
    wrap alike."""
    for types in mod.fastadd.types:
        dt = np.dtype(types[0])
        a, b = arrays(dt, n, 1), arrays(dt, n, 2)
        with np.errstate(over='ignore'):
            assert np.array_equal(mod.fastadd(a, b), np.add(a, b)), types
            assert np.array_equal(mod.fastadd(a[::2], b[::-2]), np.add(a[::2], b[::-2])), types
            if n:
                assert np.array_equal(mod.fastadd(a, b[:1]), np.add(a, b[:1])), types
                c = a.copy()
                mod.fastadd(c, b, out=c)
                assert np.array_equal(c, np.add(a, b)), types
                # A reduction is a loop with a step of 0 on the output: the
                # same order of additions as np.add.reduce's strided loop
                # only for integers, so floats are compared to a tolerance.
                got, want = mod.fastadd.reduce(a), np.add.reduce(a, dtype=dt)
                if dt.kind == 'f':
                    assert np.isclose(got, want, rtol=1e-3, atol=1e-3 * n), types
                else:
                    assert got == want, types
        assert mod.fastadd(a, b).dtype == dt


def test_selected_loop_is_the_target_under_test(mod):
    """Under each_target every loop compiled for the target T under test runs
    T (ENABLE=T); for the baseline (DISABLE=every compiled target) every
    loop runs its baseline build."""
    info = mod.opt_func_info()['fastadd']
    assert sorted(info) == sorted(mod.fastadd.types)
    for loop, sel in info.items():
        assert sel['current'] in sel['available'], loop
        assert sel['available'][-1] == 'baseline'
        if ENABLE and ENABLE.upper() in sel['available']:
            assert sel['current'] == ENABLE.upper(), (loop, sel)
        if DISABLE and set(sel['available'][:-1]) <= set(DISABLE):
            assert sel['current'] == 'baseline', (loop, sel)
        assert sel['current'] not in DISABLE, (loop, sel)


def numpy_loop(ufunc, a, b):
    try:
        return ufunc(np.zeros(1, a), np.zeros(1, b)).dtype.name
    except TypeError:  # no loop takes them (NumPy's UFuncTypeError)
        return None


def test_numpy_and_the_operator_pick_the_same_loop(mod):
    """NumPy decides which loop runs (its resolver sees the arrays, `out=`,
    `casting=`, `dtype=`); cpudispatch's operator, ranking the same kernels
    under NumPy's casting table, must agree on every pair of array dtypes."""
    differ = []
    for a in DTYPES:
        for b in DTYPES:
            ours, numpys = mod.resolve_types(a, b), numpy_loop(mod.fastadd, a, b)
            if ours != numpys:
                differ.append('(%s, %s): operator %s, NumPy %s' % (a, b, ours, numpys))
    assert not differ, '\n'.join(differ)
    assert mod.resolve_types('uint16', 'uint16') == 'int32'  # a tie with int64 and the floats, to the first


def info_json(env=None):
    if not INFO:
        pytest.skip('CPUDEMO_INFO (the build\'s cpudispatch-info) not given')
    p = subprocess.run(WRAPPER + [INFO, '--json'], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_attributes_match_cpudispatch_info(mod):
    got = info_json()
    assert mod.__cpu_baseline__ == got['baseline']
    assert sorted(mod.__cpu_dispatch__) == sorted(got['dispatch'])
    assert mod.__cpu_features__ == got['features']
    assert isinstance(mod.__cpu_features__['SSE2' if 'SSE2' in got['features'] else next(iter(got['features']))],
                      bool)


# Under cpudispatch:each_cpu this interpreter runs inside qemu-user, but the
# ones it starts would run on the real CPU: they go through the wrapper too.
WRAPPER = os.environ.get('MESON_EXE_WRAPPER', '').split()


def probe(module_name, env_update, code):
    """Runs `code` in a fresh interpreter importing the module with env_update."""
    env = {k: v for k, v in os.environ.items() if not k.endswith('ABLE_CPU_FEATURES')}
    env.update(env_update)
    src = 'import importlib, json, sys\nm = importlib.import_module(%r)\n%s' % (module_name, code)
    return subprocess.run(WRAPPER + [sys.executable, '-P', '-c', src], capture_output=True, text=True, env=env)


def test_disable_changes_loops_and_features(mod, module_name):
    """DISABLE of the best target every loop runs moves them all to the next
    one, and __cpu_features__ says it is off, as cpudispatch-info does."""
    base = probe(module_name, {}, 'print(json.dumps([m.opt_func_info(), m.__cpu_features__]))')
    assert base.returncode == 0, base.stderr
    loops, features = json.loads(base.stdout)
    best = loops['fastadd']['bb->b']['current']
    if best == 'baseline':
        pytest.skip('this CPU runs the baseline builds only')
    p = probe(module_name, {'CPUDEMO_DISABLE_CPU_FEATURES': best},
              'print(json.dumps([m.opt_func_info(), m.__cpu_features__]))')
    assert p.returncode == 0, p.stderr
    loops2, features2 = json.loads(p.stdout)
    for loop, sel in loops2['fastadd'].items():
        avail = sel['available']
        assert sel['current'] == avail[avail.index(best) + 1], (loop, sel)
    assert features[best] and not features2[best]
    if INFO:
        env = {k: v for k, v in os.environ.items() if not k.endswith('ABLE_CPU_FEATURES')}
        env['CPUDEMO_DISABLE_CPU_FEATURES'] = best
        assert features2 == info_json(env)['features']


@pytest.mark.parametrize('var, value, words', [
    ('CPUDEMO_DISABLE_CPU_FEATURES', 'no_such_feature', 'unknown CPU feature "no_such_feature"'),
    ('CPUDEMO_ENABLE_CPU_FEATURES', 'sse2 avx512_knl asimddp \x1b', 'unknown CPU feature "\\x1b"'),
])
def test_a_bad_variable_is_an_import_error(module_name, var, value, words):
    """Never a process exit: the import raises ImportError with the line a
    program's start-up check prints, and the interpreter goes on."""
    code = ('try:\n    importlib.import_module(%r)\nexcept ImportError as e:\n    print(e)\n    sys.exit(0)\n'
            'sys.exit(5)' % module_name)
    env = {k: v for k, v in os.environ.items() if not k.endswith('ABLE_CPU_FEATURES')}
    env[var] = value
    p = subprocess.run(WRAPPER + [sys.executable, '-P', '-c', 'import importlib, sys\n' + code], capture_output=True,
                       text=True, env=env)
    p.stderr = ''.join(l for l in p.stderr.splitlines(True) if "TCG doesn't support" not in l)
    assert p.returncode == 0, (p.returncode, p.stdout, p.stderr)
    assert p.stdout.startswith('cpudispatch: %s: ' % var) and words in p.stdout, p.stdout
    assert p.stderr == '', p.stderr
