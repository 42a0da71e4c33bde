#include "views/timeline/timeline_geometry.h"

#include "views/timeline/timeline_rows_internal.h"

#include <QLocale>
#include <QObject>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace parallax::views {

using timeline_rows::clippedLength;
using timeline_rows::forBucketsInColumn;

// ---------------------------------------------------------------------------------------------
// Rows

namespace {

// Bars thinner than this get no pack/unpack, user-event or send marks.
constexpr int kMinimumDetailHeight = 10;
// Rows with more intervals than this per pixel column are drawn from the PE's summary when
// zoomed far enough out (see buildRow).
constexpr std::size_t kDenseItemsPerPixel = 8;
// Brackets begun before the window: how many are looked at for still being open.
constexpr std::size_t kBracketLookBack = 4096;

// One execution or idle interval of a row, in plot pixel units u (0 .. plot width).
struct Item {
    double u0;
    double u1;
    int activity;
    std::uint32_t index;
    bool idle;
    core::TimeUs begin;
    core::TimeUs end;
};

// Builds a row's blocks from its items in time order (FORMAT of the result: TimelineBlock).
// Pixels wholly inside an interval belong to it; a pixel only partly covered is finished once
// no later item can reach it: edges of wide intervals alone give it to the one covering most,
// intervals lying wholly inside it make it a Merged pixel (or a 1-pixel block when alone).
class RowBlocks {
public:
    RowBlocks(int left, const TimeMapping& map, std::vector<TimelineBlock>& out)
        : m_left(left)
        , m_map(map)
        , m_out(out)
    { }

    void add(const Item& item)
    {
        const double length = item.u1 - item.u0;
        if (length < 1.0) {
            // Narrow: lives in the pixel of its midpoint.
            const int pixel = std::clamp(static_cast<int>(std::floor((item.u0 + item.u1) / 2.0)), 0,
                std::max(static_cast<int>(std::ceil(m_map.width)) - 1, 0));
            contribute(pixel, item, std::max(length, 1e-6), true);
            return;
        }
        const int solidBegin = static_cast<int>(std::ceil(item.u0));
        const int solidEnd = static_cast<int>(std::floor(item.u1));
        int start = solidBegin;
        if (static_cast<double>(solidBegin) > item.u0) {
            contribute(solidBegin - 1, item, static_cast<double>(solidBegin) - item.u0, false);
            start = finish(item.index, item.idle).value_or(solidBegin);
        } else {
            finish(item.index, item.idle);
        }
        if (solidEnd > start) {
            // Never draw over an earlier block (only possible with overlapping input).
            if (!m_out.empty() && m_out.back().right > m_left + start)
                start = m_out.back().right - m_left;
            if (solidEnd > start)
                emitBlock(start, solidEnd, item);
        }
        if (item.u1 > static_cast<double>(solidEnd))
            contribute(solidEnd, item, item.u1 - static_cast<double>(solidEnd), false);
    }

    void flush() { finish(0, false); }

private:
    // An edge of a wide interval reaching into the pending pixel.
    struct Part {
        Item item;
        double cover;
    };

    // Adds to the pending pixel: an edge (kept whole, it may take the pixel) or an interval
    // lying wholly inside it (only counted: most items at a coarse zoom are such).
    void contribute(int pixel, const Item& item, double cover, bool whole)
    {
        if (m_pixel != pixel && m_count > 0 && pixel > m_pixel)
            finish(0, false);
        if (m_count == 0) {
            m_pixel = pixel;
            m_first = item;
            m_firstExecution.reset();
            m_executions = 0;
            m_wholeCount = 0;
            m_total = 0.0;
            m_busy = 0.0;
            m_weights.clear();
        }
        ++m_count;
        if (!item.idle) {
            ++m_executions;
            if (!m_firstExecution)
                m_firstExecution = item.index;
        }
        m_total += cover;
        if (!item.idle)
            m_busy += cover;
        auto it = std::find_if(m_weights.begin(), m_weights.end(),
            [&](const auto& w) { return w.first == item.activity; });
        if (it == m_weights.end())
            m_weights.emplace_back(item.activity, cover);
        else
            it->second += cover;
        if (whole)
            ++m_wholeCount;
        else
            m_parts.push_back({ item, cover });
    }

