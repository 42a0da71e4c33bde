// The run summary page: what it says about a run, and the whole-run utilization graph that is
// averaged off the GUI thread from the .sum files.

#include "core/analysis/summary_profiles.h"
#include "io/run_loader.h"
#include "support/qt_wait.h"
#include "views/summary/run_summary_widget.h"
#include "views/summary/summary_graph_widget.h"

#include <QTest>

#include <catch2/catch.hpp>

#include <filesystem>

using namespace parallax;
using namespace parallax::views;

namespace {

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

} // namespace

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
