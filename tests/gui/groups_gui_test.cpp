// PE groups in the app: the drill-down from the whole run to one execution (Overview groups →
// a group's PEs → a PE's timeline → one execution selected), and the editor of named PE lists
// whose file groups the Overview and the Usage Profile.

#include "app/gui/main_window.h"
#include "app/gui/pe_lists_dialog.h"
#include "app/gui/view_workspace.h"
#include "core/analysis/pe_groups.h"
#include "support/busy_idle_run.h"
#include "support/test_support.h"
#include "views/common/entry_palette.h"
#include "views/overview/overview_view.h"
#include "views/timeline/timeline_view.h"
#include "views/usage_profile/usage_profile_view.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace parallax;

TEST_CASE("drill-down: whole run -> a group -> its PE -> one execution in the Timeline", "[gui]")
{
    // 400 PEs traced over [0, 1000): PE p runs entry 0 over [0, 100 + p) and idles after.
    std::vector<core::TimeUs> busy;
    for (core::TimeUs p = 0; p < 400; ++p)
        busy.push_back(100 + p);
    const auto trace = parallax::test::busyIdleRun(busy, 1000);
    views::EntryPalette palette;
    palette.setRun(trace.get());
    app::ViewWorkspace workspace(new QLabel, &palette); // the workspace owns its summary page
    workspace.resize(1400, 900);
    workspace.show();
    REQUIRE(QTest::qWaitForWindowExposed(&workspace));
    workspace.setTrace(trace);

    // The whole run: above 200 PEs the Overview's rows are groups.
    auto* overview
        = qobject_cast<views::OverviewView*>(workspace.openView(views::ViewKind::Overview));
    REQUIRE(overview != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(overview->groups().has_value() && !overview->busy(), 30'000);
    auto* chart = overview->chart();
    const auto groups = chart->rows().size();
    REQUIRE(groups <= core::analysis::kMaxAxisRows);
    REQUIRE(groups > 1);

    // A group: a click shows its PEs under its row.
    QTest::mouseClick(chart, Qt::LeftButton, {}, chart->currentGeometry().rowRect(1).center());
    QTRY_VERIFY_WITH_TIMEOUT(chart->rows().size() > groups && !overview->busy(), 30'000);
    std::size_t memberRow = 0;
    while (memberRow < chart->rows().size() && !chart->rows()[memberRow].member)
        ++memberRow;
    REQUIRE(memberRow < chart->rows().size());
    const auto pe = chart->rows()[memberRow].pe;
    REQUIRE(pe >= 0);

    // A PE: a click on its row opens its timeline.
    QTest::mouseClick(
        chart, Qt::LeftButton, {}, chart->currentGeometry().rowRect(memberRow).center());
    auto* timeline = qobject_cast<views::TimelineView*>(workspace.view(views::ViewKind::Timeline));
    REQUIRE(timeline != nullptr);
    CHECK(workspace.currentWidget() == timeline);
    REQUIRE(std::find(timeline->loadedPes().begin(), timeline->loadedPes().end(), pe)
        != timeline->loadedPes().end());

    // One execution: a click on its block selects it and shows its details.
    auto* widget = timeline->timeline();
    const QRect block = timeline->blockRectAt(pe, 50);
    REQUIRE_FALSE(block.isNull());
    QTest::mouseClick(widget, Qt::LeftButton, {}, block.center());
    const auto selected = timeline->selectedBlock();
    REQUIRE(selected.has_value());
    CHECK(selected->pe == pe);
    CHECK(selected->execution == 0);
}

TEST_CASE(
    "the PE lists editor checks what is typed, saves atomically and groups the views", "[gui]")
{
    parallax::test::TempDir dir;
    app::PeListsDialog dialog(6);
    dialog.addList(QStringLiteral("workers"), QStringLiteral("0-3"));
    dialog.addList(QStringLiteral("comm"), QStringLiteral("4,5"));
    REQUIRE(dialog.lists().has_value());
    CHECK(dialog.saveButton()->isEnabled());

    // Bad rows are named, and nothing can be saved.
    dialog.addList(QStringLiteral("workers"), QStringLiteral("9-"));
    CHECK_FALSE(dialog.lists().has_value());
    CHECK_FALSE(dialog.saveButton()->isEnabled());
    const QString problems = dialog.problems().join(QLatin1Char('\n'));
    CHECK(problems.contains(QStringLiteral("Row 3: the name 'workers' is used twice")));
    CHECK(problems.contains(QStringLiteral("Row 3:")));
    CHECK(dialog.statusLabel()->text().contains(QStringLiteral("used twice")));
    dialog.table()->item(2, 0)->setText(QStringLiteral("far"));
    dialog.table()->item(2, 1)->setText(QStringLiteral("2,9"));
    CHECK(dialog.problems().join(QLatin1Char('\n')).contains(QStringLiteral("PE 9 is not in")));
    dialog.table()->item(2, 1)->setText(QStringLiteral("0,2"));
    REQUIRE(dialog.lists().has_value());

    // Saved as parsePeLists reads it; no temporary file left beside it.
    const auto file = dir / "lists.txt";
    const QString path = QString::fromStdString(file.string());
    REQUIRE(dialog.saveTo(path));
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const auto read = core::analysis::parsePeLists(text.str());
    REQUIRE(read);
    REQUIRE(read->size() == 3);
    CHECK((*read)[0] == core::analysis::NamedPeList { "workers", { 0, 1, 2, 3 } });
    CHECK((*read)[2] == core::analysis::NamedPeList { "far", { 0, 2 } });
    CHECK(std::distance(std::filesystem::directory_iterator(dir.path()),
              std::filesystem::directory_iterator {})
        == 1);
    // And read back into the editor.
    app::PeListsDialog again(6);
    REQUIRE(again.openFile(path));
    CHECK(again.table()->rowCount() == 3);
    CHECK(again.table()->item(1, 1)->text() == QStringLiteral("4-5"));

    // In the app: "Save and Group by Them" groups the Overview and the Usage Profile.
    app::MainWindow window(false);
    window.resize(1400, 900);
    window.show();
    QSignalSpy finished(&window, &app::MainWindow::loadFinished);
    window.openRun(QString::fromStdString(parallax::test::realLog("gen-leanmd-smp").string()));
    REQUIRE(finished.wait(60'000));
    auto* usage = qobject_cast<views::UsageProfileView*>(
        window.workspace()->openView(views::ViewKind::UsageProfile));
    REQUIRE(usage != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(!usage->busy() && usage->profile(), 30'000);
    window.editPeLists();
    auto* editor = window.findChild<app::PeListsDialog*>();
    REQUIRE(editor != nullptr);
    REQUIRE(editor->openFile(path));
    QTest::mouseClick(editor->useButton(), Qt::LeftButton);
    auto* overview
        = qobject_cast<views::OverviewView*>(window.workspace()->view(views::ViewKind::Overview));
    REQUIRE(overview != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(overview->groups().has_value() && !overview->busy(), 30'000);
    CHECK(overview->groups()->groupCount() == 3);
    QTRY_VERIFY_WITH_TIMEOUT(usage->grouped() && !usage->busy(), 30'000);
    CHECK(usage->groupBars().front().label == QStringLiteral("workers"));
}
