#include "otf2_writer.h"

#include "export_plan.h"

#ifdef PARALLAX_HAVE_OTF2

#include "core/text_args.h"
#include "core/trace.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <otf2/otf2.h>
#include <unordered_map>

#endif

namespace parallax::exporter {

#ifndef PARALLAX_HAVE_OTF2

bool otf2Available()
{
    return false;
}

ExportResult writeOtf2(
    const core::Trace&, const ExportPlan&, const std::string&, const core::analysis::Progress&)
{
    ExportResult result;
    result.error = "this build has no OTF2 support";
    return result;
}

#else

bool otf2Available()
{
    return true;
}

namespace {

using core::PeId;
using core::TimeUs;

OTF2_FlushType preFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool)
{
    return OTF2_FLUSH;
}

OTF2_TimeStamp postFlush(void*, OTF2_FileType, OTF2_LocationRef)
{
    return 0;
}

OTF2_FlushCallbacks kFlushCallbacks = { preFlush, postFlush };

// Strings of the global definitions, numbered in order of first use.
class StringTable {
public:
    OTF2_StringRef operator()(const std::string& text)
    {
        const auto [it, added]
            = m_refs.try_emplace(text, static_cast<OTF2_StringRef>(m_order.size()));
        if (added)
            m_order.push_back(&it->first);
        return it->second;
    }
    void write(OTF2_GlobalDefWriter* writer) const
    {
        for (std::size_t k = 0; k < m_order.size(); ++k)
            OTF2_GlobalDefWriter_WriteString(
                writer, static_cast<OTF2_StringRef>(k), m_order[k]->c_str());
    }

private:
    std::unordered_map<std::string, OTF2_StringRef> m_refs;
    std::vector<const std::string*> m_order;
};

enum Attribute : OTF2_AttributeRef { kObjectIndex = 0, kMessageBytes = 1, kSenderPe = 2 };

// A metric: one member, one class of the same number.
struct Metric {
    std::string name;
    std::string unit;
    OTF2_Type type = OTF2_TYPE_DOUBLE;
};

// A point event of one location, placed among its Enter/Leave events by time; `owner` is the
// execution it belongs to (a send made by it, the receive that started it).
struct PointEvent {
    enum class Kind : std::uint8_t { Send, Receive, Metric };
    TimeUs time = 0;
    std::uint32_t owner = Activity::kNotAnExecution;
    Kind kind = Kind::Metric;
    std::uint32_t index = 0; // message index, or metric number
    OTF2_MetricValue value {};
};

struct Boundary {
    TimeUs time = 0;
    bool enter = true;
    std::uint32_t activity = 0; // index into the PE's activities
};

class Otf2Writer {
public:
    Otf2Writer(const core::Trace& trace, const ExportPlan& plan)
        : m_trace(trace)
        , m_plan(plan)
    {
        m_attributes = OTF2_AttributeList_New();
        for (std::size_t i = 0; i < plan.pes.size(); ++i)
            m_rank[plan.pes[i].pe] = static_cast<std::uint32_t>(i);
    }
    ~Otf2Writer()
    {
        OTF2_AttributeList_Delete(m_attributes);
        if (m_archive != nullptr)
            OTF2_Archive_Close(m_archive);
    }
    Otf2Writer(const Otf2Writer&) = delete;
    Otf2Writer& operator=(const Otf2Writer&) = delete;

