#pragma once

#include <QBrush>
#include <QPainter>
#include <QRectF>
#include <QVector>

#include <algorithm>

namespace parallax::views {

// Fills many rectangles without Qt's raster thread hand-offs. The raster engine cuts every fill
// of more than about a hundred scanlines that it blends span by span (a translucent colour, a
// pattern, drawRects) into jobs for its own thread pool and waits for them; a thousand tall bars
// were a thousand hand-offs and waits on the GUI thread (~50 ms for one series of the run summary
// graph on the 512-PE run). Opaque solid colours take fillRect's direct path; anything else is
// drawn in bands at most kFillBand px high, which the engine fills on the spot.
inline constexpr double kFillBand = 40.0; // px: 80 scanlines at a device pixel ratio of 2

template <typename Rects>
void fillRectsInBands(QPainter& painter, const Rects& rects, const QBrush& brush)
{
    if (brush.style() == Qt::SolidPattern && brush.color().alpha() == 255) {
        for (const auto& r : rects)
            painter.fillRect(r, brush.color());
        return;
    }
    QVector<QRectF> bands;
    bands.reserve(static_cast<qsizetype>(rects.size()));
    for (const auto& rect : rects) {
        const QRectF r(rect);
        for (double top = r.top(); top < r.bottom(); top += kFillBand)
            bands.append(QRectF(r.left(), top, r.width(), std::min(kFillBand, r.bottom() - top)));
    }
    painter.save();
    painter.setPen(Qt::NoPen);
    painter.setBrush(brush);
    painter.drawRects(bands);
    painter.restore();
}

} // namespace parallax::views
