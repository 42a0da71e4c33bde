"""The module's analyses against the CSV of the parallax-cli command of the same name."""

import os

import pytest

import parallax
from support import REAL, SAMPLES, cli, cli_frame, error_of, read_csv, same

# The analyses computed in the module itself, on every run of support.RUNS.
ANALYSES = [
    ("usage", {}, []),
    ("time_profile", {"bins": 40}, ["--bins", "40"]),
    ("time_profile", {"interval": "2ms"}, ["--interval", "2ms"]),
    ("histogram", {}, []),
    ("histogram", {"metric": "msg-size", "bins": 30}, ["--metric", "msg-size", "--bins", "30"]),
    ("histogram", {"metric": "idle"}, ["--metric", "idle"]),
    ("comm", {"bins": 20}, ["--bins", "20"]),
    ("overview", {"columns": 25}, ["--columns", "25"]),
    ("entry_profile", {}, []),
    ("call_table", {}, []),
]

# The commands run in-process through the CLI, on one run.
CLI_ANALYSES = [
    ("noise", {}, []),
    ("comm_matrix", {}, []),
    ("groups", {"by": "block:2"}, ["--by", "block:2"]),
    ("clusters", {"k": 2}, ["--k", "2"]),
    ("msg_size_evolution", {}, []),
    ("animation", {"frames": 10}, ["--frames", "10"]),
    ("user_stats", {}, []),
    ("counters", {}, []),
]


def check_analysis(run, method, options, args):
    command = method.replace("_", "-")
    done = cli(command, run.path, *args, check=False)
    if done.returncode != 0:
        with pytest.raises(parallax.Error) as raised:
            getattr(run, method)(**options)
        assert str(raised.value) == done.stderr.splitlines()[-1]
        return
    same(getattr(run, method)(**options), read_csv(done.stdout))


def ids(cases):
    return [c[0] + "-" + "-".join(c[2]) for c in cases]


@pytest.mark.parametrize("method,options,args", ANALYSES, ids=ids(ANALYSES))
def test_analysis_equals_cli(run, method, options, args):
    check_analysis(run, method, options, args)


@pytest.fixture(scope="module")
def smp_run():
    return parallax.open(os.path.join(REAL, "gen-feat-smp"))


@pytest.mark.parametrize("method,options,args", CLI_ANALYSES, ids=ids(CLI_ANALYSES))
def test_cli_analysis_equals_cli(smp_run, method, options, args):
    check_analysis(smp_run, method, options, args)


def test_extrema_and_user_events_equal_cli():
    run = parallax.open(os.path.join(SAMPLES, "imbalance"))
    text = cli("extrema", run.path, "--criterion", "most-idle", "--count", "3").stdout
    at = text.find("\ngroup,")
    ranked, groups = run.extrema("most-idle", count=3)
    same(ranked, read_csv(text[:at + 1]))
    same(groups, read_csv(text[at + 1:]))
    same(run.user_event_stats(), cli_frame("user-events", run.path))
    same(run.user_event_stats(occurrences=True, events=[10]),
         cli_frame("user-events", run.path, "--occurrences", "--events", "10"))


def test_any_csv_command_runs_in_process():
    run = parallax.open(os.path.join(SAMPLES, "imbalance"))
    same(run.cli("memory", by="pe"), cli_frame("memory", run.path, "--by", "pe"))
    same(run.log(3, range="10ms:11ms"),
         cli_frame("log", run.path, "--pe", "3", "--range", "10ms:11ms"))
    with pytest.raises(parallax.Error) as raised:
        run.cli("memory", by="nothing")
    assert str(raised.value) == error_of("memory", run.path, "--by", "nothing")