    // Closes the pending pixel. Returns the pixel when it went to the starting edge of the
    // interval (index, idle), i.e. that interval's block starts one pixel earlier.
    std::optional<int> finish(std::uint32_t startingIndex, bool startingIdle)
    {
        if (m_count == 0)
            return std::nullopt;
        std::optional<int> startsHere;
        const int pixel = m_pixel;
        if (m_wholeCount == 0) {
            // Only edges of wide intervals: the one covering most takes the pixel.
            const auto best = std::max_element(m_parts.begin(), m_parts.end(),
                [](const Part& a, const Part& b) { return a.cover < b.cover; });
            const bool starting = best->item.index == startingIndex
                && best->item.idle == startingIdle && &*best == &m_parts.back();
            if (starting)
                startsHere = pixel;
            else if (!m_out.empty() && m_out.back().right == m_left + pixel
                && m_out.back().kind != TimelineBlockKind::Merged
                && m_out.back().index == best->item.index
                && (m_out.back().kind == TimelineBlockKind::Idle) == best->item.idle)
                m_out.back().right = m_left + pixel + 1; // extend the block that ends here
            else
                emitBlock(pixel, pixel + 1, best->item);
        } else if (m_count == 1) {
            emitBlock(pixel, pixel + 1, m_first);
        } else {
            emitMerged(pixel);
        }
        m_parts.clear();
        m_count = 0;
        return startsHere;
    }

    void emitBlock(int from, int to, const Item& item)
    {
        TimelineBlock b;
        b.left = m_left + from;
        b.right = m_left + to;
        b.kind = item.idle ? TimelineBlockKind::Idle : TimelineBlockKind::Execution;
        b.activity = item.activity;
        b.index = item.index;
        b.count = 1;
        b.executions = item.idle ? 0 : 1;
        b.begin = item.begin;
        b.end = item.end;
        m_out.push_back(b);
    }

    void emitMerged(int pixel)
    {
        // Dominant activity by covered time (few activities: a linear scan is fastest).
        TimelineBlock b;
        b.kind = TimelineBlockKind::Merged;
        b.left = m_left + pixel;
        b.right = b.left + 1;
        b.count = m_count;
        b.executions = m_executions;
        b.index = m_firstExecution.value_or(m_first.index);
        const auto best = std::max_element(m_weights.begin(), m_weights.end(),
            [](const auto& x, const auto& y) { return x.second < y.second; });
        b.activity = best->first;
        b.dominantShare = m_total > 0.0 ? static_cast<float>(best->second / m_total) : 1.0F;
        // Covers are in pixels: the executions' share of this pixel's time.
        b.utilization = static_cast<float>(std::clamp(m_busy, 0.0, 1.0));
        b.begin = m_map.timeAt(m_left + pixel);
        b.end = std::max(m_map.timeAt(m_left + pixel + 1), b.begin + 1);
        m_out.push_back(b);
    }

