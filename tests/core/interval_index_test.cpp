// The interval index of PeTrace (overlappingRange, executionsOverlapping, idlesOverlapping,
// sendsIn): hand-made edge cases, then traces built from random record sequences compared with
// a linear scan for many random windows. Also the packed and sparse columns of the store.

#include "builder_fixture.h"
#include "core/pe_trace.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <random>
#include <span>

using namespace parallax;
using namespace parallax::test;
using core::IndexRange;
using core::TimeUs;

namespace {

// The documented semantics (pe_trace.h): intervals with begin < t1 and end > t0, plus
// zero-length ones with t0 <= begin < t1; nothing for an empty window.
bool overlaps(TimeUs begin, TimeUs end, TimeUs t0, TimeUs t1)
{
    if (t1 <= t0)
        return false;
    if (begin == end)
        return t0 <= begin && begin < t1;
    return begin < t1 && end > t0;
}

template <typename Times>
std::vector<std::size_t> bruteForce(const Times& begin, const Times& end, TimeUs t0, TimeUs t1)
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < begin.size(); ++i)
        if (overlaps(begin[i], end[i], t0, t1))
            out.push_back(i);
    return out;
}

std::vector<std::size_t> indices(IndexRange r)
{
    std::vector<std::size_t> out;
    for (auto i = r.first; i < r.last; ++i)
        out.push_back(i);
    return out;
}

struct Columns {
    std::vector<TimeUs> begin;
    std::vector<TimeUs> end;
};

IndexRange query(const Columns& c, TimeUs t0, TimeUs t1)
{
    return core::overlappingRange(c.begin, c.end, t0, t1);
}

const Columns kThree { { 0, 10, 30 }, { 10, 20, 40 } };

} // namespace

TEST_CASE("overlapping query returns intervals that straddle the window start")
{
    CHECK(indices(query(kThree, 5, 12)) == std::vector<std::size_t> { 0, 1 });
}

TEST_CASE("overlapping query returns intervals that straddle the window end")
{
    CHECK(indices(query(kThree, 15, 35)) == std::vector<std::size_t> { 1, 2 });
}

TEST_CASE("overlapping query returns an interval that contains the whole window")
{
    CHECK(indices(query(kThree, 32, 35)) == std::vector<std::size_t> { 2 });
}

TEST_CASE("overlapping query excludes intervals that only touch the window boundaries")
{
    // [0,10) ends at t0 and [30,40) begins at t1: half-open, so neither overlaps [10,30).
    CHECK(indices(query(kThree, 10, 30)) == std::vector<std::size_t> { 1 });
}

TEST_CASE("overlapping query in a gap between intervals is empty")
{
    CHECK(query(kThree, 20, 30).empty());
    CHECK(query(kThree, 41, 50).empty());
    CHECK(query(kThree, -10, 0).empty());
}

TEST_CASE("overlapping query over everything returns all intervals")
{
    const auto r = query(kThree, std::numeric_limits<TimeUs>::min(), core::kTimeMax);
    CHECK(r.first == 0);
    CHECK(r.last == 3);
}

TEST_CASE("overlapping query with an empty or reversed window is empty")
{
    CHECK(query(kThree, 15, 15).empty());
    CHECK(query(kThree, 35, 5).empty());
    CHECK(query(Columns {}, 0, 100).empty());
}

TEST_CASE("zero-length interval at the window start is included and at the window end is not")
{
    const Columns c { { 0, 10, 10, 20 }, { 10, 10, 15, 20 } };
    CHECK(indices(query(c, 10, 20)) == std::vector<std::size_t> { 1, 2 });
    CHECK(indices(query(c, 20, 21)) == std::vector<std::size_t> { 3 });
    CHECK(indices(query(c, 15, 20)).empty());
}

