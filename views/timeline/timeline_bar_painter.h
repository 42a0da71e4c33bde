#pragma once

#include "views/timeline/timeline_geometry.h"

#include <QColor>
#include <QImage>

#include <cstdint>
#include <vector>

class QPainter;

namespace parallax::views {

// Draws the blocks of timeline rows: executions as full-height bars in their activity's
// colour, idle as a paler, inset band with darker top and bottom edges. A pixel column merging
// executions narrower than a pixel is only as high as the share of its time they ran, so a PE
// running 1 µs tasks every 100 µs (an SMP comm thread, say) does not look busy when zoomed out.
//
// On a raster device (the screen, PNG export) each bar is composed pixel column by pixel
// column into a scanline image and blitted once per row, so a frame costs O(pixels) however
// many blocks the rows hold. Other devices (SVG, printing) get one rectangle per block, grouped
// by colour. Both give the same picture.
class TimelineBarPainter {
public:
    struct Colours {
        std::vector<QColor> activity; // by ActivityColumns column (idle's entry unused)
        QColor idle;
        QColor idleEdge;
    };
    // Auto: scanlines on raster devices, rectangles elsewhere (the others force one way, for
    // tests that compare them).
    enum class Mode : std::uint8_t { Auto, Raster, Vector };
    explicit TimelineBarPainter(Colours colours, Mode mode = Mode::Auto);

    // The idle band's inset from the bar's top and bottom edges.
    [[nodiscard]] static int idleInset(int barHeight);

    // A PE's row: its blocks. A collapsed row: per pixel column a bar from the bottom as high
    // as the PEs' utilization, in the dominant entry's colour. A SET row (TimelineRow::spread):
    // solid up to the lowest member's utilization (all were at least that busy), a pale band up
    // to the highest member's, and a dark mark at the mean.
    void paintRow(QPainter& painter, const TimelineRow& row, int idleColumn);
    [[nodiscard]] static int aggregateHeight(const TimelineBlock& block, int barHeight);
    // Pixels from the bottom for a share (0..1) of the bar: at least 1 for any share above 0.
    [[nodiscard]] static int shareHeight(float share, int barHeight);
    // Height of a block's bar: full for single executions; for a merged pixel of executions
    // (and an aggregate) the share of the pixel's time they were busy, at least one pixel.
    [[nodiscard]] static int blockHeight(const TimelineBlock& block, int barHeight);

private:
    void paintRaster(QPainter& painter, const TimelineRow& row, int idleColumn);
    void paintVector(QPainter& painter, const TimelineRow& row, int idleColumn);
    void paintAggregate(QPainter& painter, const TimelineRow& row, bool raster);
    // Composes a collapsed row's columns [x0, x1) into m_image block over block (for blocks
    // sharing a column; paintAggregate writes the image line by line otherwise).
    void paintAggregateColumns(const TimelineRow& row, int x0, int x1);
    // SET: the heights of a block's lowest member, mean and highest member.
    struct SpreadHeights {
        int low;
        int mean;
        int high;
    };
    [[nodiscard]] static SpreadHeights spreadHeights(
        const TimelineBlock& block, const TimelineSpread& spread, int barHeight);

    Colours m_colours;
    Mode m_mode;
    std::vector<QRgb> m_rgb; // premultiplied, by column
    std::vector<QRgb> m_pale; // SET bands: the colours paled towards white
    std::vector<QRgb> m_dark; // SET mean marks
    QImage m_image; // one bar's pixels, reused from row to row
    std::vector<QRgb*> m_lines; // its scan lines
    std::vector<QRgb> m_outer; // idle shows the row behind it
    std::vector<QRgb> m_edge; // idle's darker edge lines
    std::vector<QRgb> m_inner; // idle's band
    std::vector<int> m_fill; // per column: pixels from the bottom that are drawn
    // A collapsed row's pixel columns: solid up to `low` pixels, pale up to `high`, the line
    // `meanLine` (from the bottom, -1: none) dark; SUM has low = high and no mean line.
    struct AggregateColumns {
        std::vector<int> low;
        std::vector<int> high;
        std::vector<int> meanLine;
        std::vector<QRgb> solid;
        std::vector<QRgb> pale;
        std::vector<QRgb> dark;
    };
    AggregateColumns m_columns;
    std::vector<std::vector<QRect>> m_byActivity;
    std::vector<QRect> m_idleRects;
};

} // namespace parallax::views
