#pragma once

#include "builder_stage.h"
#include "import_report.h"
#include "log_record.h"
#include "pe_trace.h"
#include "store_arena.h"

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace parallax::core {

struct RunMetadata;

// Interprets one PE's log records, in file order, into a PeTrace. Irregular input is handled
// as docs/format.md §5 recommends and counted in the report (see Issue): nested BEGINs close the
// open execution at the new BEGIN, unmatched ENDs are ignored, an execution open at
// END_COMPUTATION is closed there, records after END_COMPUTATION are ignored, a log without
// END_COMPUTATION has its open activities closed at its last timestamp, and a timestamp that
// goes backwards is clamped so that executions and idles stay sorted and non-overlapping.
class PeTraceBuilder {
public:
    PeTraceBuilder(
        PeId pe, const RunMetadata& metadata, std::string fileName, ImportReport& report);

    // Feed one record; lineNumber is 1-based (for the import report).
    void add(const LogRecord& record, std::uint64_t lineNumber);
    [[nodiscard]] bool ended() const { return m_ended; }

    // The finished columns go into `arena` (which must outlive finish()) instead of an
    // allocation each.
    void useArena(StoreArena* arena) { m_arena = arena; }

    // Close what is still open, sort the point columns and hand the trace out.
    PeTrace finish();

private:
    struct OpenExecution {
        bool open = false;
        TimeUs begin = 0;
        EntryId entry = kNoEntry;
        PeId sourcePe = kNoPe;
        std::int32_t msgBytes = 0;
        std::int32_t eventId = 0;
        TimeUs cpuBegin = 0;
        std::uint8_t flags = 0;
        std::vector<std::int64_t> papiBegin;
    };
    struct OpenInterval {
        bool open = false;
        TimeUs begin = 0;
    };

    void issue(Issue kind, std::string message);
    TimeUs intervalTime(TimeUs t);
    [[gnu::noinline]] TimeUs clampTime(TimeUs t);
    void beginExecution(const LogRecord& r);
    void endExecution(TimeUs t, std::uint8_t flags, const LogRecord* end);
    void closeInterval(OpenInterval& open, StagedIntervals& into, TimeUs t);
    void addSend(const LogRecord& r, SendKind kind);
    void noteObject(std::span<const std::int32_t> ids);
    void internObjects();
    void noteTime(TimeUs t);
    void resumeGapAt(TimeUs t);

    void sortSends();
    void placeColumns();

    PeTrace m_trace;
    StoreArena* m_arena = nullptr;
    const RunMetadata& m_meta;
    std::string m_fileName;
    ImportReport& m_report;
    std::uint64_t m_line = 0;
    bool m_ended = false;
    TimeUs m_lastIntervalTime = 0; // time of the last record that opened/closed an interval
    bool m_clamped = false; // the last intervalTime() call clamped its time
    std::size_t m_papiCount = 0;

    OpenExecution m_exec;
    OpenInterval m_idle;
    OpenInterval m_pack;
    OpenInterval m_unpack;
    OpenInterval m_flush;
    bool m_tracingOff = false;
    bool m_awaitingResumeEnd = false;
    struct PendingPair {
        bool present = false;
        UserEventPoint first;
        std::int32_t nestedId = 0;
    } m_pendingPair;
    // BEGIN_USER_EVENT_PAIR awaiting END, by (user event id, nested id) and begin time, so an
    // END finds its BEGIN in O(log n) however the brackets are nested or interleaved.
    std::map<std::pair<UserEventId, std::int32_t>, std::multimap<TimeUs, UserEventBracket>>
        m_openBrackets;
    std::size_t m_openBracketCount = 0;
    // The hot columns, staged until finish() (see builder_stage.h).
    BuilderStage m_stage;
};

} // namespace parallax::core