    int m_left;
    const TimeMapping& m_map;
    std::vector<TimelineBlock>& m_out;
    // The pending pixel.
    int m_pixel = 0;
    std::uint32_t m_count = 0; // intervals in it
    std::uint32_t m_wholeCount = 0; // of which wholly inside it
    std::uint32_t m_executions = 0;
    Item m_first {};
    std::optional<std::uint32_t> m_firstExecution;
    double m_total = 0.0;
    double m_busy = 0.0; // pixels covered by executions
    std::vector<Part> m_parts; // the edges
    std::vector<std::pair<int, double>> m_weights; // activity -> covered pixels, first seen first
};

// Pixel runs of intervals (pack/unpack), merged where they touch.
void addRuns(const core::IntervalColumns& c, const TimeMapping& map, const QRect& bar, int height,
    std::vector<QRect>& out)
{
    const auto range = core::overlappingRange(c.begin, c.end, map.window.begin, map.window.end);
    const double right = map.left + map.width;
    int runLeft = 0;
    int runRight = -1;
    for (auto k = range.first; k < range.last; ++k) {
        const double x0 = std::clamp(map.xOf(c.begin[k]), map.left, right);
        const double x1 = std::clamp(map.xOf(c.end[k]), map.left, right);
        const int p0 = static_cast<int>(std::floor(x0));
        const int p1 = std::max(static_cast<int>(std::ceil(x1)), p0 + 1);
        if (runRight >= p0) {
            runRight = std::max(runRight, p1);
            continue;
        }
        if (runRight > runLeft)
            out.emplace_back(runLeft, bar.top(), runRight - runLeft, height);
        runLeft = p0;
        runRight = p1;
    }
    if (runRight > runLeft)
        out.emplace_back(runLeft, bar.top(), runRight - runLeft, height);
}

// One tick per pixel column for the items (sorted by timeOf, so a binary search finds the
// first) at a time in the window: the column's first item and how many share it.
template <typename Items, typename TimeOf>
void addTicks(
    const Items& items, TimeOf timeOf, const TimeMapping& map, std::vector<TimelineTick>& ticks)
{
    auto it = std::lower_bound(items.begin(), items.end(), map.window.begin,
        [&](const auto& item, core::TimeUs t) { return timeOf(item) < t; });
    for (; it != items.end() && timeOf(*it) < map.window.end; ++it) {
        const int x = static_cast<int>(std::floor(map.xOf(timeOf(*it))));
        if (!ticks.empty() && ticks.back().x == x)
            ++ticks.back().count;
        else
            ticks.push_back({ x, static_cast<std::uint32_t>(it - items.begin()), 1 });
    }
}

// A PE's row from its summary (dense rows zoomed far out): one Merged block per pixel column
// with the dominant activity (the entry that ran longest, or idle) and the executions begun.
void addSummaryBlocks(const PeSummary& sum, const TimeMapping& map,
    const core::analysis::ActivityColumns& columns, TimelineRow& row,
    std::vector<core::TimeUs>& activityTime)
{
    const int width = std::max(static_cast<int>(std::ceil(map.width)), 1);
    const double usPerPixel = static_cast<double>(map.window.length()) / map.width;
    const int left = static_cast<int>(std::lround(map.left));
    std::vector<std::pair<int, double>> weights;
    std::vector<double> entryUs(static_cast<std::size_t>(std::max(columns.entryCount, 0)), 0.0);
    double busyTotal = 0.0;
    double idleTotal = 0.0;
    for (int c = 0; c < width; ++c) {
        weights.clear();
        double busy = 0.0;
        double idle = 0.0;
        std::uint32_t started = 0;
        const auto [t0, t1] = forBucketsInColumn(sum.origin, sum.bucket, sum.size(), map,
            usPerPixel, c, [&](std::size_t bi, double share, bool begins) {
                busy += static_cast<double>(sum.busy[bi]) * share;
                idle += static_cast<double>(sum.idle[bi]) * share;
                if (begins)
                    started += sum.started[bi];
                if (sum.dominant[bi] != PeSummary::kNoEntry)
                    addWeight(weights, static_cast<int>(sum.dominant[bi]),
                        static_cast<double>(sum.dominantUs[bi]) * share);
            });
        const double total = busy + idle;
        if (total <= 0.0)
            continue;
        busyTotal += busy;
        idleTotal += idle;
        TimelineBlock block;
        block.kind = TimelineBlockKind::Merged;
        block.left = left + c;
        block.right = block.left + 1;
        block.activity = columns.idle();
        double best = idle;
        for (const auto& [entry, us] : weights) {
            if (entry < columns.entryCount)
                entryUs[static_cast<std::size_t>(entry)] += us;
            if (us > best) {
                best = us;
                block.activity = entry;
            }
        }
        block.dominantShare = static_cast<float>(best / total);
        block.utilization
            = t1 > t0 ? static_cast<float>(std::clamp(busy / (t1 - t0), 0.0, 1.0)) : 0.0F;
        block.count = std::max<std::uint32_t>(started, 1);
        block.executions = started;
        block.begin = map.timeAt(block.left);
        block.end = std::max(map.timeAt(block.left + 1), block.begin + 1);
        row.blocks.push_back(block);
    }
    for (std::size_t entry = 0; entry < entryUs.size(); ++entry)
        activityTime[entry] += static_cast<core::TimeUs>(std::llround(entryUs[entry]));
    row.busyUs += static_cast<core::TimeUs>(std::llround(busyTotal));
    row.idleUs += static_cast<core::TimeUs>(std::llround(idleTotal));
    activityTime[static_cast<std::size_t>(columns.idle())]
        += static_cast<core::TimeUs>(std::llround(idleTotal));
}

void buildRow(const core::Trace& trace, TimelineRow& row, const TimeMapping& map,
    const core::analysis::ActivityColumns& columns, std::vector<core::TimeUs>& activityTime,
    const TimelineSummaryCache* summaries)
{
    if (row.pe < 0 || static_cast<std::size_t>(row.pe) >= trace.pes.size())
        return;
    const auto& p = trace.pes[static_cast<std::size_t>(row.pe)];
    const auto w = map.window;
    const double width = map.width;
    const double scale = width / static_cast<double>(w.length());
    auto toU = [&](core::TimeUs t) {
        return std::clamp(static_cast<double>(t - w.begin) * scale, 0.0, width);
    };

    // Executions and idle intervals merged in time order (they never overlap in a valid log).
    const auto execs = p.executionsOverlapping(w.begin, w.end);
    const auto idles = p.idlesOverlapping(w.begin, w.end);
    // Dense and zoomed far out (every pixel holds many intervals, several summary buckets):
    // the PE's summary gives the same kind of picture without reading every interval.
    std::shared_ptr<const PeSummary> summary;
    if (summaries != nullptr && summaries->trace().get() == &trace
        && execs.size() + idles.size() > kDenseItemsPerPixel * static_cast<std::size_t>(width)
        && static_cast<double>(w.length()) / width
            >= 4.0 * static_cast<double>(summaries->bucketWidth()))
        summary = summaries->of(row.pe);
    row.blocks.reserve(std::min<std::size_t>(
        execs.size() + idles.size(), 4 * static_cast<std::size_t>(width) + 16));
    if (summary)
        addSummaryBlocks(*summary, map, columns, row, activityTime);
    RowBlocks blocks(static_cast<int>(std::lround(map.left)), map, row.blocks);
    const auto& ex = p.executions;
    const int idleColumn = columns.idle();
    auto k = summary ? execs.last : execs.first;
    auto i = summary ? idles.last : idles.first;
    while (k < execs.last || i < idles.last) {
        const bool takeIdle = k >= execs.last || (i < idles.last && p.idles.begin[i] < ex.begin[k]);
        if (takeIdle) {
            const auto b = p.idles.begin[i];
            const auto e = p.idles.end[i];
            blocks.add({ toU(b), toU(e), idleColumn, static_cast<std::uint32_t>(i), true, b, e });
            const auto d = clippedLength(b, e, w);
            row.idleUs += d;
            activityTime[static_cast<std::size_t>(idleColumn)] += d;
            ++i;
        } else {
            const auto b = ex.begin[k];
            const auto e = ex.end[k];
            const int entry = ex.entry[k];
            blocks.add({ toU(b), toU(e), entry, static_cast<std::uint32_t>(k), false, b, e });
            const auto d = clippedLength(b, e, w);
            row.busyUs += d;
            if (entry < columns.entryCount)
                activityTime[static_cast<std::size_t>(entry)] += d;
            ++k;
        }
    }
    blocks.flush();

    // The traced part of the window (the span between the PE's first and last records).
    row.tracedUs = timeline_rows::tracedInWindow(p, w);

    // Marks need room: thin rows (many PEs) show only their blocks.
    if (row.bar.height() < kMinimumDetailHeight)
        return;

    // Pack/unpack marks only while they can be told apart (zoomed out they would paint a
    // solid line over every bar).
    const int markHeight = std::max(2, row.bar.height() / 6);
    const auto readable = static_cast<std::size_t>(width / 3.0);
    if (p.packsOverlapping(w.begin, w.end).size() <= readable)
        addRuns(p.packs, map, row.bar, markHeight, row.packs);
    if (p.unpacksOverlapping(w.begin, w.end).size() <= readable)
        addRuns(p.unpacks, map, row.bar, markHeight, row.unpacks);

    // User events: one tick per pixel column.
    addTicks(
        p.userEvents, [](const core::UserEventPoint& e) { return e.time; }, map, row.userEvents);
    // Bracketed user events overlapping the window: those beginning in it, and those begun
    // before it and still open (sorted by begin only, so at most kBracketLookBack of the ones
    // before are checked). Overlapping ones share one span.
    const auto& brackets = p.userBrackets;
    const auto bFirst = static_cast<std::size_t>(
        std::lower_bound(brackets.begin(), brackets.end(), w.begin,
            [](const core::UserEventBracket& b, core::TimeUs t) { return b.begin < t; })
        - brackets.begin());
    const int plotLeft = static_cast<int>(std::lround(map.left));
    const int plotRight = static_cast<int>(std::lround(map.left + width));
    auto addBracket = [&](std::size_t index) {
        const auto& b = brackets[index];
        const int x0 = std::clamp(static_cast<int>(std::floor(map.xOf(b.begin))), plotLeft,
            std::max(plotRight - 1, plotLeft));
        const int x1 = std::clamp(
            static_cast<int>(std::ceil(map.xOf(b.end))), x0 + 1, std::max(plotRight, x0 + 1));
        if (!row.brackets.empty() && row.brackets.back().right >= x0) {
            row.brackets.back().right = std::max(row.brackets.back().right, x1);
            ++row.brackets.back().count;
        } else {
            row.brackets.push_back({ x0, x1, static_cast<std::uint32_t>(index), 1 });
        }
    };
    std::vector<std::size_t> open;
    for (std::size_t b = bFirst, checked = 0; b > 0 && checked < kBracketLookBack; --b, ++checked)
        if (brackets[b - 1].end > w.begin)
            open.push_back(b - 1);
    for (auto it = open.rbegin(); it != open.rend(); ++it)
        addBracket(*it);
    for (auto b = bFirst; b < brackets.size() && brackets[b].begin < w.end; ++b)
        addBracket(b);

    // Notes (Charm++ <= 6.7): one tick per pixel column at their begin.
    addTicks(
        p.notes, [](const core::Note& n) { return n.begin; }, map, row.notes);

    // Message sends as ticks under the bar, only while they can be told apart.
    const auto sends = p.sendsIn(w.begin, w.end);
    if (sends.size() <= readable) {
        for (auto s = sends.first; s < sends.last; ++s) {
            const int x = static_cast<int>(std::floor(map.xOf(p.sends.time[s])));
            if (!row.sends.empty() && row.sends.back().x == x)
                ++row.sends.back().count;
            else
                row.sends.push_back({ x, static_cast<std::uint32_t>(s), 1 });
        }
    }
}

// The SMP node of a row (-1 for a collapsed row spanning several nodes).
int nodeOfSource(const core::RunMetadata& meta, const TimelineRowSource& source)
{
    if (source.members.empty())
        return meta.nodeOf(source.pe);
    const int node = meta.nodeOf(source.members.front());
    for (const auto pe : source.members)
        if (meta.nodeOf(pe) != node)
            return -1;
    return node;
}

// Long-lived threads building rows, so that a frame neither starts threads nor loses their
// thread-local buffers (a new thread per frame paid for its start, a fresh malloc arena and the
// page faults of refilling its buffers). Rows are handed out one at a time, so a few expensive
// rows do not leave one thread working while the others wait.
class RowWorkers {
public:
    // Runs task(worker, k) for k in [0, count): worker 0 is the caller, 1 .. helpers() the
    // pool's threads. Returns when every k is done; the first exception a task threw (out of
    // memory) stops the others and is rethrown here, after every thread has let go of the task.
    // Called while another call runs (from another thread), the caller does all of it alone.
    void run(std::size_t count, const std::function<void(std::size_t, std::size_t)>& task)
    {
        const std::unique_lock busy(m_busy, std::try_to_lock);
        if (!busy.owns_lock() || m_threads.empty() || count < 2) {
            for (std::size_t k = 0; k < count; ++k)
                task(0, k);
            return;
        }
        {
            const std::lock_guard lock(m_mutex);
            m_task = &task;
            m_count = count;
            m_next = 0;
            m_failure = nullptr;
            m_joined = 0;
            m_open = true;
            ++m_generation;
        }
        m_wake.notify_all();
        work(0);
        // Closed: a pool thread that wakes from now on skips this run, so the caller waits only
        // for those already working on it (a thread slow to wake no longer delays the frame).
        std::unique_lock lock(m_mutex);
        m_open = false;
        m_done.wait(lock, [&]() { return m_joined == 0; });
        m_task = nullptr;
        if (m_failure)
            std::rethrow_exception(std::exchange(m_failure, nullptr));
    }

