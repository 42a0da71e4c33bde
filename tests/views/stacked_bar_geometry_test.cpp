// The stacked bar chart's geometry, built without a window: stacks, ticks, labels, hit-testing
// and the merging of more categories than pixels; and how fast the chart paints.

#include "views/common/entry_palette.h"
#include "views/common/stacked_bar_chart.h"
#include "views/common/stacked_bar_geometry.h"

#include <QImage>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace parallax;
using namespace parallax::views;

namespace {

// `categories` × `values.size()` data, category k has values[s] * (k + 1).
StackedBarData categorical(std::size_t categories, const std::vector<double>& values)
{
    StackedBarData d;
    for (std::size_t s = 0; s < values.size(); ++s)
        d.series.push_back({ static_cast<int>(s), QStringLiteral("s%1").arg(s), {}, -1, {} });
    for (std::size_t k = 0; k < categories; ++k) {
        d.categories.push_back({ QStringLiteral("PE %1").arg(k), {}, {}, false, {}, {} });
        for (const double v : values)
            d.values.push_back(v * static_cast<double>(k + 1));
    }
    return d;
}

// `count` intervals of `size` µs from 0, one series with value 1 and one with the index.
StackedBarData intervals(std::size_t count, core::TimeUs size)
{
    StackedBarData d;
    d.axis = BarAxis::Time;
    d.contiguous = true;
    d.xTitle = QStringLiteral("Time");
    d.series.push_back({ 0, QStringLiteral("one"), {}, 0, {} });
    d.series.push_back({ 1, QStringLiteral("index"), {}, 1, {} });
    for (std::size_t i = 0; i < count; ++i) {
        StackedBarCategory c;
        const auto begin = static_cast<core::TimeUs>(i) * size;
        c.span = core::TimeRange { begin, begin + size };
        d.categories.push_back(c);
        d.values.push_back(1.0);
        d.values.push_back(static_cast<double>(i));
    }
    return d;
}

bool isNice(double step)
{
    const double magnitude = std::pow(10.0, std::floor(std::log10(step)));
    const double m = step / magnitude;
    return std::abs(m - 1) < 1e-9 || std::abs(m - 2) < 1e-9 || std::abs(m - 5) < 1e-9;
}

} // namespace

TEST_CASE("segments stack bottom to top to the heights of their values", "[views][bars]")
{
    auto data = categorical(3, { 10.0, 20.0, 5.0 });
    const auto g = buildStackedBars(data, QSize(800, 400));
    REQUIRE(g.columns.size() == 3);
    REQUIRE_FALSE(g.merged);
    const int baseline = g.plot.top() + g.plot.height();
    const double pxPerUnit = g.plot.height() / g.yMaximum;
    for (std::size_t k = 0; k < 3; ++k) {
        const auto& c = g.columns[k];
        REQUIRE(c.lastSegment - c.firstSegment == 3);
        int previousTop = baseline;
        double cumulative = 0;
        for (std::size_t s = c.firstSegment; s < c.lastSegment; ++s) {
            const auto& seg = g.segments[s];
            CHECK(seg.series == s - c.firstSegment); // series order, bottom up
            CHECK(seg.rect.top() + seg.rect.height() == previousTop); // no gap, no overlap
            cumulative += seg.value;
            // The top edge is the rounded cumulative value.
            CHECK(std::abs((baseline - seg.rect.top()) - cumulative * pxPerUnit) <= 0.5 + 1e-9);
            CHECK(seg.rect.left() == c.bar.left());
            CHECK(seg.rect.width() == c.bar.width());
            previousTop = seg.rect.top();
        }
        CHECK(c.bar.top() == previousTop);
        CHECK(c.total == Approx(35.0 * static_cast<double>(k + 1)));
    }
    // The tallest bar fits under the axis top.
    CHECK(g.yMaximum >= 105.0);
    CHECK(g.columns[2].bar.top() >= g.plot.top());
    // Categorical bars stand apart, left to right.
    CHECK(g.columns[0].bar.right() < g.columns[1].bar.left());
    CHECK(g.columns[1].bar.right() < g.columns[2].bar.left());
}

