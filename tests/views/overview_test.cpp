// Overview: cell <-> (PE row, time column) mapping, the utilization ramp, and the view on a
// sample run where the two overloaded PEs must stand out.

#include "support/io_support.h"
#include "views/entry_palette.h"
#include "views/overview_geometry.h"
#include "views/overview_view.h"

#include <QSignalSpy>
#include <QTest>

#include <catch2/catch.hpp>

using namespace parallax;
using namespace parallax::views;

TEST_CASE(
    "overview geometry maps points to PE rows and time columns, and back", "[views][overview]")
{
    const auto g = buildOverviewGeometry(4, 100, QSize(600, 400), OverviewLayout {});
    REQUIRE(g.plot.width() > 0);
    const auto first = g.cellAt(g.plot.topLeft());
    REQUIRE(first);
    CHECK(first->first == 0);
    CHECK(first->second == 0);
    const auto last = g.cellAt(g.plot.bottomRight());
    REQUIRE(last);
    CHECK(last->first == 3);
    CHECK(last->second == 99);
    CHECK_FALSE(g.cellAt(g.plot.topLeft() - QPoint(1, 0)));
    for (std::size_t row = 0; row < 4; ++row) {
        const auto cell = g.cellAt(g.rowRect(row).center());
        REQUIRE(cell);
        CHECK(cell->first == row);
    }
    CHECK(g.columnAt(g.plot.left()) == Approx(0.0));
    CHECK(g.columnAt(g.plot.right() + 1) == Approx(100.0));
}

TEST_CASE("the utilization ramp goes from dark blue through red to white", "[views][overview]")
{
    CHECK(utilizationColor(0).blue() > utilizationColor(0).red());
    CHECK(utilizationColor(70) == QColor::fromRgbF(1.0F, 0.0F, 0.0F));
    CHECK(utilizationColor(100) == QColor(Qt::white));
}

TEST_CASE("the overview shows the overloaded PEs as busier rows and a row click asks for that PE's "
          "timeline",
    "[views][overview]")
{
    EntryPalette palette;
    OverviewView view(&palette);
    view.resize(1200, 600);
    view.show();
    view.setTrace(parallax::test::loadOk(std::filesystem::path(PARALLAX_SAMPLE_DIR) / "imbalance"));
    QTRY_VERIFY_WITH_TIMEOUT(view.overview().has_value() && !view.busy(), 20'000);
    const auto& o = *view.overview();
    REQUIRE(o.pes.size() == 12);
    auto meanUtilization = [&](std::size_t k) {
        double sum = 0;
        for (std::int64_t i = 0; i < o.grid.count; ++i)
            sum += static_cast<double>(o.utilization[o.index(k, i)]);
        return sum / static_cast<double>(o.grid.count);
    };
    for (std::size_t k = 0; k < o.pes.size(); ++k) {
        INFO("PE " << o.pes[k]);
        if (o.pes[k] == 3 || o.pes[k] == 9)
            CHECK(meanUtilization(k) > 80.0);
        else
            CHECK(meanUtilization(k) < 70.0);
    }
    QSignalSpy requested(&view, &AnalysisView::timelineRequested);
    const auto g = view.canvas()->geometryFor(view.canvas()->size());
    QTest::mouseClick(view.canvas(), Qt::LeftButton, {}, g.rowRect(9).center());
    REQUIRE(requested.count() == 1);
    CHECK(requested.at(0).at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { 9 });
    CHECK(view.csv().startsWith(
        QStringLiteral("pe,column,begin_us,end_us,dominant,utilization_pct,idle_pct\n")));
}
