// The line chart (geometry, hit testing, the widget's signals) and the views built on it: User
// Stats and Memory Usage on the hand-written run tests/data/runs/series and on real runs.

#include "io/counter_reader.h"
#include "io/run_loader.h"
#include "support/qt_wait.h"
#include "support/test_support.h"
#include "support/view_test_support.h"
#include "views/common/chart_frame.h"
#include "views/common/entry_palette.h"
#include "views/common/line_chart.h"
#include "views/common/stacked_bar_chart.h"
#include "views/compare/compare_view.h"
#include "views/counters/counters_view.h"
#include "views/memory/memory_view.h"
#include "views/user_stats/user_stats_view.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <set>

using namespace parallax;
using namespace parallax::views;

namespace parallax_test_series_views_test {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

core::TracePtr seriesRun()
{
    static const auto trace = test::loadRunOnce(test::dataDir() / "runs" / "series");
    return trace;
}

LineChartData fourIntervals(std::vector<double> values)
{
    LineChartData data;
    for (core::TimeUs t = 0; t < 40; t += 10)
        data.spans.push_back({ t, t + 10 });
    LineSeries s;
    s.name = QStringLiteral("a");
    s.values = std::move(values);
    data.series.push_back(s);
    return data;
}

void showAndWait(AnalysisView& view, const core::TracePtr& trace)
{
    view.resize(1000, 600);
    view.setTrace(trace);
    view.setSelection({}, {});
    test::waitUntil([&]() { return !view.busy(); });
}

QPoint pointOf(const LineChart& chart, std::size_t series, std::size_t index)
{
    const auto& g = chart.geometry();
    return QPointF(g.xs[index], g.yOf(chart.data().series[series].values[index])).toPoint();
}

TEST_CASE(
    "line geometry places values at interval centres and breaks lines at gaps", "[views][lines]")
{
    const auto data = fourIntervals({ 1.0, kNaN, 3.0, 4.0 });
    REQUIRE(data.valid());
    const auto g = buildLineChart(data, QSize(600, 400));
    REQUIRE_FALSE(g.empty());
    REQUIRE(g.xs.size() == 4);
    // Equal intervals: equal distances between the centres, the first half an interval in.
    const double step = g.xs[1] - g.xs[0];
    CHECK(std::abs(g.xs[2] - g.xs[1] - step) < 1e-6);
    CHECK(std::abs(g.xs[0] - g.plot.left() - step / 2.0) < 1e-6);
    CHECK(g.timeSpan.begin == 0);
    CHECK(g.timeSpan.end == 40);
    // The y axis includes 0 and the largest value; larger values are higher up.
    CHECK(g.yMinimum == 0.0);
    CHECK(g.yMaximum >= 4.0);
    CHECK(g.yOf(4.0) < g.yOf(1.0));
    CHECK(std::abs(g.yOf(g.yMinimum) - (g.plot.top() + g.plot.height())) < 1e-6);
    REQUIRE(g.lines.size() == 1);
    REQUIRE(g.lines[0].size() == 2); // broken at the missing value
    CHECK(g.lines[0][0].size() == 1);
    CHECK(g.lines[0][1].size() == 2);
    CHECK_FALSE(g.yTicks.empty());
    CHECK_FALSE(g.xTicks.empty());

    SECTION("a series of sparse samples joins its values")
    {
        auto joined = data;
        joined.series[0].joinGaps = true;
        const auto j = buildLineChart(joined, QSize(600, 400));
        REQUIRE(j.lines[0].size() == 1);
        CHECK(j.lines[0][0].size() == 3);
    }
    SECTION("levels are drawn as steps over whole intervals")
    {
        auto levels = fourIntervals({ 1.0, 2.0, 2.0, 1.0 });
        levels.steps = true;
        const auto s = buildLineChart(levels, QSize(600, 400));
        REQUIRE(s.lines[0].size() == 1);
        const auto& line = s.lines[0][0];
        REQUIRE(line.size() == 8);
        CHECK(std::abs(line.front().x() - s.plot.left()) < 1e-6);
        CHECK(std::abs(line.back().x() - (s.plot.left() + s.plot.width())) < 1e-6);
        CHECK(line[1].y() == line[0].y());
    }
    SECTION("negative values and a zero line")
    {
        auto diff = fourIntervals({ -2.0, 1.0, 3.0, -1.0 });
        diff.zeroLine = true;
        const auto d = buildLineChart(diff, QSize(600, 400));
        CHECK(d.yMinimum <= -2.0);
        CHECK(d.yMaximum >= 3.0);
        REQUIRE(d.zeroY);
        CHECK(std::abs(*d.zeroY - d.yOf(0.0)) <= 1.0);
    }
    SECTION("a band is one polygon per run of bounded positions")
    {
        auto banded = data;
        banded.bands.push_back({ QStringLiteral("spread"), { 0.5, 1.0, kNaN, 2.0 },
            { 1.5, 2.0, kNaN, 5.0 }, {}, {}, {}, false });
        const auto b = buildLineChart(banded, QSize(600, 400));
        REQUIRE(b.bands.size() == 1);
        REQUIRE(b.bands[0].size() == 2);
        CHECK(b.bands[0][0].size() == 4); // two positions: upper edge, then lower edge back
        CHECK(b.yMaximum >= 5.0); // the band's bounds widen the axis
    }
    SECTION("mismatched sizes draw nothing")
    {
        auto bad = data;
        bad.series[0].values.pop_back();
        CHECK_FALSE(bad.valid());
        CHECK(buildLineChart(bad, QSize(600, 400)).empty());
    }
}

TEST_CASE("line geometry reduces more values than pixels and hit-tests positions and lines",
    "[views][lines]")
{
    LineChartData dense;
    LineSeries s;
    for (core::TimeUs i = 0; i < 20'000; ++i) {
        dense.spans.push_back({ i, i + 1 });
        s.values.push_back(static_cast<double>(i % 100));
    }
    dense.series.push_back(s);
    const auto g = buildLineChart(dense, QSize(500, 300));
    std::size_t points = 0;
    for (const auto& polyline : g.lines[0])
        points += static_cast<std::size_t>(polyline.size());
    CHECK(points <= 2 * static_cast<std::size_t>(g.plot.width() + 1));
    CHECK(points >= static_cast<std::size_t>(g.plot.width()));

    auto data = fourIntervals({ 1.0, 2.0, 3.0, 4.0 });
    LineSeries other;
    other.name = QStringLiteral("b");
    other.values = { 4.0, 3.0, 2.0, 1.0 };
    data.series.push_back(other);
    const auto h = buildLineChart(data, QSize(600, 400));
    const auto hit = hitTestLines(h, data, h.xs[2] + 1.0, h.yOf(2.0) + 2.0);
    REQUIRE(hit);
    CHECK(hit->index == 2);
    REQUIRE(hit->series);
    CHECK(*hit->series == 1); // b is 2 at position 2
    const auto between = hitTestLines(h, data, h.xs[1], (h.yOf(1.0) + h.yOf(4.0)) / 2.0);
    REQUIRE(between);
    CHECK_FALSE(between->series); // far from both lines
    CHECK_FALSE(hitTestLines(h, data, h.plot.left() - 5.0, h.yOf(1.0)));
    // Right of the last position's centre (and left of the first) is still that position.
    CHECK(hitTestLines(h, data, h.xs[3] + 3.0, h.yOf(4.0))->index == 3);
    CHECK(hitTestLines(h, data, h.xs[0] - 3.0, h.yOf(1.0))->index == 0);
    CHECK(timeAtX(h, h.plot.left()) == 0);
    CHECK(timeAtX(h, h.plot.left() + h.plot.width()) == 40);
}

TEST_CASE(
    "the line chart widget shows values, reports clicks and drags, and renders", "[views][lines]")
{
    LineChart chart;
    chart.resize(800, 500);
    auto data = fourIntervals({ 1.0, 2.0, 3.0, 4.0 });
    data.series[0].name = QStringLiteral("Residual");
    data.unit = BarUnit::Count;
    chart.setData(data);
    chart.setTitle(QStringLiteral("Title"));
    chart.show();
    REQUIRE(QTest::qWaitForWindowExposed(&chart));

    const QPoint onLine = pointOf(chart, 0, 2);
    const QString tip = chart.toolTipAt(onLine);
    CHECK(tip.contains(QStringLiteral("Residual")));
    CHECK(tip.contains(QStringLiteral("<b>Residual: 3</b>")));

    QSignalSpy clicked(&chart, &LineChart::positionClicked);
    QTest::mouseClick(&chart, Qt::LeftButton, {}, onLine);
    REQUIRE(clicked.size() == 1);
    CHECK(clicked.front().at(0).toInt() == 2);
    CHECK(clicked.front().at(1).toInt() == 0);

    QSignalSpy selected(&chart, &LineChart::rangeSelected);
    const auto& g = chart.geometry();
    const int y = g.plot.center().y();
    QTest::mousePress(&chart, Qt::LeftButton, {}, QPoint(static_cast<int>(g.xs[0]), y));
    for (const double x : { g.xs[1], g.xs[2], g.xs[3] }) {
        QMouseEvent move(QEvent::MouseMove, QPointF(x, y), chart.mapToGlobal(QPointF(x, y)),
            Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&chart, &move);
    }
    QTest::mouseRelease(&chart, Qt::LeftButton, {}, QPoint(static_cast<int>(g.xs[3]), y));
    REQUIRE(selected.size() == 1);
    const auto range = selected.front().at(0).value<core::TimeRange>();
    CHECK(range.begin >= 4);
    CHECK(range.begin <= 6);
    CHECK(range.end >= 34);
    CHECK(range.end <= 36);

    const QImage image = chart.renderImage(QSize(700, 400));
    CHECK(image.size() == QSize(700, 400));
    CHECK(image.pixel(1, 1) == qRgb(255, 255, 255));
    CHECK(test::distinctColours(image) > 5);

    chart.clearData(QStringLiteral("This run has no memory-usage records"));
    CHECK_FALSE(chart.hasData());
    CHECK(chart.message().contains(QStringLiteral("no memory-usage")));
    CHECK(chart.toolTipAt(onLine).isEmpty());
}

TEST_CASE(
    "the user stats view draws a stat over time and per PE and opens timelines", "[views][series]")
{
    const auto trace = seriesRun();
    EntryPalette palette;
    palette.setRun(trace.get());
    UserStatsView view(&palette);
    showAndWait(view, trace);
    REQUIRE(view.result());
    CHECK(view.statChoice()->count() == 2);
    CHECK(view.statChoice()->currentData().toInt() == 3);
    auto* chart = view.lineChart();
    REQUIRE(chart->hasData());
    CHECK(chart->title().contains(QStringLiteral("Residual")));
    // The mean over PEs, then PE 0 and PE 1.
    REQUIRE(chart->data().series.size() == 3);
    CHECK(chart->data().series[2].pe == 1);
    CHECK(test::distinctColours(view.renderChart(QSize(800, 500))) > 5);
    CHECK(view.csv().startsWith(QStringLiteral("interval,begin_us,end_us,stat,stat_name")));

    QString error;
    REQUIRE(view.applyOptions({ { QStringLiteral("bins"), QStringLiteral("4") },
                                  { QStringLiteral("aggregate"), QStringLiteral("sum") } },
        &error));
    test::waitUntil([&]() { return !view.busy(); });
    CHECK(chart->data().series[0].values[0] == 10.0);

    // A click on PE 1's line opens PE 1's timeline at that interval.
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    QSignalSpy timeline(&view, &AnalysisView::timelineRequested);
    QTest::mouseClick(chart, Qt::LeftButton, {}, pointOf(*chart, 2, 1));
    REQUIRE(timeline.size() == 1);
    CHECK(timeline.front().at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { 1 });
    const auto range = timeline.front().at(1).value<core::TimeRange>();
    CHECK(range.begin == 2000);
    CHECK(range.end == 3000);

    REQUIRE(view.applyOptions({ { QStringLiteral("by"), QStringLiteral("pe") },
                                  { QStringLiteral("stat"), QStringLiteral("9") } },
        &error));
    test::waitUntil([&]() { return !view.busy(); });
    REQUIRE(chart->data().axis == LineAxis::Categorical);
    CHECK(chart->data().pes == std::vector<core::PeId> { 0, 1 });
    CHECK(chart->data().series[0].values == std::vector<double> { 100.0, 120.0 }); // sum
    CHECK(view.csv().startsWith(QStringLiteral("pe,stat,stat_name,samples,value")));

    CHECK_FALSE(view.applyOptions({ { QStringLiteral("stat"), QStringLiteral("4") } }, &error));
    CHECK(error.contains(QStringLiteral("3 · Residual")));
    CHECK_FALSE(
        view.applyOptions({ { QStringLiteral("aggregate"), QStringLiteral("median") } }, &error));
    CHECK_FALSE(view.applyOptions({ { QStringLiteral("metric"), QStringLiteral("x") } }, &error));
}

TEST_CASE("the user stats view takes a stat option before its first result and keeps it",
    "[views][series]")
{
    // The stats in the logs are read on the worker; a stat option is checked at once
    // (parallax-cli render, session restore), and the worker's result keeps that choice.
    const auto trace = seriesRun();
    EntryPalette palette;
    UserStatsView view(&palette);
    view.setTrace(trace);
    QString error;
    CHECK_FALSE(view.applyOptions({ { QStringLiteral("stat"), QStringLiteral("4") } }, &error));
    CHECK(error.contains(QStringLiteral("3 · Residual")));
    REQUIRE(view.applyOptions({ { QStringLiteral("stat"), QStringLiteral("9") } }, &error));
    test::waitUntil([&]() { return !view.busy(); });
    CHECK(view.statChoice()->count() == 2);
    CHECK(view.statChoice()->currentData().toInt() == 9);
}

TEST_CASE("the memory view draws levels with the PE spread, peaks per PE, or says why not",
    "[views][series]")
{
    const auto trace = seriesRun();
    EntryPalette palette;
    palette.setRun(trace.get());
    MemoryView view(&palette);
    showAndWait(view, trace);
    REQUIRE(view.result());
    auto* chart = view.lineChart();
    REQUIRE(chart->hasData());
    CHECK(chart->data().steps);
    CHECK(chart->data().unit == BarUnit::Bytes);
    REQUIRE(chart->data().bands.size() == 1);
    CHECK(view.canExportSvg() == svgExportAvailable());

    QString error;
    REQUIRE(view.applyOptions({ { QStringLiteral("by"), QStringLiteral("pe") } }, &error));
    test::waitUntil([&]() { return !view.busy(); });
    CHECK_FALSE(view.showingLines());
    REQUIRE(view.chart()->hasData());
    CHECK(view.chart()->data().values == std::vector<double> { 3e6, 4e6 });
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    QSignalSpy timeline(&view, &AnalysisView::timelineRequested);
    QTest::mouseClick(view.chart(), Qt::LeftButton, {}, view.chart()->barRect(1).center());
    REQUIRE(timeline.size() == 1);
    CHECK(timeline.front().at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { 1 });
    if (svgExportAvailable()) {
        test::TempDir dir;
        const auto path = QString::fromStdString((dir / "memory.svg").string());
        REQUIRE(view.exportSvg(path, QSize(600, 400), &error));
        CHECK(test::readFile(dir / "memory.svg").find("<svg") != std::string::npos);
    }

    // A run without memory records says so instead of drawing an empty chart.
    const auto tiny = test::loadRunOnce(test::dataDir() / "runs" / "tiny");
    MemoryView empty(&palette);
    showAndWait(empty, tiny);
    CHECK_FALSE(empty.result());
    CHECK(empty.lineChart()->message().contains(QStringLiteral("no memory-usage")));
    UserStatsView noStats(&palette);
    showAndWait(noStats, tiny);
    CHECK(noStats.lineChart()->message().contains(QStringLiteral("no user-stat")));
}

TEST_CASE("the counters view draws a counter per entry or PE, totals or rates", "[views][series]")
{
    const auto trace = seriesRun();
    EntryPalette palette;
    palette.setRun(trace.get());
    CountersView view(&palette);
    showAndWait(view, trace);
    REQUIRE(view.table());
    CHECK(view.counterChoice()->count() == 2);
    auto* chart = view.chart();
    REQUIRE(chart->hasData());
    // PAPI_TOT_INS per entry, highest first: compute 6800, Main 1000, reduce 500.
    CHECK(chart->data().values == std::vector<double> { 6800, 0, 0, 0, 1000, 0, 0, 0, 500 });
    CHECK(chart->data().series[0].entry == 1);
    CHECK(view.csv().startsWith(QStringLiteral("entry,entry_name,counter,calls,time_us,total")));

    QString error;
    REQUIRE(view.applyOptions({ { QStringLiteral("counter"), QStringLiteral("PAPI_FP_OPS") },
                                  { QStringLiteral("metric"), QStringLiteral("rate") },
                                  { QStringLiteral("by"), QStringLiteral("pe") } },
        &error));
    test::waitUntil([&]() { return !view.busy(); });
    REQUIRE(chart->hasData());
    CHECK(chart->data().values == std::vector<double> { 2200.0 / 1200.0, 1.5 });
    CHECK(view.csv().startsWith(QStringLiteral("pe,counter,calls")));
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    QSignalSpy timeline(&view, &AnalysisView::timelineRequested);
    QTest::mouseClick(chart, Qt::LeftButton, {}, chart->barRect(1).center());
    REQUIRE(timeline.size() == 1);
    CHECK(timeline.front().at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { 1 });

    CHECK_FALSE(
        view.applyOptions({ { QStringLiteral("counter"), QStringLiteral("CYCLES") } }, &error));
    CHECK(error.contains(QStringLiteral("PAPI_TOT_INS, PAPI_FP_OPS")));

    // The old .count files, given as a table.
    const auto counted = io::readCounterRun((test::sharedDir() / "real-logs"
        / "projections-namd2-counters" / "8" / "namd2.phase1.count.sts")
                                                .string());
    REQUIRE(counted.ok);
    CountersView files(&palette);
    files.resize(1000, 600);
    files.setCounterTable(std::make_shared<const core::analysis::CounterTable>(counted.run.table),
        std::make_shared<const core::RunMetadata>(counted.run.metadata));
    REQUIRE(files.applyOptions({ { QStringLiteral("by"), QStringLiteral("pe") } }, &error));
    REQUIRE(files.chart()->hasData());
    CHECK(files.chart()->data().categories.size() == 8);
    CHECK(files.chart()->title().startsWith(QStringLiteral("STORE")));
    CHECK(files.csv().count(QLatin1Char('\n')) == 17); // header, 8 PEs × 2 counters

    // A run without PAPI values says so.
    const auto tiny = test::loadRunOnce(test::dataDir() / "runs" / "tiny");
    CountersView none(&palette);
    showAndWait(none, tiny);
    CHECK(none.chart()->message().contains(QStringLiteral("no hardware-counter")));
}

TEST_CASE("the compare view shows two ranges or two runs: profiles, differences and a table",
    "[views][compare]")
{
    const auto trace = seriesRun();
    EntryPalette palette;
    palette.setRun(trace.get());
    CompareView view(&palette);
    showAndWait(view, trace);
    // Nothing to compare yet: it says how to start.
    CHECK_FALSE(view.result());
    CHECK(view.lineChart()->message().contains(QStringLiteral("Compare With")));

    QString error;
    view.setSelection({ 1000, 3000 }, {});
    REQUIRE(view.applyOptions({ { QStringLiteral("range-b"), QStringLiteral("3ms:5ms") },
                                  { QStringLiteral("interval"), QStringLiteral("1ms") } },
        &error));
    test::waitUntil([&]() { return !view.busy(); });
    REQUIRE(view.result());
    CHECK(view.csv()
        == QStringLiteral("entry,a_us,b_us,delta_us,ratio\n"
                          "Main::Main(CkArgMsg* m),200,0,-200,0\n"
                          "Worker::compute(int n),700,500,-200,0.714286\n"
                          "Worker::reduce(),100,0,-100,0\n"));
    REQUIRE(view.table()->rowCount() == 3);
    // Largest change first until a header is clicked.
    CHECK(view.table()->item(2, 0)->text() == QStringLiteral("Worker::reduce()"));
    view.table()->sortByColumn(1, Qt::DescendingOrder); // by A's time
    CHECK(view.table()->item(0, 0)->text() == QStringLiteral("Worker::compute(int n)"));
    CHECK(view.warningLine()->isHidden());
    auto* chart = view.lineChart();
    REQUIRE(chart->data().series.size() == 2);
    CHECK(chart->data().series[0].values == std::vector<double> { 45.0, 5.0 });

    // A click on A's line opens this run's Timeline at that interval, in run time.
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    QSignalSpy timeline(&view, &AnalysisView::timelineRequested);
    QTest::mouseClick(chart, Qt::LeftButton, {}, pointOf(*chart, 0, 1));
    REQUIRE(timeline.size() == 1);
    const auto range = timeline.front().at(1).value<core::TimeRange>();
    CHECK(range.begin == 2000);
    CHECK(range.end == 3000);

    REQUIRE(
        view.applyOptions({ { QStringLiteral("show"), QStringLiteral("difference") } }, &error));
    REQUIRE(chart->data().series.size() == 1);
    CHECK(chart->data().zeroLine);
    CHECK(chart->data().series[0].values == std::vector<double> { -20.0, -5.0 });

    // Another program: the warning line says so.
    view.setOtherRun(test::loadRunOnce(test::dataDir() / "runs" / "tiny"), QStringLiteral("tiny"));
    REQUIRE(view.applyOptions({ { QStringLiteral("range-b"), QString() } }, &error));
    test::waitUntil([&]() { return !view.busy(); });
    REQUIRE(view.result());
    CHECK_FALSE(view.warningLine()->isHidden());
    CHECK(view.warningLine()->text().contains(QStringLiteral("different programs")));
    CHECK_FALSE(
        view.applyOptions({ { QStringLiteral("align"), QStringLiteral("event") } }, &error));
    CHECK(error.contains(QStringLiteral("start or event:ID")));
}

} // namespace parallax_test_series_views_test
