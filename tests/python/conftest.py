"""The `run` fixture: each of support.RUNS opened once per test module."""

import os

import pytest

import parallax
from support import RUNS


@pytest.fixture(scope="module", params=RUNS, ids=os.path.basename)
def run(request):
    return parallax.open(request.param)
