"""The module under test: the installed package `cpudemo` by default, or
what CPUDEMO_MODULE names (`_core` from a build directory: meson.build's
test). CPUDEMO_INFO: the same build's cpudispatch-info, if known."""
import importlib
import os

import pytest


@pytest.fixture(scope='session')
def mod():
    return importlib.import_module(os.environ.get('CPUDEMO_MODULE', 'cpudemo'))


@pytest.fixture(scope='session')
def module_name():
    return os.environ.get('CPUDEMO_MODULE', 'cpudemo')
