#pragma once

// Colour helpers every chart shares: fading a colour towards the background, a colour with
// another alpha, and the few frame colours (background, text, muted text, grid lines) a chart
// paints with on screen (from the widget's palette) or in an exported image (fixed, on white).

#include <QColor>
#include <QPalette>

namespace parallax::views {

// `c` moved towards `background` by `amount` (0: `c` itself, 1: the background), opaque.
QColor faded(const QColor& c, const QColor& background, double amount);

// `c` with the alpha `alpha` (0..255).
inline QColor withAlpha(QColor c, int alpha)
{
    c.setAlpha(alpha);
    return c;
}

// The frame colours of a chart.
struct ChartStyle {
    QColor background;
    QColor text;
    QColor muted; // secondary text: axis titles, units, read-outs
    QColor grid; // grid lines and separators
    QColor rowBackground; // alternate row bands (the Timeline)
};

// On screen: the palette's Base as background and WindowText as text; the other colours are
// the text faded towards the background by the given amounts (so dark themes work).
ChartStyle screenChartStyle(
    const QPalette& palette, double mutedFade, double gridFade, double rowFade = 0.975);

} // namespace parallax::views