TEST_CASE("sendsIn returns the sends with window start <= time < window end")
{
    core::PeTrace trace;
    trace.sends.time = { 5, 5, 10, 20 };
    CHECK(indices(trace.sendsIn(5, 10)) == std::vector<std::size_t> { 0, 1 });
    CHECK(indices(trace.sendsIn(10, 21)) == std::vector<std::size_t> { 2, 3 });
    CHECK(trace.sendsIn(21, 100).empty());
    CHECK(trace.sendsIn(5, 5).empty());
    CHECK(trace.sendsIn(10, 5).empty());
    CHECK(indices(trace.sendsIn(0, 6)) == std::vector<std::size_t> { 0, 1 });
}

namespace {

// A random but well-formed log: BEGIN/END pairs (often zero-length, often back to back),
// idles between them, sends inside and between executions, occasionally out of time order.
std::vector<core::LogRecord> randomValidLog(std::mt19937_64& rng, int steps)
{
    std::vector<core::LogRecord> records;
    auto pick = [&](int n) {
        return static_cast<int>(rng() % static_cast<std::uint64_t>(n));
    };
    TimeUs t = pick(50);
    records.push_back(rec::beginComputation(t));
    auto duration = [&]() -> TimeUs {
        switch (pick(4)) {
        case 0:
            return 0;
        case 1:
            return 1;
        case 2:
            return pick(10);
        default:
            return pick(200);
        }
    };
    for (int i = 0; i < steps; ++i) {
        t += pick(3) == 0 ? 0 : pick(20);
        switch (pick(3)) {
        case 0: {
            const int entry = pick(10);
            records.push_back(rec::begin(t, entry, i));
            const TimeUs d = duration();
            if (d > 0 && pick(2) == 0)
                records.push_back(rec::send(t + pick(static_cast<int>(d)), pick(10), i));
            t += d;
            records.push_back(rec::end(t, entry));
            break;
        }
        case 1:
            records.push_back(rec::beginIdle(t));
            t += duration();
            records.push_back(rec::endIdle(t));
            break;
        default:
            // A send between executions, sometimes stamped a little earlier (docs/format.md §2.1).
            records.push_back(rec::send(std::max<TimeUs>(0, t - pick(3)), pick(10), i));
            break;
        }
    }
    records.push_back(rec::endComputation(t + pick(5)));
    return records;
}

// Window edges drawn from the trace's own boundaries (so that touching cases are frequent),
// their neighbours, or anywhere in the covered time.
TimeUs randomEdge(std::mt19937_64& rng, const core::PeTrace& trace)
{
    const auto& b = trace.executions.begin;
    const auto& i = trace.idles.end;
    const auto& s = trace.sends.time;
    switch (rng() % 5) {
    case 0:
        if (!b.empty())
            return b[rng() % b.size()];
        break;
    case 1:
        if (!trace.executions.end.empty())
            return trace.executions.end[rng() % trace.executions.end.size()]
                + static_cast<TimeUs>(rng() % 3) - 1;
        break;
    case 2:
        if (!i.empty())
            return i[rng() % i.size()];
        break;
    case 3:
        if (!s.empty())
            return s[rng() % s.size()];
        break;
    default:
        break;
    }
    const auto span = std::max<TimeUs>(trace.lastTime - trace.firstTime, 1) + 20;
    return trace.firstTime - 10 + static_cast<TimeUs>(rng() % static_cast<std::uint64_t>(span));
}

void compareWithBruteForce(const core::PeTrace& trace, std::mt19937_64& rng, int windows)
{
    for (int w = 0; w < windows; ++w) {
        auto t0 = randomEdge(rng, trace);
        auto t1 = randomEdge(rng, trace);
        if (rng() % 8 != 0 && t1 < t0)
            std::swap(t0, t1); // mostly proper windows, some reversed ones
        INFO("window [" << t0 << ", " << t1 << ")");
        REQUIRE(indices(trace.executionsOverlapping(t0, t1))
            == bruteForce(trace.executions.begin, trace.executions.end, t0, t1));
        REQUIRE(indices(trace.idlesOverlapping(t0, t1))
            == bruteForce(trace.idles.begin, trace.idles.end, t0, t1));
        std::vector<std::size_t> sends;
        for (std::size_t k = 0; k < trace.sends.size(); ++k)
            if (t0 < t1 && t0 <= trace.sends.time[k] && trace.sends.time[k] < t1)
                sends.push_back(k);
        REQUIRE(indices(trace.sendsIn(t0, t1)) == sends);
    }
}

} // namespace

