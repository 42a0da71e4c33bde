// Overview: cell <-> (PE row, time column) mapping and the heat-map image without a window, the
// utilization ramp, and the view on sample runs: the two overloaded PEs stand out, a row click
// asks for that PE's timeline, a drag selects a range, CSV as parallax-cli.

#include "overview_test_support.h"
#include "support/io_support.h"
#include "support/view_test_support.h"
#include "views/common/entry_palette.h"
#include "views/common/options_bar.h"
#include "views/overview/overview_geometry.h"
#include "views/overview/overview_view.h"

#include <QMenu>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>

using namespace parallax;
using namespace parallax::views;

namespace {

// An overview of `rows` PEs × `columns` intervals of 10 µs with two entry methods; cell
// (r, c) is dominated by entry (r + c) % 2 at (10 * r) % 100 % utilization.
core::analysis::Overview makeOverview(std::size_t rows, std::int64_t columns)
{
    core::analysis::Overview o;
    o.grid.origin = 0;
    o.grid.size = 10;
    o.grid.count = columns;
    o.columns.entryCount = 2;
    for (std::size_t r = 0; r < rows; ++r)
        o.pes.push_back(static_cast<core::PeId>(r));
    const auto n = rows * static_cast<std::size_t>(columns);
    o.utilization.assign(n, 0.0F);
    o.idle.assign(n, 0.0F);
    o.dominant.assign(n, 0);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < columns; ++c) {
            const auto i = o.index(r, c);
            o.utilization[i] = static_cast<float>((10 * r) % 100) + 5.0F;
            o.idle[i] = 100.0F - o.utilization[i];
            o.dominant[i] = static_cast<std::int32_t>((r + static_cast<std::size_t>(c)) % 2);
        }
    return o;
}

QColor colourOf(int column)
{
    switch (column) {
    case 0:
        return QColor(Qt::red);
    case 1:
        return QColor(Qt::blue);
    default:
        return QColor(Qt::gray);
    }
}

double luminance(QRgb c)
{
    return 0.2126 * qRed(c) + 0.7152 * qGreen(c) + 0.0722 * qBlue(c);
}

} // namespace

TEST_CASE(
    "overview geometry maps points to PE rows and time columns, and back", "[views][overview]")
{
    const auto o = makeOverview(4, 100);
    OverviewLayout layout;
    const auto g = buildOverviewGeometry(o, nullptr, QSize(600, 400), layout);
    REQUIRE(g.plot.width() > 0);
    REQUIRE(g.rows == 4);
    REQUIRE(g.columns == 100);
    const auto first = g.cellAt(g.plot.topLeft());
    REQUIRE(first);
    CHECK(*first == OverviewCell { 0, 0 });
    const auto last = g.cellAt(g.plot.bottomRight());
    REQUIRE(last);
    CHECK(*last == OverviewCell { 3, 99 });
    CHECK_FALSE(g.cellAt(g.plot.topLeft() - QPoint(1, 0)));
    CHECK_FALSE(g.cellAt(g.plot.bottomRight() + QPoint(0, 1)));
    // Every pixel of a cell's rectangle maps back to that cell, and rows tile the plot.
    for (std::size_t row = 0; row < 4; ++row)
        for (const std::int64_t column : { 0, 1, 37, 99 }) {
            const QRect r = g.cellRect({ row, column });
            INFO("row " << row << " column " << column);
            CHECK(g.cellAt(r.topLeft()) == OverviewCell { row, column });
            CHECK(g.cellAt(r.bottomRight()) == OverviewCell { row, column });
            CHECK(g.rowAt(r.center().y()) == row);
        }
    int covered = 0;
    for (std::size_t row = 0; row < 4; ++row)
        covered += g.rowRect(row).height();
    CHECK(covered == g.plot.height());
    CHECK(g.columnAt(g.plot.left()) == Approx(0.0));
    CHECK(g.columnAt(g.plot.right() + 1) == Approx(100.0));
    CHECK(g.columnAt(g.plot.left() - 50) == Approx(0.0));
    // The time axis spans the grid.
    CHECK(g.map.window.begin == 0);
    CHECK(g.map.window.end == 1000);
    CHECK_FALSE(g.axis.ticks.empty());
}

