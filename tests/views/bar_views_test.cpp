// The bar-chart views (usage profile, time profile, histogram, communication, extrema) on the
// sample runs: they compute off the GUI thread, draw a real chart, export CSV, react to clicks
// and drags, and reject bad options with a visible message.

#include "io/run_loader.h"
#include "support/io_support.h"
#include "support/qt_wait.h"
#include "support/test_support.h"
#include "support/view_test_support.h"
#include "views/comm/comm_view.h"
#include "views/common/entry_palette.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"
#include "views/extrema/extrema_view.h"
#include "views/histogram/histogram_view.h"
#include "views/time_profile/time_profile_view.h"
#include "views/usage_profile/usage_profile_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMouseEvent>
#include <QPushButton>
#include <QTest>

#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <set>

using namespace parallax;
using namespace parallax::views;

namespace {

QString firstLine(const QString& text)
{
    return text.section(QLatin1Char('\n'), 0, 0);
}

void checkRendersChart(AnalysisView& view, StackedBarChart* chart)
{
    REQUIRE(chart->hasData());
    const QImage image = view.renderChart(QSize(1000, 600));
    REQUIRE_FALSE(image.isNull());
    CHECK(image.size() == QSize(1000, 600));
    CHECK(image.pixel(2, 2) == qRgb(255, 255, 255)); // white background
    CHECK(test::distinctColours(image) > 5);
    CHECK(legendItems(chart->data()).size() >= 3);
}

// Presses at `from`, drags to `to` and releases, as a user would.
void drag(QWidget* widget, QPoint from, QPoint to)
{
    QTest::mousePress(widget, Qt::LeftButton, {}, from);
    for (int step = 1; step <= 4; ++step) {
        const QPoint p = from + (to - from) * step / 4;
        QMouseEvent move(QEvent::MouseMove, p, widget->mapToGlobal(p), Qt::NoButton, Qt::LeftButton,
            Qt::NoModifier);
        QCoreApplication::sendEvent(widget, &move);
    }
    QTest::mouseRelease(widget, Qt::LeftButton, {}, to);
}

} // namespace

TEST_CASE("the usage profile shows avg and one bar per PE and opens a PE's timeline on click",
    "[views][usage]")
{
    const auto trace = test::sampleTrace("imbalance");
    test::RunPalette p(trace);
    UsageProfileView view(&p.palette);
    test::showAndWait(view, trace);
    checkRendersChart(view, view.chart());
    const auto& data = view.chart()->data();
    REQUIRE(data.categories.size() == 13);
    CHECK(data.categories[0].label == QStringLiteral("avg"));
    CHECK(data.categories[4].label == QStringLiteral("3"));
    CHECK(data.unit == BarUnit::Percent);
    // PEs 3 and 9 carry double work: their idle share is the smallest.
    const auto& profile = *view.profile();
    const auto idle = profile.columns.idle();
    CHECK(profile.at(3, idle) < 15.0);
    CHECK(profile.at(0, idle) > 25.0);

    CHECK(firstLine(view.csv()) == QStringLiteral("pe,activity,activity_name,percent"));
    CHECK(view.csv().section(QLatin1Char('\n'), 1, 1).startsWith(QStringLiteral("avg,")));

    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    std::vector<core::PeId> requested;
    core::TimeRange requestedRange;
    QObject::connect(&view, &AnalysisView::timelineRequested,
        [&](std::vector<core::PeId> pes, core::TimeRange range) {
            requested = std::move(pes);
            requestedRange = range;
        });
    const QRect bar = view.barRectForPe(9);
    REQUIRE_FALSE(bar.isNull());
    QTest::mouseClick(view.chart(), Qt::LeftButton, {}, view.chart()->mapFrom(&view, bar.center()));
    CHECK(requested == std::vector<core::PeId> { 9 });
    CHECK(requestedRange.end == trace->endTime());
    // The tooltip names the PE and an activity with its share.
    const QString tip = view.chart()->toolTipAt(view.chart()->mapFrom(&view, bar.center()));
    CHECK(tip.contains(QStringLiteral("PE 9")));
    CHECK(tip.contains(QStringLiteral("%")));
}

