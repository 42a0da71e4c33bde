// The Why view (views/why): the critical path and the idle blame as tables, checked against the
// numbers worked out by hand in the READMEs of tests/data/runs/why-chain and why-serial (the
// same numbers `parallax-cli critical-path` and `idle-blame --by detail|--caused` print).

#include "support/test_support.h"
#include "support/view_test_support.h"
#include "views/common/result_table_view.h"
#include "views/why/why_view.h"

#include <QSignalSpy>
#include <QTableView>

#include <catch2/catch.hpp>

using namespace parallax;
using namespace parallax::views;

namespace {

// The main table's cell as its CSV writes it.
std::string whyCell(const WhyView& view, const std::string& key, std::size_t row)
{
    const auto& table = view.table()->model()->table();
    const int column = table.columnIndex(key);
    REQUIRE(column >= 0);
    REQUIRE(row < table.rowCount());
    return table.cellText(static_cast<std::size_t>(column), row);
}

core::TracePtr whyTableRun(const char* name)
{
    return test::loadRunOnce(test::dataDir() / "runs" / name);
}

} // namespace

TEST_CASE("the why view lists the critical path of the chain run step by step", "[views][why]")
{
    const auto trace = whyTableRun("why-chain");
    test::RunPalette p(trace);
    WhyView view(&p.palette);
    test::showAndWait(view, trace);
    REQUIRE(view.shownTable() == WhyView::Table::CriticalPath);
    const auto& table = view.table()->model()->table();
    REQUIRE(table.rowCount() == 9);
    // step, PE, kind, begin, end as the README works them out.
    const std::vector<std::tuple<std::string, std::string, std::string, std::string>> steps {
        { "0", "exec", "1000", "1050" }, { "0", "message", "1050", "1200" },
        { "1", "exec", "1200", "1290" }, { "1", "message", "1290", "1350" },
        { "2", "exec", "1350", "1450" }, { "2", "message", "1450", "1500" },
        { "0", "exec", "1500", "1600" }, { "0", "wait", "1600", "1700" },
        { "0", "exec", "1700", "1750" }
    };
    for (std::size_t i = 0; i < steps.size(); ++i) {
        INFO("step " << i);
        CHECK(whyCell(view, "step", i) == std::to_string(i));
        CHECK(whyCell(view, "pe", i) == std::get<0>(steps[i]));
        CHECK(whyCell(view, "kind", i) == std::get<1>(steps[i]));
        CHECK(whyCell(view, "begin_us", i) == std::get<2>(steps[i]));
        CHECK(whyCell(view, "end_us", i) == std::get<3>(steps[i]));
    }
    CHECK(whyCell(view, "entry_name", 0) == "Main(CkArgMsg* m)");
    CHECK(whyCell(view, "entry_name", 2) == "step(int k)");
    CHECK(whyCell(view, "duration_us", 7) == "100");
    // The totals in the title line: 750 us = exec 390 + message 260 + wait 100.
    CHECK(view.title().contains(QStringLiteral("750")));
    CHECK(view.title().contains(QStringLiteral("exec 390")));
    CHECK(view.title().contains(QStringLiteral("message 260")));
    CHECK(view.title().contains(QStringLiteral("wait 100")));
    CHECK(view.subtitle().contains(QStringLiteral("unresolved links: 1")));
    CHECK(view.csv().toStdString().starts_with(
        "step,pe,kind,entry_name,begin_us,end_us,duration_us\n0,0,exec,Main(CkArgMsg* m),1000,"
        "1050,50\n"));

    // A double-click on PE 1's step opens the Timeline there, around 1200-1290.
    QSignalSpy timeline(&view, &AnalysisView::timelineRequested);
    emit view.table()->tableView()->activated(view.table()->filter()->index(2, 0));
    REQUIRE(timeline.count() == 1);
    CHECK(timeline.at(0).at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { 1 });
    const auto window = timeline.at(0).at(1).value<core::TimeRange>();
    CHECK(window.begin <= 1200);
    CHECK(window.end >= 1290);
}

TEST_CASE("the why view sums the chain run's critical path per entry method", "[views][why]")
{
    const auto trace = whyTableRun("why-chain");
    test::RunPalette p(trace);
    WhyView view(&p.palette);
    test::showAndWait(view, trace);
    // The step list's heading already names the entry method with the most time on the path:
    // step(int k), 340 of the 750 us.
    CHECK(view.title().contains(QStringLiteral("most on it: step(int k) (45.3 %)")));
    view.setShownTable(WhyView::Table::PathByEntry);
    REQUIRE(view.table()->model()->table().rowCount() == 2);
    CHECK(whyCell(view, "entry_name", 0) == "step(int k)");
    CHECK(whyCell(view, "exec_us", 0) == "340");
    CHECK(whyCell(view, "message_us", 0) == "260");
    CHECK(whyCell(view, "executions", 0) == "4");
    CHECK(whyCell(view, "entry_name", 1) == "Main(CkArgMsg* m)");
    CHECK(whyCell(view, "exec_us", 1) == "50");
    CHECK(view.saveState().at(QStringLiteral("show")) == QStringLiteral("path-entry"));

    // A double-click opens the Timeline at the entry method's longest execution on the path:
    // PE 2's 1350-1450 (PE 0's 1500-1600 is as long and comes later).
    QSignalSpy timeline(&view, &AnalysisView::timelineRequested);
    emit view.table()->tableView()->activated(view.table()->filter()->index(0, 0));
    REQUIRE(timeline.count() == 1);
    CHECK(timeline.at(0).at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { 2 });
    const auto window = timeline.at(0).at(1).value<core::TimeRange>();
    CHECK(window.begin <= 1350);
    CHECK(window.end >= 1450);
}

