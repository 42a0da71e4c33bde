#include "views/common/chart_style.h"

#include <QObject>
#include <QPainter>
#include <QSaveFile>

#ifdef PARALLAX_HAVE_SVG
#include <QSvgGenerator>
#endif

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

bool svgExportAvailable()
{
#ifdef PARALLAX_HAVE_SVG
    return true;
#else
    return false;
#endif
}

bool writeSvgFile(const QString& path, QSize size, const QString& title, const QString& description,
    const QFont& font, const std::function<void(QPainter&)>& paint, QString* error)
{
#ifdef PARALLAX_HAVE_SVG
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error != nullptr)
            *error = file.errorString();
        return false;
    }
    {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(title);
        svg.setDescription(description);
        QPainter painter;
        if (!painter.begin(&svg)) {
            if (error != nullptr)
                *error = QObject::tr("cannot paint into %1").arg(path);
            file.cancelWriting();
            return false;
        }
        painter.setFont(font);
        paint(painter);
        painter.end();
    }
    if (!file.commit()) {
        if (error != nullptr)
            *error = file.errorString();
        return false;
    }
    return true;
#else
    (void)path;
    (void)size;
    (void)title;
    (void)description;
    (void)font;
    (void)paint;
    if (error != nullptr)
        *error = QObject::tr("this build has no SVG support (install qt6-svg-dev and rebuild)");
    return false;
#endif
}

} // namespace parallax::views
