// What the views show of the traced span and of comm threads on a real SMP run
// (gen-leanmd-smp: workers 0-3, comm threads 4 and 5): the default range, the "Not traced"
// segment, the comm-thread checkbox, the options bar's message when nothing was applied, and
// the summary graph's start-up and tail bands.

#include "core/analysis/run_span.h"
#include "io/run_loader.h"
#include "support/qt_wait.h"
#include "support/test_support.h"
#include "support/view_test_support.h"
#include "views/common/entry_palette.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"
#include "views/extrema/extrema_view.h"
#include "views/summary/run_summary_widget.h"
#include "views/summary/summary_graph_widget.h"
#include "views/usage_profile/usage_profile_view.h"

#include <QCheckBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

#include <catch2/catch.hpp>

#include <map>

using namespace parallax;
using namespace parallax::views;

namespace {

std::optional<std::size_t> seriesNamed(const StackedBarData& data, const QString& name)
{
    for (std::size_t s = 0; s < data.series.size(); ++s)
        if (data.series[s].name == name)
            return s;
    return std::nullopt;
}

} // namespace

TEST_CASE(
    "the options bar starts at the traced span and offers comm threads on SMP runs", "[views]")
{
    const auto trace = test::realTrace("gen-leanmd-smp");
    OptionsBar bar;
    bar.offerCommThreads();
    bar.setTrace(trace);
    const auto span = core::analysis::tracedRunSpan(*trace);
    CHECK(bar.range().begin == span.begin);
    CHECK(bar.range().end == span.end);
    CHECK(span.end < trace->endTime()); // the comm threads' tail is not in the default
    auto* box = bar.findChild<QCheckBox*>(QStringLiteral("includeCommThreads"));
    REQUIRE(box != nullptr);
    CHECK(box->isVisibleTo(&bar));
    CHECK(box->text().contains(QStringLiteral("4-5")));
    CHECK_FALSE(bar.includeCommThreads());
    QSignalSpy applied(&bar, &OptionsBar::applied);
    box->setChecked(true);
    CHECK(applied.count() == 1);
    CHECK(bar.includeCommThreads());

    // A run without comm threads has no such box.
    OptionsBar plain;
    plain.offerCommThreads();
    plain.setTrace(test::sampleTrace("imbalance"));
    CHECK_FALSE(
        plain.findChild<QCheckBox*>(QStringLiteral("includeCommThreads"))->isVisibleTo(&plain));
}

TEST_CASE("the options bar names every bad field and says that nothing was applied", "[views]")
{
    const auto trace = test::realTrace("gen-leanmd-smp");
    OptionsBar bar;
    bar.offerCommThreads();
    bar.setTrace(trace);
    const auto before = bar.range();
    bar.findChild<QLineEdit*>(QStringLiteral("peList"))->setText(QStringLiteral("0-1"));
    bar.findChild<QLineEdit*>(QStringLiteral("rangeEnd"))->setText(QStringLiteral("soon"));
    bar.findChild<QLineEdit*>(QStringLiteral("rangeBegin"))->setText(QStringLiteral("-"));
    QSignalSpy applied(&bar, &OptionsBar::applied);
    CHECK_FALSE(bar.apply());
    CHECK(applied.count() == 0);
    const auto message = bar.errorText();
    CHECK(message.startsWith(QStringLiteral("From")));
    CHECK(message.contains(QStringLiteral("To:")));
    CHECK(message.contains(QStringLiteral("nothing applied")));
    CHECK(bar.range().begin == before.begin);
    CHECK(bar.pes().empty());
    // A bad field elsewhere keeps the comm-thread box from changing too.
    auto* box = bar.findChild<QCheckBox*>(QStringLiteral("includeCommThreads"));
    box->setChecked(true);
    CHECK_FALSE(bar.includeCommThreads());
    CHECK_FALSE(box->isChecked());
}