TEST_CASE("interval index agrees with a linear scan on traces built from random valid logs")
{
    std::mt19937_64 rng(20240601);
    for (int round = 0; round < 60; ++round) {
        const int steps = round < 10 ? round : 20 + static_cast<int>(rng() % 400);
        const auto built = build(randomValidLog(rng, steps));
        INFO("round " << round << ", " << built.trace.executions.size() << " executions");
        // Well-formed input: nothing to report except nothing.
        REQUIRE(built.report.total(core::Severity::Warning) == 0);
        requireSortedNonOverlapping(built.trace.executions.begin, built.trace.executions.end);
        requireSortedNonOverlapping(built.trace.idles.begin, built.trace.idles.end);
        REQUIRE(std::is_sorted(built.trace.sends.time.begin(), built.trace.sends.time.end()));
        compareWithBruteForce(built.trace, rng, 300);
    }
}

TEST_CASE("random logs with irregular records still give sorted non-overlapping columns")
{
    // Anything goes: nesting, unmatched ENDs, idles inside entries, time jumping backwards,
    // tracing switched off, no END_COMPUTATION. The builder must keep the index invariant.
    std::mt19937_64 rng(777);
    for (int round = 0; round < 80; ++round) {
        std::vector<core::LogRecord> records;
        TimeUs t = 1000;
        const int n = 1 + static_cast<int>(rng() % 300);
        for (int i = 0; i < n; ++i) {
            t += static_cast<TimeUs>(rng() % 30) - 8; // sometimes backwards
            t = std::max<TimeUs>(t, 0);
            switch (rng() % 10) {
            case 0:
            case 1:
            case 2:
                records.push_back(rec::begin(t, static_cast<int>(rng() % 12)));
                break;
            case 3:
            case 4:
                records.push_back(rec::end(t, static_cast<int>(rng() % 12)));
                break;
            case 5:
                records.push_back(rec::beginIdle(t));
                break;
            case 6:
                records.push_back(rec::endIdle(t));
                break;
            case 7:
                records.push_back(rec::send(t, static_cast<int>(rng() % 12)));
                break;
            case 8:
                records.push_back(rec::at(
                    rng() % 2 == 0 ? core::RecordType::EndTrace : core::RecordType::BeginTrace, t));
                break;
            default:
                records.push_back(rec::at(
                    rng() % 2 == 0 ? core::RecordType::BeginPack : core::RecordType::EndPack, t));
                break;
            }
        }
        if (rng() % 2 == 0)
            records.push_back(rec::endComputation(t));
        const auto built = build(records);
        INFO("round " << round);
        requireSortedNonOverlapping(built.trace.executions.begin, built.trace.executions.end);
        requireSortedNonOverlapping(built.trace.idles.begin, built.trace.idles.end);
        requireSortedNonOverlapping(built.trace.packs.begin, built.trace.packs.end);
        REQUIRE(std::is_sorted(built.trace.sends.time.begin(), built.trace.sends.time.end()));
        compareWithBruteForce(built.trace, rng, 100);
    }
}

// ---- Packed and sparse columns (core/packed_column.h): narrow storage, nothing lost ----

TEST_CASE("a packed column keeps every value, the ones that do not fit in a side list")
{
    core::PackedColumn<std::int32_t, std::uint16_t, -1> c;
    const std::vector<std::int32_t> values { -1, 0, 7, 65533, 65534, -2, 100000,
        std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max(), 3 };
    for (const auto v : values)
        c.push_back(v);
    REQUIRE(c.size() == values.size());
    CHECK(c.toVector() == values);
    for (std::size_t i = 0; i < values.size(); ++i)
        CHECK(c[i] == values[i]);
    // -1 .. 65,533 fit in 16 bits; 65,534 and up, below -1 and the extremes are escaped.
    CHECK(c.escapeRow.toVector() == std::vector<std::uint32_t> { 4, 5, 6, 7, 8 });
    CHECK(c.escapeValue.toVector()
        == std::vector<std::int32_t> { 65534, -2, 100000, std::numeric_limits<std::int32_t>::min(),
            std::numeric_limits<std::int32_t>::max() });
}

