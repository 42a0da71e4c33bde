// The "why" views (docs/why.md). Entry Model: a hand-made run with a planted formula
// (tests/data/runs/model-planted: work(Chunk* m) lasts exactly 20 + bytes/4 µs) shows the fit,
// and the imbalanced sample run's compute(int iter) by iteration is flagged as multimodal.
// Iterations: one iteration or a range of them selected and chosen as the time range.

#include "support/test_support.h"
#include "support/view_test_support.h"
#include "views/common/heat_map_chart.h"
#include "views/common/options_bar.h"
#include "views/iterations/iterations_view.h"
#include "views/model/model_chart.h"
#include "views/model/model_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTest>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

using namespace parallax;
using namespace parallax::views;
using core::analysis::ModelFit;
using core::analysis::ModelX;

TEST_CASE("entry model view: the planted formula is fitted, drawn and clickable", "[views][model]")
{
    const auto trace = test::loadRunOnce(test::dataDir() / "runs" / "model-planted");
    test::RunPalette p(trace);
    EntryModelView view(&p.palette);
    test::showAndWait(view, trace);
    // The entry method with the most time is chosen; the x is the message size.
    CHECK(view.entry() == 2);
    CHECK(view.x() == ModelX::MessageBytes);
    REQUIRE(view.result());
    const auto& m = *view.result();
    REQUIRE(m.points.size() == 40);
    CHECK(m.groups.size() == 8);
    CHECK_FALSE(m.multimodal());
    const auto linear = std::find_if(m.fits.begin(), m.fits.end(),
        [](const ModelFit& f) { return f.kind == ModelFit::Kind::Linear; });
    REQUIRE(linear != m.fits.end());
    CHECK(linear->a == Approx(20));
    CHECK(linear->b == Approx(0.25));
    CHECK(linear->r2 == Approx(1));
    const auto best = bestModelFit(m);
    REQUIRE(best);
    CHECK(m.fits[*best].r2 == Approx(1));

    // The legend gives the formula and R²; no banner.
    auto* chart = view.modelChart();
    CHECK(chart->bannerText().isEmpty());
    const auto legend = chart->legendLines().join(QLatin1Char('\n'));
    CHECK(legend.contains(QStringLiteral("linear (R² 1.000): y = 20 +0.25 x")));
    CHECK(legend.contains(QStringLiteral("40 executions")));
    CHECK(chart->title().contains(QStringLiteral("work(Chunk* m)")));

    // No user-supplied values: that x is disabled, with the reason.
    auto* xs = view.findChild<QComboBox*>(QStringLiteral("x"));
    REQUIRE(xs != nullptr);
    auto* items = qobject_cast<QStandardItemModel*>(xs->model());
    REQUIRE(items != nullptr);
    const int user = xs->findData(static_cast<int>(ModelX::UserValue));
    CHECK_FALSE(items->item(user)->isEnabled());
    CHECK(items->item(user)->toolTip().contains(QStringLiteral("traceUserSuppliedData")));
    CHECK(items->item(xs->findData(static_cast<int>(ModelX::MessageBytes)))->isEnabled());

    // Every point is drawn where the scale puts it, and a click opens its execution.
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    const auto& g = chart->geometry();
    REQUIRE(g.pointPositions.size() == 40);
    const auto& first = m.points.front();
    CHECK(g.pointPositions.front().x() == Approx(g.xOf(100)));
    CHECK(g.pointPositions.front().y() == Approx(g.yOf(45)));
    CHECK(first.duration == 45);
    std::vector<core::PeId> pes;
    core::TimeRange range;
    QObject::connect(&view, &AnalysisView::timelineRequested,
        [&](std::vector<core::PeId> requested, core::TimeRange r) {
            pes = std::move(requested);
            range = r;
        });
    const auto last = m.points.size() - 1; // the 800-byte point of PE 1, alone at its place
    QTest::mouseClick(chart, Qt::LeftButton, {}, g.pointPositions[last].toPoint());
    REQUIRE(pes == std::vector<core::PeId> { m.points[last].pe });
    CHECK(range.begin <= m.points[last].begin);
    CHECK(range.end >= m.points[last].begin + m.points[last].duration);
    CHECK(chart->toolTipAt(g.pointPositions[last].toPoint()).contains(QStringLiteral("PE 1")));

    // The picture has the points, the curves and the legend.
    const QImage image = view.renderChart(QSize(1000, 600));
    REQUIRE_FALSE(image.isNull());
    CHECK(test::distinctColours(image) > 20);
    CHECK(view.csv().startsWith(QStringLiteral("fit,formula,a,b,c,r2,points\nlinear,")));

    // Bad options are refused; the state names the entry and the x.
    QString error;
    CHECK_FALSE(view.applyOptions({ { QStringLiteral("x"), QStringLiteral("size") } }, &error));
    CHECK(error.contains(QStringLiteral("msg-bytes")));
    CHECK_FALSE(view.applyOptions({ { QStringLiteral("entry"), QStringLiteral("99") } }, &error));
    CHECK(error.contains(QStringLiteral("--entry")));
    const auto state = view.saveState();
    CHECK(state.at(QStringLiteral("entry")) == QStringLiteral("2"));
    CHECK(state.at(QStringLiteral("x")) == QStringLiteral("msg-bytes"));
    CHECK(state.at(QStringLiteral("log-y")) == QStringLiteral("off"));
}

