#pragma once

#include <QRectF>

#include <vector>

namespace parallax::views {

// Places labels so that none covers another: each box, in order, stays where it was wanted when
// it overlaps none of those placed before it; otherwise it moves to the nearest free slot
// above or below (steps of its height plus `gap`), then, when the column is full, just right
// of the boxes it would cover. Boxes stay inside `bounds` where they fit. Pure: the message
// arrows' latency labels use it, and the tests check it on hand-made boxes.
std::vector<QRectF> placeLabels(
    const std::vector<QRectF>& wanted, const QRectF& bounds, double gap = 2.0);

} // namespace parallax::views
