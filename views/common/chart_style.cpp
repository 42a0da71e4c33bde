#include "views/common/chart_style.h"

#include <cmath>

namespace parallax::views {

QColor faded(const QColor& c, const QColor& background, double amount)
{
    const auto mix = [amount](int a, int b) {
        return static_cast<int>(std::lround(a + (b - a) * amount));
    };
    return QColor(mix(c.red(), background.red()), mix(c.green(), background.green()),
        mix(c.blue(), background.blue()));
}

ChartStyle screenChartStyle(
    const QPalette& palette, double mutedFade, double gridFade, double rowFade)
{
    ChartStyle s;
    s.background = palette.color(QPalette::Base);
    s.text = palette.color(QPalette::WindowText);
    s.muted = faded(s.text, s.background, mutedFade);
    s.grid = faded(s.text, s.background, gridFade);
    s.rowBackground = faded(s.text, s.background, rowFade);
    return s;
}

} // namespace parallax::views
