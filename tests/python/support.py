"""Shared pieces of the pytest files over the `parallax` Python module: every frame is compared
with what parallax-cli prints for the same run and options (the CLI runs as a subprocess, its CSV
read the same way)."""

import io
import os
import subprocess

import pandas as pd
import pandas.testing as pdt

CLI = os.environ.get("PARALLAX_CLI", "parallax-cli")
HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.environ.get("PARALLAX_SAMPLE_DIR", os.path.join(HERE, "..", "..", "sample-logs"))
REAL = os.path.join(
    os.environ.get("PARALLAX_SHARED_DIR", os.path.join(HERE, "..", "..", "..", "shared")),
    "real-logs")

# Small runs of different shapes: a sample with user events and multicasts, an SMP run with comm
# threads, an old-format (v3) run, a run Pipit's tests use.
RUNS = [
    os.path.join(SAMPLES, "imbalance"),
    os.path.join(REAL, "gen-feat-smp"),
    os.path.join(REAL, "projections-hello-v3"),
    os.path.join(REAL, "pipit-pingpong-v11"),
]


def cli(*args, check=True):
    done = subprocess.run([CLI, *args], capture_output=True, text=True, check=False)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def read_csv(text):
    # Only an empty field is a missing value: an entry method may be called "null".
    return pd.read_csv(io.StringIO(text), keep_default_na=False, na_values=[""])


def cli_frame(*args):
    return read_csv(cli(*args).stdout)


def same(frame, expected):
    # The CLI writes 6 significant digits; result tables keep whole doubles.
    pdt.assert_frame_equal(
        frame.reset_index(drop=True), expected.reset_index(drop=True), check_dtype=False,
        check_index_type=False, rtol=1e-5, atol=0)


def error_of(*args):
    done = cli(*args, check=False)
    assert done.returncode != 0
    return done.stderr.strip().splitlines()[-1]