TEST_CASE("zero values leave no segment and an empty category has an empty bar", "[views][bars]")
{
    auto data = categorical(2, { 0.0, 3.0 });
    data.values[2] = 0.0; // category 1, series 0
    data.values[3] = 0.0; // category 1, series 1
    const auto g = buildStackedBars(data, QSize(600, 300));
    REQUIRE(g.columns.size() == 2);
    CHECK(g.columns[0].lastSegment - g.columns[0].firstSegment == 1);
    CHECK(g.segments[g.columns[0].firstSegment].series == 1);
    CHECK(g.columns[1].lastSegment == g.columns[1].firstSegment);
    CHECK(g.columns[1].bar.height() == 0);
    CHECK(g.columns[1].total == 0.0);
}

TEST_CASE("a percent axis runs 0 to 100 % in nice steps", "[views][bars]")
{
    auto data = categorical(4, { 10.0, 5.0 });
    data.unit = BarUnit::Percent;
    data.yMaximum = 100.0;
    for (const int height : { 200, 400, 900 }) {
        const auto g = buildStackedBars(data, QSize(700, height));
        REQUIRE_FALSE(g.empty());
        CHECK(g.yMaximum == 100.0);
        CHECK(isNice(g.yStep));
        REQUIRE(g.yTicks.size() >= 3);
        CHECK(g.yTicks.front().label == QStringLiteral("0 %"));
        CHECK(g.yTicks.back().label == QStringLiteral("100 %"));
        CHECK(g.yTicks.back().position == Approx(g.plot.top()));
        // Ticks go up the axis, evenly.
        for (std::size_t i = 1; i < g.yTicks.size(); ++i)
            CHECK(g.yTicks[i].position < g.yTicks[i - 1].position);
    }
}

TEST_CASE("the y axis ends on a nice tick above the tallest bar", "[views][bars]")
{
    for (const double top : { 0.37, 7.0, 1234.0, 98765.0, 3.4e6 }) {
        auto data = categorical(1, { top });
        data.unit = BarUnit::Count;
        const auto g = buildStackedBars(data, QSize(600, 400));
        INFO("top " << top << " step " << g.yStep << " max " << g.yMaximum);
        REQUIRE_FALSE(g.empty());
        CHECK(isNice(g.yStep));
        CHECK(g.yMaximum >= top);
        CHECK(g.yMaximum < top + g.yStep + 1e-9);
        const double ticks = g.yMaximum / g.yStep;
        CHECK(std::abs(ticks - std::round(ticks)) < 1e-6);
        CHECK(g.yTicks.size() >= 3);
    }
}

TEST_CASE("a log axis stacks cumulative sums: a bar's top reads as its total", "[views][bars]")
{
    StackedBarData data;
    data.logScale = true;
    data.series.push_back({ 0, QStringLiteral("a"), {}, 0, {} });
    data.series.push_back({ 1, QStringLiteral("b"), {}, 1, {} });
    for (const double total : { 2.0, 30.0, 1000.0, 80000.0 }) {
        data.categories.push_back({ QStringLiteral("x"), {}, {}, false, {}, {} });
        data.values.push_back(total / 2.0);
        data.values.push_back(total / 2.0);
    }
    const auto g = buildStackedBars(data, QSize(800, 500));
    REQUIRE_FALSE(g.empty());
    CHECK(g.yLog);
    CHECK(g.yMaximum == Approx(1e5));
    // The smallest first segment (1) keeps some height: the axis starts a decade below it.
    CHECK(g.yMinimum == Approx(0.1));
    REQUIRE(g.yTicks.size() == 7); // 0.1, 1, 10, 100, 1 k, 10 k, 100 k
    CHECK(g.yTicks.back().label == QStringLiteral("100 k"));
    CHECK(g.yTicks.back().position == Approx(g.plot.top()));
    const double h = g.plot.height();
    const auto onAxis = [&](double v) {
        return std::log10(v / 0.1) / 6.0 * h;
    };
    for (std::size_t k = 0; k < 4; ++k) {
        const auto& c = g.columns[k];
        // The top of the stack is at the total on the axis, the boundary at the first value.
        CHECK(c.bar.height() == Approx(onAxis(c.total)).margin(1.0));
        REQUIRE(c.lastSegment - c.firstSegment == 2);
        const auto& first = g.segments[c.firstSegment].rect;
        CHECK(first.height() == Approx(onAxis(c.total / 2.0)).margin(1.0));
        // log10(2) of the axis's 6 decades separates the halves' tops.
        CHECK(g.segments[c.firstSegment + 1].rect.height()
            == Approx(std::log10(2.0) / 6.0 * h).margin(1.0));
    }
}