TEST_CASE("row labels are thinned to fit and SMP node boundaries are found", "[views][overview]")
{
    const auto o = makeOverview(64, 10);
    OverviewLayout layout;
    layout.lineHeight = 14;
    const auto g = buildOverviewGeometry(o, nullptr, QSize(600, 400), layout);
    REQUIRE(g.labelledRows.size() >= 2);
    const auto step = g.labelledRows[1] - g.labelledRows[0];
    CHECK((step == 2 || step == 5 || step == 10));
    CHECK(static_cast<double>(step) * g.plot.height() / 64.0 >= 14.0);
    CHECK(g.nodeBoundaries.empty());

    core::RunMetadata meta;
    meta.processors = 6;
    meta.smp = true;
    meta.nodeSize = 2;
    meta.numNodes = 2;
    meta.commThreadsPerNode = 1;
    const auto six = makeOverview(6, 10);
    const auto smp = buildOverviewGeometry(six, &meta, QSize(600, 400), layout);
    // Nodes: PEs 0,1 | 2,3 | comm 4 (node 0) | comm 5 (node 1).
    CHECK(smp.nodeBoundaries.size() == 3);
    CHECK(smp.nodeBoundaries.front() == smp.rowRect(2).top());
}

TEST_CASE("the heat map image colours every cell by its dominant activity or its utilization",
    "[views][overview]")
{
    const auto o = makeOverview(3, 4);
    // Cells larger than pixels: each pixel shows exactly its cell.
    const QImage byActivity
        = overviewImage(o, OverviewColoring::DominantActivity, QSize(40, 30), colourOf);
    REQUIRE(byActivity.size() == QSize(40, 30));
    for (int y = 0; y < 30; ++y)
        for (int x = 0; x < 40; ++x) {
            const auto r = static_cast<std::size_t>(y / 10);
            const auto c = x / 10;
            INFO("pixel " << x << "," << y);
            CHECK(byActivity.pixel(x, y) == colourOf(o.dominant[o.index(r, c)]).rgb());
        }
    const QImage byUtilization
        = overviewImage(o, OverviewColoring::Utilization, QSize(40, 30), colourOf);
    CHECK(byUtilization.pixel(5, 5) == utilizationColor(5.0).rgb());
    CHECK(byUtilization.pixel(5, 25) == utilizationColor(25.0).rgb());

    // More columns than pixels: a pixel shows the activity most of its cells have, never a blend.
    auto wide = makeOverview(1, 9);
    for (std::int64_t c = 0; c < 9; ++c)
        wide.dominant[wide.index(0, c)] = c == 4 ? 0 : 1;
    const QImage merged
        = overviewImage(wide, OverviewColoring::DominantActivity, QSize(3, 1), colourOf);
    for (int x = 0; x < 3; ++x)
        CHECK(merged.pixel(x, 0) == QColor(Qt::blue).rgb());

    // Cells without utilization or idle and outside the traced span have no data.
    auto sparse = makeOverview(2, 4);
    for (std::int64_t c = 0; c < 4; ++c) {
        sparse.utilization[sparse.index(1, c)] = 0.0F;
        sparse.idle[sparse.index(1, c)] = 0.0F;
    }
    const std::vector<core::TimeRange> traced { { 0, 40 }, { 20, 40 } };
    CHECK_FALSE(overviewCellHasData(sparse, 1, 0, traced));
    CHECK(overviewCellHasData(sparse, 1, 3, traced)); // traced: overhead, a real 0 %
    const QImage holes
        = overviewImage(sparse, OverviewColoring::Utilization, QSize(4, 2), colourOf, traced);
    CHECK(holes.pixel(0, 1) == noDataColor().rgb());
    CHECK(holes.pixel(3, 1) == utilizationColor(0.0).rgb());
    const auto counts = dominantCellCounts(sparse, traced);
    CHECK(counts[0] + counts[1] == 6);
}

TEST_CASE("the utilization ramp is perceptually ordered: busier is brighter", "[views][overview]")
{
    double previous = -1.0;
    for (int p = 0; p <= 100; p += 5) {
        const double l = luminance(utilizationColor(p).rgb());
        INFO(p << " %");
        CHECK(l > previous);
        previous = l;
    }
    CHECK(utilizationColor(-20) == utilizationColor(0));
    CHECK(utilizationColor(250) == utilizationColor(100));
    CHECK(utilizationColor(std::nan("")) == utilizationColor(0));
}