    [[nodiscard]] std::size_t helpers() const { return m_threads.size(); }

    static RowWorkers& instance()
    {
        static RowWorkers workers(
            std::min<std::size_t>(std::max(std::thread::hardware_concurrency(), 1U), 4) - 1);
        return workers;
    }

    RowWorkers(const RowWorkers&) = delete;
    RowWorkers& operator=(const RowWorkers&) = delete;
    ~RowWorkers()
    {
        {
            const std::lock_guard lock(m_mutex);
            m_quit = true;
        }
        m_wake.notify_all();
        m_threads.clear(); // joins
    }

private:
    explicit RowWorkers(std::size_t helpers)
    {
        for (std::size_t t = 1; t <= helpers; ++t)
            m_threads.emplace_back([this, t]() { loop(t); });
    }

    void work(std::size_t worker)
    {
        for (auto k = m_next.fetch_add(1); k < m_count; k = m_next.fetch_add(1)) {
            try {
                (*m_task)(worker, k);
            } catch (...) {
                const std::lock_guard lock(m_mutex);
                if (!m_failure)
                    m_failure = std::current_exception();
                m_next = m_count;
            }
        }
    }

    // A pool thread joins a run only while it is open (the caller has not finished its own
    // share), and the caller waits for every thread that joined, so a thread never sees a run's
    // task after that run returned.
    void loop(std::size_t worker)
    {
        std::uint64_t seen = 0;
        for (;;) {
            {
                std::unique_lock lock(m_mutex);
                m_wake.wait(lock, [&]() { return m_quit || m_generation != seen; });
                if (m_quit)
                    return;
                seen = m_generation;
                if (!m_open)
                    continue;
                ++m_joined;
            }
            work(worker);
            const std::lock_guard lock(m_mutex);
            if (--m_joined == 0 && !m_open)
                m_done.notify_one();
        }
    }

