// The table tools' views: the shared table (model checked by QAbstractItemModelTester, sorting by
// value, search, copy as CSV, "row -> PE/time"), and each view on the hand-made run
// tests/data/runs/tables and the real runs: computed off the GUI thread, the same CSV as the
// command line, a real picture, the Timeline opened at the row's target.

#include "core/analysis/result_table.h"
#include "io/pe_log_listing.h"
#include "io/run_loader.h"
#include "support/qt_wait.h"
#include "support/test_support.h"
#include "support/view_test_support.h"
#include "views/call_table/call_table_view.h"
#include "views/common/entry_palette.h"
#include "views/common/options_bar.h"
#include "views/common/result_table_model.h"
#include "views/common/result_table_view.h"
#include "views/common/stacked_bar_chart.h"
#include "views/common/table_analysis_view.h"
#include "views/common/view_factory.h"
#include "views/entry_profile/entry_profile_view.h"
#include "views/log_view/log_view.h"
#include "views/noise/noise_view.h"
#include "views/timeline/timeline_view.h"
#include "views/timeline/timeline_widget.h"
#include "views/user_events/user_events_view.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QToolTip>

#include <catch2/catch.hpp>

#include <memory>

using namespace parallax;
using namespace parallax::views;
using core::analysis::CellKind;
using core::analysis::ResultTable;