TEST_CASE("the overview shows the overloaded PEs as busier rows and a row click asks for that "
          "PE's timeline",
    "[views][overview]")
{
    EntryPalette palette;
    OverviewView view(&palette);
    view.resize(1200, 640);
    view.show();
    view.setTrace(test::sampleTrace("imbalance"));
    test::waitForOverview(view);
    const auto& o = *view.overview();
    REQUIRE(o.pes.size() == 12);
    auto meanUtilization = [&](std::size_t k) {
        double sum = 0;
        for (std::int64_t i = 0; i < o.grid.count; ++i)
            sum += static_cast<double>(o.utilization[o.index(k, i)]);
        return sum / static_cast<double>(o.grid.count);
    };
    for (std::size_t k = 0; k < o.pes.size(); ++k) {
        INFO("PE " << o.pes[k]);
        if (o.pes[k] == 3 || o.pes[k] == 9)
            CHECK(meanUtilization(k) > 80.0);
        else
            CHECK(meanUtilization(k) < 70.0);
    }

    // In the utilization picture the two rows are the brightest.
    view.setColoring(OverviewColoring::Utilization);
    const auto g = view.chart()->geometryFor(QSize(1200, 600), true);
    const QImage image = view.renderChart(QSize(1200, 600));
    std::vector<double> rowLight;
    for (std::size_t r = 0; r < 12; ++r) {
        const QRect band = g.rowRect(r).adjusted(0, 2, 0, -2);
        double sum = 0;
        int n = 0;
        for (int y = band.top(); y <= band.bottom(); y += 3)
            for (int x = band.left(); x <= band.right(); x += 2) {
                sum += luminance(image.pixel(x, y));
                ++n;
            }
        rowLight.push_back(sum / n);
    }
    for (std::size_t r = 0; r < 12; ++r) {
        INFO("row " << r << " light " << rowLight[r]);
        if (r != 3 && r != 9)
            CHECK(rowLight[r] < std::min(rowLight[3], rowLight[9]));
    }

    QSignalSpy requested(&view, &AnalysisView::timelineRequested);
    auto* chart = view.chart();
    const auto& screen = chart->currentGeometry();
    for (const std::size_t row : { std::size_t { 9 }, std::size_t { 0 }, std::size_t { 11 } })
        QTest::mouseClick(chart, Qt::LeftButton, {}, screen.rowRect(row).center());
    REQUIRE(requested.count() == 3);
    CHECK(requested.at(0).at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { 9 });
    CHECK(requested.at(1).at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { 0 });
    CHECK(requested.at(2).at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { 11 });
    const auto range = requested.at(0).at(1).value<core::TimeRange>();
    CHECK(range.begin == view.optionsBar()->range().begin);
    CHECK(range.end == view.optionsBar()->range().end);
}