    bool open(const std::string& directory)
    {
        m_archive = OTF2_Archive_Open(directory.c_str(), "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
            4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
        if (m_archive == nullptr)
            return fail("cannot create the OTF2 archive in " + directory);
        const auto& m = m_trace.metadata;
        return check(OTF2_Archive_SetFlushCallbacks(m_archive, &kFlushCallbacks, nullptr))
            && check(OTF2_Archive_SetSerialCollectiveCallbacks(m_archive))
            && check(OTF2_Archive_SetCreator(m_archive, "Parallax"))
            && check(OTF2_Archive_SetDescription(
                m_archive, ("Charm++ Projections run " + m_trace.files.baseName).c_str()))
            && check(OTF2_Archive_SetMachineName(
                m_archive, m.machine.empty() ? "unknown" : m.machine.c_str()))
            && properties() && check(OTF2_Archive_OpenEvtFiles(m_archive));
    }

    bool events(std::size_t index, ExportCounts& counts)
    {
        const auto& e = m_plan.pes[index];
        auto* writer = OTF2_Archive_GetEvtWriter(m_archive, static_cast<OTF2_LocationRef>(e.pe));
        if (writer == nullptr)
            return fail("cannot open the event writer of PE " + std::to_string(e.pe));
        const auto activities = peActivities(m_trace, m_plan, index);
        const auto boundaries = nesting(activities);
        const auto points = pointEvents(index, activities);
        // Merge: a point goes before a boundary at a later time, and at the same time before
        // entering anything but its owner and before leaving its owner.
        std::size_t p = 0;
        bool ok = true;
        for (const auto& b : boundaries) {
            const auto owner = activities[b.activity].execution;
            while (ok && p < points.size()
                && (points[p].time < b.time
                    || (points[p].time == b.time
                        && (b.enter ? points[p].owner != owner : points[p].owner == owner))))
                ok = point(writer, points[p++], counts);
            if (!ok)
                break;
            ok = boundary(writer, e, activities[b.activity], b.enter, counts);
        }
        for (; ok && p < points.size(); ++p)
            ok = point(writer, points[p], counts);
        std::uint64_t n = 0;
        OTF2_EvtWriter_GetNumberOfEvents(writer, &n);
        m_eventCounts.push_back(n);
        ok = check(OTF2_Archive_CloseEvtWriter(m_archive, writer)) && ok;
        markers(index, counts);
        return ok;
    }

    bool finish()
    {
        if (!check(OTF2_Archive_CloseEvtFiles(m_archive))
            || !check(OTF2_Archive_OpenDefFiles(m_archive)))
            return false;
        // Every location has a (here empty) local definition file.
        for (const auto& e : m_plan.pes) {
            auto* def = OTF2_Archive_GetDefWriter(m_archive, static_cast<OTF2_LocationRef>(e.pe));
            if (def == nullptr || !check(OTF2_Archive_CloseDefWriter(m_archive, def)))
                return fail("cannot write the definitions of PE " + std::to_string(e.pe));
        }
        if (!check(OTF2_Archive_CloseDefFiles(m_archive)) || !globalDefinitions() || !markerFile())
            return false;
        const auto status = OTF2_Archive_Close(m_archive);
        m_archive = nullptr;
        return check(status);
    }

    [[nodiscard]] const std::string& error() const { return m_error; }

private:
    bool fail(std::string message)
    {
        if (m_error.empty())
            m_error = std::move(message);
        return false;
    }
    bool check(OTF2_ErrorCode status)
    {
        if (status == OTF2_SUCCESS)
            return true;
        return fail(std::string("the OTF2 library failed: ") + OTF2_Error_GetDescription(status));
    }

    bool properties()
    {
        const auto& m = m_trace.metadata;
        char version[32];
        std::snprintf(version, sizeof version, "%g", m.version);
        std::vector<PeId> pes;
        for (const auto& e : m_plan.pes)
            pes.push_back(e.pe);
        const std::pair<const char*, std::string> values[] = {
            { "CHARM::COMMAND_LINE", m.commandLine },
            { "CHARM::MACHINE", m.machine },
            { "CHARM::VERSION", m.charmVersion },
            { "CHARM::USER", m.userName },
            { "CHARM::HOST", m.hostName },
            { "CHARM::TIMESTAMP", m.timestamp },
            { "PROJECTIONS::LOG_VERSION", version },
            { "PROJECTIONS::RUN", m_trace.files.baseName },
            { "PROJECTIONS::PROCESSORS", std::to_string(m.processors) },
            { "PROJECTIONS::SMP_NODES", std::to_string(m.smp ? m.numNodes : 0) },
            { "PARALLAX::RANGE_BEGIN_US", std::to_string(m_plan.range.begin) },
            { "PARALLAX::RANGE_END_US", std::to_string(m_plan.range.end) },
            { "PARALLAX::PES", core::formatPeList(pes) },
        };
        for (const auto& [name, value] : values)
            if (!value.empty()
                && !check(OTF2_Archive_SetProperty(m_archive, name, value.c_str(), false)))
                return false;
        return true;
    }

    // Enter/Leave in order from the activities' preorder: before entering an activity, leave
    // every open one at its depth or deeper.
    static std::vector<Boundary> nesting(const std::vector<Activity>& activities)
    {
        std::vector<Boundary> out;
        out.reserve(activities.size() * 2);
        std::vector<std::uint32_t> open;
        for (std::uint32_t k = 0; k < activities.size(); ++k) {
            while (!open.empty() && activities[open.back()].depth >= activities[k].depth) {
                out.push_back({ activities[open.back()].end, false, open.back() });
                open.pop_back();
            }
            out.push_back({ activities[k].begin, true, k });
            open.push_back(k);
        }
        while (!open.empty()) {
            out.push_back({ activities[open.back()].end, false, open.back() });
            open.pop_back();
        }
        return out;
    }

    std::uint32_t metric(const std::string& name, const std::string& unit, OTF2_Type type)
    {
        const auto key = name + '\n' + unit;
        const auto [it, added]
            = m_metricIndex.try_emplace(key, static_cast<std::uint32_t>(m_metrics.size()));
        if (added)
            m_metrics.push_back({ name, unit, type });
        return it->second;
    }

    std::vector<PointEvent> pointEvents(std::size_t index, const std::vector<Activity>& activities)
    {
        const auto& e = m_plan.pes[index];
        // The clipped interval of each execution, to keep its points inside it.
        std::unordered_map<std::uint32_t, std::pair<TimeUs, TimeUs>> spans;
        for (const auto& a : activities)
            if (a.isExecution())
                spans[a.execution] = { a.begin, a.end };
        std::vector<PointEvent> points;
        const auto add = [&](PointEvent point) {
            if (const auto it = spans.find(point.owner); it != spans.end())
                point.time = std::clamp(point.time, it->second.first, it->second.second);
            else
                point.owner = Activity::kNotAnExecution;
            points.push_back(point);
        };
        for (const auto m : e.outgoing)
            add({ m_plan.messages[m].sendTime, m_plan.messages[m].sendExecution,
                PointEvent::Kind::Send, m, {} });
        for (auto m = e.firstIncoming; m < e.lastIncoming; ++m)
            add({ m_plan.messages[m].receiveTime, m_plan.messages[m].execution,
                PointEvent::Kind::Receive, static_cast<std::uint32_t>(m), {} });
        for (const auto& s : peSamples(m_trace, m_plan, index)) {
            PointEvent point { s.time, Activity::kNotAnExecution, PointEvent::Kind::Metric, 0, {} };
            switch (s.kind) {
            case Sample::Kind::Stat:
                point.index = metric(s.name, "", OTF2_TYPE_DOUBLE);
                point.value.floating_point = s.value;
                break;
            case Sample::Kind::Memory:
                point.index = metric("Memory usage", "bytes", OTF2_TYPE_UINT64);
                point.value.unsigned_int = static_cast<std::uint64_t>(s.integer);
                break;
            case Sample::Kind::UserValue:
                point.index = metric("User-supplied value", "", OTF2_TYPE_INT64);
                point.value.signed_int = s.integer;
                break;
            }
            points.push_back(point);
        }
        std::stable_sort(points.begin(), points.end(),
            [](const PointEvent& a, const PointEvent& b) { return a.time < b.time; });
        return points;
    }

    bool point(OTF2_EvtWriter* writer, const PointEvent& p, ExportCounts& counts)
    {
        const auto time = static_cast<OTF2_TimeStamp>(p.time);
        if (p.kind == PointEvent::Kind::Metric) {
            const auto type = m_metrics[p.index].type;
            ++counts.samples;
            return check(OTF2_EvtWriter_Metric(writer, nullptr, time, p.index, 1, &type, &p.value));
        }
        const auto& m = m_plan.messages[p.index];
        const auto bytes = static_cast<std::uint64_t>(std::max(m.bytes, 0));
        if (p.kind == PointEvent::Kind::Send)
            return check(OTF2_EvtWriter_MpiSend(
                writer, nullptr, time, m_rank[m.receiverPe], 0, p.index, bytes));
        ++counts.messages;
        return check(
            OTF2_EvtWriter_MpiRecv(writer, nullptr, time, m_rank[m.senderPe], 0, p.index, bytes));
    }

    bool boundary(OTF2_EvtWriter* writer, const ExportedPe& e, const Activity& a, bool enter,
        ExportCounts& counts)
    {
        if (!enter)
            return check(OTF2_EvtWriter_Leave(
                writer, nullptr, static_cast<OTF2_TimeStamp>(a.end), a.region));
        OTF2_AttributeList* attributes = nullptr;
        if (a.isExecution()) {
            ++counts.executions;
            const auto& ex = m_trace.pes[static_cast<std::size_t>(e.pe)].executions;
            attributes = m_attributes;
            if (const auto object = objectIndexText(m_trace, e.pe, a.execution); !object.empty())
                OTF2_AttributeList_AddStringRef(attributes, kObjectIndex, m_strings(object));
            OTF2_AttributeList_AddInt32(attributes, kMessageBytes, ex.msgBytes[a.execution]);
            if (ex.sourcePe[a.execution] >= 0)
                OTF2_AttributeList_AddInt32(attributes, kSenderPe, ex.sourcePe[a.execution]);
        }
        return check(OTF2_EvtWriter_Enter(
            writer, attributes, static_cast<OTF2_TimeStamp>(a.begin), a.region));
    }

    // User events, bracketed user events, notes and unmatched sends: markers of the PE.
    void markers(std::size_t index, ExportCounts& counts)
    {
        const auto& e = m_plan.pes[index];
        const auto add = [&](const std::string& group, const std::string& category, TimeUs begin,
                             TimeUs end, std::string text) {
            const auto key = group + '\n' + category;
            const auto [it, added]
                = m_markerKinds.try_emplace(key, static_cast<std::uint32_t>(m_markerKinds.size()));
            if (added)
                m_markerDefs.emplace_back(group, category);
            m_markers.push_back({ begin, end - begin, it->second, e.pe, std::move(text) });
        };
        for (auto& m : peMarks(m_trace, m_plan, index)) {
            const bool note = m.kind == Mark::Kind::Note;
            add("User events", note ? "Notes" : m.name, m.begin, m.end,
                note ? std::move(m.text) : m.name);
            ++counts.userEvents;
        }
        const auto& p = m_trace.pes[static_cast<std::size_t>(e.pe)];
        for (const auto s : e.unmatchedSends) {
            add("Messages", "Unmatched sends", p.sends.time[s], p.sends.time[s],
                "send to " + m_trace.metadata.entryName(p.sends.entry[s]) + ", "
                    + std::to_string(p.sends.msgBytes[s]) + " bytes (no exported execution "
                    + "was found to start from it)");
            ++counts.unmatchedSends;
        }
    }

    bool markerFile()
    {
        if (m_markerDefs.empty())
            return true;
        auto* writer = OTF2_Archive_GetMarkerWriter(m_archive);
        if (writer == nullptr)
            return fail("cannot open the OTF2 marker writer");
        bool ok = true;
        for (std::size_t k = 0; k < m_markerDefs.size() && ok; ++k)
            ok = check(OTF2_MarkerWriter_WriteDefMarker(writer, static_cast<OTF2_MarkerRef>(k),
                m_markerDefs[k].first.c_str(), m_markerDefs[k].second.c_str(), OTF2_SEVERITY_NONE));
        for (const auto& m : m_markers) {
            if (!ok)
                break;
            ok = check(OTF2_MarkerWriter_WriteMarker(writer, static_cast<OTF2_TimeStamp>(m.time),
                static_cast<OTF2_TimeStamp>(m.duration), m.kind, OTF2_MARKER_SCOPE_LOCATION,
                static_cast<std::uint64_t>(m.pe), m.text.c_str()));
        }
        return check(OTF2_Archive_CloseMarkerWriter(m_archive, writer)) && ok;
    }

    bool globalDefinitions();

    const core::Trace& m_trace;
    const ExportPlan& m_plan;
    OTF2_Archive* m_archive = nullptr;
    OTF2_AttributeList* m_attributes = nullptr;
    std::string m_error;
    StringTable m_strings;
    std::map<PeId, std::uint32_t> m_rank; // PE → rank in the message communicator
    std::vector<std::uint64_t> m_eventCounts; // per exported PE
    std::vector<Metric> m_metrics;
    std::map<std::string, std::uint32_t> m_metricIndex;
    struct Marker {
        TimeUs time;
        TimeUs duration;
        std::uint32_t kind;
        PeId pe;
        std::string text;
    };
    std::vector<Marker> m_markers;
    std::vector<std::pair<std::string, std::string>> m_markerDefs; // group, category
    std::map<std::string, std::uint32_t> m_markerKinds;
};

bool Otf2Writer::globalDefinitions()
{
    auto* w = OTF2_Archive_GetGlobalDefWriter(m_archive);
    if (w == nullptr)
        return fail("cannot open the OTF2 global definition writer");
    const auto& meta = m_trace.metadata;
    auto& s = m_strings;
    bool ok = check(OTF2_GlobalDefWriter_WriteClockProperties(w, 1'000'000,
        static_cast<std::uint64_t>(m_plan.range.begin),
        static_cast<std::uint64_t>(m_plan.range.length()), OTF2_UNDEFINED_TIMESTAMP));

    // Name every string first (the table is written before the definitions that use it).
    const auto machine = s(meta.machine.empty() ? "machine" : meta.machine);
    const auto machineClass = s("machine");
    const auto nodeClass = s("node");
    std::vector<OTF2_StringRef> nodeNames;
    for (const auto node : m_plan.nodes)
        nodeNames.push_back(s((meta.smp ? "Node " : "Process ") + std::to_string(node)));
    std::vector<OTF2_StringRef> peNames;
    for (const auto& e : m_plan.pes)
        peNames.push_back(s("PE " + std::to_string(e.pe) + (e.commThread ? " (comm thread)" : "")));
    std::vector<OTF2_StringRef> regionNames;
    std::vector<OTF2_StringRef> regionDescriptions;
    std::map<std::string, std::vector<std::uint64_t>> chareRegions;
    std::vector<std::uint64_t> runtimeRegions;
    for (std::size_t r = 0; r < m_plan.regions.size(); ++r) {
        const auto& region = m_plan.regions[r];
        regionNames.push_back(s(region.name));
        std::string description;
        switch (region.kind) {
        case RegionKind::Entry:
            description
                = "entry method " + std::to_string(region.entry) + " of chare " + region.chare;
            chareRegions[region.chare.empty() ? "(no chare)" : region.chare].push_back(r);
            break;
        case RegionKind::Overhead:
            description = "traced time not spent in an entry method, idle, pack or unpack";
            break;
        case RegionKind::Idle:
            description = "the PE waited for messages";
            break;
        case RegionKind::Pack:
            description = "packing a message";
            break;
        case RegionKind::Unpack:
            description = "unpacking a message";
            break;
        case RegionKind::UnknownEntry:
            description = "entry methods the symbol table does not name";
            break;
        }
        if (region.kind != RegionKind::Entry)
            runtimeRegions.push_back(r);
        regionDescriptions.push_back(s(description));
    }
    std::vector<std::pair<OTF2_StringRef, const std::vector<std::uint64_t>*>> regionGroups;
    for (const auto& [chare, members] : chareRegions)
        regionGroups.emplace_back(s(chare), &members);
    regionGroups.emplace_back(s("Charm++ runtime"), &runtimeRegions);
    const auto empty = s("");
    const auto attributeNames
        = std::array { s("Object index"), s("Message bytes"), s("Sender PE") };
    const auto attributeDescriptions
        = std::array { s("index of the array element the entry method ran on"),
              s("size of the message that started the execution, envelope included"),
              s("PE that sent the message that started the execution") };
    const auto peGroup = s("Charm++ PEs");
    const auto commName = s("Charm++ messages");
    std::vector<std::pair<OTF2_StringRef, OTF2_StringRef>> metricNames;
    for (const auto& m : m_metrics)
        metricNames.emplace_back(s(m.name), s(m.unit));
    m_strings.write(w);

    const OTF2_Type attributeTypes[] = { OTF2_TYPE_STRING, OTF2_TYPE_INT32, OTF2_TYPE_INT32 };
    for (OTF2_AttributeRef a = 0; a < 3 && ok; ++a)
        ok = check(OTF2_GlobalDefWriter_WriteAttribute(
            w, a, attributeNames[a], attributeDescriptions[a], attributeTypes[a]));
    // System tree: the machine, then one node per SMP node (process without SMP).
    ok = ok
        && check(OTF2_GlobalDefWriter_WriteSystemTreeNode(
            w, 0, machine, machineClass, OTF2_UNDEFINED_SYSTEM_TREE_NODE));
    for (std::size_t n = 0; n < m_plan.nodes.size() && ok; ++n)
        ok = check(OTF2_GlobalDefWriter_WriteSystemTreeNode(
            w, static_cast<OTF2_SystemTreeNodeRef>(n + 1), nodeNames[n], nodeClass, 0));
    for (std::size_t n = 0; n < m_plan.nodes.size() && ok; ++n)
        ok = check(OTF2_GlobalDefWriter_WriteLocationGroup(w, static_cast<OTF2_LocationGroupRef>(n),
            nodeNames[n], OTF2_LOCATION_GROUP_TYPE_PROCESS,
            static_cast<OTF2_SystemTreeNodeRef>(n + 1), OTF2_UNDEFINED_LOCATION_GROUP));
    for (std::size_t i = 0; i < m_plan.pes.size() && ok; ++i) {
        const auto& e = m_plan.pes[i];
        const auto group = std::lower_bound(m_plan.nodes.begin(), m_plan.nodes.end(), e.node)
            - m_plan.nodes.begin();
        ok = check(
            OTF2_GlobalDefWriter_WriteLocation(w, static_cast<OTF2_LocationRef>(e.pe), peNames[i],
                OTF2_LOCATION_TYPE_CPU_THREAD, i < m_eventCounts.size() ? m_eventCounts[i] : 0,
                static_cast<OTF2_LocationGroupRef>(group)));
    }
    for (std::size_t r = 0; r < m_plan.regions.size() && ok; ++r) {
        const auto kind = m_plan.regions[r].kind;
        const bool artificial = kind == RegionKind::Overhead || kind == RegionKind::Idle;
        ok = check(OTF2_GlobalDefWriter_WriteRegion(w, static_cast<OTF2_RegionRef>(r),
            regionNames[r], regionNames[r], regionDescriptions[r],
            artificial ? OTF2_REGION_ROLE_ARTIFICIAL : OTF2_REGION_ROLE_FUNCTION,
            OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, empty, 0, 0));
    }
    // Groups: one of regions per chare (Vampir's function groups), the runtime's regions, then
    // the locations that exchange messages and their communicator.
    OTF2_GroupRef group = 0;
    for (const auto& [name, members] : regionGroups) {
        if (!ok)
            break;
        ok = check(OTF2_GlobalDefWriter_WriteGroup(w, group++, name, OTF2_GROUP_TYPE_REGIONS,
            OTF2_PARADIGM_USER, OTF2_GROUP_FLAG_NONE, static_cast<std::uint32_t>(members->size()),
            members->data()));
    }
    std::vector<std::uint64_t> locations;
    std::vector<std::uint64_t> ranks;
    for (std::size_t i = 0; i < m_plan.pes.size(); ++i) {
        locations.push_back(static_cast<std::uint64_t>(m_plan.pes[i].pe));
        ranks.push_back(i);
    }
    const auto commLocations = group++;
    const auto commGroup = group++;
    ok = ok
        && check(OTF2_GlobalDefWriter_WriteGroup(w, commLocations, peGroup,
            OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
            static_cast<std::uint32_t>(locations.size()), locations.data()))
        && check(OTF2_GlobalDefWriter_WriteGroup(w, commGroup, peGroup, OTF2_GROUP_TYPE_COMM_GROUP,
            OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, static_cast<std::uint32_t>(ranks.size()),
            ranks.data()))
        && check(OTF2_GlobalDefWriter_WriteComm(
            w, 0, commName, commGroup, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
    for (std::size_t k = 0; k < m_metrics.size() && ok; ++k) {
        const auto ref = static_cast<std::uint32_t>(k);
        ok = check(OTF2_GlobalDefWriter_WriteMetricMember(w, ref, metricNames[k].first,
                 metricNames[k].first, OTF2_METRIC_TYPE_USER, OTF2_METRIC_ABSOLUTE_POINT,
                 m_metrics[k].type, OTF2_BASE_DECIMAL, 0, metricNames[k].second))
            && check(OTF2_GlobalDefWriter_WriteMetricClass(
                w, ref, 1, &ref, OTF2_METRIC_ASYNCHRONOUS, OTF2_RECORDER_KIND_ABSTRACT));
    }
    return check(OTF2_Archive_CloseGlobalDefWriter(m_archive, w)) && ok;
}

} // namespace

ExportResult writeOtf2(const core::Trace& trace, const ExportPlan& plan,
    const std::string& directory, const core::analysis::Progress& progress)
{
    ExportResult result;
    Otf2Writer writer(trace, plan);
    bool ok = writer.open(directory);
    const double total = static_cast<double>(plan.pes.size() + 1);
    for (std::size_t i = 0; ok && i < plan.pes.size(); ++i) {
        if (progress.isCancelled()) {
            result.cancelled = true;
            result.error = "cancelled";
            return result;
        }
        ok = writer.events(i, result.counts);
        if (progress.report)
            progress.report(static_cast<double>(i + 1) / total);
    }
    ok = ok && writer.finish();
    result.counts.pes = plan.pes.size();
    result.ok = ok;
    if (!ok)
        result.error = writer.error();
    return result;
}

#endif // PARALLAX_HAVE_OTF2

} // namespace parallax::exporter