TEST_CASE("entry model chart: a log duration axis spaces decades equally and puts 0 at the "
          "bottom",
    "[views][model]")
{
    // Durations 0, 1, 10, 100 and 1000 µs: the axis runs from the decade of the shortest
    // duration above 0 (1 µs) to the 1-2-5 value above 1000 × 1.02 (2 ms).
    ModelChartData data;
    data.logY = true;
    data.xTitle = QStringLiteral("Iteration");
    for (const core::TimeUs d : { 0, 1, 10, 100, 1000 })
        data.model.points.push_back({ 0, 0, static_cast<double>(data.model.points.size()), d });
    const auto g = buildModelChart(data, QSize(800, 600), BarLayout {}, 0.0);
    REQUIRE_FALSE(g.empty());
    CHECK(g.logY);
    CHECK(g.yMin == 1.0);
    CHECK(g.yMax == 2000.0);
    const double bottom = g.plot.top() + g.plot.height();
    CHECK(g.yOf(1) == Approx(bottom));
    CHECK(g.yOf(2000) == Approx(g.plot.top()));
    const double decade = g.yOf(1) - g.yOf(10);
    CHECK(decade == Approx(g.plot.height() / std::log10(2000.0)));
    CHECK(g.yOf(10) - g.yOf(100) == Approx(decade));
    CHECK(g.yOf(100) - g.yOf(1000) == Approx(decade));
    // 2 and 5 sit log10(2) and log10(5) of a decade up.
    CHECK(g.yOf(1) - g.yOf(2) == Approx(decade * 0.30103).epsilon(1e-4));
    CHECK(g.yOf(1) - g.yOf(5) == Approx(decade * 0.69897).epsilon(1e-4));
    // The 0-µs execution is drawn at the bottom, where a click finds it.
    REQUIRE(g.pointPositions.size() == 5);
    CHECK(g.pointPositions[0].y() == Approx(bottom));
    CHECK(g.pointPositions[3].y() == Approx(g.yOf(100)));
    CHECK(modelPointAt(g, g.pointPositions[0]) == std::optional<std::size_t>(0));
    CHECK(modelPointAt(g, g.pointPositions[3] + QPointF(2, -2)) == std::optional<std::size_t>(3));
    // Ticks at 1-2-5 per decade, bottom to top, labelled as durations.
    QStringList labels;
    for (const auto& tick : g.yTicks)
        labels << tick.label;
    CHECK(labels.join(QLatin1Char(','))
        == QStringLiteral("1 µs,2 µs,5 µs,10 µs,20 µs,50 µs,100 µs,200 µs,500 µs,1 ms,2 ms"));
    REQUIRE(g.yTicks.size() == 11);
    CHECK(g.yTicks[3].position == Approx(g.yOf(10)));

    // The same points on the linear axis: 0 at the bottom too, 1000 µs far above 100 µs.
    data.logY = false;
    const auto linear = buildModelChart(data, QSize(800, 600), BarLayout {}, 0.0);
    CHECK_FALSE(linear.logY);
    CHECK(linear.yMin == 0.0);
    CHECK(linear.pointPositions[0].y() == Approx(bottom));
    CHECK(linear.pointPositions[1].y() - linear.pointPositions[3].y()
        < (linear.pointPositions[3].y() - linear.pointPositions[4].y()) / 5);
}

