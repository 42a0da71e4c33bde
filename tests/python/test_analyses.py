"""The module's analyses against the CSV of the parallax-cli command of the same name."""

import os

import pytest

import parallax
from support import SAMPLES, cli, cli_frame, error_of, read_csv, same

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
    ("noise", {}, []),
    ("comm_matrix", {}, []),
    ("groups", {"by": "block:2"}, ["--by", "block:2"]),
    ("clusters", {"k": 2}, ["--k", "2"]),
    ("msg_size_evolution", {}, []),
]


@pytest.mark.parametrize("method,options,args", ANALYSES,
                         ids=[a[0] + "-" + "-".join(a[2]) for a in ANALYSES])
def test_analysis_equals_cli(run, method, options, args):
    command = method.replace("_", "-")
    done = cli(command, run.path, *args, check=False)
    if done.returncode != 0:
        with pytest.raises(parallax.Error) as raised:
            getattr(run, method)(**options)
        assert str(raised.value) == done.stderr.splitlines()[-1]
        return
    same(getattr(run, method)(**options), read_csv(done.stdout))


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
    with pytest.raises(parallax.Error) as raised:
        run.cli("memory", by="nothing")
    assert str(raised.value) == error_of("memory", run.path, "--by", "nothing")
