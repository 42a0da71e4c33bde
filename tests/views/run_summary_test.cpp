// The run summary page: what it says about a run, and the whole-run utilization graph that is
// averaged off the GUI thread from the .sum files.

#include "core/analysis/summary_profiles.h"
#include "io/run_loader.h"
#include "support/qt_wait.h"
#include "support/test_support.h"
#include "views/import_report/import_report_widget.h"
#include "views/summary/run_summary_widget.h"
#include "views/summary/summary_graph_widget.h"

#include <QTest>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

#include <catch2/catch.hpp>

#include <filesystem>

using namespace parallax;
using namespace parallax::views;

namespace parallax_test_run_summary_test {

const std::filesystem::path kSamples = PARALLAX_SAMPLE_DIR;

core::TracePtr load(const std::filesystem::path& path, bool summaries = true)
{
    io::LoadOptions options;
    options.readSummaries = summaries;
    auto loaded = io::loadRun(path.string(), options);
    INFO(loaded.error);
    REQUIRE(loaded.trace);
    return loaded.trace;
}

void waitForGraph(const RunSummaryWidget& summary)
{
    test::waitUntil([&]() { return !summary.graphPending(); });
}

TEST_CASE("the summary page shows the run and its whole-run utilization graph", "[views]")
{
    const auto trace = load(kSamples / "imbalance");
    RunSummaryWidget summary;
    summary.resize(1200, 800);
    summary.show();
    summary.setTrace(trace);
    waitForGraph(summary);
    CHECK(summary.fieldText(QStringLiteral("processors")) == QStringLiteral("12"));
    // The graph is the core's average of the .sum files (correct mode), not a copy of it.
    const auto expected = core::analysis::summaryAverage(*trace, core::analysis::Mode::Correct);
    REQUIRE_FALSE(expected.empty());
    const auto& shown = summary.graphWidget()->series();
    CHECK(shown.utilization == expected.utilization);
    CHECK(shown.intervalUs == expected.intervalUs);
    CHECK(summary.graphWidget()->isVisible());
    CHECK(summary.fieldText(QStringLiteral("graphCaption"))
              .startsWith(QStringLiteral("Average over 12 PEs")));
    // A busy PE average between 1 % and 100 % somewhere: a real graph, not zeros.
    double peak = 0;
    for (double v : shown.utilization)
        peak = std::max(peak, v);
    CHECK(peak > 1.0);
    CHECK(peak <= 101.0);
}

TEST_CASE(
    "the summary page names the traced span next to the records' first and last times", "[views]")
{
    // gen-leanmd-smp: records from 56.7 ms to 9.822 s; traced from the workers' first
    // BEGIN_COMPUTATION (59.722 ms) to the .projrc end time (7.940491 s).
    const auto trace = load(test::realLog("gen-leanmd-smp"));
    RunSummaryWidget summary;
    summary.setTrace(trace);
    CHECK(summary.fieldText(QStringLiteral("end")).startsWith(QStringLiteral("9.82")));
    const auto traced = summary.fieldText(QStringLiteral("traced"));
    CHECK(traced.startsWith(QStringLiteral("59.7")));
    CHECK(traced.contains(QStringLiteral("– 7.94")));
    waitForGraph(summary);
}

TEST_CASE("a run without .sum files says why there is no graph", "[views]")
{
    RunSummaryWidget summary;
    summary.show();
    summary.setTrace(load(kSamples / "imbalance", /*summaries=*/false));
    waitForGraph(summary);
    CHECK_FALSE(summary.graphWidget()->isVisible());
    CHECK(summary.graphWidget()->series().empty());
}

TEST_CASE("a newer run replaces the graph of a run still being averaged", "[views]")
{
    RunSummaryWidget summary;
    summary.show();
    const auto first = load(kSamples / "imbalance");
    const auto second = load(kSamples / "heavy-sender");
    summary.setTrace(first);
    summary.setTrace(second);
    waitForGraph(summary);
    const auto expected = core::analysis::summaryAverage(*second, core::analysis::Mode::Correct);
    CHECK(summary.graphWidget()->series().utilization == expected.utilization);
    summary.setTrace(nullptr);
    waitForGraph(summary);
    CHECK_FALSE(summary.graphWidget()->isVisible());
}

TEST_CASE("the summary page lists which PEs have no data and which lack a summary file", "[views]")
{
    test::TempDir dir;
    for (const auto& entry : std::filesystem::directory_iterator(kSamples / "imbalance"))
        std::filesystem::copy_file(entry.path(), dir.path() / entry.path().filename());
    for (const char* gone : { "imbalance.3.log.gz", "imbalance.7.log.gz", "imbalance.8.log.gz",
             "imbalance.9.log.gz", "imbalance.5.sum" })
        REQUIRE(std::filesystem::remove(dir.path() / gone));
    RunSummaryWidget summary;
    summary.setTrace(load(dir.path()));
    waitForGraph(summary);
    CHECK(summary.fieldText(QStringLiteral("missingPes"))
        == QStringLiteral("3,7-9 (no data: left out of every view); no .sum file: 5"));

    RunSummaryWidget complete;
    complete.setTrace(load(kSamples / "imbalance"));
    waitForGraph(complete);
    CHECK(complete.fieldText(QStringLiteral("missingPes")) == QStringLiteral("none"));
}

TEST_CASE("the import report names every PE without a log or a summary file", "[views]")
{
    test::TempDir dir;
    for (const auto& entry : std::filesystem::directory_iterator(kSamples / "imbalance"))
        std::filesystem::copy_file(entry.path(), dir.path() / entry.path().filename());
    // More PEs than the report keeps examples of.
    for (const char* gone : { "imbalance.1.log.gz", "imbalance.2.log.gz", "imbalance.3.log.gz",
             "imbalance.4.log.gz", "imbalance.5.log.gz", "imbalance.6.log.gz",
             "imbalance.10.log.gz", "imbalance.11.sumd" })
        REQUIRE(std::filesystem::remove(dir.path() / gone));
    ImportReportWidget report;
    report.setTrace(load(dir.path()));
    CHECK(report.summaryText().contains(QStringLiteral("warning")));
    CHECK(report.listedKinds() >= 1);
    const auto* tree = report.findChild<QTreeWidget*>();
    REQUIRE(tree != nullptr);
    QStringList lines;
    for (QTreeWidgetItemIterator it(const_cast<QTreeWidget*>(tree)); *it != nullptr; ++it)
        lines << (*it)->text(0);
    INFO(lines.join(QLatin1Char('\n')).toStdString());
    CHECK(lines.contains(QStringLiteral("no .log: PE 1-6,10; no .sumd: PE 11")));
}

} // namespace parallax_test_run_summary_test
