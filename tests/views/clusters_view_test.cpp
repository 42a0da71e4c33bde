// The Clusters view (views/clusters/clusters_view.h) on the imbalance sample run, whose PEs 3 and
// 9 are planted as overloaded: it computes off the GUI thread, shows one bar and one table row
// per non-empty cluster and the sweep, exports the CLI's CSV, and a click on a cluster asks for
// the timelines of its exemplar (and outliers).

#include "io/run_loader.h"
#include "support/qt_wait.h"
#include "support/view_test_support.h"
#include "views/clusters/cluster_rows.h"
#include "views/clusters/clusters_view.h"
#include "views/common/entry_palette.h"
#include "views/common/stacked_bar_chart.h"

#include <QSpinBox>
#include <QTableWidget>
#include <QTest>

#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

using namespace parallax;
using namespace parallax::views;

namespace {

// The table row of the cluster holding `pe`.
int rowOfPe(const ClustersView& view, core::PeId pe)
{
    const auto& c = *view.clustering();
    for (std::size_t i = 0; i < c.features.pes.size(); ++i)
        if (c.features.pes[i] == pe) {
            const QString name = QStringLiteral("C%1").arg(c.cluster[i]);
            for (int row = 0; row < view.clusterTable()->rowCount(); ++row)
                if (view.clusterTable()->item(row, ClustersView::ClusterColumn)->text() == name)
                    return row;
        }
    return -1;
}

} // namespace

TEST_CASE("the clusters view sets the overloaded PEs apart and a click opens the exemplar's "
          "timeline",
    "[views][clusters]")
{
    const auto trace = test::sampleTrace("imbalance");
    EntryPalette palette;
    palette.setRun(trace.get());
    ClustersView view(&palette);
    view.resize(1200, 800);
    view.setTrace(trace);
    test::waitForResult(view);
    REQUIRE(view.clustering());
    const auto& c = *view.clustering();
    CHECK(c.nonEmpty == 2);
    CHECK(view.kChoice()->value() == 0);
    CHECK(view.kChoice()->text() == QStringLiteral("auto"));

    // One bar per non-empty cluster, stacked by entry method, its size above it.
    const auto& data = view.chart()->data();
    REQUIRE(data.categories.size() == 2);
    CHECK(data.series.size() >= 3);
    CHECK(data.unit == BarUnit::Time);
    REQUIRE(data.valueLabels.size() == 2);
    std::set<QString> sizes(data.valueLabels.begin(), data.valueLabels.end());
    CHECK(sizes == std::set<QString> { QStringLiteral("10 PEs"), QStringLiteral("2 PEs") });

    // The table: the overloaded PEs' cluster has 2 members and one of them as its exemplar.
    REQUIRE(view.clusterTable()->rowCount() == 2);
    const int heavy = rowOfPe(view, 3);
    REQUIRE(heavy >= 0);
    CHECK(rowOfPe(view, 9) == heavy);
    CHECK(
        view.clusterTable()->item(heavy, ClustersView::SizeColumn)->text() == QStringLiteral("2"));
    const QString exemplar = view.clusterTable()->item(heavy, ClustersView::ExemplarColumn)->text();
    CHECK((exemplar == QStringLiteral("PE 3") || exemplar == QStringLiteral("PE 9")));
    CHECK_FALSE(
        view.clusterTable()->item(heavy, ClustersView::ExemplarColumn)->toolTip().isEmpty());

    // The sweep: k = 2..12 (capped at the PEs), the chosen row marked.
    REQUIRE(view.sweepTable()->rowCount() == 11);
    int chosen = 0;
    for (int row = 0; row < view.sweepTable()->rowCount(); ++row)
        if (!view.sweepTable()->item(row, 3)->text().isEmpty()) {
            ++chosen;
            CHECK(view.sweepTable()->item(row, 0)->text() == QStringLiteral("2"));
        }
    CHECK(chosen == 1);

    // The CSV is the CLI's.
    const QString csv = view.csv();
    CHECK(csv.startsWith(QStringLiteral("pe,cluster,role,distance\n")));
    CHECK(csv.count(QLatin1Char('\n')) == 13);

    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    std::vector<std::vector<core::PeId>> requests;
    QObject::connect(&view, &AnalysisView::timelineRequested,
        [&](std::vector<core::PeId> pes, core::TimeRange) { requests.push_back(std::move(pes)); });
    auto* table = view.clusterTable();
    const QRect cell = table->visualItemRect(table->item(heavy, ClustersView::ExemplarColumn));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    REQUIRE(requests.size() == 1);
    const core::PeId exemplarPe = exemplar.mid(3).toInt();
    CHECK(requests[0] == std::vector<core::PeId> { exemplarPe });

    // A click on the cluster's bar asks for the exemplar and the outliers (none here).
    const auto bar = view.chart()->barRect(static_cast<std::size_t>(heavy));
    REQUIRE_FALSE(bar.isNull());
    QTest::mouseClick(view.chart(), Qt::LeftButton, {}, bar.center());
    REQUIRE(requests.size() == 2);
    CHECK(requests[1] == std::vector<core::PeId> { exemplarPe });
}