TEST_CASE("axis labels are short and carry their unit", "[views][bars]")
{
    CHECK(formatAxisValue(1500, BarUnit::Count, 500, 20000) == QStringLiteral("1.5 k"));
    CHECK(formatAxisValue(2e6, BarUnit::Count, 1e6, 5e6) == QStringLiteral("2 M"));
    CHECK(formatAxisValue(2e6, BarUnit::Bytes, 1e6, 4e6) == QStringLiteral("2 MB"));
    CHECK(formatAxisValue(1500, BarUnit::Bytes, 500, 3000) == QStringLiteral("1.5 kB"));
    CHECK(formatAxisValue(512, BarUnit::Bytes, 256, 900) == QStringLiteral("512 B"));
    CHECK(formatAxisValue(1500, BarUnit::Time, 500, 3000) == QStringLiteral("1.5 ms"));
    CHECK(formatAxisValue(2e6, BarUnit::Time, 1e6, 5e6) == QStringLiteral("2 s"));
    CHECK(formatAxisValue(250, BarUnit::Time, 50, 400) == QStringLiteral("250 µs"));
    CHECK(formatAxisValue(25, BarUnit::Percent, 5, 100) == QStringLiteral("25 %"));
    CHECK(formatAxisValue(0, BarUnit::Bytes, 1e6, 4e6) == QStringLiteral("0"));
    CHECK(formatTime(250) == QStringLiteral("250 µs"));
    CHECK(formatTime(1250) == QStringLiteral("1.25 ms"));
    CHECK(formatTime(2.5e6) == QStringLiteral("2.5 s"));
    CHECK(formatBarValue(12.345, BarUnit::Percent) == QStringLiteral("12.3 %"));
    CHECK(formatBarValue(4500, BarUnit::Bytes) == QStringLiteral("4.5 kB"));
    CHECK(formatTimeSpan({ 0, 1500 }) == QStringLiteral("0 – 1.5 ms"));
}

TEST_CASE("a time axis has round ticks in ms or s and says its unit", "[views][bars]")
{
    auto data = intervals(100, 1346); // 0 .. 134.6 ms
    const auto g = buildStackedBars(data, QSize(1000, 400));
    REQUIRE_FALSE(g.empty());
    CHECK(g.xTitle.endsWith(QStringLiteral("(ms)")));
    REQUIRE(g.xTicks.size() >= 4);
    CHECK(g.xTicks.front().label == QStringLiteral("0"));
    for (const auto& tick : g.xTicks) {
        bool ok = false;
        const double v = tick.label.toDouble(&ok);
        CHECK(ok);
        CHECK(std::fmod(v, 10.0) == 0.0); // every 10 or 20 ms
        // The tick is where its time is.
        CHECK(tick.position
            == Approx(g.plot.left() + v * 1000.0 / 134600.0 * g.plot.width()).margin(1.0));
    }
    CHECK(timeAtX(g, g.plot.left()) == 0);
    CHECK(timeAtX(g, g.plot.left() + g.plot.width()) == 134600);
    CHECK(xOfTime(g, 67300) == Approx(g.plot.left() + g.plot.width() / 2.0));

    auto seconds = intervals(1000, 9822); // 0 .. 9.82 s
    const auto s = buildStackedBars(seconds, QSize(1000, 400));
    CHECK(s.xTitle.endsWith(QStringLiteral("(s)")));
}

TEST_CASE("categorical labels skip to avoid overlap but keep group starts", "[views][bars]")
{
    auto data = categorical(120, { 1.0 });
    data.categories[0].label = QStringLiteral("avg");
    data.categories[1].separatorBefore = true;
    BarLayout layout;
    const auto g = buildStackedBars(data, QSize(800, 300), layout);
    REQUIRE_FALSE(g.xTicks.empty());
    CHECK(g.xTicks.size() < 60);
    CHECK(g.xTicks.front().label == QStringLiteral("avg"));
    CHECK(g.xTicks[1].label.startsWith(QStringLiteral("PE ")));
    double lastRight = -1e9;
    for (const auto& tick : g.xTicks) {
        const double w = 7.0 * static_cast<double>(tick.label.size());
        CHECK(tick.position - w / 2.0 >= lastRight + layout.labelGap - 1.0);
        lastRight = tick.position + w / 2.0;
    }
    REQUIRE(g.separators.size() == 1);
    CHECK(g.separators[0] > g.columns[0].bar.right());
    CHECK(g.separators[0] < g.columns[1].bar.left());

    // With room for all, every label shows, the group start after the separator included.
    auto few = categorical(10, { 1.0 });
    few.categories[0].label = QStringLiteral("avg");
    few.categories[1].separatorBefore = true;
    const auto f = buildStackedBars(few, QSize(800, 300), layout);
    REQUIRE(f.xTicks.size() == 10);
    CHECK(f.xTicks[1].label == QStringLiteral("PE 1"));
}

