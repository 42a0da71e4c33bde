// The store's event tables as NumPy columns: executions, idle intervals, message sends and user
// events of the selected PEs overlapping a range. Each column is filled once, in C++, straight
// from the PE's store; Python builds the DataFrame from the arrays without touching a record.

#include "binding.h"
#include "core/analysis/analysis_request.h"

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

// Copies column values [first, last) at `at`, converted to T.
template <typename T, typename Col>
void copyColumn(T* out, const Col& column, std::size_t first, std::size_t last)
{
    std::transform(column.begin() + static_cast<std::ptrdiff_t>(first),
        column.begin() + static_cast<std::ptrdiff_t>(last), out,
        [](auto v) { return static_cast<T>(v); });
}

py::dict executionTable(const Run& run, const std::vector<std::string>& args)
{
    const auto s = selectEvents("timeline", run, args);
    std::vector<core::IndexRange> ranges;
    std::size_t n = 0;
    for (const auto pe : s.pes) {
        const auto* p = peStore(run, pe);
        ranges.push_back(
            p ? p->executionsOverlapping(s.window.begin, s.window.end) : core::IndexRange {});
        if (s.entrySelected.empty())
            n += ranges.back().size();
        else
            for (auto i = ranges.back().first; i < ranges.back().last; ++i)
                n += entryWanted(s, p->executions.entry[i]) ? 1U : 0U;
    }
    auto pe = newArray<std::int32_t>(n);
    auto begin = newArray<std::int64_t>(n);
    auto end = newArray<std::int64_t>(n);
    auto entry = newArray<std::int32_t>(n);
    auto source = newArray<std::int32_t>(n);
    auto bytes = newArray<std::int32_t>(n);
    auto event = newArray<std::int32_t>(n);
    auto flags = newArray<std::uint8_t>(n);
    std::size_t at = 0;
    for (std::size_t k = 0; k < s.pes.size(); ++k) {
        const auto r = ranges[k];
        if (r.empty())
            continue;
        const auto& x = peStore(run, s.pes[k])->executions;
        if (s.entrySelected.empty()) {
            std::fill_n(pe.mutable_data() + at, r.size(), s.pes[k]);
            copyColumn(begin.mutable_data() + at, x.begin, r.first, r.last);
            copyColumn(end.mutable_data() + at, x.end, r.first, r.last);
            copyColumn(entry.mutable_data() + at, x.entry, r.first, r.last);
            copyColumn(source.mutable_data() + at, x.sourcePe, r.first, r.last);
            copyColumn(bytes.mutable_data() + at, x.msgBytes, r.first, r.last);
            copyColumn(event.mutable_data() + at, x.eventId, r.first, r.last);
            copyColumn(flags.mutable_data() + at, x.flags, r.first, r.last);
            at += r.size();
            continue;
        }
        for (auto i = r.first; i < r.last; ++i) {
            if (!entryWanted(s, x.entry[i]))
                continue;
            pe.mutable_data()[at] = s.pes[k];
            begin.mutable_data()[at] = x.begin[i];
            end.mutable_data()[at] = x.end[i];
            entry.mutable_data()[at] = x.entry[i];
            source.mutable_data()[at] = x.sourcePe[i];
            bytes.mutable_data()[at] = x.msgBytes[i];
            event.mutable_data()[at] = x.eventId[i];
            flags.mutable_data()[at] = x.flags[i];
            ++at;
        }
    }
    py::dict columns;
    columns["pe"] = pe;
    columns["begin_us"] = begin;
    columns["end_us"] = end;
    columns["entry"] = entry;
    columns["source_pe"] = source;
    columns["msg_bytes"] = bytes;
    columns["event_id"] = event;
    columns["flags"] = flags;
    return columns;
}

