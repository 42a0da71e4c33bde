#include "views/timeline/label_placement.h"

#include <algorithm>
#include <optional>

namespace parallax::views {

namespace {

bool overlapsAny(const QRectF& box, const std::vector<QRectF>& placed, double gap)
{
    const QRectF grown = box.adjusted(-gap / 2, -gap / 2, gap / 2, gap / 2);
    return std::any_of(placed.begin(), placed.end(), [&](const QRectF& p) {
        return grown.intersects(p.adjusted(-gap / 2, -gap / 2, gap / 2, gap / 2));
    });
}

// `box` moved vertically into `bounds` (when it fits).
QRectF keptInside(QRectF box, const QRectF& bounds)
{
    if (box.height() <= bounds.height()) {
        if (box.top() < bounds.top())
            box.moveTop(bounds.top());
        if (box.bottom() > bounds.bottom())
            box.moveBottom(bounds.bottom());
    }
    if (box.width() <= bounds.width()) {
        if (box.left() < bounds.left())
            box.moveLeft(bounds.left());
        if (box.right() > bounds.right())
            box.moveRight(bounds.right());
    }
    return box;
}

} // namespace

std::vector<QRectF> placeLabels(const std::vector<QRectF>& wanted, const QRectF& bounds, double gap)
{
    constexpr int kMaxSteps = 12; // slots tried above and below
    std::vector<QRectF> placed;
    placed.reserve(wanted.size());
    for (const auto& want : wanted) {
        const QRectF start = keptInside(want, bounds);
        std::optional<QRectF> found;
        if (!overlapsAny(start, placed, gap))
            found = start;
        const double step = start.height() + gap;
        for (int k = 1; !found && k <= kMaxSteps; ++k) {
            for (const double dy : { k * step, -k * step }) {
                const QRectF moved = start.translated(0, dy);
                if (moved.top() < bounds.top() || moved.bottom() > bounds.bottom())
                    continue;
                if (!overlapsAny(moved, placed, gap)) {
                    found = moved;
                    break;
                }
            }
        }
        if (!found) {
            // The column is full: just right of everything it would cover.
            QRectF moved = start;
            for (bool again = true; again;) {
                again = false;
                for (const auto& p : placed) {
                    if (moved.adjusted(-gap, -gap, gap, gap).intersects(p)) {
                        moved.moveLeft(p.right() + gap);
                        again = true;
                    }
                }
            }
            found = moved;
        }
        placed.push_back(*found);
    }
    return placed;
}

} // namespace parallax::views