namespace parallax_test_table_views_test {

core::TracePtr tablesRun()
{
    return test::loadRunOnce(test::dataDir() / "runs" / "tables");
}

// Three rows: names, durations that sort differently as text and as numbers, a target each.
ResultTable sampleTable()
{
    ResultTable t;
    const auto name = t.addColumn("name", CellKind::Text);
    const auto time = t.addColumn("time_us", CellKind::DurationUs);
    const auto count = t.addColumn("count", CellKind::Integer);
    const char* names[] = { "alpha", "Beta", "gamma, delta" };
    const double times[] = { 9, 1500, 10 };
    for (int i = 0; i < 3; ++i) {
        t.push(name, names[i]);
        t.push(time, times[i]);
        t.push(count, 1000.0 * i);
        t.targets.push_back({ i, 100 * i, 100 * i + 10 });
    }
    return t;
}

std::vector<QString> column(const ResultTableView& view, int c)
{
    std::vector<QString> out;
    for (int r = 0; r < view.filter()->rowCount(); ++r)
        out.push_back(view.filter()->index(r, c).data().toString());
    return out;
}

void showAndWait(AnalysisView& view, const core::TracePtr& trace)
{
    view.resize(1200, 800);
    view.setTrace(trace);
    test::waitUntil([&]() { return !view.busy(); }, 60'000);
}

TEST_CASE("the result table model passes the item model tester and formats by kind", "[tables]")
{
    ResultTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    ResultTableFilter filter;
    filter.setSourceModel(&model);
    QAbstractItemModelTester filterTester(
        &filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setTable(sampleTable(),
        { { "name", QStringLiteral("Name"), {} }, { "time_us", QStringLiteral("Time"), {} },
            { "count", QStringLiteral("Count"), QStringLiteral("how many") },
            { "absent", QStringLiteral("Absent"), {} } });
    CHECK(model.rowCount() == 3);
    CHECK(model.columnCount() == 3); // the absent key is skipped
    CHECK(model.headerData(1, Qt::Horizontal).toString() == "Time");
    CHECK(model.headerData(2, Qt::Horizontal, Qt::ToolTipRole).toString() == "how many");
    CHECK(model.index(1, 1).data().toString() == "1.5 ms");
    CHECK(model.index(2, 2).data().toString() == QLocale().toString(2000));
    CHECK(model.index(1, 1).data(Qt::ToolTipRole).toString().contains("1500 µs"));
    CHECK(model.index(0, 1).data(Qt::TextAlignmentRole).value<Qt::Alignment>() & Qt::AlignRight);
    CHECK(model.target(2).pe == 2);
    CHECK_FALSE(model.target(7).valid());
    filter.sort(1, Qt::AscendingOrder);
    std::vector<QString> sorted;
    for (int r = 0; r < filter.rowCount(); ++r)
        sorted.push_back(filter.index(r, 0).data().toString());
    CHECK(sorted == std::vector<QString> { "alpha", "gamma, delta", "Beta" }); // 9, 10, 1500 µs
    filter.setSearch(QStringLiteral("BETA"));
    CHECK(filter.rowCount() == 1);
    filter.setSearch(QStringLiteral("2000")); // whole-number columns are searched too
    CHECK(filter.rowCount() == 1);
    filter.setSearch({});
    CHECK(filter.rowCount() == 3);
    model.setTable({}, {});
    CHECK(model.rowCount() == 0);
}

TEST_CASE("the result table view searches, copies rows as CSV and opens a row's target", "[tables]")
{
    ResultTableView view;
    view.resize(600, 300);
    view.setTable(sampleTable(), {});
    auto* count = view.findChild<QLabel*>(QStringLiteral("tableRowCount"));
    REQUIRE(count != nullptr);
    CHECK(count->text() == "3 rows");
    view.searchField()->setText(QStringLiteral("a"));
    CHECK(view.filter()->rowCount() == 3);
    view.searchField()->setText(QStringLiteral("gamma"));
    CHECK(count->text() == "1 of 3 rows");
    view.searchField()->clear();
    view.tableView()->selectRow(2);
    CHECK(view.selectedRows() == std::vector<std::size_t> { 2 });
    CHECK(view.selectedCsv() == "name,time_us,count\n\"gamma, delta\",10,2000\n");
    view.copySelection();
    CHECK(QApplication::clipboard()->text() == view.selectedCsv());
    // Sorted by time, the second row shown is the table's third.
    view.sortBy("time_us", Qt::AscendingOrder);
    CHECK(column(view, 0)[1] == "gamma, delta");
    CHECK(view.tableRow(1) == 2);
    QSignalSpy spy(&view, &ResultTableView::targetActivated);
    emit view.tableView()->activated(view.filter()->index(1, 0));
    REQUIRE(spy.count() == 1);
    const auto target = spy.at(0).at(0).value<core::analysis::RowTarget>();
    CHECK(target.pe == 2);
    CHECK(target.begin == 200);
    // An empty table says why.
    view.setEmptyMessage(QStringLiteral("Nothing here"));
    view.setTable({}, {});
    CHECK(count->text() == "0 rows");
}

TEST_CASE("the Timeline opens around a row's target, inside the run", "[tables]")
{
    const core::TimeRange run { 1000, 100'000 };
    const auto around = timelineWindowAround({ 3, 50'000, 51'000 }, run);
    CHECK(around.begin == 48'000);
    CHECK(around.end == 53'000);
    const auto instant = timelineWindowAround({ 3, 50'000, 50'000 }, run);
    CHECK(instant.begin == 49'900);
    CHECK(instant.end == 50'100);
    const auto early = timelineWindowAround({ 0, 1000, 1010 }, run);
    CHECK(early.begin == 1000);
    CHECK(early.length() == 210);
}

TEST_CASE("the entry profile view shows the profile, its chart and opens the longest execution",
    "[tables]")
{
    const auto trace = tablesRun();
    EntryPalette palette;
    palette.setRun(trace.get());
    std::unique_ptr<AnalysisView> view(createView(ViewKind::EntryProfile, &palette));
    REQUIRE(view != nullptr);
    auto* profile = qobject_cast<EntryProfileView*>(view.get());
    REQUIRE(profile != nullptr);
    showAndWait(*view, trace);
    CHECK(view->csv().toStdString()
        == "entry,entry_name,chare,executions,total_us,mean_us,min_us,max_us,sd_us,share_pct\n"
           "2,work(int step),Worker,10,1880,188,100,520,161.357,15.6667\n"
           "1,Main(CkArgMsg* m),Main,1,200,200,200,200,0,1.66667\n"
           "3,done(int step),Main,10,200,20,20,20,0,1.66667\n");
    CHECK(profile->table()->model()->rowCount() == 3);
    CHECK(profile->chart()->data().categoryCount() == 3);
    CHECK(profile->subtitle().contains("comm threads 2-3 apart"));
    QSignalSpy timeline(view.get(), &AnalysisView::timelineRequested);
    emit profile->table()->tableView()->activated(profile->table()->filter()->index(0, 0));
    REQUIRE(timeline.count() == 1);
    CHECK(timeline.at(0).at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { 1 });
    const auto window = timeline.at(0).at(1).value<core::TimeRange>();
    CHECK(window.begin <= 6100);
    CHECK(window.end >= 6620);
    // Entries given as an option (render --entries) narrow it; a bad list is refused.
    QString error;
    CHECK(view->applyOptions({ { QStringLiteral("entries"), QStringLiteral("3") } }, &error));
    test::waitUntil([&]() { return !view->busy(); });
    CHECK(profile->table()->model()->rowCount() == 1);
    CHECK_FALSE(view->applyOptions({ { QStringLiteral("entries"), QStringLiteral("x") } }, &error));
    CHECK(error.contains("--entries"));
    CHECK_FALSE(view->applyOptions({ { QStringLiteral("bins"), QStringLiteral("3") } }, &error));
    // Its picture: heading, chart and table.
    const auto image = view->renderChart(QSize(900, 600));
    CHECK(image.size() == QSize(900, 600));
    QImage blank(image.size(), image.format());
    blank.fill(Qt::white);
    CHECK(image != blank);
}

TEST_CASE("the entry profile view on leanmd puts the heaviest entry method first", "[tables]")
{
    const auto trace = test::realTrace("gen-leanmd-smp");
    EntryPalette palette;
    palette.setRun(trace.get());
    EntryProfileView view(&palette);
    showAndWait(view, trace);
    const auto* model = view.table()->model();
    REQUIRE(model->rowCount() > 20);
    CHECK(model->index(0, 0).data().toString() == "Compute_serial_1");
    CHECK(view.chart()->data().categoryCount() == EntryProfileView::kBars + 1); // and the rest
}

TEST_CASE("the call table view lists the callers and opens the sender's timeline", "[tables]")
{
    const auto trace = tablesRun();
    EntryPalette palette;
    palette.setRun(trace.get());
    CallTableView view(&palette);
    showAndWait(view, trace);
    const auto* model = view.table()->model();
    REQUIRE(model->rowCount() == 4);
    CHECK(model->index(0, 0).data().toString() == "work(int step)");
    CHECK(model->index(0, 1).data().toString() == "Main(CkArgMsg* m)");
    CHECK(model->index(3, 1).data().toString() == "(no sender recorded)");
    CHECK(view.subtitle().contains("21 executions, the sender of 20 found"));
    CHECK(view.csv().toStdString().starts_with(
        "entry,caller_entry,caller_pe,count,bytes,min_us,mean_us,max_us,entry_name,caller_name\n"
        "2,1,0,10,800,990,2970,4950,"));
    QSignalSpy timeline(&view, &AnalysisView::timelineRequested);
    emit view.table()->tableView()->activated(view.table()->filter()->index(2, 0));
    REQUIRE(timeline.count() == 1);
    CHECK(timeline.at(0).at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { 1 });
    // The last row names no sender: nothing to open.
    emit view.table()->tableView()->activated(view.table()->filter()->index(3, 0));
    CHECK(timeline.count() == 1);
}

TEST_CASE("the user events view counts per event and PE and lists the selected row's occurrences",
    "[tables]")
{
    const auto trace = tablesRun();
    EntryPalette palette;
    UserEventsView view(&palette);
    showAndWait(view, trace);
    const auto* stats = view.table()->model();
    REQUIRE(stats->rowCount() == 6);
    CHECK(view.subtitle().contains("10 instants, 3 brackets"));
    CHECK(view.occurrences()->model()->rowCount() == 13);
    // Solve on PE 0: its two brackets.
    view.table()->tableView()->selectRow(4);
    test::waitUntil([&]() { return !view.busy(); }); // listed on a worker
    REQUIRE(view.occurrences()->model()->rowCount() == 2);
    CHECK(view.occurrences()->model()->target(1).begin == 6010);
    QSignalSpy timeline(&view, &AnalysisView::timelineRequested);
    emit view.occurrences()->tableView()->activated(view.occurrences()->filter()->index(1, 0));
    REQUIRE(timeline.count() == 1);
    const auto window = timeline.at(0).at(1).value<core::TimeRange>();
    CHECK(window.begin < 6010);
    CHECK(window.end > 6400);
    // Event ids narrow it; the picture has both tables.
    QString error;
    CHECK(view.applyOptions({ { QStringLiteral("events"), QStringLiteral("6") } }, &error));
    test::waitUntil([&]() { return !view.busy(); });
    CHECK(view.table()->model()->rowCount() == 3);
    CHECK_FALSE(view.applyOptions({ { QStringLiteral("events"), QStringLiteral("x") } }, &error));
    CHECK_FALSE(view.renderChart(QSize(800, 600)).isNull());
}

TEST_CASE("the user events view says when a run has none", "[tables]")
{
    const auto trace = test::realTrace("pipit-pingpong-v11");
    EntryPalette palette;
    UserEventsView view(&palette);
    showAndWait(view, trace);
    CHECK(view.table()->model()->rowCount() == 0);
    auto* message = view.table()->findChild<QLabel*>(QStringLiteral("tableEmptyMessage"));
    REQUIRE(message != nullptr);
    CHECK(message->text() == "this run has no user events");
}

TEST_CASE(
    "a Timeline user event is hit a few pixels off its tick, and a click names it", "[tables]")
{
    const auto trace = tablesRun();
    EntryPalette palette;
    TimelineView view(&palette);
    view.resize(1000, 300);
    view.show();
    view.setTrace(trace);
    view.setPes({ 0 });
    auto* w = view.timeline();
    w->setWindow({ 1900, 2600 }); // Step at 2001, inside work [2000, 2100)
    const auto* row = w->currentGeometry().rowOfPe(0);
    REQUIRE(row != nullptr);
    REQUIRE(row->userEvents.size() == 1);
    const int x = row->userEvents.front().x;
    const QString name = QStringLiteral("<b>Step</b> (user event 5)");
    CHECK(w->toolTipAt({ x + 4, row->eventStrip.top() + 1 }).contains(name));
    CHECK(w->toolTipAt({ x - 4, row->eventStrip.top() - 2 }).contains(name)); // just above
    CHECK(w->toolTipAt({ x + 2, row->bar.top() + 1 }).contains(name)); // the bar's top edge
    CHECK_FALSE(w->toolTipAt({ x + 12, row->eventStrip.top() + 1 }).contains(name));
    CHECK_FALSE(w->toolTipAt({ x, row->bar.center().y() }).contains(name)); // the execution
    QTest::mouseClick(w, Qt::LeftButton, {}, { x + 3, row->eventStrip.top() + 1 });
    CHECK(QToolTip::text().contains(name));
}

TEST_CASE("the log view lists the chosen PE's records and opens the Timeline at one", "[tables]")
{
    const auto trace = tablesRun();
    EntryPalette palette;
    LogView view(&palette);
    showAndWait(view, trace);
    // Without a reader (the app hands it over) it says so rather than showing nothing.
    CHECK(view.table()->model()->rowCount() == 0);
    view.setReader(&io::readLogListing);
    test::waitUntil([&]() { return !view.busy(); });
    CHECK(view.title() == "Log of PE 0");
    CHECK(view.table()->model()->rowCount() == 58);
    CHECK(view.table()->model()->index(0, 0).data().toString() == "2"); // the line number
    // setSelection takes the first PE; the Records box the kinds of records.
    view.setSelection({ 1000, 7000 }, { 3 });
    test::waitUntil([&]() { return !view.busy(); });
    CHECK(view.title() == "Log of PE 3");
    view.recordsChoice()->setCurrentIndex(2); // messages sent
    test::waitUntil([&]() { return !view.busy(); });
    CHECK(view.table()->model()->rowCount() == 5);
    QSignalSpy timeline(&view, &AnalysisView::timelineRequested);
    emit view.table()->tableView()->activated(view.table()->filter()->index(0, 0));
    REQUIRE(timeline.count() == 1);
    CHECK(timeline.at(0).at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { 3 });
    const auto window = timeline.at(0).at(1).value<core::TimeRange>();
    CHECK(window.begin < 1900);
    CHECK(window.end > 1900);
    CHECK(view.csv().toStdString().starts_with("line,time_us,type,"));
    QString error;
    CHECK(view.applyOptions({ { QStringLiteral("records"), QStringLiteral("idle") } }, &error));
    CHECK(view.recordsChoice()->currentIndex() == 4);
    CHECK_FALSE(view.applyOptions({ { QStringLiteral("records"), QStringLiteral("x") } }, &error));
    CHECK(error.contains("--records"));
}

TEST_CASE("the noise view ranks noise events and lists their executions", "[tables]")
{
    const auto trace = tablesRun();
    EntryPalette palette;
    NoiseView view(&palette);
    showAndWait(view, trace);
    REQUIRE(view.table()->model()->rowCount() == 1);
    CHECK(view.subtitle().contains("2 noisy executions"));
    CHECK(view.executions()->model()->rowCount() == 2);
    CHECK(view.csv().toStdString().starts_with(
        "event,pe,entry,entry_name,begin_us,end_us,duration_us,median_us,lost_us\n"
        "1,1,2,work(int step),6100,6620,520,105,415\n"));
    QSignalSpy timeline(&view, &AnalysisView::timelineRequested);
    emit view.table()->tableView()->activated(view.table()->filter()->index(0, 0));
    REQUIRE(timeline.count() == 1); // the event's longest execution: PE 1 at 6100
    CHECK(timeline.at(0).at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { 1 });
    // A lower k finds three events; the options reach the computation.
    QString error;
    CHECK(view.applyOptions({ { QStringLiteral("k"), QStringLiteral("2") } }, &error));
    test::waitUntil([&]() { return !view.busy(); });
    CHECK(view.table()->model()->rowCount() == 3);
    view.table()->tableView()->selectRow(0);
    CHECK(view.executions()->model()->rowCount() == 2);
    CHECK_FALSE(view.applyOptions({ { QStringLiteral("k"), QStringLiteral("-1") } }, &error));
    CHECK_FALSE(
        view.applyOptions({ { QStringLiteral("min-excess"), QStringLiteral("soon") } }, &error));
    CHECK(view.applyOptions({ { QStringLiteral("k"), QStringLiteral("5") },
                                { QStringLiteral("min-excess"), QStringLiteral("1ms") } },
        &error));
    test::waitUntil([&]() { return !view.busy(); });
    CHECK(view.table()->model()->rowCount() == 0);
}

} // namespace parallax_test_table_views_test
