"""Charm++ Projections runs as pandas DataFrames, read by Parallax.

    import parallax
    run = parallax.open("path/to/run")          # a run directory, NAME.sts or NAME.sum.sts
    run.info                                    # what `parallax-cli info` prints, as a dict
    run.executions(pes="0-7", range="10ms:20ms")
    run.usage()                                 # the numbers of `parallax-cli usage`

Options take what the CLI takes: strings ("10ms:20ms", "0-7,9") or Python values (a (begin,
end) tuple of microseconds or time strings, an int or a list of ints for PEs). Problems raise
parallax.Error with the CLI's message. See docs/python.md.
"""

import io as _io

import numpy as _np
import pandas as _pd

from . import _parallax

Error = _parallax.Error

__all__ = ["Error", "Run", "open"]

_SEND_KINDS = ["point-to-point", "broadcast", "multicast"]
_USER_EVENT_KINDS = ["instant", "bracket"]


def _time_text(value):
    if value is None:
        return ""
    if isinstance(value, (int, _np.integer)):
        return str(int(value))
    if isinstance(value, (float, _np.floating)):
        return repr(float(value))
    return str(value)


def _list_text(value):
    if isinstance(value, str):
        return value
    if isinstance(value, (int, _np.integer)):
        return str(int(value))
    return ",".join(str(int(v)) for v in value)


def _range_text(value):
    if isinstance(value, str):
        return value
    begin, end = value
    return _time_text(begin) + ":" + _time_text(end)


def _args(options):
    """Keyword options as CLI arguments: bin_size=... becomes --bin-size ..., True a flag."""
    args = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        name = "--" + key.replace("_", "-")
        if value is True:
            args.append(name)
        elif key == "range":
            args += [name, _range_text(value)]
        elif key in ("pes", "entries", "events"):
            args += [name, _list_text(value)]
        elif key in ("interval", "min_excess"):
            args += [name, _time_text(value)]
        else:
            args += [name, str(value)]
    return args


def _csv_frame(text):
    # Only an empty CSV field is a missing value: an entry method may be called "null" or "NA".
    return _pd.read_csv(_io.StringIO(text), keep_default_na=False, na_values=[""])


def _split_extrema(text):
    """The CLI's extrema CSV (a ranked-PE table, then a group table) as two DataFrames."""
    at = text.find("\ngroup,")
    return _csv_frame(text[: at + 1]), _csv_frame(text[at + 1 :])


def _table_frame(columns):
    data = {}
    for key, kind, values in columns:
        if kind == "integer" and not _np.isnan(values).any():
            values = values.astype(_np.int64)
        data[key] = values
    return _frame(data)


def _frame(columns):
    """A DataFrame over the module's NumPy arrays as they are: no copy, no consolidation."""
    return _pd.DataFrame(columns, copy=False)


def _categories(codes, names):
    return _pd.Categorical.from_codes(codes.astype(_np.int8), categories=names)


