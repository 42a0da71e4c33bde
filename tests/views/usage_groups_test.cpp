// The Usage Profile's PE groups: above 200 PEs it draws groups, never more than 200 bars; a
// click on a group expands it in place (its members appear after it, the other groups stay as
// they were), a second click or the back crumb collapses it, and the expansion survives a new
// range. SET draws spreads, KEY names its PEs. Runs offscreen; results are awaited through the
// view's computed() signal.

#include "core/analysis/group_aggregation.h"
#include "io/run_loader.h"
#include "support/busy_idle_run.h"
#include "support/test_support.h"
#include "views/common/entry_palette.h"
#include "views/common/stacked_bar_chart.h"
#include "views/usage_profile/usage_profile_view.h"

#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

#include <catch2/catch.hpp>

using namespace parallax;
using namespace parallax::views;

// Its own namespace: the helpers share names with other test files (unity builds).
namespace parallax_test_usage_groups_test {

namespace {

core::TracePtr leanmdSmp()
{
    static core::TracePtr trace;
    if (!trace) {
        auto loaded = io::loadRun(test::realLog("gen-leanmd-smp").string());
        INFO(loaded.error);
        REQUIRE(loaded.trace);
        trace = loaded.trace;
    }
    return trace;
}

// `count` PEs, PE p busy in entry 0 for p % 50 µs of [0, 100), idle for the rest.
core::TracePtr manyPes(int count)
{
    std::vector<core::TimeUs> busy;
    for (int p = 0; p < count; ++p)
        busy.push_back(p % 50);
    return parallax::test::busyIdleRun(busy, 100);
}

struct Shown {
    explicit Shown(core::TracePtr run)
        : trace(std::move(run))
    {
        palette.setRun(trace.get());
        view = std::make_unique<UsageProfileView>(&palette);
        view->resize(1200, 700);
    }
    // Runs `change` and waits for the view's result.
    void after(const std::function<void()>& change)
    {
        QSignalSpy computed(view.get(), &AnalysisView::computed);
        change();
        REQUIRE(computed.wait(60'000));
    }
    std::vector<std::string> paths() const
    {
        std::vector<std::string> out;
        for (const auto& bar : view->groupBars())
            out.push_back(bar.path.empty() ? "PE " + std::to_string(bar.pe) : bar.path);
        return out;
    }
    core::TracePtr trace;
    EntryPalette palette;
    std::unique_ptr<UsageProfileView> view;
};

void clickAt(UsageProfileView& view, QRect bar)
{
    REQUIRE_FALSE(bar.isNull());
    QTest::mouseClick(view.chart(), Qt::LeftButton, {}, view.chart()->mapFrom(&view, bar.center()));
}

} // namespace

TEST_CASE("above 200 PEs the usage profile draws groups, at most 200 bars in every mode",
    "[views][usage][groups]")
{
    Shown s(manyPes(1000));
    s.after([&]() { s.view->setTrace(s.trace); });
    REQUIRE(s.view->grouped());
    // 1000 PEs: blocks of 8 (125 groups), one bar each plus the average.
    CHECK(s.view->groupBars().size() == 125);
    CHECK(s.view->chart()->data().categories.size() == 126);
    CHECK(s.view->groupBars().front().label == QStringLiteral("PEs 0-7"));
    s.after([&]() { s.view->setAggregationMode(core::analysis::AggregationMode::Key); });
    CHECK(s.view->groupBars().size() <= 200);
    s.after([&]() { s.view->setGrouping(UsageGrouping::None); });
    CHECK_FALSE(s.view->grouped());
    CHECK(s.view->chart()->data().categories.size() == 1001);

    // Every PE executed the one entry method: one signature of 1000 PEs, which expands into
    // blocks rather than into 1000 bars.
    s.after([&]() {
        s.view->setAggregationMode(core::analysis::AggregationMode::Sum);
        s.view->setGrouping(UsageGrouping::Signature);
    });
    REQUIRE(s.paths() == std::vector<std::string> { "signature 1" });
    REQUIRE(s.view->toggleGroup("signature 1"));
    const auto& bars = s.view->groupBars();
    CHECK(bars.size() == 1 + 125);
    CHECK(bars[1].path == "signature 1\nPEs 0-7");
    CHECK(bars[1].pes.size() == 8);
}

TEST_CASE("clicking a group expands it in place and keeps the other groups, clicking again "
          "collapses it",
    "[views][usage][groups]")
{
    Shown s(leanmdSmp());
    s.view->show();
    REQUIRE(QTest::qWaitForWindowExposed(s.view.get()));
    s.after([&]() {
        s.view->setTrace(s.trace);
        s.view->setGrouping(UsageGrouping::Node);
    });
    REQUIRE(s.view->grouped());
    // Workers 0-3 on nodes 0 and 1; the comm threads 4 and 5 apart, in their own group.
    REQUIRE(s.paths() == std::vector<std::string> { "node 0", "node 1", "comm threads" });
    const auto before = s.view->groupBars();

    clickAt(*s.view, s.view->barRectForGroup("node 0"));
    CHECK(s.paths()
        == std::vector<std::string> { "node 0", "PE 0", "PE 1", "node 1", "comm threads" });
    const auto& after = s.view->groupBars();
    CHECK(after[0].expanded);
    CHECK(after[0].label.startsWith(QStringLiteral("▾")));
    // The other groups keep their values.
    CHECK(after[3].percent == before[1].percent);
    CHECK(after[4].percent == before[2].percent);
    CHECK(s.view->chart()->data().categories.size() == 6);

    // A PE bar inside the group opens that PE's timeline.
    std::vector<core::PeId> requested;
    QObject::connect(s.view.get(), &AnalysisView::timelineRequested,
        [&](std::vector<core::PeId> pes, core::TimeRange) { requested = std::move(pes); });
    clickAt(*s.view, s.view->barRectForPe(1));
    CHECK(requested == std::vector<core::PeId> { 1 });
    CHECK(s.paths().size() == 5); // still expanded

    clickAt(*s.view, s.view->barRectForGroup("node 0"));
    CHECK(s.paths() == std::vector<std::string> { "node 0", "node 1", "comm threads" });
    CHECK(s.view->groupBars()[1].percent == before[1].percent);
}

TEST_CASE("the back crumb collapses the last expanded group, expansions survive a new range",
    "[views][usage][groups]")
{
    Shown s(leanmdSmp());
    s.after([&]() {
        s.view->setTrace(s.trace);
        s.view->setGrouping(UsageGrouping::Node);
    });
    auto* back = s.view->findChild<QToolButton*>(QStringLiteral("collapseGroup"));
    REQUIRE(back != nullptr);
    CHECK(back->isHidden());
    REQUIRE(s.view->toggleGroup("node 1"));
    REQUIRE(s.view->toggleGroup("comm threads"));
    CHECK(s.paths()
        == std::vector<std::string> {
            "node 0", "node 1", "PE 2", "PE 3", "comm threads", "PE 4", "PE 5" });
    CHECK_FALSE(back->isHidden());
    CHECK(back->text().contains(QStringLiteral("comm threads")));

    // A new range recomputes everything; node 1 and the comm threads stay open.
    const auto span = s.view->profile()->range;
    s.after([&]() { s.view->setSelection({ span.begin, span.begin + span.length() / 2 }, {}); });
    CHECK(s.view->profile()->range.end == span.begin + span.length() / 2);
    CHECK(s.paths().size() == 7);

    QTest::mouseClick(back, Qt::LeftButton);
    CHECK(s.paths()
        == std::vector<std::string> { "node 0", "node 1", "PE 2", "PE 3", "comm threads" });
    QTest::mouseClick(back, Qt::LeftButton);
    CHECK(s.paths().size() == 3);
    CHECK(back->isHidden());
}

TEST_CASE("SET draws spreads over group bars and KEY bars name their PEs", "[views][usage][groups]")
{
    Shown s(leanmdSmp());
    s.view->show();
    REQUIRE(QTest::qWaitForWindowExposed(s.view.get()));
    s.after([&]() {
        s.view->setTrace(s.trace);
        s.view->setGrouping(UsageGrouping::Node);
        s.view->setAggregationMode(core::analysis::AggregationMode::Set);
    });
    const auto& data = s.view->chart()->data();
    REQUIRE(data.spreads.size() == data.categories.size());
    REQUIRE(data.spreads[1].has_value()); // node 0
    // Two members: mean ± σ reaches min and max exactly.
    CHECK(data.spreads[1]->bandLow == Approx(data.spreads[1]->low));
    CHECK(data.spreads[1]->bandHigh == Approx(data.spreads[1]->high));
    CHECK(data.spreads[1]->low < data.spreads[1]->high);
    CHECK_FALSE(s.view->chart()->geometry().spreads.empty());
    CHECK(s.view->groupBars()[0].note.contains(QStringLiteral("(PE ")));

    s.after([&]() { s.view->setAggregationMode(core::analysis::AggregationMode::Key); });
    const auto& bars = s.view->groupBars();
    // node 0 = PEs 0 and 1: the first and the other one as slowest.
    REQUIRE(bars.size() >= 2);
    CHECK(bars[0].pe == 0);
    CHECK(bars[0].title == QStringLiteral("PE 0 · first of node 0"));
    CHECK(bars[1].pe == 1);
    CHECK(bars[1].title == QStringLiteral("PE 1 · slowest of node 0"));
    CHECK(bars[1].path == "node 0"); // a click expands the group
    const QRect bar = s.view->chart()->barRect(2);
    REQUIRE_FALSE(bar.isNull());
    CHECK(s.view->chart()->toolTipAt(bar.center()).contains(QStringLiteral("PE 1")));
}

TEST_CASE("the usage view takes group and mode options and rejects unknown ones",
    "[views][usage][groups]")
{
    Shown s(leanmdSmp());
    s.after([&]() { s.view->setTrace(s.trace); });
    QString error;
    CHECK_FALSE(s.view->applyOptions({ { QStringLiteral("by"), QStringLiteral("rack") } }, &error));
    CHECK(error.contains(QStringLiteral("rack")));
    CHECK_FALSE(
        s.view->applyOptions({ { QStringLiteral("mode"), QStringLiteral("avg") } }, &error));
    s.after([&]() {
        CHECK(s.view->applyOptions({ { QStringLiteral("by"), QStringLiteral("signature") },
                                       { QStringLiteral("mode"), QStringLiteral("sum") } },
            &error));
    });
    REQUIRE(s.view->grouped());
    // PE 0 runs the main chare: a signature of its own.
    CHECK(s.view->groupBars().front().pes == std::vector<core::PeId> { 0 });
}

TEST_CASE("named PE lists group the usage profile and Export Data writes the groups shown as "
          "parallax-cli groups does",
    "[views][usage][groups]")
{
    namespace a = core::analysis;
    test::TempDir dir;
    const auto file = dir.path() / "lists.txt";
    test::writeFile(file,
        "# the two nodes' workers, and PE 0 alone\nnode zero: 0-1\n"
        "node one: 2-3\nmain: 0\n");
    Shown s(leanmdSmp());
    QString error;
    s.after([&]() {
        s.view->setTrace(s.trace);
        REQUIRE(s.view->applyOptions(
            { { QStringLiteral("by"),
                QStringLiteral("list:") + QString::fromStdString(file.string()) } },
            &error));
    });
    REQUIRE(s.view->grouped());
    const auto& bars = s.view->groupBars();
    REQUIRE(bars.size() >= 3);
    CHECK(bars[0].label == QStringLiteral("node zero"));
    CHECK(bars[0].pes == std::vector<core::PeId> { 0, 1 });
    CHECK(bars[1].label == QStringLiteral("node one"));
    CHECK(bars[2].pes == std::vector<core::PeId> { 0 }); // a PE may be in several lists
    // The CSV is the aggregation of the groups shown, the CLI's columns and numbers.
    const auto& profile = *s.view->profile();
    const auto lists = a::parsePeLists("node zero: 0-1\nnode one: 2-3\nmain: 0\n");
    REQUIRE(lists);
    auto groups = a::groupByLists(*lists);
    groups.push_back({ "comm threads", profile.apart, profile.apart, {}, {} });
    const auto expected
        = a::groupAggregationCsv(a::aggregateGroups(profile, groups, a::AggregationMode::Sum));
    const QString csv = s.view->csv();
    CHECK(csv.section(QLatin1Char('\n'), 0, 0)
        == QStringLiteral("group,first_pe,last_pe,members,mode,role,pe,activity,activity_name,"
                          "value_us,percent"));
    CHECK(csv.toStdString() == expected);
    // A file that cannot be used: one sentence, nothing changed.
    CHECK_FALSE(s.view->applyOptions(
        { { QStringLiteral("by"),
            QStringLiteral("list:") + QString::fromStdString((dir / "none.txt").string()) } },
        &error));
    CHECK(error.contains(QStringLiteral("cannot be read")));
}

TEST_CASE("KEY: expanding a group adds at most 200 bars", "[views][usage][groups]")
{
    // 3,200 PEs, each its own node: 3,200 nodes under 50 parents of 64 nodes.
    Shown s(manyPes(3200));
    s.after([&]() {
        s.view->setTrace(s.trace);
        s.view->setGrouping(UsageGrouping::Node);
        s.view->setAggregationMode(core::analysis::AggregationMode::Key);
    });
    const auto before = s.view->groupBars();
    REQUIRE(before.size() <= core::analysis::kMaxAxisRows);
    const auto first = before.front().path;
    REQUIRE(s.view->toggleGroup(first));
    const auto after = s.view->groupBars();
    CHECK(after.size() > before.size());
    CHECK(after.size() - before.size() <= core::analysis::kMaxAxisRows);
    // Its sub-groups expand in turn, each by at most 200 bars, down to the PEs.
    std::string path;
    for (const auto& bar : after)
        if (bar.path != first && bar.path.rfind(first, 0) == 0) {
            path = bar.path;
            break;
        }
    REQUIRE_FALSE(path.empty());
    REQUIRE(s.view->toggleGroup(path));
    CHECK(s.view->groupBars().size() - after.size() <= core::analysis::kMaxAxisRows);
}

} // namespace parallax_test_usage_groups_test