TEST_CASE(
    "entry model view: the Log scale box redraws the same model on a log axis", "[views][model]")
{
    const auto trace = test::loadRunOnce(test::dataDir() / "runs" / "model-planted");
    test::RunPalette p(trace);
    EntryModelView view(&p.palette);
    test::showAndWait(view, trace);
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    REQUIRE(view.result());
    QSignalSpy computed(&view, &AnalysisView::computed);
    auto* chart = view.modelChart();
    auto* box = view.findChild<QCheckBox*>(QStringLiteral("logY"));
    REQUIRE(box != nullptr);
    CHECK_FALSE(box->isChecked());
    CHECK_FALSE(chart->geometry().logY);
    const QImage linear = view.renderChart(QSize(1000, 600));
    const double linearY = chart->geometry().pointPositions.front().y();

    // 40 executions of 20 + bytes/4 µs, from 45 µs (100 bytes) to 220 µs (800 bytes): the axis
    // runs from 10 µs to 500 µs, the 45-µs point log10(4.5)/log10(50) of the way up.
    QTest::mouseClick(box, Qt::LeftButton);
    REQUIRE(box->isChecked());
    CHECK(computed.count() == 0); // redrawn, not recomputed
    const auto& g = chart->geometry();
    REQUIRE(g.logY);
    CHECK(g.yMin == 10.0);
    CHECK(g.yMax == 500.0);
    const double bottom = g.plot.top() + g.plot.height();
    CHECK(g.pointPositions.front().y()
        == Approx(bottom - g.plot.height() * std::log10(4.5) / std::log10(50.0)));
    CHECK(g.pointPositions.front().y() != Approx(linearY));
    // The straight fit bends: its middle sample lies off the chord between its ends.
    const auto best = bestModelFit(*view.result());
    REQUIRE(best);
    const auto& curve = g.fits[*best];
    REQUIRE(curve.size() > 3);
    const QPointF mid = curve[curve.size() / 2];
    const double chord = (curve.front().y() + curve.back().y()) / 2;
    CHECK(std::abs(mid.y() - chord) > 5.0);
    // Hit tests follow the new positions.
    const auto last = g.pointPositions.size() - 1;
    CHECK(chart->toolTipAt(g.pointPositions[last].toPoint()).contains(QStringLiteral("PE 1")));
    CHECK(view.renderChart(QSize(1000, 600)) != linear);

    // Kept in the state (a session restores it), taken back as an option; a bad value is
    // refused.
    const auto state = view.saveState();
    CHECK(state.at(QStringLiteral("log-y")) == QStringLiteral("on"));
    EntryModelView restored(&p.palette);
    test::showAndWait(restored, trace);
    QString problems;
    CHECK(restored.restoreState(state, &problems));
    CHECK(problems.isEmpty());
    test::waitForResult(restored);
    CHECK(restored.findChild<QCheckBox*>(QStringLiteral("logY"))->isChecked());
    CHECK(restored.modelChart()->data().logY);
    QString error;
    CHECK_FALSE(view.applyOptions({ { QStringLiteral("log-y"), QStringLiteral("yes") } }, &error));
    CHECK(error.contains(QStringLiteral("--log-y takes on or off")));
    REQUIRE(view.applyOptions({ { QStringLiteral("log-y"), QStringLiteral("off") } }, &error));
    test::waitForResult(view);
    CHECK_FALSE(box->isChecked());
    CHECK_FALSE(chart->geometry().logY);
}

TEST_CASE("entry model view: durations in two modes are flagged in a banner", "[views][model]")
{
    // sample-logs/imbalance: compute(int iter) takes twice as long on the two heavy PEs.
    const auto trace = test::sampleTrace("imbalance");
    test::RunPalette p(trace);
    EntryModelView view(&p.palette);
    view.resize(1200, 700);
    view.setTrace(trace);
    QString error;
    REQUIRE(view.applyOptions({ { QStringLiteral("entry"), QStringLiteral("13") },
                                  { QStringLiteral("x"), QStringLiteral("iteration") } },
        &error));
    test::waitForResult(view);
    REQUIRE(view.result());
    CHECK(view.x() == ModelX::Iteration);
    CHECK(view.result()->groups.size() == 23);
    CHECK(view.result()->multimodal());
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    const auto banner = view.modelChart()->bannerText();
    CHECK(banner.contains(QStringLiteral("Multimodal")));
    CHECK(banner.contains(QStringLiteral("Sarle")));
    const auto& g = view.modelChart()->geometry();
    CHECK_FALSE(g.banner.isEmpty());
    CHECK(g.banner.bottom() < g.plot.top());
    CHECK(g.whiskers.size() == 23);
    // Thousands of points cost one rectangle per occupied cell, not one per point.
    std::size_t cells = 0;
    for (const auto& level : g.cells)
        cells += level.size();
    CHECK(cells < view.result()->points.size());
    CHECK(cells > 23);
}