class Run:
    """An opened run. Build one with parallax.open()."""

    def __init__(self, handle, cache, cache_dir):
        self._run = handle
        self._cache = cache
        self._cache_dir = cache_dir
        self._info = None
        self._entries = None

    def __repr__(self):
        return "parallax.Run(%r)" % self._run.path

    @property
    def path(self):
        return self._run.path

    @property
    def info(self):
        """`parallax-cli info` as a dict (valid_pes: the PEs with data, as a list)."""
        if self._info is None:
            self._info = self._run.info()
        return dict(self._info)

    @property
    def entries(self):
        """Entry methods: id, name, chare (`parallax-cli entries`)."""
        if self._entries is None:
            self._entries = _pd.DataFrame(self._run.entries())
        return self._entries.copy()

    def _entry_names(self, entry):
        names = _np.asarray(list(self.entries["name"]) + [""], dtype=object)
        index = _np.where((entry >= 0) & (entry < len(names) - 1), entry, len(names) - 1)
        return names[index]

    # Event tables: one row per record of the store, built from NumPy columns.

    def executions(self, pes=None, range=None, entries=None, names=True):
        """Entry-method executions overlapping the range: pe, begin_us, end_us, entry,
        entry_name, source_pe, msg_bytes, event_id, flags (by PE, then by begin)."""
        columns = self._run.executions(_args({"pes": pes, "range": range, "entries": entries}))
        frame = _frame(columns)
        if names:
            frame.insert(4, "entry_name", self._entry_names(columns["entry"]))
        return frame

    def idle(self, pes=None, range=None):
        """Idle intervals overlapping the range: pe, begin_us, end_us."""
        return _frame(self._run.idle(_args({"pes": pes, "range": range})))

    def messages(self, pes=None, range=None):
        """Message sends in the range: pe (the sender), time_us, entry (destination entry
        method), kind (point-to-point, broadcast, multicast), msg_bytes, event_id,
        destinations."""
        columns = self._run.messages(_args({"pes": pes, "range": range}))
        columns["kind"] = _categories(columns["kind"], _SEND_KINDS)
        return _frame(columns)

    def user_events(self, pes=None, range=None):
        """User events of the logs: pe, event, event_name, kind (instant, bracket),
        begin_us, end_us (== begin_us for an instant); instants in the range, brackets that
        begin in it."""
        columns = self._run.user_events(_args({"pes": pes, "range": range}))
        known = self._run.user_event_names()
        names = _pd.Series(columns["event"]).map(known).fillna("").to_numpy(dtype=object)
        columns["kind"] = _categories(columns["kind"], _USER_EVENT_KINDS)
        frame = _frame(columns)
        frame.insert(2, "event_name", names)
        return frame

    # Analyses: the numbers and columns of the CLI command of the same name.

    def usage(self, **options):
        """`parallax-cli usage`: pe, activity, activity_name, percent."""
        return _csv_frame(self._run.usage(_args(options)))

    def time_profile(self, interval=None, bins=None, **options):
        """`parallax-cli time-profile`."""
        options.update(interval=interval, bins=bins)
        return _csv_frame(self._run.time_profile(_args(options)))

    def histogram(self, metric="duration", **options):
        """`parallax-cli histogram` (metric duration, msg-size or idle; bins, bin_size, min,
        idle="on")."""
        options["metric"] = metric
        return _csv_frame(self._run.histogram(_args(options)))

    def extrema(self, criterion="least-idle", **options):
        """`parallax-cli extrema --criterion C` (count, clusters): two DataFrames, the ranked
        PEs (rank, pe, score) and the averaged groups (group, activity, activity_name, value),
        the two parts of the CLI's CSV."""
        options["criterion"] = criterion
        return _split_extrema(self._run.extrema(_args(options)))

    def comm(self, interval=None, bins=None, **options):
        """`parallax-cli comm`."""
        options.update(interval=interval, bins=bins)
        return _csv_frame(self._run.comm(_args(options)))

    def overview(self, **options):
        """`parallax-cli overview` (columns)."""
        return _csv_frame(self._run.overview(_args(options)))

    def entry_profile(self, **options):
        """`parallax-cli entry-profile`."""
        return _table_frame(self._run.entry_profile(_args(options)))

    def call_table(self, **options):
        """`parallax-cli call-table`."""
        return _table_frame(self._run.call_table(_args(options)))

    def user_event_stats(self, **options):
        """`parallax-cli user-events` (events, occurrences=True)."""
        return _table_frame(self._run.user_event_stats(_args(options)))

    def cli(self, command, **options):
        """Any `parallax-cli COMMAND RUN` that prints CSV, run in this process on this run:
        e.g. run.cli("comm-matrix", by="node")."""
        argv = [command, self._run.path] + _args(options)
        if not self._cache:
            argv.append("--no-cache")
        if self._cache_dir:
            argv += ["--cache-dir", self._cache_dir]
        code, out, err = _parallax.run_cli(argv)
        if code != 0:
            raise Error(err.splitlines()[0] if err else "parallax-cli %s failed" % command)
        return _csv_frame(out)

    def noise(self, **options):
        """`parallax-cli noise` (k, min_excess, min_samples, list)."""
        return self.cli("noise", **options)

    def comm_matrix(self, **options):
        """`parallax-cli comm-matrix`."""
        return self.cli("comm-matrix", **options)

    def groups(self, by="node", **options):
        """`parallax-cli groups --by node|block:N|signature`."""
        return self.cli("groups", by=by, **options)

    def clusters(self, **options):
        """`parallax-cli clusters` (k)."""
        return self.cli("clusters", **options)

    def msg_size_evolution(self, **options):
        """`parallax-cli msg-size-evolution`."""
        return self.cli("msg-size-evolution", **options)

    def animation(self, **options):
        """`parallax-cli animation` (frames)."""
        return self.cli("animation", **options)

    def user_stats(self, **options):
        """`parallax-cli user-stats`."""
        return self.cli("user-stats", **options)

    def memory(self, **options):
        """`parallax-cli memory` (by="time" or "pe")."""
        return self.cli("memory", **options)

    def counters(self, **options):
        """`parallax-cli counters`."""
        return self.cli("counters", **options)

    def log(self, pe, **options):
        """`parallax-cli log --pe N`: one PE's log record by record (range, types, search,
        limit)."""
        return self.cli("log", pe=pe, **options)


def open(path, cache=True, cache_dir=None, threads=0, memory_budget=None):  # noqa: A001
    """Opens a run: a run directory, a NAME.sts or a NAME.sum.sts file. cache: use (and
    refresh) the index cache as parallax-cli does, so a second open is quick. threads: reader
    threads (0: all cores). memory_budget ("4G"): above it the logs stay unread and the
    analyses use the summary files, as with parallax-cli --memory-budget."""
    handle = _parallax.open(str(path), cache=cache, cache_dir=cache_dir or "", threads=threads,
                            memory_budget=str(memory_budget or ""))
    return Run(handle, cache, cache_dir)