TEST_CASE("dragging across the overview selects a range, reports it and offers to open it",
    "[views][overview]")
{
    EntryPalette palette;
    OverviewView view(&palette);
    view.resize(1200, 600);
    view.show();
    view.setTrace(test::sampleTrace("imbalance"));
    test::waitForOverview(view);
    auto* chart = view.chart();
    const auto& g = chart->currentGeometry();
    const int y = g.rowRect(2).center().y();
    const QPoint from(static_cast<int>(g.map.xOf(20'000)), y);
    const QPoint to(static_cast<int>(g.map.xOf(60'000)), y);
    QSignalSpy changed(&view, &AnalysisView::selectionChanged);
    QSignalSpy timeline(&view, &AnalysisView::timelineRequested);
    QTest::mousePress(chart, Qt::LeftButton, {}, from);
    QTest::mouseMove(chart, QPoint((from.x() + to.x()) / 2, y));
    QTest::mouseMove(chart, to);
    QTest::mouseRelease(chart, Qt::LeftButton, {}, to);
    CHECK(timeline.count() == 0); // a drag is not a click
    REQUIRE(changed.count() == 1);
    const auto range = changed.at(0).at(0).value<core::TimeRange>();
    const double pixel = g.map.usPerPixel();
    CHECK(static_cast<double>(range.begin) == Approx(20'000).margin(pixel));
    CHECK(static_cast<double>(range.end) == Approx(60'000).margin(pixel));
    REQUIRE(view.selectedRange());
    CHECK(view.selectedRange()->begin == range.begin);

    // The menu offers zooming and opening the range in the other views.
    auto* menu = view.findChild<QMenu*>();
    REQUIRE(menu != nullptr);
    QStringList texts;
    for (auto* action : menu->actions()) {
        texts << action->text();
        if (action->menu() != nullptr)
            for (auto* sub : action->menu()->actions())
                texts << sub->text();
    }
    const QString all = texts.join(QLatin1Char('|'));
    CHECK(all.contains(QStringLiteral("Zoom to")));
    for (const auto kind : { ViewKind::TimeProfile, ViewKind::Histogram, ViewKind::Communication,
             ViewKind::Extrema, ViewKind::UsageProfile, ViewKind::Timeline })
        CHECK(all.contains(viewTitle(kind)));
    QSignalSpy open(&view, &AnalysisView::openRangeRequested);
    for (auto* action : menu->actions())
        if (action->menu() != nullptr)
            for (auto* sub : action->menu()->actions())
                if (sub->text() == viewTitle(ViewKind::Timeline))
                    sub->trigger();
    REQUIRE(open.count() == 1);
    CHECK(open.at(0).at(0).value<ViewKind>() == ViewKind::Timeline);
    CHECK(open.at(0).at(1).value<core::TimeRange>().begin == range.begin);
    menu->close();

    // A row click now opens the selected range.
    QTest::mouseClick(chart, Qt::LeftButton, {}, g.rowRect(5).center());
    REQUIRE(timeline.count() == 1);
    CHECK(timeline.at(0).at(1).value<core::TimeRange>().begin == range.begin);

    // Zooming to it recomputes the overview over that range.
    view.zoomTo(range);
    test::waitForOverview(view);
    CHECK(view.overview()->grid.origin == range.begin);
    CHECK_FALSE(view.selectedRange());
    CHECK(view.zoomOut());
}

TEST_CASE("the overview renders non-blank pictures in both colourings and exports the CLI's CSV",
    "[views][overview]")
{
    EntryPalette palette;
    OverviewView view(&palette);
    view.resize(1000, 500);
    const auto trace = parallax::test::loadOk(parallax::test::realLog("gen-leanmd-smp"));
    view.setTrace(trace);
    test::waitForOverview(view);
    for (const auto coloring :
        { OverviewColoring::DominantActivity, OverviewColoring::Utilization }) {
        view.setColoring(coloring);
        const QImage image = view.renderChart(QSize(900, 400));
        REQUIRE(image.size() == QSize(900, 400));
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2)
                colours.insert(image.pixel(x, y));
        CHECK(colours.size() > 12);
    }

    // CSV: the same lines as `parallax-cli overview` for the same request.
    QString error;
    REQUIRE(view.applyOptions({ { QStringLiteral("columns"), QStringLiteral("50") } }, &error));
    test::waitForOverview(view);
    const auto& o = *view.overview();
    CHECK(o.grid.count == 50);
    const auto csv = view.csv();
    const auto lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    REQUIRE(lines.size() > 1);
    CHECK(lines[0]
        == QStringLiteral(
            "pe,column,begin_us,end_us,dominant,dominant_name,utilization_pct,idle_pct"));
    int expected = 0;
    for (std::size_t k = 0; k < o.pes.size(); ++k)
        for (std::int64_t i = 0; i < o.grid.count; ++i)
            if (o.utilization[o.index(k, i)] != 0.0F || o.idle[o.index(k, i)] != 0.0F)
                ++expected;
    CHECK(lines.size() == expected + 1);
    const auto fields = lines[1].split(QLatin1Char(','));
    REQUIRE(fields.size() >= 8); // more when the entry name holds a comma
    const auto analysis = core::analysis::computeOverview(*trace, {}, { 50 });
    REQUIRE(analysis);
    CHECK(fields[2].toLongLong() == analysis->grid.begin(fields[1].toLongLong()));
    CHECK(fields[4]
        == QString::fromStdString(analysis->columns.name(analysis->dominant[analysis->index(
            static_cast<std::size_t>(fields[0].toInt()), fields[1].toLongLong())])));

    CHECK_FALSE(view.applyOptions({ { QStringLiteral("columns"), QStringLiteral("0") } }, &error));
    CHECK_FALSE(error.isEmpty());
    CHECK_FALSE(view.applyOptions({ { QStringLiteral("bins"), QStringLiteral("5") } }, &error));
}
