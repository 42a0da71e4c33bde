#pragma once

// Column-by-column comparison of two PeTraces (for "same run, different encoding" tests).

#include "core/pe_trace.h"

#include <catch2/catch.hpp>

namespace parallax::test {

inline void requireSamePeTrace(const core::PeTrace& a, const core::PeTrace& b)
{
    INFO("PE " << a.pe);
    REQUIRE(a.pe == b.pe);
    REQUIRE(a.hasLog == b.hasLog);
    REQUIRE(a.beginComputation == b.beginComputation);
    REQUIRE(a.endComputation == b.endComputation);
    REQUIRE(a.firstTime == b.firstTime);
    REQUIRE(a.lastTime == b.lastTime);
    REQUIRE(a.recordCount == b.recordCount);

    const auto& x = a.executions;
    const auto& y = b.executions;
    REQUIRE(x.begin == y.begin);
    REQUIRE(x.end == y.end);
    REQUIRE(x.entry == y.entry);
    REQUIRE(x.sourcePe == y.sourcePe);
    REQUIRE(x.msgBytes == y.msgBytes);
    REQUIRE(x.eventId == y.eventId);
    REQUIRE(x.object == y.object);
    REQUIRE(x.cpuBegin == y.cpuBegin);
    REQUIRE(x.cpuDuration == y.cpuDuration);
    REQUIRE(x.flags == y.flags);
    REQUIRE(x.papi == y.papi);

    const core::IntervalColumns* ia[] = { &a.idles, &a.packs, &a.unpacks, &a.flushes };
    const core::IntervalColumns* ib[] = { &b.idles, &b.packs, &b.unpacks, &b.flushes };
    for (std::size_t k = 0; k < 4; ++k) {
        INFO("interval column set " << k);
        REQUIRE(ia[k]->begin == ib[k]->begin);
        REQUIRE(ia[k]->end == ib[k]->end);
    }

    const auto& s = a.sends;
    const auto& t = b.sends;
    REQUIRE(s.time == t.time);
    REQUIRE(s.entry == t.entry);
    REQUIRE(s.kind == t.kind);
    REQUIRE(s.messageType == t.messageType);
    REQUIRE(s.msgBytes == t.msgBytes);
    REQUIRE(s.eventId == t.eventId);
    REQUIRE(s.destinationCount == t.destinationCount);
    REQUIRE(s.sendDuration == t.sendDuration);
    REQUIRE(s.multicastSend == t.multicastSend);
    REQUIRE(s.multicastOffset == t.multicastOffset);
    REQUIRE(s.multicastPes == t.multicastPes);

    REQUIRE(a.objects == b.objects);

    REQUIRE(a.userEvents.size() == b.userEvents.size());
    for (std::size_t i = 0; i < a.userEvents.size(); ++i) {
        REQUIRE(a.userEvents[i].time == b.userEvents[i].time);
        REQUIRE(a.userEvents[i].id == b.userEvents[i].id);
        REQUIRE(a.userEvents[i].eventId == b.userEvents[i].eventId);
    }
    REQUIRE(a.userBrackets.size() == b.userBrackets.size());
    for (std::size_t i = 0; i < a.userBrackets.size(); ++i) {
        REQUIRE(a.userBrackets[i].begin == b.userBrackets[i].begin);
        REQUIRE(a.userBrackets[i].end == b.userBrackets[i].end);
        REQUIRE(a.userBrackets[i].id == b.userBrackets[i].id);
        REQUIRE(a.userBrackets[i].nestedId == b.userBrackets[i].nestedId);
        REQUIRE(a.userBrackets[i].kind == b.userBrackets[i].kind);
    }
    REQUIRE(a.notes.size() == b.notes.size());
    for (std::size_t i = 0; i < a.notes.size(); ++i) {
        REQUIRE(a.notes[i].begin == b.notes[i].begin);
        REQUIRE(a.notes[i].end == b.notes[i].end);
        REQUIRE(a.notes[i].id == b.notes[i].id);
        REQUIRE(a.notes[i].text == b.notes[i].text);
    }
    REQUIRE(a.stats.size() == b.stats.size());
    for (std::size_t i = 0; i < a.stats.size(); ++i) {
        REQUIRE(a.stats[i].time == b.stats[i].time);
        REQUIRE(a.stats[i].userTime == b.stats[i].userTime);
        REQUIRE(a.stats[i].value == b.stats[i].value);
        REQUIRE(a.stats[i].statId == b.stats[i].statId);
    }
    REQUIRE(a.memory.size() == b.memory.size());
    for (std::size_t i = 0; i < a.memory.size(); ++i) {
        REQUIRE(a.memory[i].time == b.memory[i].time);
        REQUIRE(a.memory[i].bytes == b.memory[i].bytes);
    }
    REQUIRE(a.userSupplied.size() == b.userSupplied.size());
    for (std::size_t i = 0; i < a.userSupplied.size(); ++i) {
        REQUIRE(a.userSupplied[i].time == b.userSupplied[i].time);
        REQUIRE(a.userSupplied[i].value == b.userSupplied[i].value);
    }
    REQUIRE(a.traceGaps.size() == b.traceGaps.size());
    for (std::size_t i = 0; i < a.traceGaps.size(); ++i) {
        REQUIRE(a.traceGaps[i].begin == b.traceGaps[i].begin);
        REQUIRE(a.traceGaps[i].end == b.traceGaps[i].end);
        REQUIRE(a.traceGaps[i].openEntry == b.traceGaps[i].openEntry);
        REQUIRE(a.traceGaps[i].resumedEnd == b.traceGaps[i].resumedEnd);
    }
    REQUIRE(a.phaseEnds.size() == b.phaseEnds.size());
    for (std::size_t i = 0; i < a.phaseEnds.size(); ++i) {
        REQUIRE(a.phaseEnds[i].time == b.phaseEnds[i].time);
        REQUIRE(a.phaseEnds[i].phase == b.phaseEnds[i].phase);
    }
    // Catches any column added later and not listed above.
    REQUIRE(a.memoryBytes() == b.memoryBytes());
}

} // namespace parallax::test
