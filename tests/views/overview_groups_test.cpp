// Overview with PE groups on sample-logs/imbalance (12 PEs, PEs 3 and 9 overloaded) in blocks
// of four: the group rows in each display, KEY naming the overloaded PEs, a click expanding a
// group in place and collapsing it again, and a member row opening that PE's timeline.

#include "overview_test_support.h"
#include "support/io_support.h"
#include "views/common/entry_palette.h"
#include "views/common/options_bar.h"
#include "views/overview/overview_view.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <catch2/catch.hpp>

using namespace parallax;
using namespace parallax::views;
using Kind = OverviewRowInfo::Kind;

namespace {

core::TracePtr imbalance()
{
    return parallax::test::loadOk(std::filesystem::path(PARALLAX_SAMPLE_DIR) / "imbalance");
}

void apply(OverviewView& view, const std::map<QString, QString>& options)
{
    QString error;
    REQUIRE(view.applyOptions(options, &error));
    REQUIRE(error.isEmpty());
    test::waitForOverview(view);
}

// The Overview of sample-logs/imbalance, shown and computed.
struct ShownOverview {
    ShownOverview()
    {
        view.resize(1200, 640);
        view.show();
        view.setTrace(imbalance());
        test::waitForOverview(view);
    }
    EntryPalette palette;
    OverviewView view { &palette };
};

std::vector<core::PeId> rowPes(const OverviewView& view)
{
    std::vector<core::PeId> pes;
    for (const auto& row : view.chart()->rows())
        pes.push_back(row.pe);
    return pes;
}

double meanUtilization(const core::analysis::Overview& o, std::size_t row)
{
    double sum = 0;
    for (std::int64_t i = 0; i < o.grid.count; ++i)
        sum += static_cast<double>(o.utilization[o.index(row, i)]);
    return sum / static_cast<double>(o.grid.count);
}

} // namespace

TEST_CASE("overview groups: blocks drawn as mean, spread and key rows", "[views][overview][groups]")
{
    ShownOverview shown;
    auto& view = shown.view;
    REQUIRE(view.chart()->rows().empty()); // 12 PEs: one row each

    apply(view, { { QStringLiteral("by"), QStringLiteral("block:4") } });
    REQUIRE(view.groups());
    REQUIRE(view.groups()->groupCount() == 3);
    const auto& rows = view.chart()->rows();
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].label == QStringLiteral("PEs 0-3"));
    CHECK(rows[2].label == QStringLiteral("PEs 8-11"));
    for (const auto& row : rows)
        CHECK(row.kind == Kind::GroupMean);

    apply(view, { { QStringLiteral("mode"), QStringLiteral("key") } });
    // Per block: first member, busiest, least busy, the rest (one PE).
    REQUIRE(view.chart()->rows().size() == 12);
    const auto pes = rowPes(view);
    CHECK(pes[0] == 0);
    CHECK(pes[1] == 3); // the overloaded PE is its block's busiest
    CHECK(pes[3] == -1); // the rest: an aggregate
    CHECK(pes[8] == 8);
    CHECK(pes[9] == 9);
    CHECK(view.chart()->rows()[1].kind == Kind::KeySlowest);
    CHECK(view.chart()->rows()[1].label.contains(QStringLiteral("PE 3")));

    apply(view, { { QStringLiteral("mode"), QStringLiteral("set") } });
    REQUIRE(view.chart()->rows().size() == 9);
    const auto& o = *view.overview();
    CHECK(view.chart()->rows()[0].kind == Kind::GroupMax);
    CHECK(view.chart()->rows()[2].kind == Kind::GroupMin);
    // Block 0 holds the overloaded PE 3: its highest row is well above its lowest.
    CHECK(meanUtilization(o, 0) > meanUtilization(o, 2) + 15.0);

    // Signatures: every PE in exactly one group, named by the shared entry set.
    apply(view,
        { { QStringLiteral("by"), QStringLiteral("signature") },
            { QStringLiteral("mode"), QStringLiteral("sum") } });
    REQUIRE(view.groups());
    std::size_t members = 0;
    for (const auto& m : view.groups()->members)
        members += m.size();
    CHECK(members == 12);
    CHECK(view.chart()->rows().front().label.startsWith(QStringLiteral("signature 1")));

    // Clusters: the two overloaded PEs form a class of their own.
    apply(view, { { QStringLiteral("by"), QStringLiteral("cluster") } });
    REQUIRE(view.groups());
    REQUIRE(view.groups()->groupCount() == 2);
    CHECK(view.groups()->members[1] == std::vector<core::PeId> { 3, 9 });
    CHECK(view.chart()->rows()[1].label.startsWith(QStringLiteral("cluster 1")));
}