TEST_CASE(
    "usage profile bars label untraced time and keep comm threads out of the average", "[views]")
{
    const auto trace = test::realTrace("gen-leanmd-smp");
    EntryPalette palette;
    UsageProfileView view(&palette);
    view.resize(1200, 700);
    view.setTrace(trace);
    test::waitUntil([&]() { return !view.busy() && view.profile() != nullptr; }, 60'000);
    REQUIRE(view.profile());
    CHECK(view.profile()->apart == std::vector<core::PeId> { 4, 5 });
    const auto& data = view.chart()->data();
    CHECK(data.categories.front().title.contains(QStringLiteral("4 worker PEs")));
    CHECK(data.categories.back().label == QStringLiteral("5c"));
    // Every bar adds up to 100 %: the untraced rest is its own labelled series.
    const auto notTraced = seriesNamed(data, QStringLiteral("Not traced"));
    REQUIRE(notTraced);
    CHECK(data.series[*notTraced].color.has_value());
    double untraced = 0;
    for (std::size_t c = 0; c < data.categories.size(); ++c) {
        double sum = 0;
        for (std::size_t s = 0; s < data.series.size(); ++s)
            sum += data.value(c, s);
        CHECK(sum == Approx(100.0).margin(0.06));
        untraced += data.value(c, *notTraced);
    }
    CHECK(untraced > 0.0);

    // One click on the options bar's box puts the comm threads into the average.
    view.optionsBar()->findChild<QCheckBox*>(QStringLiteral("includeCommThreads"))->click();
    test::waitUntil(
        [&]() { return !view.busy() && view.profile() && view.profile()->apart.empty(); }, 60'000);
    CHECK(view.profile()->apart.empty());
}

TEST_CASE("the summary graph marks start-up and the tail outside the traced span", "[views]")
{
    const auto trace = test::realTrace("gen-leanmd-smp");
    RunSummaryWidget summary;
    summary.resize(1200, 800);
    summary.show();
    summary.setTrace(trace);
    test::waitUntil([&]() { return !summary.graphPending(); });
    const auto* graph = summary.graphWidget();
    REQUIRE(graph->tracedSpan());
    CHECK(graph->tracedSpan()->begin == core::analysis::tracedRunSpan(*trace).begin);
    const auto [startUp, tail] = graph->untracedBands();
    // leanmd's .sum bins run past the workers' end (the comm threads' tail).
    CHECK_FALSE(tail.isEmpty());
    CHECK(tail.right() == Approx(graph->geometry().plot.right()));
    if (!startUp.isEmpty())
        CHECK(startUp.left() == Approx(graph->geometry().plot.left()));
    CHECK(summary.fieldText(QStringLiteral("graphCaption")).contains(QStringLiteral("comm")));
    const double x = (tail.left() + tail.right()) / 2.0;
    CHECK(graph->toolTipAt(x).contains(QStringLiteral("Tail")));

    // One click averages the comm threads too.
    const auto workers = graph->series().peTotal;
    REQUIRE(summary.commThreadsBox()->isVisible());
    summary.commThreadsBox()->click();
    test::waitUntil([&]() { return !summary.graphPending(); });
    CHECK(graph->series().peTotal == workers + 2);
    CHECK(summary.fieldText(QStringLiteral("graphCaption"))
              .contains(QStringLiteral("comm threads included")));
}

TEST_CASE("Extrema names the comm threads it left out and offers to include them", "[views]")
{
    const auto trace = test::realTrace("gen-leanmd-smp");
    EntryPalette palette;
    ExtremaView view(&palette);
    view.resize(1200, 700);
    view.setTrace(trace);
    test::waitUntil([&]() { return !view.busy() && view.extrema().has_value(); }, 60'000);
    REQUIRE(view.extrema());
    CHECK(view.extrema()->apart == std::vector<core::PeId> { 4, 5 });
    CHECK(view.chart()->subtitle().contains(QStringLiteral("not ranked")));
    auto* box = view.optionsBar()->findChild<QCheckBox*>(QStringLiteral("includeCommThreads"));
    REQUIRE(box != nullptr);
    CHECK(box->isVisibleTo(&view));
    box->click();
    test::waitUntil(
        [&]() { return !view.busy() && view.extrema() && view.extrema()->apart.empty(); }, 60'000);
    CHECK(view.extrema()->pes.size() == 6);
}
