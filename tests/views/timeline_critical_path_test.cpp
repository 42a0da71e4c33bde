// The Timeline's "Critical path" toggle: the path through the window on the shown PEs (the
// hand-made chain run of tests/data/runs/why-chain), drawn only while on, following the rows,
// and the render option that switches it.

#include "support/test_support.h"
#include "support/view_test_support.h"
#include "timeline_test_support.h"
#include "views/timeline/timeline_view.h"

#include <QLabel>

#include <catch2/catch.hpp>

using namespace parallax;
using namespace parallax::views;

namespace {

// Pixels of the critical path's red (antialiased edges included).
int criticalRedPixels(const QImage& image)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.red() > 170 && c.green() < 90 && c.blue() < 100 && c.red() - c.blue() > 90)
                ++count;
        }
    return count;
}

} // namespace

TEST_CASE("the timeline draws the critical path of the window while the toggle is on",
    "[views][timeline][why]")
{
    test::ShownTimeline shown(900, 360);
    auto& view = shown.view;
    view.setTrace(test::loadRunOnce(test::dataDir() / "runs" / "why-chain"));
    view.setPes({ 0, 1, 2 });
    view.setWindow({ 1000, 2000 });
    CHECK_FALSE(view.criticalPathShown());
    CHECK(view.timeline()->criticalPath().empty());
    const int before = criticalRedPixels(view.renderChart(QSize(900, 360)));

    view.setCriticalPathShown(true);
    const auto& path = view.timeline()->criticalPath();
    REQUIRE(path.size() == 9); // the steps worked out in the run's README
    CHECK(path.front().begin == 1000);
    CHECK(path.back().end == 1750);
    const auto* status = view.findChild<QLabel*>(QStringLiteral("timelineStatus"));
    REQUIRE(status != nullptr);
    CHECK(status->text().contains(QStringLiteral("critical path 750")));
    const int after = criticalRedPixels(view.renderChart(QSize(900, 360)));
    CHECK(after > before + 200);

    // Without PE 1 the path is that of PEs 0 and 2: it begins with PE 1's message, which has no
    // row to be drawn from.
    view.setPes({ 0, 2 });
    REQUIRE_FALSE(view.timeline()->criticalPath().empty());
    CHECK(view.timeline()->criticalPath().front().pe == 1);

    // Off again: nothing drawn, nothing said.
    view.setCriticalPathShown(false);
    CHECK(view.timeline()->criticalPath().empty());
    CHECK_FALSE(status->text().contains(QStringLiteral("critical path")));

    // The render command's option.
    QString error;
    CHECK(
        view.applyOptions({ { QStringLiteral("show"), QStringLiteral("critical-path") } }, &error));
    CHECK(view.criticalPathShown());
    CHECK_FALSE(
        view.applyOptions({ { QStringLiteral("show"), QStringLiteral("arrows") } }, &error));
    CHECK(error.contains(QStringLiteral("--show")));
}