TEST_CASE("iterations view: a click selects an iteration, a shift-click a range, which becomes "
          "the time range",
    "[views][iterations]")
{
    const auto trace = test::sampleTrace("imbalance");
    test::RunPalette p(trace);
    IterationsView view(&p.palette);
    view.resize(1200, 600);
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    view.setTrace(trace);
    test::waitForResult(view);
    REQUIRE(view.result());
    REQUIRE(view.result()->iterations.size() == 23);
    CHECK(view.groups().empty()); // 12 PEs fit: a row each
    auto* chart = view.chart();
    auto* field = view.findChild<QLineEdit*>(QStringLiteral("iterationSelection"));
    auto* use = view.findChild<QPushButton*>(QStringLiteral("useAsTimeRange"));
    REQUIRE(field != nullptr);
    REQUIRE(use != nullptr);
    CHECK_FALSE(use->isEnabled());

    // A plain click opens the Timeline as before and selects that iteration.
    QSignalSpy timeline(&view, &AnalysisView::timelineRequested);
    QSignalSpy chosen(&view, &AnalysisView::timeRangeChosen);
    const auto& g = chart->geometry();
    QTest::mouseClick(chart, Qt::LeftButton, {}, g.cellRect({ 0, 5 }).center());
    CHECK(timeline.count() == 1);
    REQUIRE(view.selectedIterations());
    CHECK(*view.selectedIterations() == std::make_pair<std::size_t, std::size_t>(5, 5));
    CHECK(field->text() == QStringLiteral("5"));
    // A shift-click extends the selection and opens nothing.
    QTest::mouseClick(chart, Qt::LeftButton, Qt::ShiftModifier, g.cellRect({ 3, 9 }).center());
    CHECK(timeline.count() == 1);
    REQUIRE(view.selectedIterations());
    CHECK(*view.selectedIterations() == std::make_pair<std::size_t, std::size_t>(5, 9));
    CHECK(field->text() == QStringLiteral("5-9"));
    CHECK(chart->footnote().contains(QStringLiteral("iterations 5–9")));
    REQUIRE(use->isEnabled());
    QTest::mouseClick(use, Qt::LeftButton);
    REQUIRE(chosen.count() == 1);
    const auto range = chosen.at(0).at(0).value<core::TimeRange>();
    CHECK(range.begin == view.iterationRange(5).begin);
    CHECK(range.end == view.iterationRange(9).end);

    // Typed by hand: a range past the last iteration is refused, "2..4" taken.
    field->clear();
    QTest::keyClicks(field, QStringLiteral("20-30"));
    CHECK_FALSE(use->isEnabled());
    CHECK_FALSE(view.useSelectionAsTimeRange());
    // ... and says why, next to the field.
    auto* reason = view.findChild<QLabel*>(QStringLiteral("iterationSelectionError"));
    REQUIRE(reason != nullptr);
    CHECK(reason->text() == QStringLiteral("the run has iterations 0–22, not 30"));
    field->clear();
    QTest::keyClicks(field, QStringLiteral("2..4"));
    CHECK(use->isEnabled());
    CHECK(reason->text().isEmpty());
    QTest::keyClick(field, Qt::Key_Return);
    REQUIRE(chosen.count() == 2);
    CHECK(chosen.at(1).at(0).value<core::TimeRange>().begin == view.iterationRange(2).begin);
    CHECK(chosen.at(1).at(0).value<core::TimeRange>().end == view.iterationRange(4).end);

    using Range = std::pair<std::size_t, std::size_t>;
    CHECK(IterationsView::parseIterationRange(QStringLiteral(" 7 "), 23) == Range { 7, 7 });
    CHECK(IterationsView::parseIterationRange(QStringLiteral("0–22"), 23) == Range { 0, 22 });
    CHECK_FALSE(IterationsView::parseIterationRange(QStringLiteral("9-5"), 23));
    CHECK_FALSE(IterationsView::parseIterationRange(QStringLiteral("23"), 23));
    CHECK_FALSE(IterationsView::parseIterationRange(QStringLiteral("five"), 23));
}
