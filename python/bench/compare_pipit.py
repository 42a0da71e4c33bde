"""Times "a DataFrame of every entry-method execution" of one Projections run with Parallax's
Python module or with Pipit (docs/performance.md), and writes the per-entry-method total
execution time (µs) as JSON so that the two can be compared.

    /usr/bin/time -v python3 compare_pipit.py parallax RUN_DIR totals.json [--cache]
    /usr/bin/time -v python3 compare_pipit.py pipit RUN_DIR totals.json

Pipit needs a directory with exactly one .sts and NAME.N.log.gz files, and must be importable
(PYTHONPATH); Parallax's module too (the build tree's python/ directory, or an installed one).
"""

import json
import sys
import time


def parallax_totals(run_dir, cache):
    import parallax

    start = time.perf_counter()
    run = parallax.open(run_dir, cache=cache)
    executions = run.executions()
    seconds = time.perf_counter() - start
    durations = executions.end_us - executions.begin_us
    totals = durations.groupby(executions.entry_name).sum()
    return seconds, len(executions), {str(k): float(v) for k, v in totals.items()}


def pipit_totals(run_dir):
    import pipit

    start = time.perf_counter()
    trace = pipit.Trace.from_projections(run_dir)
    # Pairs each Enter with its Leave: every Enter row then carries its execution's time.inc.
    trace.calc_inc_metrics(["Timestamp (ns)"])
    events = trace.events
    executions = events[(events["Event Type"] == "Enter") & events["time.inc"].notnull()]
    seconds = time.perf_counter() - start
    totals = executions.groupby("Name", observed=True)["time.inc"].sum() / 1000.0
    return seconds, len(executions), {str(k): float(v) for k, v in totals.items()}


def main():
    tool, run_dir, out = sys.argv[1:4]
    if tool == "parallax":
        seconds, rows, totals = parallax_totals(run_dir, "--cache" in sys.argv[4:])
    else:
        seconds, rows, totals = pipit_totals(run_dir)
    print("%s: %d executions in %.3f s" % (tool, rows, seconds))
    with open(out, "w") as f:
        json.dump({"seconds": seconds, "rows": rows, "totals": totals}, f, indent=1)


if __name__ == "__main__":
    main()