TEST_CASE("histogram labels sit on round bin edges", "[views][bars]")
{
    StackedBarData data;
    data.edgeLabels = true;
    data.contiguous = true;
    data.series.push_back({ 0, QStringLiteral("e"), {}, 0, {} });
    for (int b = 0; b < 99; ++b) {
        StackedBarCategory c;
        c.value = 100.0 + 100.0 * b; // 0.1 ms .. 9.9 ms
        c.label = formatTime(*c.value);
        data.categories.push_back(c);
        data.values.push_back(1.0);
    }
    StackedBarCategory overflow;
    overflow.label = QStringLiteral("≥ 10 ms");
    overflow.separatorBefore = true;
    data.categories.push_back(overflow);
    data.values.push_back(1.0);
    const auto g = buildStackedBars(data, QSize(900, 300));
    REQUIRE(g.xTicks.size() >= 4);
    CHECK(g.xTicks.front().label == QStringLiteral("100 µs"));
    CHECK(g.xTicks.back().label == QStringLiteral("≥ 10 ms"));
    for (std::size_t i = 1; i + 1 < g.xTicks.size(); ++i)
        CHECK(g.xTicks[i].label.endsWith(QStringLiteral(" ms")));
    CHECK(std::find_if(g.xTicks.begin(), g.xTicks.end(), [](const BarTick& t) {
        return t.label == QStringLiteral("1 ms");
    }) != g.xTicks.end());
}

TEST_CASE("hit-testing finds the column, the exact category and the segment at the borders",
    "[views][bars]")
{
    auto data = categorical(4, { 10.0, 10.0 });
    const auto g = buildStackedBars(data, QSize(800, 400));
    REQUIRE(g.columns.size() == 4);
    for (std::size_t k = 0; k < 4; ++k) {
        const auto& c = g.columns[k];
        const double y = c.bar.top() + c.bar.height() - 1; // bottom row of the bar
        // Slot edges: [left, left + width).
        auto first = hitTestBars(g, c.slot.left(), y);
        REQUIRE(first);
        CHECK(first->column == k);
        CHECK(first->category == k);
        auto last = hitTestBars(g, c.slot.left() + c.slot.width() - 0.01, y);
        REQUIRE(last);
        CHECK(last->column == k);
        // Bar edges: inside the bar a segment, in the gap beside it none.
        auto inBar = hitTestBars(g, c.bar.left(), y);
        REQUIRE(inBar);
        CHECK(inBar->series == std::optional<std::size_t>(0));
        auto gap = hitTestBars(g, c.bar.left() - 1, y);
        REQUIRE(gap);
        CHECK_FALSE(gap->series);
        // Segment edges: the top row of the lower segment and the bottom row of the upper one.
        const auto& lower = g.segments[c.firstSegment].rect;
        auto top = hitTestBars(g, c.bar.left() + 1, lower.top());
        REQUIRE(top);
        CHECK(top->series == std::optional<std::size_t>(0));
        auto above = hitTestBars(g, c.bar.left() + 1, lower.top() - 1);
        REQUIRE(above);
        CHECK(above->series == std::optional<std::size_t>(1));
        // Above the stack: the column, no segment.
        auto sky = hitTestBars(g, c.bar.left() + 1, c.bar.top() - 1);
        if (c.bar.top() > g.plot.top()) {
            REQUIRE(sky);
            CHECK_FALSE(sky->series);
        }
    }
    CHECK_FALSE(hitTestBars(g, g.plot.left() - 1, g.plot.center().y()));
    CHECK_FALSE(hitTestBars(g, g.plot.center().x(), g.plot.top() - 1));
    CHECK_FALSE(hitTestBars(g, g.plot.center().x(), g.plot.top() + g.plot.height()));
    CHECK(columnOfCategory(g, 2) == std::optional<std::size_t>(2));
    CHECK_FALSE(columnOfCategory(g, 4));
}