TEST_CASE("overview groups: a click expands a group in place, a second click collapses it",
    "[views][overview][groups]")
{
    ShownOverview shown;
    auto& view = shown.view;
    apply(view, { { QStringLiteral("by"), QStringLiteral("block:4") } });
    auto* chart = view.chart();
    REQUIRE(chart->rows().size() == 3);

    // Click the middle block's row: its four PEs appear under it, the other blocks stay.
    QTest::mouseClick(chart, Qt::LeftButton, {}, chart->currentGeometry().rowRect(1).center());
    QTRY_VERIFY_WITH_TIMEOUT(chart->rows().size() == 7 && !view.busy(), 30'000);
    CHECK(view.expandedGroups() == std::set<int> { 1 });
    CHECK(rowPes(view) == std::vector<core::PeId> { -1, -1, 4, 5, 6, 7, -1 });
    CHECK(chart->rows()[0].label == QStringLiteral("PEs 0-3"));
    CHECK(chart->rows()[6].label == QStringLiteral("PEs 8-11"));
    CHECK(chart->rows()[3].member);

    // A member row is a real PE: a click opens its timeline.
    QSignalSpy requested(&view, &AnalysisView::timelineRequested);
    QTest::mouseClick(chart, Qt::LeftButton, {}, chart->currentGeometry().rowRect(3).center());
    REQUIRE(requested.count() == 1);
    CHECK(requested.at(0).at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { 5 });

    // The group's label collapses it again.
    const QRect row = chart->currentGeometry().rowRect(1);
    QTest::mouseClick(chart, Qt::LeftButton, {}, QPoint(4, row.center().y()));
    QTRY_VERIFY_WITH_TIMEOUT(chart->rows().size() == 3 && !view.busy(), 30'000);
    CHECK(view.expandedGroups().empty());

    // A new range keeps an expanded group open.
    view.toggleGroup(2);
    QTRY_VERIFY_WITH_TIMEOUT(chart->rows().size() == 7 && !view.busy(), 30'000);
    const auto range = view.optionsBar()->range();
    view.setSelection({ range.begin, range.begin + (range.end - range.begin) / 2 }, {});
    QTRY_VERIFY_WITH_TIMEOUT(!view.busy() && chart->rows().size() == 7, 30'000);
    CHECK(view.expandedGroups() == std::set<int> { 2 });
    CHECK(rowPes(view) == std::vector<core::PeId> { -1, -1, -1, 8, 9, 10, 11 });
}

TEST_CASE(
    "overview groups: a user's named PE lists, loaded and saved back", "[views][overview][groups]")
{
    ShownOverview shown;
    auto& view = shown.view;
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString lists = dir.filePath(QStringLiteral("lists.txt"));
    {
        QFile file(lists);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("# the overloaded PEs and two others\nhot: 3,9\ncold: 0-1\n");
    }
    apply(view, { { QStringLiteral("by"), QStringLiteral("list:") + lists } });
    REQUIRE(view.groups());
    REQUIRE(view.groups()->groupCount() == 2);
    CHECK(view.groups()->members[0] == std::vector<core::PeId> { 3, 9 });
    CHECK(view.chart()->rows()[0].label == QStringLiteral("hot"));
    CHECK(view.chart()->rows()[1].label == QStringLiteral("cold"));

    // Saved groups read back as the same lists.
    const QString saved = dir.filePath(QStringLiteral("saved.txt"));
    QString error;
    REQUIRE(view.saveGroupsAsLists(saved, &error));
    QFile file(saved);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const auto back = core::analysis::parsePeLists(file.readAll().toStdString());
    REQUIRE(back);
    REQUIRE(back->size() == 2);
    CHECK((*back)[0] == core::analysis::NamedPeList { "hot", { 3, 9 } });
    CHECK((*back)[1] == core::analysis::NamedPeList { "cold", { 0, 1 } });

    // A file that is not lists: one sentence, nothing changes.
    {
        QFile bad(lists);
        REQUIRE(bad.open(QIODevice::WriteOnly | QIODevice::Truncate));
        bad.write("hot 3,9\n");
    }
    CHECK_FALSE(
        view.applyOptions({ { QStringLiteral("by"), QStringLiteral("list:") + lists } }, &error));
    CHECK(error.contains(QStringLiteral("line 1")));
    CHECK_FALSE(view.loadPeLists(dir.filePath(QStringLiteral("missing.txt")), &error));
    CHECK(view.groups()->groupCount() == 2);
}
