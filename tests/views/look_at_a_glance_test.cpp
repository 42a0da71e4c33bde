// What an analyst must see at a glance (issue #11): entry colours by time share, Extrema's
// ranked value drawn on its bars, the histogram's entry choice, idle periods and bins, and a
// clear "summaries only" instead of zeros.

#include "core/analysis/entry_ranking.h"
#include "io/run_loader.h"
#include "support/qt_wait.h"
#include "support/test_support.h"
#include "support/view_test_support.h"
#include "views/common/entry_chooser.h"
#include "views/common/entry_palette.h"
#include "views/common/stacked_bar_chart.h"
#include "views/extrema/extrema_view.h"
#include "views/histogram/histogram_view.h"
#include "views/time_profile/time_profile_view.h"
#include "views/timeline/timeline_view.h"
#include "views/timeline/timeline_widget.h"

#include <QCheckBox>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>

using namespace parallax;
using namespace parallax::views;
namespace fs = std::filesystem;

namespace {

// gen-feat-smp without its logs: the .sts, .sum.sts, .sum and .sumd files, linked into a
// temporary directory (the golden-java "sumonly" dataset is made the same way).
core::TracePtr summaryOnlyRun()
{
    static core::TracePtr trace;
    if (trace)
        return trace;
    static test::TempDir dir;
    for (const auto& file : fs::directory_iterator(test::realLog("gen-feat-smp"))) {
        const auto name = file.path().filename().string();
        if (name.find(".log") != std::string::npos || name.find(".projrc") != std::string::npos)
            continue;
        fs::create_symlink(file.path(), dir / name);
    }
    trace = test::loadRunOnce(dir.path());
    REQUIRE_FALSE(trace->hasLogs());
    REQUIRE(trace->hasSummaries());
    return trace;
}

bool hasSeries(const StackedBarData& data, int activity)
{
    for (const auto& s : data.series)
        if (s.activity == activity)
            return true;
    return false;
}

} // namespace

TEST_CASE("the heaviest entry methods get the first, most distinct colours", "[views][palette]")
{
    const auto trace = test::realTrace("gen-leanmd-smp");
    test::RunPalette p(trace);
    const auto ranking = core::analysis::rankEntriesByTime(*trace);
    REQUIRE(ranking.order.size() >= 2);
    CHECK(p.palette.entryColor(ranking.order[0]) == EntryPalette::rankColor(0));
    CHECK(p.palette.entryColor(ranking.order[1]) == EntryPalette::rankColor(1));
    CHECK(EntryPalette::rankColor(0) != EntryPalette::rankColor(1));
    // No entry colour, however far down the ranking, is a pastel that passes for idle.
    const double idle = relativeLuminance(EntryPalette::idleColor());
    for (int rank = 0; rank < 200; ++rank) {
        const QColor c = EntryPalette::rankColor(rank);
        INFO("rank " << rank << " " << c.name().toStdString());
        CHECK(relativeLuminance(c) <= 0.46);
        CHECK((idle + 0.05) / (relativeLuminance(c) + 0.05) >= 1.6);
        CHECK(c.hslSaturationF() >= 0.35F);
    }
    // A user's colour wins over the ranking and follows the entry's name.
    p.palette.setEntryColor(ranking.order[0], QColor(Qt::magenta));
    CHECK(p.palette.entryColor(ranking.order[0]) == QColor(Qt::magenta));
    p.palette.setRun(trace.get());
    CHECK(p.palette.entryColor(ranking.order[0]) == QColor(Qt::magenta));
}

TEST_CASE("Extrema draws the ranked value above every bar", "[views][extrema]")
{
    const auto trace = test::realTrace("gen-leanmd-smp");
    test::RunPalette p(trace);
    ExtremaView view(&p.palette);
    test::showAndWait(view, trace);
    QString error;
    REQUIRE(view.applyOptions(
        { { QStringLiteral("criterion"), QStringLiteral("msgs-sent") } }, &error));
    test::waitForResult(view);
    const auto& data = view.chart()->data();
    REQUIRE(view.chart()->hasData());
    REQUIRE(data.valueLabels.size() == data.categories.size());
    for (std::size_t k = 0; k < data.categories.size(); ++k) {
        INFO(data.categories[k].label.toStdString());
        CHECK(data.valueLabels[k].endsWith(QStringLiteral("msgs")));
    }
    // The rightmost bar is the most extreme PE: its label is its score.
    const auto extremes = view.extremePes();
    REQUIRE_FALSE(extremes.empty());
    CHECK(data.categories.back().label == QStringLiteral("PE %1").arg(extremes.front()));
}

