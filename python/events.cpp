// The store's event tables as NumPy columns: executions, idle intervals, message sends and user
// events of the selected PEs overlapping a range. Each column is filled once, in C++, straight
// from the PE's store; Python builds the DataFrame from the arrays without touching a record.

#include "binding.h"
#include "core/analysis/analysis_request.h"
#include "core/text_args.h"

#include <algorithm>
#include <pybind11/stl.h>

namespace parallax::python {

namespace {

// The PEs and the window of an event table: --pes (default: every PE with data) and --range
// (default: everything; an open end reaches the run's first or last record, as `timeline` does).
struct EventSelection {
    std::vector<core::PeId> pes;
    core::TimeRange window { 0, core::kTimeMax };
    std::vector<bool> entrySelected; // empty = every entry
};

EventSelection selectEvents(
    const std::string& command, const Run& run, const std::vector<std::string>& args)
{
    const auto parsed = parseArgs(command, run, args);
    if (run.trace->logsOnDemand())
        throw Failure("parallax: the logs of this run were left unread (its store would need "
            + core::formatBytes(run.trace->deferredStoreBytes)
            + ", above memory_budget); event tables need them: open it without memory_budget");
    EventSelection s;
    s.pes = parsed.request.pes.empty() ? run.trace->validPes() : parsed.request.pes;
    std::sort(s.pes.begin(), s.pes.end());
    if (!(parsed.request.range.begin == 0 && parsed.request.range.end == 0))
        s.window = parsed.request.range;
    if (!parsed.request.entries.empty()) {
        s.entrySelected.assign(run.trace->metadata.entries.size() + 1, false);
        for (const auto e : parsed.request.entries)
            if (static_cast<std::size_t>(e) < s.entrySelected.size())
                s.entrySelected[static_cast<std::size_t>(e)] = true;
    }
    return s;
}

const core::PeTrace* peStore(const Run& run, core::PeId pe)
{
    if (pe < 0 || static_cast<std::size_t>(pe) >= run.trace->pes.size())
        return nullptr;
    const auto& p = run.trace->pes[static_cast<std::size_t>(pe)];
    return p.hasLog ? &p : nullptr;
}

bool entryWanted(const EventSelection& s, std::uint16_t entry)
{
    return s.entrySelected.empty() || (entry < s.entrySelected.size() && s.entrySelected[entry]);
}

// Per selected PE the index range `rangeOf(store)` (empty for a PE without a log), and the sum
// of their sizes.
struct PeRanges {
    std::vector<core::IndexRange> ranges;
    std::size_t total = 0;
};
template <typename F> PeRanges rangesOf(const Run& run, const EventSelection& s, F rangeOf)
{
    PeRanges r;
    for (const auto pe : s.pes) {
        const auto* p = peStore(run, pe);
        r.ranges.push_back(p ? rangeOf(*p) : core::IndexRange {});
        r.total += r.ranges.back().size();
    }
    return r;
}

// One output column: its NumPy array and where the next value goes.
template <typename T> struct OutColumn {
    py::array_t<T> array;
    T* next;
    explicit OutColumn(std::size_t n)
        : array(newArray<T>(n))
        , next(array.mutable_data())
    { }
    // Appends values [r.first, r.last) of a store column.
    template <typename Col> void append(const Col& column, core::IndexRange r)
    {
        for (auto i = r.first; i < r.last; ++i) // by row: some columns are packed
            *next++ = static_cast<T>(column[i]);
    }
    void repeat(T value, std::size_t n) { next = std::fill_n(next, n, value); }
    void push(T value) { *next++ = value; }
};

using Named = std::pair<const char*, py::object>;
py::dict columnDict(std::initializer_list<Named> columns)
{
    py::dict d;
    for (const auto& [name, values] : columns)
        d[name] = values;
    return d;
}

py::dict executionTable(const Run& run, const std::vector<std::string>& args)
{
    const auto s = selectEvents("timeline", run, args);
    const auto r = rangesOf(run, s, [&s](const core::PeTrace& p) {
        return p.executionsOverlapping(s.window.begin, s.window.end);
    });
    std::size_t n = r.total;
    if (!s.entrySelected.empty()) {
        n = 0;
        for (std::size_t k = 0; k < s.pes.size(); ++k)
            for (auto i = r.ranges[k].first; i < r.ranges[k].last; ++i)
                n += entryWanted(s, peStore(run, s.pes[k])->executions.entry[i]) ? 1U : 0U;
    }
    OutColumn<std::int32_t> pe(n), entry(n), source(n), bytes(n), event(n);
    OutColumn<std::int64_t> begin(n), end(n);
    OutColumn<std::uint8_t> flags(n);
    for (std::size_t k = 0; k < s.pes.size(); ++k) {
        const auto range = r.ranges[k];
        if (range.empty())
            continue;
        const auto& x = peStore(run, s.pes[k])->executions;
        const auto append = [&](core::IndexRange rows) {
            begin.append(x.begin, rows);
            end.append(x.end, rows);
            entry.append(x.entry, rows);
            source.append(x.sourcePe, rows);
            bytes.append(x.msgBytes, rows);
            event.append(x.eventId, rows);
            flags.append(x.flags, rows);
        };
        if (s.entrySelected.empty()) {
            pe.repeat(s.pes[k], range.size());
            append(range);
            continue;
        }
        for (auto i = range.first; i < range.last; ++i)
            if (entryWanted(s, x.entry[i])) {
                pe.push(s.pes[k]);
                append({ i, i + 1 });
            }
    }
    return columnDict({ { "pe", pe.array }, { "begin_us", begin.array }, { "end_us", end.array },
        { "entry", entry.array }, { "source_pe", source.array }, { "msg_bytes", bytes.array },
        { "event_id", event.array }, { "flags", flags.array } });
}

py::dict idleTable(const Run& run, const std::vector<std::string>& args)
{
    const auto s = selectEvents("timeline", run, args);
    const auto r = rangesOf(run, s,
        [&s](const core::PeTrace& p) { return p.idlesOverlapping(s.window.begin, s.window.end); });
    OutColumn<std::int32_t> pe(r.total);
    OutColumn<std::int64_t> begin(r.total), end(r.total);
    for (std::size_t k = 0; k < s.pes.size(); ++k) {
        if (r.ranges[k].empty())
            continue;
        const auto& idles = peStore(run, s.pes[k])->idles;
        pe.repeat(s.pes[k], r.ranges[k].size());
        begin.append(idles.begin, r.ranges[k]);
        end.append(idles.end, r.ranges[k]);
    }
    return columnDict({ { "pe", pe.array }, { "begin_us", begin.array }, { "end_us", end.array } });
}

// Message sends (CREATION records): kind 0 point-to-point, 1 broadcast, 2 multicast.
py::dict messageTable(const Run& run, const std::vector<std::string>& args)
{
    const auto s = selectEvents("timeline", run, args);
    const auto r = rangesOf(
        run, s, [&s](const core::PeTrace& p) { return p.sendsIn(s.window.begin, s.window.end); });
    const auto n = r.total;
    OutColumn<std::int32_t> pe(n), entry(n), bytes(n), event(n), destinations(n);
    OutColumn<std::int64_t> time(n);
    OutColumn<std::uint8_t> kind(n);
    for (std::size_t k = 0; k < s.pes.size(); ++k) {
        const auto range = r.ranges[k];
        if (range.empty())
            continue;
        const auto& x = peStore(run, s.pes[k])->sends;
        pe.repeat(s.pes[k], range.size());
        time.append(x.time, range);
        entry.append(x.entry, range);
        kind.append(x.kind, range);
        bytes.append(x.msgBytes, range);
        event.append(x.eventId, range);
        destinations.append(x.destinationCount, range);
    }
    return columnDict({ { "pe", pe.array }, { "time_us", time.array }, { "entry", entry.array },
        { "kind", kind.array }, { "msg_bytes", bytes.array }, { "event_id", event.array },
        { "destinations", destinations.array } });
}

// User events of the store: instants (begin == end, kind 0) lying in the range and brackets
// (kind 1) beginning in it, PE by PE, each kind by time.
py::dict userEventTable(const Run& run, const std::vector<std::string>& args)
{
    const auto s = selectEvents("user-events", run, args);
    const auto inWindow = [&s](core::TimeUs t) {
        return t >= s.window.begin && t < s.window.end;
    };
    std::size_t n = 0;
    for (const auto pe : s.pes)
        if (const auto* p = peStore(run, pe)) {
            for (const auto& e : p->userEvents)
                n += inWindow(e.time) ? 1U : 0U;
            for (const auto& b : p->userBrackets)
                n += inWindow(b.begin) ? 1U : 0U;
        }
    OutColumn<std::int32_t> pe(n), event(n);
    OutColumn<std::uint8_t> kind(n);
    OutColumn<std::int64_t> begin(n), end(n);
    const auto push
        = [&](core::PeId p, core::UserEventId id, std::uint8_t k, core::TimeUs b, core::TimeUs e) {
              pe.push(p);
              event.push(id);
              kind.push(k);
              begin.push(b);
              end.push(e);
          };
    for (const auto id : s.pes)
        if (const auto* p = peStore(run, id)) {
            for (const auto& e : p->userEvents)
                if (inWindow(e.time))
                    push(id, e.id, 0, e.time, e.time);
            for (const auto& b : p->userBrackets)
                if (inWindow(b.begin))
                    push(id, b.id, 1, b.begin, b.end);
        }
    return columnDict({ { "pe", pe.array }, { "event", event.array }, { "kind", kind.array },
        { "begin_us", begin.array }, { "end_us", end.array } });
}

} // namespace

void bindEvents(py::class_<Run>& run)
{
    run.def("executions", &executionTable, py::arg("args"))
        .def("idle", &idleTable, py::arg("args"))
        .def("messages", &messageTable, py::arg("args"))
        .def("user_events", &userEventTable, py::arg("args"))
        .def("user_event_names", [](const Run& r) { return r.trace->metadata.userEvents; });
}

} // namespace parallax::python
