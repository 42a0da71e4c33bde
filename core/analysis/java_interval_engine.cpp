#include "java_interval_engine.h"

#include <algorithm>

namespace parallax::core::analysis {

namespace {

// Literal replay of LogReader's state machine; see docs/format.md §4.0.1 for each rule.
class Engine {
public:
    Engine(const IntervalGrid& grid, int entryCount, JavaIntervalTimes& out)
        : m_size(grid.size)
        , m_first(grid.firstIndex)
        , m_last(grid.firstIndex + grid.count - 1)
        , m_entryCount(entryCount)
        , m_out(out)
    { }

    void handle(const JavaEvent& e)
    {
        using Kind = JavaEvent::Kind;
        // END_COMPUTATION first "ends" an open entry at its own begin time (advancing only
        // that far), so an entry still running at the end is not credited at all.
        if (e.kind != Kind::EndComputation)
            advanceTo(e.time);
        switch (e.kind) {
        case Kind::BeginProcessing:
            if (m_isProcessing)
                endProcessing(e.time);
            ++m_processing;
            m_startTime = e.time;
            m_beginTime = e.time;
            m_current = e.entry;
            m_isProcessing = true;
            break;
        case Kind::EndProcessing:
            if (m_isProcessing)
                endProcessing(e.time);
            break;
        case Kind::BeginIdle:
            ++m_processing;
            m_startTime = e.time;
            m_current = kIdle;
            break;
        case Kind::EndIdle:
            add(kIdle, e.time - m_startTime);
            --m_processing;
            break;
        case Kind::EndTrace:
        case Kind::BeginPack:
        case Kind::EndPack:
        case Kind::BeginUnpack:
        case Kind::EndUnpack:
        case Kind::Creation:
            break;
        case Kind::EndComputation:
            if (m_isProcessing) {
                advanceTo(m_beginTime);
                endProcessing(m_beginTime); // the reference's pretend END at the begin time
            }
            // Fill to interval numIntervals (used as an absolute index).
            advanceInterval(m_last - m_first + 1);
            break;
        }
    }

private:
    static constexpr EntryId kIdle = -2;

    void endProcessing(TimeUs t)
    {
        add(m_current, t - m_startTime);
        --m_processing;
        m_isProcessing = false;
    }

    void add(EntryId activity, TimeUs us)
    {
        if (m_interval < m_first || m_interval > m_last)
            return;
        const auto row = static_cast<std::size_t>(m_interval - m_first);
        if (activity == kIdle) {
            m_out.idleTime[row] += us;
        } else if (activity >= 0 && activity < m_entryCount) {
            m_out.entryTime[row * static_cast<std::size_t>(m_entryCount)
                + static_cast<std::size_t>(activity)]
                += us;
        }
    }

    void advanceTo(TimeUs t) { advanceInterval(t / m_size); }

    void advanceInterval(std::int64_t target)
    {
        while (m_interval < target) {
            // Outside the selected intervals nothing is credited: jump instead of stepping, so
            // a far-away timestamp costs nothing.
            if (m_interval > m_last || m_interval + 1 < m_first) {
                const auto next = m_interval > m_last ? target : std::min(target, m_first - 1);
                m_startTime = next * m_size;
                m_interval = next;
                continue;
            }
            const TimeUs boundary = (m_interval + 1) * m_size;
            if (m_processing > 0 && m_current != kNoEntry)
                add(m_current, boundary - m_startTime);
            m_startTime = boundary;
            ++m_interval;
        }
    }

    TimeUs m_size;
    std::int64_t m_first;
    std::int64_t m_last;
    int m_entryCount;
    JavaIntervalTimes& m_out;
    int m_processing = 0;
    EntryId m_current = kNoEntry;
    TimeUs m_startTime = 0;
    TimeUs m_beginTime = 0;
    std::int64_t m_interval = 0;
    bool m_isProcessing = false;
};

} // namespace

JavaIntervalTimes runJavaIntervalEngine(const PeTrace& pe, const IntervalGrid& grid, int entryCount)
{
    JavaIntervalTimes out;
    out.entryCount = entryCount;
    const auto n = static_cast<std::size_t>(grid.count);
    out.entryTime.assign(n * static_cast<std::size_t>(entryCount), 0);
    out.idleTime.assign(n, 0);
    Engine engine(grid, entryCount, out);
    for (const auto& e : javaEventStream(pe))
        engine.handle(e);
    return out;
}

} // namespace parallax::core::analysis