TEST_CASE("the execution-time histogram leaves idle out unless asked, and never with chosen "
          "entries",
    "[views][histogram]")
{
    const auto trace = test::realTrace("gen-leanmd-smp");
    test::RunPalette p(trace);
    HistogramView view(&p.palette);
    test::showAndWait(view, trace);
    REQUIRE(view.histogram());
    const int idle = view.histogram()->columns.idle();
    CHECK_FALSE(view.idleToggle()->isChecked());
    CHECK_FALSE(hasSeries(view.chart()->data(), idle));

    view.idleToggle()->setChecked(true);
    test::waitForResult(view);
    CHECK(hasSeries(view.chart()->data(), idle));

    // Two chosen entry methods: only they are counted, idle never comes along.
    const auto ranking = core::analysis::rankEntriesByTime(*trace);
    view.setEntries({ ranking.order[0], ranking.order[1] });
    test::waitForResult(view);
    const auto& data = view.chart()->data();
    CHECK_FALSE(hasSeries(data, idle));
    CHECK_FALSE(view.idleToggle()->isEnabled());
    REQUIRE(data.series.size() <= 2);
    for (const auto& s : data.series)
        CHECK((s.activity == ranking.order[0] || s.activity == ranking.order[1]));
    CHECK(view.entriesButton()->text().contains(QStringLiteral("2")));

    // The same from the options, as `parallax-cli render histogram --entries` would.
    QString error;
    REQUIRE(view.applyOptions(
        { { QStringLiteral("entries"), QString::number(ranking.order[0]) } }, &error));
    test::waitForResult(view);
    REQUIRE(view.chart()->data().series.size() == 1);
    CHECK(view.chart()->data().series[0].activity == ranking.order[0]);
    CHECK_FALSE(
        view.applyOptions({ { QStringLiteral("entries"), QStringLiteral("99999") } }, &error));
    CHECK(error.contains(QStringLiteral("99999")));
}

TEST_CASE("the entry chooser filters by name and checks all or none of what it shows",
    "[views][histogram]")
{
    const auto trace = test::realTrace("gen-leanmd-smp");
    test::RunPalette p(trace);
    const auto ranking = core::analysis::rankEntriesByTime(*trace);
    EntryChooser chooser(trace->metadata, ranking.order, {}, &p.palette);
    REQUIRE(chooser.list()->count() == static_cast<int>(trace->metadata.entryCount()));
    CHECK(chooser.selected().size() == trace->metadata.entryCount());
    chooser.setShownChecked(false);
    CHECK(chooser.selected().empty());
    chooser.searchField()->setText(QStringLiteral("compute_serial"));
    int shown = 0;
    for (int i = 0; i < chooser.list()->count(); ++i)
        if (!chooser.list()->item(i)->isHidden()) {
            ++shown;
            CHECK(chooser.list()->item(i)->text().contains(
                QStringLiteral("compute_serial"), Qt::CaseInsensitive));
        }
    REQUIRE(shown > 0);
    chooser.setShownChecked(true);
    CHECK(chooser.selected().size() == static_cast<std::size_t>(shown));
    // The heaviest entry method is listed first.
    CHECK(chooser.list()->item(0)->data(Qt::UserRole).toInt() == ranking.order[0]);
}

TEST_CASE("automatic histogram bins reach the longest execution", "[views][histogram]")
{
    for (const char* name : { "gen-leanmd-smp", "gen-feat-smp" }) {
        INFO(name);
        const auto trace = test::realTrace(name);
        test::RunPalette p(trace);
        HistogramView view(&p.palette);
        test::showAndWait(view, trace);
        REQUIRE(view.histogram());
        const auto& h = *view.histogram();
        double longest = 0;
        for (const auto& pe : trace->pes)
            for (std::size_t k = 0; k < pe.executions.size(); ++k)
                longest = std::max(
                    longest, static_cast<double>(pe.executions.end[k] - pe.executions.begin[k]));
        CHECK(h.binLow(h.bins) > longest);
        double overflow = 0;
        for (int c = 0; c < h.columns.entryCount; ++c)
            overflow += h.count(h.bins, c);
        CHECK(overflow == 0);
    }
}

TEST_CASE("views that need event logs say that the run has summaries only", "[views][summary]")
{
    const auto trace = summaryOnlyRun();
    test::RunPalette p(trace);
    HistogramView histogram(&p.palette);
    test::showAndWait(histogram, trace);
    CHECK_FALSE(histogram.chart()->hasData());
    CHECK(histogram.chart()->message().contains(QStringLiteral("summaries only")));
    QString error;
    REQUIRE(histogram.applyOptions(
        { { QStringLiteral("metric"), QStringLiteral("msg-size") } }, &error));
    test::waitForResult(histogram);
    CHECK(histogram.chart()->message().contains(QStringLiteral("summaries only")));

    ExtremaView extrema(&p.palette);
    test::showAndWait(extrema, trace);
    for (const char* criterion : { "msgs-sent", "bytes-sent" }) {
        REQUIRE(extrema.applyOptions(
            { { QStringLiteral("criterion"), QString::fromLatin1(criterion) } }, &error));
        test::waitForResult(extrema);
        CHECK_FALSE(extrema.chart()->hasData());
        CHECK(extrema.chart()->message().contains(QStringLiteral("summaries only")));
    }
    // Criteria the summaries answer still draw.
    REQUIRE(extrema.applyOptions(
        { { QStringLiteral("criterion"), QStringLiteral("least-idle") } }, &error));
    test::waitForResult(extrema);
    CHECK(extrema.chart()->hasData());

    // The time profile stays within 100 %.
    TimeProfileView profile(&p.palette);
    test::showAndWait(profile, trace);
    REQUIRE(profile.chart()->hasData());
    const auto& data = profile.chart()->data();
    for (std::size_t k = 0; k < data.categoryCount(); ++k)
        CHECK(data.total(k) <= 100.0 + 1e-6);
    CHECK(profile.chart()->geometry().yMaximum <= 100.0 + 1e-9);

    // The Timeline says why it has nothing to draw, and stops saying it for a run with logs.
    TimelineView timeline(&p.palette);
    timeline.resize(900, 400);
    timeline.show();
    timeline.setTrace(trace);
    CHECK(timeline.timeline()->summariesOnly());
    timeline.setTrace(test::realTrace("gen-feat-smp"));
    CHECK_FALSE(timeline.timeline()->summariesOnly());
}