TEST_CASE(
    "more categories than pixels merge into one column per pixel, without gaps", "[views][bars]")
{
    for (const std::size_t count :
        { std::size_t { 700 }, std::size_t { 5000 }, std::size_t { 100'000 } }) {
        auto data = intervals(count, 10);
        const auto g = buildStackedBars(data, QSize(800, 300));
        INFO("categories " << count);
        REQUIRE_FALSE(g.empty());
        CHECK(g.merged);
        CHECK(g.columns.size() <= static_cast<std::size_t>(g.plot.width()));
        std::size_t next = 0;
        int x = g.plot.left();
        for (const auto& c : g.columns) {
            CHECK(c.firstCategory == next); // every category in exactly one column, in order
            CHECK(c.lastCategory > c.firstCategory);
            CHECK(c.slot.left() == x); // adjacent, no empty pixel column
            CHECK(c.slot.width() >= 1);
            next = c.lastCategory;
            x = c.slot.left() + c.slot.width();
            // Values are averaged: 1 + the mean index of the column's categories.
            const double meanIndex
                = static_cast<double>(c.firstCategory + c.lastCategory - 1) / 2.0;
            CHECK(c.total == Approx(1.0 + meanIndex));
        }
        CHECK(next == count);
        CHECK(x == g.plot.left() + g.plot.width());
        // A point in a merged column names the category under it.
        const auto hit = hitTestBars(g, g.plot.left() + g.plot.width() / 2.0, g.plot.bottom());
        REQUIRE(hit);
        CHECK(hit->category
            == Approx(static_cast<double>(count) / 2.0).margin(static_cast<double>(count) / 100.0));
        // At most one rectangle per pixel column per series.
        for (const auto& rects : g.seriesRects)
            CHECK(rects.size() <= static_cast<std::size_t>(g.plot.width()));
    }
}

TEST_CASE("data that cannot be drawn gives an empty geometry", "[views][bars]")
{
    CHECK(buildStackedBars({}, QSize(800, 400)).empty());
    auto broken = categorical(3, { 1.0 });
    broken.values.pop_back();
    CHECK(buildStackedBars(broken, QSize(800, 400)).empty());
    auto noSpan = intervals(3, 10);
    noSpan.categories[1].span.reset();
    CHECK(buildStackedBars(noSpan, QSize(800, 400)).empty());
    CHECK(buildStackedBars(categorical(3, { 1.0 }), QSize(40, 30)).empty());
}

// Speed is measured by parallax-bench, not here: this checks the work stays bounded by pixels.
TEST_CASE("1000 intervals x 200 entries draw at most one rectangle per pixel column and entry",
    "[views][bars]")
{
    StackedBarData data;
    data.axis = BarAxis::Time;
    data.contiguous = true;
    data.unit = BarUnit::Percent;
    data.yMaximum = 100.0;
    const std::size_t entries = 200;
    const std::size_t count = 1000;
    core::analysis::ActivityColumns columns;
    columns.entryCount = static_cast<int>(entries);
    for (std::size_t s = 0; s < entries; ++s)
        data.series.push_back({ static_cast<int>(s), QStringLiteral("Chare::entry_%1").arg(s), {},
            static_cast<int>(s), {} });
    for (std::size_t i = 0; i < count; ++i) {
        StackedBarCategory c;
        c.span = core::TimeRange { static_cast<core::TimeUs>(i) * 100,
            static_cast<core::TimeUs>(i + 1) * 100 };
        data.categories.push_back(c);
        for (std::size_t s = 0; s < entries; ++s)
            data.values.push_back(
                0.5 * static_cast<double>((i + s) % 3)); // every cell non-zero-ish
    }
    EntryPalette palette;
    StackedBarChart chart(&palette);
    chart.resize(1600, 900);
    chart.setData(data, columns);
    const auto g = buildStackedBars(data, QSize(1600, 900));
    REQUIRE_FALSE(g.empty());
    std::size_t rects = 0;
    for (const auto& perSeries : g.seriesRects) {
        CHECK(perSeries.size() <= static_cast<std::size_t>(g.plot.width()));
        rects += perSeries.size();
    }
    CHECK(rects > 0);
    const QImage image = chart.renderImage(QSize(1600, 900));
    CHECK_FALSE(image.isNull());
}