TEST_CASE("the why view blames the chain run's idle on its producers", "[views][why]")
{
    const auto trace = whyTableRun("why-chain");
    test::RunPalette p(trace);
    WhyView view(&p.palette);
    test::showAndWait(view, trace);
    view.setShownTable(WhyView::Table::BlameByPe);
    // 2370 us of idle in 9 periods, 800 blamed: PE 2's step ended PE 0's 400 (and had itself
    // waited for PE 1's step), PE 0's Main PE 1's 200 and PE 2's 100, PE 1's step PE 2's 100.
    CHECK(view.subtitle().contains(QStringLiteral("9 periods")));
    REQUIRE(view.table()->model()->table().rowCount() == 4);
    CHECK(whyCell(view, "producer_pe", 0) == "2");
    CHECK(whyCell(view, "producer_entry", 0) == "step(int k)");
    CHECK(whyCell(view, "consumer_pe", 0) == "0");
    CHECK(whyCell(view, "idle_us", 0) == "400");
    CHECK(whyCell(view, "count", 0) == "1");
    CHECK(whyCell(view, "producer_late", 0) == "message: PE 1 step(int k)");
    CHECK(whyCell(view, "producer_pe", 1) == "0");
    CHECK(whyCell(view, "consumer_pe", 1) == "1");
    CHECK(whyCell(view, "idle_us", 1) == "200");
    std::int64_t blamed = 0;
    for (std::size_t r = 0; r < 4; ++r)
        blamed += std::stoll(whyCell(view, "idle_us", r));
    CHECK(blamed == 800);
    // The row opens the consumer's idle period: PE 0, 1100-1500.
    QSignalSpy timeline(&view, &AnalysisView::timelineRequested);
    emit view.table()->tableView()->activated(view.table()->filter()->index(0, 0));
    REQUIRE(timeline.count() == 1);
    CHECK(timeline.at(0).at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { 0 });

    view.setShownTable(WhyView::Table::CausedByPe);
    REQUIRE(view.table()->model()->table().rowCount() == 3);
    CHECK(whyCell(view, "producer_pe", 0) == "2");
    CHECK(whyCell(view, "idle_us", 0) == "400");
    CHECK(whyCell(view, "producer_pe", 1) == "0");
    CHECK(whyCell(view, "idle_us", 1) == "300");
    CHECK(whyCell(view, "count", 1) == "2");
    CHECK(whyCell(view, "producer_pe", 2) == "1");
    CHECK(whyCell(view, "idle_us", 2) == "100");

    view.setShownTable(WhyView::Table::CausedByEntry);
    REQUIRE(view.table()->model()->table().rowCount() == 2);
    CHECK(whyCell(view, "entry_name", 0) == "step(int k)");
    CHECK(whyCell(view, "idle_us", 0) == "500");
    CHECK(whyCell(view, "entry_name", 1) == "Main(CkArgMsg* m)");
    CHECK(whyCell(view, "idle_us", 1) == "300");
}

TEST_CASE(
    "the why view takes its table by name and blames the serial run's idle on PE 0", "[views][why]")
{
    const auto trace = whyTableRun("why-serial");
    test::RunPalette p(trace);
    WhyView view(&p.palette);
    test::showAndWait(view, trace);
    QString error;
    CHECK_FALSE(view.applyOptions({ { QStringLiteral("show"), QStringLiteral("blame") } }, &error));
    CHECK(error.contains(QStringLiteral("caused-pe")));
    REQUIRE(view.applyOptions({ { QStringLiteral("show"), QStringLiteral("blame-pe") } }, &error));
    test::waitForResult(view);
    REQUIRE(view.shownTable() == WhyView::Table::BlameByPe);
    CHECK(view.saveState().at(QStringLiteral("show")) == QStringLiteral("blame-pe"));
    // PE 0's produce ended PE 3's 320, PE 2's 220 and PE 1's 120, each time busy before.
    REQUIRE(view.table()->model()->table().rowCount() == 3);
    for (std::size_t r = 0; r < 3; ++r) {
        INFO("row " << r);
        CHECK(whyCell(view, "producer_pe", r) == "0");
        CHECK(whyCell(view, "producer_entry", r) == "produce(int k)");
        CHECK(whyCell(view, "consumer_pe", r) == std::to_string(3 - r));
        CHECK(whyCell(view, "idle_us", r) == std::to_string(320 - 100 * r));
        CHECK(whyCell(view, "producer_late", r).starts_with("busy: PE 0"));
    }
    REQUIRE(
        view.applyOptions({ { QStringLiteral("show"), QStringLiteral("caused-entry") } }, &error));
    test::waitForResult(view);
    REQUIRE(view.table()->model()->table().rowCount() == 1);
    CHECK(whyCell(view, "idle_us", 0) == "660");
    CHECK(view.csv().toStdString().starts_with("entry_name,idle_us,count,share_pct\n"));
    CHECK_FALSE(view.renderChart(QSize(800, 400)).isNull());

    // The critical path: Main, the three produce, the message, consume on PE 3: 370 us.
    view.setShownTable(WhyView::Table::CriticalPath);
    CHECK(view.title().contains(QStringLiteral("370")));
    const auto& table = view.table()->model()->table();
    REQUIRE(table.rowCount() >= 3);
    CHECK(whyCell(view, "pe", table.rowCount() - 1) == "3");
    CHECK(whyCell(view, "end_us", table.rowCount() - 1) == "1370");
}
