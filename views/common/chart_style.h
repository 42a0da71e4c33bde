#pragma once

// Colour helpers every chart shares: fading a colour towards the background, a colour with
// another alpha, and the few frame colours (background, text, muted text, grid lines) a chart
// paints with on screen (from the widget's palette) or in an exported image (fixed, on white).

#include <QColor>
#include <QPalette>
#include <QSize>
#include <QString>

#include <functional>

class QFont;
class QPainter;

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

// Whether this build can write SVG (Qt Svg found at build time).
bool svgExportAvailable();

// Writes what `paint` draws at `size` (with `font`) as an SVG file titled `title`, atomically
// (beside the target, renamed over it when complete). False with the reason in *error, also when
// the build has no SVG support.
bool writeSvgFile(const QString& path, QSize size, const QString& title, const QString& description,
    const QFont& font, const std::function<void(QPainter&)>& paint, QString* error);

} // namespace parallax::views
