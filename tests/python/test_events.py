"""The module's run info, entries and event tables against parallax-cli; errors."""

import os
import shutil

import numpy as np
import pytest

import parallax
from support import REAL, SAMPLES, cli, cli_frame, error_of, same

def test_info_equals_cli(run):
    lines = cli("info", run.path).stdout.splitlines()
    expected = dict(line.split(": ", 1) for line in lines)
    info = run.info
    for key in ("pes", "entries", "begin_us", "end_us", "events", "missing_pes", "warnings",
                "name", "smp_nodes", "store_bytes"):
        assert str(info[key]) == expected[key], key
    for key in ("has_logs", "has_sum"):
        assert str(info[key]).lower() == expected[key], key


def test_entries_equal_cli(run):
    same(run.entries, cli_frame("entries", run.path))


def test_executions_per_pe_equal_timeline(run):
    pes = run.info["valid_pes"]
    timeline = cli_frame("timeline", run.path, "--pe", ",".join(map(str, pes)))
    expected = timeline[timeline.kind == "exec"]
    frame = run.executions()
    assert (frame.groupby("pe").size() == expected.groupby("pe").size()).all()
    assert len(frame) == len(expected)
    # Same records, column by column (the timeline interleaves idle; executions keep their order).
    for column in ("pe", "begin_us", "end_us", "entry", "source_pe", "msg_bytes"):
        assert (frame[column].to_numpy() == expected[column].to_numpy()).all(), column
    assert (frame.entry_name.to_numpy() == expected.entry_name.fillna("").to_numpy()).all()
    idle = timeline[timeline.kind == "idle"]
    assert len(run.idle()) == len(idle)
    assert run.idle().end_us.sum() == idle.end_us.sum()


def test_range_and_pe_arguments_take_strings_and_python_values():
    run = parallax.open(os.path.join(SAMPLES, "imbalance"))
    by_text = run.executions(pes="0-2,5", range="10ms:20ms")
    assert sorted(by_text.pe.unique()) == [0, 1, 2, 5]
    assert ((by_text.begin_us < 20000) & (by_text.end_us > 10000)).all()
    same(run.executions(pes=[0, 1, 2, 5], range=(10000, 20000)), by_text)
    same(run.executions(pes=range(3), range=("10ms", None)),
         run.executions(pes="0-2", range="10ms:"))
    assert run.executions(pes=4).pe.eq(4).all()
    same(run.usage(pes=[1, 3], range=("5ms", "50ms")),
         cli_frame("usage", run.path, "--pes", "1,3", "--range", "5ms:50ms"))
    entries = run.executions(entries=[13, 14])
    assert set(entries.entry) == {13, 14}


def test_messages_and_user_events():
    run = parallax.open(os.path.join(SAMPLES, "imbalance"))
    sent = run.messages()
    assert set(sent.kind.unique()) <= {"point-to-point", "broadcast", "multicast"}
    # Every message sent is counted by comm-matrix's per-PE view in the same way.
    matrix = cli_frame("comm", run.path, "--bins", "1")
    sent_total = matrix[matrix.metric == "msgs_sent"].value.sum()
    p2p = sent[sent.kind == "point-to-point"]
    assert len(p2p) <= sent_total
    events = run.user_events()
    stats = run.user_event_stats()
    counted = stats[stats.pe == "all"].groupby("event")["count"].sum()
    assert (events.groupby("event").size() == counted).all()
    assert set(events.event_name) >= {"Iteration start"}


def test_errors_are_parallax_errors_with_the_cli_message(tmp_path):
    missing = str(tmp_path / "nowhere")
    with pytest.raises(parallax.Error) as raised:
        parallax.open(missing)
    assert str(raised.value) == error_of("info", missing)

    # A damaged symbol table: a copy of a run whose .sts is cut short.
    damaged = tmp_path / "damaged"
    shutil.copytree(os.path.join(REAL, "projections-hello-v3"), damaged)
    sts = next(p for p in damaged.glob("*.sts") if not p.name.endswith(".sum.sts"))
    sts.write_bytes(b"PROJECTIONS_ID\nVERSION 7.0\nTOTAL_CHARES x\n")
    with pytest.raises(parallax.Error) as raised:
        parallax.open(str(damaged), cache=False)
    assert str(raised.value) == error_of("info", str(damaged), "--no-cache")

    run = parallax.open(os.path.join(SAMPLES, "imbalance"))
    with pytest.raises(parallax.Error) as raised:
        run.usage(range="10ms-20ms")
    assert str(raised.value) == error_of("usage", run.path, "--range", "10ms-20ms")
    with pytest.raises(parallax.Error) as raised:
        run.time_profile(pes=[3, 4000])
    assert str(raised.value) == error_of("time-profile", run.path, "--pes", "3,4000")
    with pytest.raises(parallax.Error, match="PE 4000 has no data"):
        run.executions(pes=4000)
    with pytest.raises(parallax.Error, match="unknown option --bogus"):
        run.histogram(bogus=1)
    with pytest.raises(parallax.Error) as raised:
        parallax.open(run.path, threads=1000)
    assert str(raised.value) == error_of("info", run.path, "--threads", "1000")
    assert issubclass(parallax.Error, Exception)


def test_a_memory_budget_keeps_the_analyses_and_refuses_event_tables():
    path = os.path.join(REAL, "gen-feat-smp")
    small = parallax.open(path, memory_budget="1K", cache=False)
    assert small.info["logs_on_demand"]
    same(small.usage(), cli_frame("usage", path, "--memory-budget", "1K", "--no-cache"))
    with pytest.raises(parallax.Error, match="left unread"):
        small.executions()


def test_without_cache_gives_the_same_frames():
    path = os.path.join(REAL, "gen-feat-smp")
    cached, fresh = parallax.open(path), parallax.open(path, cache=False)
    same(cached.executions(), fresh.executions())
    same(cached.usage(), fresh.usage())
    assert isinstance(fresh.executions().begin_us.to_numpy(), np.ndarray)