py::dict idleTable(const Run& run, const std::vector<std::string>& args)
{
    const auto s = selectEvents("timeline", run, args);
    std::vector<core::IndexRange> ranges;
    std::size_t n = 0;
    for (const auto pe : s.pes) {
        const auto* p = peStore(run, pe);
        ranges.push_back(
            p ? p->idlesOverlapping(s.window.begin, s.window.end) : core::IndexRange {});
        n += ranges.back().size();
    }
    auto pe = newArray<std::int32_t>(n);
    auto begin = newArray<std::int64_t>(n);
    auto end = newArray<std::int64_t>(n);
    std::size_t at = 0;
    for (std::size_t k = 0; k < s.pes.size(); ++k) {
        const auto r = ranges[k];
        if (r.empty())
            continue;
        const auto& idles = peStore(run, s.pes[k])->idles;
        std::fill_n(pe.mutable_data() + at, r.size(), s.pes[k]);
        copyColumn(begin.mutable_data() + at, idles.begin, r.first, r.last);
        copyColumn(end.mutable_data() + at, idles.end, r.first, r.last);
        at += r.size();
    }
    py::dict columns;
    columns["pe"] = pe;
    columns["begin_us"] = begin;
    columns["end_us"] = end;
    return columns;
}

// Message sends (CREATION records): kind 0 point-to-point, 1 broadcast, 2 multicast.
py::dict messageTable(const Run& run, const std::vector<std::string>& args)
{
    const auto s = selectEvents("timeline", run, args);
    std::vector<core::IndexRange> ranges;
    std::size_t n = 0;
    for (const auto pe : s.pes) {
        const auto* p = peStore(run, pe);
        ranges.push_back(p ? p->sendsIn(s.window.begin, s.window.end) : core::IndexRange {});
        n += ranges.back().size();
    }
    auto pe = newArray<std::int32_t>(n);
    auto time = newArray<std::int64_t>(n);
    auto entry = newArray<std::int32_t>(n);
    auto kind = newArray<std::uint8_t>(n);
    auto bytes = newArray<std::int32_t>(n);
    auto event = newArray<std::int32_t>(n);
    auto destinations = newArray<std::int32_t>(n);
    std::size_t at = 0;
    for (std::size_t k = 0; k < s.pes.size(); ++k) {
        const auto r = ranges[k];
        if (r.empty())
            continue;
        const auto& x = peStore(run, s.pes[k])->sends;
        std::fill_n(pe.mutable_data() + at, r.size(), s.pes[k]);
        copyColumn(time.mutable_data() + at, x.time, r.first, r.last);
        copyColumn(entry.mutable_data() + at, x.entry, r.first, r.last);
        copyColumn(kind.mutable_data() + at, x.kind, r.first, r.last);
        copyColumn(bytes.mutable_data() + at, x.msgBytes, r.first, r.last);
        copyColumn(event.mutable_data() + at, x.eventId, r.first, r.last);
        copyColumn(destinations.mutable_data() + at, x.destinationCount, r.first, r.last);
        at += r.size();
    }
    py::dict columns;
    columns["pe"] = pe;
    columns["time_us"] = time;
    columns["entry"] = entry;
    columns["kind"] = kind;
    columns["msg_bytes"] = bytes;
    columns["event_id"] = event;
    columns["destinations"] = destinations;
    return columns;
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
    auto pe = newArray<std::int32_t>(n);
    auto event = newArray<std::int32_t>(n);
    auto kind = newArray<std::uint8_t>(n);
    auto begin = newArray<std::int64_t>(n);
    auto end = newArray<std::int64_t>(n);
    std::size_t at = 0;
    const auto push
        = [&](core::PeId p, core::UserEventId id, std::uint8_t k, core::TimeUs b, core::TimeUs e) {
              pe.mutable_data()[at] = p;
              event.mutable_data()[at] = id;
              kind.mutable_data()[at] = k;
              begin.mutable_data()[at] = b;
              end.mutable_data()[at] = e;
              ++at;
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
    py::dict columns;
    columns["pe"] = pe;
    columns["event"] = event;
    columns["kind"] = kind;
    columns["begin_us"] = begin;
    columns["end_us"] = end;
    return columns;
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
