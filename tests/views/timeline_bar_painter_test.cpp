// The timeline's bars: the fast scanline path (screen, PNG) and the rectangle path (SVG,
// printing) draw the same pixels, on a sample run at coarse and fine zoom.

#include "support/io_support.h"
#include "support/test_support.h"
#include "views/timeline/timeline_bar_painter.h"
#include "views/timeline/timeline_geometry.h"

#include <QImage>
#include <QPainter>

#include <catch2/catch.hpp>

#include <algorithm>

using namespace parallax;
using namespace parallax::views;

namespace {

QImage paintBars(const TimelineGeometry& g, TimelineBarPainter::Mode mode)
{
    TimelineBarPainter::Colours colours;
    colours.idle = QColor(0xdd, 0xdd, 0xdd);
    colours.idleEdge = QColor(0x99, 0x99, 0x99);
    for (int a = 0; a < g.columns.count(); ++a)
        colours.activity.push_back(QColor::fromHsv((a * 47) % 360, 200, 200));
    TimelineBarPainter bars(colours, mode);
    QImage image(g.size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    for (const auto& row : g.rows)
        bars.paintRow(painter, row, g.columns.idle());
    return image;
}

} // namespace

TEST_CASE("the scanline and the rectangle paths draw the same bars", "[views][timeline]")
{
    const auto trace
        = parallax::test::loadOk(std::filesystem::path(PARALLAX_SAMPLE_DIR) / "imbalance");
    const std::vector<core::PeId> pes { 0, 1, 2, 3, 7 };
    const auto end = trace->endTime();
    std::size_t idle = 0; // idle blocks compared (idle has its own inset band)
    for (const core::TimeRange window :
        { core::TimeRange { 0, end }, core::TimeRange { end / 3, end / 3 + end / 40 },
            core::TimeRange { end / 2, end / 2 + 300 } }) {
        INFO("window " << window.begin << " - " << window.end);
        for (const int barHeight : { 2, 5, 12, 40 }) {
            INFO("bar height " << barHeight);
            TimelineLayout layout;
            layout.minBarHeight = barHeight;
            layout.maxBarHeight = barHeight;
            const auto g = buildTimelineGeometry(*trace, pes, window, QSize(700, 400), layout);
            REQUIRE(g.rows.size() == pes.size());
            for (const auto& row : g.rows)
                idle += static_cast<std::size_t>(std::count_if(row.blocks.begin(), row.blocks.end(),
                    [&](const TimelineBlock& b) { return b.activity == g.columns.idle(); }));
            const QImage raster = paintBars(g, TimelineBarPainter::Mode::Raster);
            const QImage vector = paintBars(g, TimelineBarPainter::Mode::Vector);
            CHECK(raster == vector);
            // Something was drawn, not just the white page.
            QImage white(raster.size(), raster.format());
            white.fill(Qt::white);
            CHECK(raster != white);
        }
    }
    CHECK(idle > 0);
}