    std::mutex m_busy; // held by the caller of run()
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    const std::function<void(std::size_t, std::size_t)>* m_task = nullptr;
    std::size_t m_count = 0;
    std::atomic<std::size_t> m_next { 0 };
    std::exception_ptr m_failure; // the first task's exception of the current run
    std::size_t m_joined = 0; // pool threads working on the current run
    bool m_open = false; // the current run still takes pool threads
    std::uint64_t m_generation = 0;
    bool m_quit = false;
    std::vector<std::jthread> m_threads; // last: joined first
};

} // namespace

const TimelineRow* TimelineGeometry::rowOfPe(core::PeId pe) const
{
    for (const auto& row : rows)
        if (row.pe == pe)
            return &row;
    return nullptr;
}

const TimelineRow* TimelineGeometry::rowAt(int y) const
{
    for (const auto& row : rows)
        if (y >= row.eventStrip.top() && y < row.eventStrip.top() + rowPitch)
            return &row;
    return nullptr;
}

const TimelineBlock* TimelineGeometry::blockAt(const TimelineRow& row, int x) const
{
    const auto it = std::upper_bound(row.blocks.begin(), row.blocks.end(), x,
        [](int value, const TimelineBlock& b) { return value < b.left; });
    if (it == row.blocks.begin())
        return nullptr;
    const auto& b = *(it - 1);
    return x < b.right ? &b : nullptr;
}