TEST_CASE("the time profile stacks % of processor time per interval and zooms on a drag",
    "[views][time-profile]")
{
    const auto trace = test::sampleTrace("imbalance");
    test::RunPalette p(trace);
    TimeProfileView view(&p.palette);
    test::showAndWait(view, trace);
    checkRendersChart(view, view.chart());
    const auto& data = view.chart()->data();
    CHECK(data.axis == BarAxis::Time);
    CHECK(data.categories.size() == static_cast<std::size_t>(view.profile()->grid.count));
    CHECK(data.yMaximum == std::optional<double>(100.0));
    CHECK(firstLine(view.csv())
        == QStringLiteral("interval,begin_us,end_us,activity,activity_name,time_us,percent"));

    // Options: a 1 ms interval gives 135 intervals over the 134.6 ms run.
    QString error;
    REQUIRE(view.applyOptions({ { QStringLiteral("interval"), QStringLiteral("1ms") } }, &error));
    test::waitForResult(view);
    CHECK(view.profile()->grid.size == 1000);
    CHECK(view.profile()->grid.count == 135);

    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    std::optional<core::TimeRange> selected;
    QObject::connect(&view, &AnalysisView::selectionChanged,
        [&](core::TimeRange range, std::vector<core::PeId>) { selected = range; });
    const QRect plot = view.chart()->geometry().plot;
    const int y = plot.center().y();
    drag(view.chart(), QPoint(plot.left() + plot.width() / 4, y),
        QPoint(plot.left() + plot.width() / 2, y));
    REQUIRE(selected);
    const auto end = static_cast<double>(trace->endTime());
    CHECK(static_cast<double>(selected->begin) == Approx(end / 4.0).epsilon(0.05));
    CHECK(static_cast<double>(selected->end) == Approx(end / 2.0).epsilon(0.05));
    test::waitForResult(view);
    CHECK(view.optionsBar()->range().begin == selected->begin);
    CHECK(view.profile()->grid.origin == selected->begin);
    REQUIRE(view.zoomOut());
    test::waitForResult(view);
    CHECK(view.optionsBar()->range().begin == 0);
}