TEST_CASE("a packed column whose values mostly do not fit is made wide: no side list to search")
{
    // Message sizes of an application that sends large messages: 3 of 16 rows escaped (more
    // than one in eight) -> wide; 2 of 16 -> stays narrow.
    core::PackedColumn<std::int32_t, std::uint16_t> c;
    std::vector<std::int32_t> values;
    for (int i = 0; i < 16; ++i)
        values.push_back(i < 3 ? 100'000 + i : i);
    c.assign(values.begin(), values.end());
    CHECK(c.escapeRow.size() == 3);
    c.widenIfMostlyEscaped();
    REQUIRE(c.wide());
    CHECK(c.narrow.empty());
    CHECK(c.escapeRow.empty());
    CHECK(c.escapeValue.size() == 16);
    CHECK(c.size() == 16);
    CHECK(c.toVector() == values);
    CHECK(c[1] == 100'001);
    CHECK(c.memoryBytes() == 16 * sizeof(std::int32_t));
    // The parts as a mapped index sets them, one by one: settle() finds the wide form again.
    core::PackedColumn<std::int32_t, std::uint16_t> mapped;
    mapped.escapeValue = c.escapeValue;
    mapped.settle();
    CHECK(mapped.wide());
    CHECK(mapped == c);
    // One in eight is not enough: the side list stays.
    values[2] = 2;
    c.assign(values.begin(), values.end());
    c.widenIfMostlyEscaped();
    CHECK_FALSE(c.wide());
    CHECK(c.escapeRow.size() == 2);
    CHECK(c.toVector() == values);
    // A clock column too: times far from their block's first reading.
    core::PackedColumn<core::TimeUs, std::uint32_t, 0, true> t { 0, 5'000'000'000, 6'000'000'000 };
    t.widenIfMostlyEscaped();
    CHECK(t.wide());
    CHECK(t.base.empty());
    CHECK(t.toVector() == std::vector<core::TimeUs> { 0, 5'000'000'000, 6'000'000'000 });
}

TEST_CASE("a clock column stores offsets from its first reading")
{
    core::PackedColumn<core::TimeUs, std::uint32_t, 0, true> c { 5'000'000'000, 5'000'000'010,
        4'999'999'999, 5'000'000'000 + 0xFFFFFFFELL, 5'000'000'000 + 0xFFFFFFFFLL };
    CHECK(c.base.toVector() == std::vector<core::TimeUs> { 5'000'000'000 });
    CHECK(c.escapeRow.toVector() == std::vector<std::uint32_t> { 2, 4 }); // before it, too far
    CHECK(c.toVector()
        == std::vector<core::TimeUs> { 5'000'000'000, 5'000'000'010, 4'999'999'999,
            5'000'000'000 + 0xFFFFFFFELL, 5'000'000'000 + 0xFFFFFFFFLL });
    c.clear();
    c.push_back(0);
    CHECK(c[0] == 0);
    CHECK(c.escapeRow.empty());
}

TEST_CASE("a sparse column stores only the rows that differ from its default")
{
    core::SparseColumn<std::int32_t, 1> c { 1, 1, 4, 1, 0, 1 };
    CHECK(c.size() == 6);
    CHECK(c.row.toVector() == std::vector<std::uint32_t> { 2, 4 });
    CHECK(c.toVector() == std::vector<std::int32_t> { 1, 1, 4, 1, 0, 1 });
    CHECK(c[2] == 4);
    CHECK(c[4] == 0);
    CHECK(c[5] == 1);
    auto moved = std::move(c);
    CHECK(moved.size() == 6);
    CHECK(c.size() == 0); // NOLINT(bugprone-use-after-move): a moved-from column is empty
    CHECK(moved == core::SparseColumn<std::int32_t, 1> { 1, 1, 4, 1, 0, 1 });
}