QRect TimelineGeometry::blockRect(const TimelineRow& row, const TimelineBlock& block) const
{
    return QRect(block.left, row.bar.top(), block.right - block.left, row.bar.height());
}

TimelineGeometry buildTimelineGeometry(const core::Trace& trace, const std::vector<core::PeId>& pes,
    core::TimeRange window, QSize size, const TimelineLayout& layout)
{
    std::vector<TimelineRowSource> rows(pes.size());
    for (std::size_t i = 0; i < pes.size(); ++i)
        rows[i].pe = pes[i];
    return buildTimelineGeometryForRows(trace, rows, window, size, layout);
}

TimelineGeometry buildTimelineGeometryForRows(const core::Trace& trace,
    const std::vector<TimelineRowSource>& pes, core::TimeRange window, QSize size,
    const TimelineLayout& layout)
{
    TimelineGeometry g;
    g.size = size;
    g.columns.entryCount = static_cast<int>(trace.metadata.entries.size());
    g.activityTime.assign(static_cast<std::size_t>(g.columns.count()), 0);
    if (window.end <= window.begin)
        window.end = window.begin + 1;

    const int m = layout.margin;
    int top = m;
    if (layout.titleHeight > 0) {
        g.title = QRect(m, top, size.width() - 2 * m, layout.titleHeight);
        top += layout.titleHeight;
    }
    const int plotLeft = m + layout.labelWidth;
    const int plotWidth = std::max(size.width() - plotLeft - m - layout.scrollBarWidth, 1);
    g.ruler = QRect(plotLeft, top, plotWidth, layout.rulerHeight);
    top += layout.rulerHeight;
    const int bottom = size.height() - m - layout.legendHeight;
    if (layout.legendHeight > 0)
        g.legend = QRect(m, bottom + 2, size.width() - 2 * m, layout.legendHeight - 2);
    g.rowsArea = QRect(0, top, size.width(), std::max(bottom - top, 0));

    g.map.window = window;
    g.map.left = plotLeft;
    g.map.width = plotWidth;
    g.axis = buildTimeAxis(g.map, layout.minTickSpacing, layout.reference);

    // Bars share the height; node boundaries add a little space in SMP runs.
    const auto n = static_cast<int>(pes.size());
    const auto& meta = trace.metadata;
    const int fixed = layout.eventStrip + layout.rowGap;
    const int available = std::max(g.rowsArea.height() - 2, 0);
    const int share = n > 0 ? available / n - fixed : layout.maxBarHeight;
    g.barHeight = std::clamp(share, layout.minBarHeight, layout.maxBarHeight);
    g.rowPitch = fixed + g.barHeight;
    g.contentHeight = n * g.rowPitch;
    g.scrollY = std::clamp(layout.scrollY, 0, std::max(g.contentHeight - g.rowsArea.height(), 0));

    for (int r = 0; r < n; ++r) {
        const int rowTop = g.rowsArea.top() + 2 + r * g.rowPitch - g.scrollY;
        if (rowTop + g.rowPitch <= g.rowsArea.top() || rowTop >= g.rowsArea.bottom() + 1)
            continue; // outside the viewport: not built
        TimelineRow row;
        const auto& source = pes[static_cast<std::size_t>(r)];
        row.pe = source.members.empty() ? source.pe : core::kNoPe;
        row.members = source.members;
        row.group = source.group;
        row.groupLabel = source.label;
        row.role = source.role;
        row.groupExpanded = source.expanded;
        row.groupSize = source.groupSize;
        row.position = static_cast<std::size_t>(r);
        row.commThread = row.pe != core::kNoPe && meta.isCommThread(row.pe);
        row.node = nodeOfSource(meta, source);
        // (No boundary between the rows of one group: KEY rows are PEs of different nodes.)
        const auto* above = r > 0 ? &pes[static_cast<std::size_t>(r - 1)] : nullptr;
        row.firstOfNode = meta.smp && above != nullptr && nodeOfSource(meta, *above) != row.node
            && (source.group < 0 || above->group != source.group);
        row.eventStrip = QRect(plotLeft, rowTop, plotWidth, layout.eventStrip);
        row.bar = QRect(plotLeft, rowTop + layout.eventStrip, plotWidth, g.barHeight);
        row.label = QRect(m, rowTop, layout.labelWidth - 8, layout.eventStrip + g.barHeight);
        g.rows.push_back(std::move(row));
    }

    // The rows' contents are independent: build them on a few threads (each with its own
    // activity totals: integers, so their sum does not depend on which thread built which row).
    auto& workers = RowWorkers::instance();
    std::vector<std::vector<core::TimeUs>> totals(workers.helpers() + 1, g.activityTime);
    workers.run(g.rows.size(), [&](std::size_t worker, std::size_t r) {
        if (g.rows[r].collapsed())
            timeline_rows::buildGroupRow(
                trace, g.rows[r], g.map, g.columns, totals[worker], layout.summaries);
        else
            buildRow(trace, g.rows[r], g.map, g.columns, totals[worker], layout.summaries);
    });
    for (const auto& total : totals)
        for (std::size_t c = 0; c < total.size(); ++c)
            g.activityTime[c] += total[c];
    return g;
}

} // namespace parallax::views