TEST_CASE("the context menu opens the shown range in the other views", "[views][time-profile]")
{
    const auto trace = test::sampleTrace("imbalance");
    test::RunPalette p(trace);
    TimeProfileView view(&p.palette);
    test::showAndWait(view, trace);
    std::vector<std::pair<ViewKind, core::TimeRange>> opened;
    QObject::connect(&view, &AnalysisView::openRangeRequested,
        [&](ViewKind kind, core::TimeRange range, std::vector<core::PeId>) {
            opened.emplace_back(kind, range);
        });
    QMenu menu;
    const core::TimeRange range { 10'000, 20'000 };
    addOpenRangeMenu(menu, view, range, {});
    REQUIRE(menu.actions().size() == 1);
    QMenu* open = menu.actions().front()->menu();
    REQUIRE(open != nullptr);
    CHECK(open->title().contains(QStringLiteral("10 ms")));
    QStringList titles;
    for (QAction* action : open->actions())
        titles << action->text();
    CHECK(
        titles.size() == static_cast<qsizetype>(std::size(kAllViewKinds)) - 1); // every other view
    CHECK_FALSE(titles.contains(viewTitle(ViewKind::TimeProfile))); // not itself
    for (QAction* action : open->actions())
        if (action->text() == viewTitle(ViewKind::Histogram))
            action->trigger();
    REQUIRE(opened.size() == 1);
    CHECK(opened[0].first == ViewKind::Histogram);
    CHECK(opened[0].second.begin == 10'000);
    CHECK(opened[0].second.end == 20'000);
}

TEST_CASE("a bad option is rejected with a visible message and the chart stays", "[views]")
{
    const auto trace = test::sampleTrace("imbalance");
    test::RunPalette p(trace);
    TimeProfileView view(&p.palette);
    test::showAndWait(view, trace);
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    const auto before = view.profile()->grid;

    view.intervalField()->setText(QStringLiteral("abc"));
    QTest::keyClick(view.intervalField(), Qt::Key_Return);
    const QString message = view.optionsBar()->errorText();
    CHECK(message.startsWith(QStringLiteral("Interval")));
    const auto* label = view.optionsBar()->findChild<QLabel*>(QStringLiteral("optionsError"));
    REQUIRE(label != nullptr);
    CHECK(label->isVisible());
    CHECK(label->text() == message);
    CHECK_FALSE(view.busy());
    CHECK(view.profile()->grid.size == before.size); // the last good values stay
    CHECK(view.chart()->hasData());

    // Too fine an interval for the range is refused before computing anything.
    view.intervalField()->setText(QStringLiteral("1us"));
    QTest::keyClick(view.intervalField(), Qt::Key_Return);
    CHECK(view.optionsBar()->errorText().contains(QStringLiteral("intervals")));
    CHECK_FALSE(view.busy());

    // Both an interval and bins: one of them, please.
    view.intervalField()->setText(QStringLiteral("1ms"));
    view.binsField()->setText(QStringLiteral("50"));
    QString error;
    CHECK_FALSE(view.applyOptions({}, &error));
    CHECK(error.contains(QStringLiteral("not both")));

    // The command-line route reports the same problems.
    view.binsField()->clear();
    CHECK_FALSE(view.applyOptions({ { QStringLiteral("bins"), QStringLiteral("x") } }, &error));
    CHECK(error.startsWith(QStringLiteral("Bins")));
    CHECK_FALSE(view.applyOptions({ { QStringLiteral("colour"), QStringLiteral("red") } }, &error));
    CHECK(error.contains(QStringLiteral("--colour")));
}

TEST_CASE(
    "the histogram shows the second grain-size hump and an overflow bin", "[views][histogram]")
{
    const auto trace = test::sampleTrace("grainsize");
    test::RunPalette p(trace);
    HistogramView view(&p.palette);
    test::showAndWait(view, trace);
    QString error;
    // S-GRAIN: 99 bins of 0.1 ms from 0.1 ms.
    REQUIRE(view.applyOptions({ { QStringLiteral("bins"), QStringLiteral("99") },
                                  { QStringLiteral("bin-size"), QStringLiteral("0.1ms") },
                                  { QStringLiteral("min"), QStringLiteral("0.1ms") } },
        &error));
    test::waitForResult(view);
    checkRendersChart(view, view.chart());
    const auto& h = *view.histogram();
    REQUIRE(h.bins == 99);
    CHECK(h.binSize == 100.0);
    const auto& data = view.chart()->data();
    REQUIRE(data.categories.size() == 100);
    CHECK(data.categories.back().label.startsWith(QStringLiteral("≥")));
    CHECK(data.categories.back().separatorBefore);
    // Worker::compute (entry 13): 80 % of its calls take 175-425 µs, 20 % 700-1700 µs, with
    // nothing in between: two humps.
    auto computeCount = [&](double lo, double hi) {
        double n = 0;
        for (std::int64_t b = 0; b < h.bins; ++b)
            if (h.binLow(b) >= lo && h.binLow(b + 1) <= hi)
                n += h.count(b, 13);
        return n;
    };
    const double first = computeCount(100, 500);
    const double gap = computeCount(500, 700);
    const double second = computeCount(700, 1800);
    CHECK(first > 0);
    CHECK(second > 0.1 * first);
    CHECK(gap < 0.05 * second);
    CHECK(firstLine(view.csv()) == QStringLiteral("metric,bin,lo,hi,activity,activity_name,count"));

    // Total time instead of counts.
    view.setAccumulated(true);
    CHECK(view.chart()->data().unit == BarUnit::Time);
    view.setAccumulated(false);
    CHECK(view.chart()->data().unit == BarUnit::Count);

    // With the bin size left empty the bins come from the data: the humps stay visible.
    REQUIRE(
        view.applyOptions({ { QStringLiteral("metric"), QStringLiteral("duration") } }, &error));
    view.binsField()->clear();
    view.binSizeField()->clear();
    view.minimumField()->clear();
    REQUIRE(view.applyOptions({}, &error));
    test::waitForResult(view);
    CHECK(view.histogram()->binSize < 100.0);
    CHECK(view.histogram()->binLow(view.histogram()->bins) >= 1000.0);

    REQUIRE(
        view.applyOptions({ { QStringLiteral("metric"), QStringLiteral("msg-size") } }, &error));
    test::waitForResult(view);
    CHECK(view.histogram()->metric == core::analysis::HistogramMetric::MessageSize);
    CHECK(view.chart()->data().unit == BarUnit::Messages);
    CHECK_FALSE(view.accumulatedToggle()->isEnabled());
    CHECK_FALSE(
        view.applyOptions({ { QStringLiteral("metric"), QStringLiteral("size") } }, &error));
}

TEST_CASE("communication over time labels its unit and switches metrics without recomputing",
    "[views][comm]")
{
    const auto trace = test::sampleTrace("heavy-sender");
    test::RunPalette p(trace);
    CommView view(&p.palette);
    test::showAndWait(view, trace);
    checkRendersChart(view, view.chart());
    CHECK(view.chart()->title() == QStringLiteral("Messages sent"));
    CHECK(view.chart()->data().yTitle.startsWith(QStringLiteral("messages per interval (")));
    CHECK(firstLine(view.csv())
        == QStringLiteral("interval,begin_us,end_us,metric,activity,activity_name,value"));
    CHECK(view.csv().contains(QStringLiteral(",bytes_sent,")));

    view.setMetric(core::analysis::CommMetric::BytesSent);
    CHECK_FALSE(view.busy());
    CHECK(view.chart()->title() == QStringLiteral("Bytes sent"));
    CHECK(view.chart()->data().unit == BarUnit::Bytes);
    CHECK(view.chart()->data().yTitle.startsWith(QStringLiteral("bytes per interval (")));

    // Another metric is not another selection.
    int selectionChanges = 0;
    QObject::connect(&view, &AnalysisView::selectionChanged,
        [&](core::TimeRange, std::vector<core::PeId>) { ++selectionChanges; });
    QString error;
    REQUIRE(
        view.applyOptions({ { QStringLiteral("metric"), QStringLiteral("msgs_recv") } }, &error));
    CHECK_FALSE(view.busy());
    CHECK(selectionChanges == 0);
    REQUIRE(view.applyOptions({ { QStringLiteral("metric"), QStringLiteral("ext_node_msgs_recv") },
                                  { QStringLiteral("interval"), QStringLiteral("1ms") } },
        &error));
    test::waitForResult(view);
    CHECK(view.chart()->title() == QStringLiteral("Messages received from other nodes"));
    CHECK(view.chart()->data().yTitle == QStringLiteral("messages per interval (1 ms)"));
}

TEST_CASE("extrema by least idle time shows PEs 9 and 3, the most extreme rightmost, and a click "
          "opens its timeline",
    "[views][extrema]")
{
    const auto trace = test::sampleTrace("imbalance");
    test::RunPalette p(trace);
    ExtremaView view(&p.palette);
    view.resize(1200, 700);
    view.setTrace(trace);
    QString error;
    REQUIRE(view.applyOptions({ { QStringLiteral("criterion"), QStringLiteral("least-idle") },
                                  { QStringLiteral("count"), QStringLiteral("2") } },
        &error));
    test::waitForResult(view);
    checkRendersChart(view, view.chart());
    REQUIRE(view.extremePes() == std::vector<core::PeId> { 3, 9 }); // most extreme first
    const auto& data = view.chart()->data();
    REQUIRE(data.categories.size() == 5);
    CHECK(data.categories[0].label == QStringLiteral("avg"));
    CHECK(data.categories[1].label == QStringLiteral("non-outliers"));
    CHECK(data.categories[2].label == QStringLiteral("outliers"));
    CHECK(data.categories[3].label == QStringLiteral("PE 9"));
    CHECK(data.categories[4].label == QStringLiteral("PE 3")); // rightmost
    CHECK(data.categories[3].separatorBefore);
    CHECK(data.categories[4].note.contains(QStringLiteral("idle")));

    const QString csv = view.csv();
    CHECK(firstLine(csv) == QStringLiteral("rank,pe,score"));
    CHECK(csv.section(QLatin1Char('\n'), 1, 1).startsWith(QStringLiteral("1,3,")));
    CHECK(csv.section(QLatin1Char('\n'), 2, 2).startsWith(QStringLiteral("2,9,")));
    CHECK(csv.section(QLatin1Char('\n'), 3, 3)
        == QStringLiteral("group,activity,activity_name,value"));

    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    std::vector<std::vector<core::PeId>> requests;
    QObject::connect(&view, &AnalysisView::timelineRequested,
        [&](std::vector<core::PeId> pes, core::TimeRange) { requests.push_back(std::move(pes)); });
    const QRect top = view.barRectForPe(view.extremePes().front());
    REQUIRE_FALSE(top.isNull());
    // The most extreme PE's bar is the rightmost one.
    CHECK(top.left() > view.barRectForPe(9).right());
    QTest::mouseClick(view.chart(), Qt::LeftButton, {}, view.chart()->mapFrom(&view, top.center()));
    REQUIRE(requests.size() == 1);
    CHECK(requests[0] == std::vector<core::PeId> { 3 });

    QTest::mouseClick(view.addAllButton(), Qt::LeftButton);
    REQUIRE(requests.size() == 2);
    CHECK(requests[1] == std::vector<core::PeId> { 3, 9 });
}

TEST_CASE("extrema by node: groups ranked by their PEs' mean score, a group's bar shows its PEs in "
          "place, a PE's bar opens its timeline",
    "[views][extrema][groups]")
{
    const auto trace
        = parallax::test::loadOk(parallax::test::realLog("gen-leanmd-smp")); // 2 nodes of 2 workers
    test::RunPalette p(trace);
    ExtremaView view(&p.palette);
    view.resize(1200, 700);
    view.setTrace(trace);
    QString error;
    REQUIRE(view.applyOptions({ { QStringLiteral("criterion"), QStringLiteral("least-idle") },
                                  { QStringLiteral("by"), QStringLiteral("node") },
                                  { QStringLiteral("count"), QStringLiteral("2") } },
        &error));
    test::waitForResult(view);
    const auto* groups = view.groupExtrema();
    REQUIRE(groups != nullptr);
    REQUIRE(groups->extremes.size() == 2);
    CHECK(groups->ranked == 2);
    // Each group's score is its workers' mean idle share (the comm threads are not ranked).
    const auto& x = *view.extrema();
    for (const auto& e : groups->extremes) {
        REQUIRE(e.members.size() == 2);
        double sum = 0;
        for (const auto pe : e.members) {
            const auto at = std::find(x.pes.begin(), x.pes.end(), pe) - x.pes.begin();
            sum += x.scores[static_cast<std::size_t>(at)];
        }
        CHECK(e.score == Approx(sum / 2));
    }
    CHECK(groups->extremes[0].score <= groups->extremes[1].score); // least idle first
    const auto& data = view.chart()->data();
    REQUIRE(data.categories.size() == 5); // avg, non-outliers, outliers, two nodes
    CHECK(data.categories[3].label.endsWith(
        QStringLiteral("node %1").arg(groups->extremes[1].group)));
    CHECK(view.extremePes().size() == 4);
    CHECK(view.csv().startsWith(QStringLiteral("rank,pe,score")));

    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    std::vector<std::vector<core::PeId>> requests;
    QObject::connect(&view, &AnalysisView::timelineRequested,
        [&](std::vector<core::PeId> pes, core::TimeRange) { requests.push_back(std::move(pes)); });
    const auto click = [&](const QRect& r) {
        REQUIRE_FALSE(r.isNull());
        QTest::mouseClick(
            view.chart(), Qt::LeftButton, {}, view.chart()->mapFrom(&view, r.center()));
    };
    // The most extreme node (rightmost) expands in place: its PEs follow its bar.
    const QRect before = view.barRectForGroup(0);
    click(before);
    CHECK(view.isExpanded(0));
    CHECK(requests.empty());
    CHECK(view.chart()->data().categories.size() == 7);
    const auto member = groups->extremes[0].members.front();
    const QRect memberBar = view.barRectForPe(member);
    CHECK(memberBar.left() > view.barRectForGroup(0).right());
    click(memberBar);
    REQUIRE(requests.size() == 1);
    CHECK(requests[0] == std::vector<core::PeId> { member });
    // A second click on the group hides its PEs again.
    click(view.barRectForGroup(0));
    CHECK_FALSE(view.isExpanded(0));
    CHECK(view.chart()->data().categories.size() == 5);
    CHECK(view.barRectForPe(member).isNull());

    // The bars stay bounded: no more than kMaxBars before anything is expanded.
    CHECK_FALSE(view.applyOptions({ { QStringLiteral("count"), QStringLiteral("500") } }, &error));
    CHECK(error.contains(QStringLiteral("197")));
    CHECK_FALSE(view.applyOptions({ { QStringLiteral("by"), QStringLiteral("rack") } }, &error));
}

TEST_CASE("extrema by messages sent ranks the heavy sender first", "[views][extrema]")
{
    const auto trace = test::sampleTrace("heavy-sender");
    test::RunPalette p(trace);
    ExtremaView view(&p.palette);
    view.resize(1200, 700);
    view.setTrace(trace);
    QString error;
    REQUIRE(view.applyOptions(
        { { QStringLiteral("criterion"), QStringLiteral("msgs-sent") } }, &error));
    test::waitForResult(view);
    REQUIRE_FALSE(view.extremePes().empty());
    CHECK(view.extremePes().front() == 5);
    CHECK(view.chart()->data().categories.back().label == QStringLiteral("PE 5"));
    CHECK_FALSE(
        view.applyOptions({ { QStringLiteral("criterion"), QStringLiteral("slowest") } }, &error));
    CHECK(error.contains(QStringLiteral("slowest")));
}

TEST_CASE("views without a run say so and render an empty chart", "[views]")
{
    EntryPalette palette;
    UsageProfileView usage(&palette);
    TimeProfileView time(&palette);
    HistogramView histogram(&palette);
    CommView comm(&palette);
    ExtremaView extrema(&palette);
    for (AnalysisView* view :
        std::initializer_list<AnalysisView*> { &usage, &time, &histogram, &comm, &extrema }) {
        CHECK_FALSE(view->busy());
        const QImage image = view->renderChart();
        CHECK(image.size() == QSize(1200, 700)); // not shown: the default size
        CHECK(view->csv().contains(QLatin1Char(',')));
    }
    CHECK(usage.chart()->message() == QStringLiteral("No run loaded"));
}

TEST_CASE("a new colour for an entry repaints the charts with it", "[views]")
{
    const auto trace = test::sampleTrace("imbalance");
    test::RunPalette p(trace);
    UsageProfileView view(&p.palette);
    test::showAndWait(view, trace);
    const auto& series = view.chart()->data().series;
    REQUIRE_FALSE(series.empty());
    REQUIRE(series[0].entry >= 0);
    p.palette.setEntryColor(series[0].entry, QColor(1, 2, 3));
    CHECK(view.chart()->seriesColor(0) == QColor(1, 2, 3));
    const QImage image = view.renderChart(QSize(900, 500));
    bool found = false;
    for (int y = 0; y < image.height() && !found; ++y)
        for (int x = 0; x < image.width() && !found; ++x)
            found = image.pixel(x, y) == qRgb(1, 2, 3);
    CHECK(found);
}

TEST_CASE("every bar view renders the real LeanMD run", "[views][real]")
{
    auto loaded = io::loadRun(test::realLog("gen-leanmd-smp").string());
    REQUIRE(loaded.trace);
    const auto trace = loaded.trace;
    test::RunPalette p(trace);
    std::vector<std::unique_ptr<AnalysisView>> views;
    views.push_back(std::make_unique<UsageProfileView>(&p.palette));
    views.push_back(std::make_unique<TimeProfileView>(&p.palette));
    views.push_back(std::make_unique<HistogramView>(&p.palette));
    views.push_back(std::make_unique<CommView>(&p.palette));
    views.push_back(std::make_unique<ExtremaView>(&p.palette));
    for (auto& view : views) {
        INFO(viewKey(view->kind()).toStdString());
        test::showAndWait(*view, trace);
        const QImage image = view->renderChart(QSize(1400, 800));
        CHECK(test::distinctColours(image) > 5);
        CHECK(view->csv().count(QLatin1Char('\n')) > 2);
    }
}