TEST_CASE(
    "the clusters view takes k from its spin box and outliers from its field", "[views][clusters]")
{
    const auto trace = test::sampleTrace("imbalance");
    EntryPalette palette;
    palette.setRun(trace.get());
    ClustersView view(&palette);
    view.resize(1200, 800);
    view.setTrace(trace);
    test::waitForResult(view);
    QString error;
    REQUIRE(view.applyOptions({ { QStringLiteral("k"), QStringLiteral("3") },
                                  { QStringLiteral("outliers"), QStringLiteral("2") } },
        &error));
    test::waitForResult(view);
    REQUIRE(view.clustering());
    CHECK(view.clustering()->k == 3);
    CHECK(view.kChoice()->value() == 3);
    const auto roles = view.clustering()->role;
    CHECK(std::count(roles.begin(), roles.end(), core::analysis::ClusterRole::Outlier) == 2);
    // The outliers of a cluster are listed in its row and come after its exemplar on a click.
    bool listed = false;
    for (int row = 0; row < view.clusterTable()->rowCount(); ++row)
        listed = listed
            || view.clusterTable()->item(row, ClustersView::OutliersColumn)->text()
                != QStringLiteral("none");
    CHECK(listed);

    CHECK_FALSE(view.applyOptions({ { QStringLiteral("k"), QStringLiteral("0") } }, &error));
    CHECK(error.contains(QStringLiteral("--k")));
    CHECK_FALSE(view.applyOptions({ { QStringLiteral("bins"), QStringLiteral("3") } }, &error));
    REQUIRE(view.applyOptions({ { QStringLiteral("k"), QStringLiteral("auto") } }, &error));
    test::waitForResult(view);
    CHECK(view.kChoice()->value() == 0);
    CHECK(view.clustering()->k == 2);
}

TEST_CASE("the clusters view says why one PE cannot be clustered", "[views][clusters]")
{
    const auto trace = test::sampleTrace("imbalance");
    EntryPalette palette;
    palette.setRun(trace.get());
    ClustersView view(&palette);
    view.resize(1200, 800);
    view.setTrace(trace);
    view.setSelection({}, { 3 });
    test::waitForResult(view);
    CHECK_FALSE(view.clustering());
    CHECK_FALSE(view.chart()->hasData());
    CHECK(view.clusterTable()->rowCount() == 0);
    CHECK(view.csv() == QStringLiteral("pe,cluster,role,distance\n"));
}

TEST_CASE("cluster rows list non-empty clusters with exemplar, outliers farthest first and mean "
          "distance",
    "[views][clusters]")
{
    using core::analysis::ClusterRole;
    core::analysis::PeClustering c;
    c.k = 3;
    c.features.pes = { 10, 11, 12, 13, 14 };
    c.cluster = { 0, 0, 2, 0, 2 };
    c.distance = { 1, 5, 2, 9, 4 };
    c.role = { ClusterRole::Exemplar, ClusterRole::Outlier, ClusterRole::Exemplar,
        ClusterRole::Outlier, ClusterRole::Member };
    c.sizes = { 3, 0, 2 };
    const auto rows = clusterRows(c);
    REQUIRE(rows.size() == 2); // cluster 1 is empty
    CHECK(rows[0].cluster == 0);
    CHECK(rows[0].size == 3);
    CHECK(rows[0].exemplar == 10);
    CHECK(rows[0].meanDistance == 5.0);
    REQUIRE(rows[0].outliers.size() == 2);
    CHECK(rows[0].outliers[0].first == 13); // 9 µs away, before PE 11 at 5 µs
    CHECK(outliersText(rows[0], 8) == QStringLiteral("13, 11"));
    CHECK(outliersText(rows[0], 1) == QStringLiteral("13 … (2 in all)"));
    CHECK(rows[1].cluster == 2);
    CHECK(rows[1].exemplar == 12);
    CHECK(outliersText(rows[1], 8) == QStringLiteral("none"));
}
