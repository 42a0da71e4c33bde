// The Clusters view in the app: opened from the workspace on a sample run with planted
// overloaded PEs, a click on a cluster's exemplar opens the Timeline on that PE.

#include "app/gui/main_window.h"
#include "app/gui/view_workspace.h"
#include "views/clusters/clusters_view.h"

#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include <catch2/catch.hpp>

#include <filesystem>

using namespace parallax;
using parallax::app::LoadOutcome;
using parallax::app::MainWindow;

TEST_CASE("Clusters -> click the overloaded PEs' exemplar -> the Timeline shows that PE", "[gui]")
{
    MainWindow window(false);
    window.resize(1400, 900);
    window.show();
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openRun(QString::fromStdString(
        (std::filesystem::path(PARALLAX_SAMPLE_DIR) / "imbalance").string()));
    REQUIRE(finished.wait(60'000));
    REQUIRE(finished.takeFirst().at(0).value<LoadOutcome>() == LoadOutcome::Loaded);

    auto* view = qobject_cast<views::ClustersView*>(
        window.workspace()->openView(views::ViewKind::Clusters));
    REQUIRE(view != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(!view->busy() && view->clustering().has_value(), 20'000);
    // The cluster of PE 3 (planted with PE 9) is the one of 2 PEs.
    auto* table = view->clusterTable();
    int heavy = -1;
    for (int row = 0; row < table->rowCount(); ++row)
        if (table->item(row, views::ClustersView::SizeColumn)->text() == QStringLiteral("2"))
            heavy = row;
    REQUIRE(heavy >= 0);
    const QString exemplar = table->item(heavy, views::ClustersView::ExemplarColumn)->text();
    const core::PeId pe = exemplar.mid(3).toInt();
    CHECK((pe == 3 || pe == 9));

    QSignalSpy requested(view, &views::AnalysisView::timelineRequested);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
        table->visualItemRect(table->item(heavy, views::ClustersView::ExemplarColumn)).center());
    REQUIRE(requested.count() == 1);
    CHECK(requested.at(0).at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { pe });
    auto* timeline = window.workspace()->view(views::ViewKind::Timeline);
    REQUIRE(timeline != nullptr);
    CHECK(window.workspace()->currentWidget() == timeline);
    CHECK(timeline->csv().contains(QStringLiteral("\n%1,").arg(pe)));
}
