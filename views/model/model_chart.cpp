#include "views/model/model_chart.h"

#include "views/common/chart_frame.h"
#include "views/common/fill_rects.h"

#include <QContextMenuEvent>
#include <QFontMetricsF>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace parallax::views {

namespace {

using core::analysis::EntryModel;
using core::analysis::ModelFit;

constexpr int kModelFitSamples = 240; // points along each fit curve
constexpr int kModelDensityLevels = 6; // 1, 2–3, 4–7, 8–15, 16–31, 32+ points per cell
constexpr int kModelMinLegendChartWidth = 520;
constexpr std::size_t kModelPointsOverCurves = 500;

double modelFitValue(const ModelFit& fit, double x)
{
    switch (fit.kind) {
    case ModelFit::Kind::Linear:
        return fit.a + fit.b * x;
    case ModelFit::Kind::PowerLaw:
        return x > 0 ? fit.a * std::pow(x, fit.b) : std::nan("");
    case ModelFit::Kind::Quadratic:
        return fit.a + fit.b * x + fit.c * x * x;
    }
    return std::nan("");
}

// Ticks at multiples of a nice step covering [low, high], at least `spacing` px apart over
// `pixels`; returns the step.
double modelAxisStep(double low, double high, double pixels, double spacing)
{
    const double count = std::max(1.0, std::floor(pixels / spacing));
    return niceStep((high - low) / count);
}

// Log axis ticks from the decade `low` up to `high`: 1, 2 and 5 per decade when those are at
// least `spacing` px apart (`decadePixels` per decade), else every decade, or every n-th.
std::vector<double> modelLogTicks(double low, double high, double decadePixels, double spacing)
{
    std::vector<double> ticks;
    const bool fine = decadePixels * std::log10(2.0) >= spacing; // 1 → 2 is the closest pair
    const int every = fine ? 1 : std::max(1, static_cast<int>(std::ceil(spacing / decadePixels)));
    const double end = high * (1 + 1e-9);
    int k = 0;
    for (double decade = low; decade <= end; decade *= 10.0, ++k) {
        if (k % every == 0)
            ticks.push_back(decade);
        if (fine)
            for (const double m : { 2.0, 5.0 })
                if (decade * m <= end)
                    ticks.push_back(decade * m);
    }
    return ticks;
}

QString modelFitLabel(const ModelFit& fit)
{
    return QStringLiteral("%1 (R² %2): %3")
        .arg(QString::fromLatin1(core::analysis::modelFitName(fit.kind)),
            QLocale().toString(fit.r2, 'f', 3),
            QString::fromStdString(core::analysis::modelFormula(fit)));
}

} // namespace

QString modelCountText(std::size_t n, const char* one, const char* many)
{
    return QStringLiteral("%1 %2").arg(
        QLocale().toString(static_cast<qulonglong>(n)), QString::fromUtf8(n == 1 ? one : many));
}

double ModelChartGeometry::xOf(double x) const
{
    const double span = xMax - xMin;
    return plot.left() + (span > 0 ? (x - xMin) / span : 0.5) * plot.width();
}

double ModelChartGeometry::yOf(double y) const
{
    if (logY) {
        const double decades = std::log10(yMax / yMin);
        const double f = y > 0 && decades > 0 ? std::log10(y / yMin) / decades : 0.0;
        return plot.top() + plot.height() - f * plot.height();
    }
    const double span = yMax - yMin;
    return plot.top() + plot.height() - (span > 0 ? (y - yMin) / span : 0.0) * plot.height();
}

std::optional<std::size_t> bestModelFit(const EntryModel& model)
{
    if (model.fits.empty())
        return std::nullopt;
    return static_cast<std::size_t>(
        std::max_element(model.fits.begin(), model.fits.end(),
            [](const ModelFit& l, const ModelFit& r) { return l.r2 < r.r2; })
        - model.fits.begin());
}

ModelChartGeometry buildModelChart(
    const ModelChartData& data, QSize size, const BarLayout& layout, double legendWidth)
{
    ModelChartGeometry g;
    const auto& m = data.model;
    if (m.points.empty())
        return g;
    const auto textWidth = [&layout](const QString& s) {
        return layout.widthOf(s);
    };
    const double line = layout.lineHeight;
    double top = layout.plotTop();
    if (m.multimodal()) {
        g.banner = QRectF(layout.margins.left(), top - line / 2.0,
            size.width() - layout.margins.left() - layout.margins.right(), line * 1.6);
        top = std::ceil(g.banner.bottom() + line);
    }
    const double bottom = layout.plotBottom(size.height());
    if (bottom - top < 3.0 * line)
        return {};

    // Value ranges: x over the points (with a margin), y from 0 to the longest duration.
    double xLow = m.points.front().x;
    double xHigh = xLow;
    double yHigh = 0.0;
    double yLowPositive = 0.0; // the shortest duration above 0 (0: none)
    for (const auto& p : m.points) {
        xLow = std::min(xLow, p.x);
        xHigh = std::max(xHigh, p.x);
        const auto d = static_cast<double>(p.duration);
        yHigh = std::max(yHigh, d);
        if (d > 0 && (yLowPositive == 0.0 || d < yLowPositive))
            yLowPositive = d;
    }
    if (xHigh <= xLow) {
        xLow -= std::max(1.0, std::abs(xLow) * 0.1);
        xHigh += std::max(1.0, std::abs(xHigh) * 0.1);
    }
    const double xPad = (xHigh - xLow) * 0.03;
    g.xMin = xLow > 0 && xLow - xPad < 0 ? 0.0 : xLow - xPad;
    g.xMax = xHigh + xPad;
    std::vector<std::pair<double, QString>> yLabels;
    if (data.logY) {
        // From the decade of the shortest duration above 0 (0 sits on it) to the 1-2-5 value
        // above the longest.
        g.logY = true;
        g.yMin = std::pow(10.0, std::floor(std::log10(std::max(1.0, yLowPositive)) + 1e-9));
        g.yMax = niceStep(std::max(yHigh * 1.02, g.yMin * 1.5));
        for (const double v :
            modelLogTicks(g.yMin, g.yMax, (bottom - top) / std::log10(g.yMax / g.yMin), line * 1.6))
            yLabels.emplace_back(v, formatTime(v));
    } else {
        const double yStep
            = modelAxisStep(0.0, std::max(1.0, yHigh), bottom - top, layout.minYTickSpacing);
        g.yMin = 0.0;
        g.yMax = std::ceil(std::max(1.0, yHigh) * 1.02 / yStep) * yStep;
        for (double v = 0.0; v <= g.yMax * (1 + 1e-9); v += yStep)
            yLabels.emplace_back(v, formatAxisValue(v, BarUnit::Time, yStep, g.yMax));
    }
    double widest = 0.0;
    for (const auto& label : yLabels)
        widest = std::max(widest, textWidth(label.second));
    const double gap = std::round(line * 0.5);
    const double left = layout.plotLeft(widest);
    const double right = layout.margins.right() + (legendWidth > 0 ? legendWidth + 2 * gap : line);
    const double width = std::floor(size.width() - left - right);
    if (width < 4.0 * line)
        return {};
    g.plot = QRect(static_cast<int>(left), static_cast<int>(top), static_cast<int>(width),
        static_cast<int>(bottom - top));
    if (legendWidth > 0)
        g.legend = QRectF(g.plot.right() + 2 * gap, top, legendWidth, bottom - top);
    for (const auto& [v, label] : yLabels)
        g.yTicks.push_back({ g.yOf(v), label });

    const double xStep = modelAxisStep(g.xMin, g.xMax, width,
        std::max(textWidth(formatAxisValue(g.xMax, data.xUnit, 1.0, g.xMax)) * 1.6, line * 5));
    for (double v = std::ceil(g.xMin / xStep) * xStep; v <= g.xMax; v += xStep)
        g.xTicks.push_back({ g.xOf(v), formatAxisValue(v, data.xUnit, xStep, g.xMax) });
    g.xTitle = data.xTitle;
    g.yTitle = QObject::tr("Execution time");
    g.placeLabels(line, layout.tickLength, layout.margins.left());

    // Points, binned into cells and drawn once per cell at a density level.
    g.cellSize = m.points.size() <= 1000 ? 4.0 : 3.0;
    const double cell = g.cellSize;
    const auto columns = static_cast<std::int64_t>(std::ceil(g.plot.width() / cell)) + 1;
    std::unordered_map<std::int64_t, int> counts;
    g.pointPositions.reserve(m.points.size());
    for (const auto& p : m.points) {
        const QPointF at(g.xOf(p.x), g.yOf(static_cast<double>(p.duration)));
        g.pointPositions.push_back(at);
        const auto cx = static_cast<std::int64_t>(std::floor((at.x() - g.plot.left()) / cell));
        const auto cy = static_cast<std::int64_t>(std::floor((at.y() - g.plot.top()) / cell));
        ++counts[cy * columns + cx];
    }
    g.cells.resize(kModelDensityLevels);
    for (const auto& [key, count] : counts) {
        const int level = std::min(kModelDensityLevels - 1,
            static_cast<int>(std::floor(std::log2(static_cast<double>(count)))));
        const double cx = static_cast<double>(key % columns);
        const double cy = static_cast<double>(key / columns);
        g.cells[static_cast<std::size_t>(level)].push_back(
            QRectF(g.plot.left() + cx * cell - 1, g.plot.top() + cy * cell - 1, cell, cell));
    }

    // Fit curves over the x axis, through the same y mapping (on a log axis a line bends, and
    // what falls to 0 or below leaves the plot at the bottom); groups as mean ± σ.
    const double curveLow = g.logY ? g.yMin / 10.0 : g.yMin - g.yMax;
    const double curveHigh = g.logY ? g.yMax * 10.0 : 2 * g.yMax;
    for (const auto& fit : m.fits) {
        QPolygonF curve;
        for (int i = 0; i <= kModelFitSamples; ++i) {
            const double x = g.xMin + (g.xMax - g.xMin) * i / kModelFitSamples;
            const double y = modelFitValue(fit, x);
            if (std::isfinite(y))
                curve << QPointF(g.xOf(x), g.yOf(std::clamp(y, curveLow, curveHigh)));
        }
        g.fits.push_back(curve);
    }
    for (const auto& group : m.groups)
        g.whiskers.push_back({ g.xOf(group.x), g.yOf(group.mean),
            g.yOf(std::max(0.0, group.mean - group.sd)), g.yOf(group.mean + group.sd) });
    return g;
}

std::optional<std::size_t> modelPointAt(
    const ModelChartGeometry& geometry, QPointF pos, double tolerance)
{
    std::optional<std::size_t> best;
    double bestDistance = tolerance * tolerance;
    for (std::size_t i = 0; i < geometry.pointPositions.size(); ++i) {
        const QPointF d = geometry.pointPositions[i] - pos;
        const double distance = d.x() * d.x() + d.y() * d.y();
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = i;
        }
    }
    return best;
}

ModelChart::ModelChart(QWidget* parent)
    : FramedChart(parent)
{ }

QColor ModelChart::fitColor(ModelFit::Kind kind)
{
    switch (kind) {
    case ModelFit::Kind::Linear:
        return { 0xd9, 0x5f, 0x02 };
    case ModelFit::Kind::PowerLaw:
        return { 0x75, 0x70, 0xb3 };
    case ModelFit::Kind::Quadratic:
        return { 0x1b, 0x9e, 0x77 };
    }
    return Qt::black;
}

QString ModelChart::bannerText() const
{
    if (!m_data.model.multimodal())
        return {};
    return tr("Multimodal durations (Sarle's bimodality coefficient %1 > 0.555): the executions "
              "fall into several groups; one formula does not describe them — split them (by PE, "
              "by iteration) first")
        .arg(QLocale().toString(m_data.model.bimodality, 'f', 2));
}

QStringList ModelChart::legendLines() const
{
    QStringList lines;
    const auto& m = m_data.model;
    lines << modelCountText(m.points.size(), "execution", "executions");
    lines << tr("mean ± σ of %1").arg(modelCountText(m.groups.size(), "group", "groups"));
    for (const auto& fit : m.fits)
        lines << modelFitLabel(fit);
    if (m.fits.empty())
        lines << tr("no fit: fewer than two distinct x");
    return lines;
}

ModelChart::Frame ModelChart::buildFrame(QSize size) const
{
    Frame f;
    f.size = size;
    const QFontMetricsF fm(font());
    const double line = std::ceil(fm.height());
    const double titleHeight = std::round(line * 2.0);
    f.titleBox = QRectF(8.0, 0.0, std::max(0, size.width() - 16), titleHeight);
    BarLayout layout;
    layout.lineHeight = line;
    layout.textWidth = [fm](const QString& s) {
        return fm.horizontalAdvance(s);
    };
    layout.minYTickSpacing = line * 3.0;
    layout.margins = QMarginsF(8.0, titleHeight + 2.0, 8.0, 6.0);
    double legendWidth = 0.0;
    if (size.width() >= kModelMinLegendChartWidth) {
        for (const auto& text : legendLines())
            legendWidth = std::max(legendWidth, fm.horizontalAdvance(text) + line * 2.5);
        legendWidth = std::min(legendWidth, size.width() * 0.38);
    }
    f.geometry = buildModelChart(m_data, size, layout, legendWidth);
    return f;
}

const ModelChartGeometry& ModelChart::geometry() const
{
    return frame().geometry;
}

void ModelChart::paintFrame(
    QPainter& painter, const Frame& f, const ChartStyle& style, bool onScreen) const
{
    const auto& g = f.geometry;
    if (!paintBackdrop(painter, f.size, f.titleBox, style, onScreen, hasData(), g.empty()))
        return;
    const auto& m = m_data.model;
    if (!g.banner.isEmpty()) {
        const QColor warn(0xb3, 0x58, 0x06);
        painter.fillRect(g.banner, faded(warn, style.background, 0.85));
        painter.fillRect(QRectF(g.banner.left(), g.banner.top(), 4, g.banner.height()), warn);
        painter.setPen(style.text);
        painter.drawText(g.banner.adjusted(10, 0, -6, 0), Qt::AlignVCenter | Qt::AlignLeft,
            QFontMetricsF(painter.font())
                .elidedText(bannerText(), Qt::ElideRight, g.banner.width() - 16));
    }
    painter.setRenderHint(QPainter::Antialiasing, false);
    paintYGrid(painter, g.plot, g.yTicks, style);
    painter.save();
    painter.setClipRect(g.plot.adjusted(-3, -3, 3, 3));
    // Groups: mean ± σ whiskers with a mean tick.
    painter.setPen(QPen(withAlpha(style.text, 150), 1.5));
    for (const auto& w : g.whiskers) {
        painter.drawLine(QPointF(w.x, w.low), QPointF(w.x, w.high));
        painter.drawLine(QPointF(w.x - 3, w.low), QPointF(w.x + 3, w.low));
        painter.drawLine(QPointF(w.x - 3, w.high), QPointF(w.x + 3, w.high));
        painter.fillRect(QRectF(w.x - 4, w.mean - 1.5, 8, 3), style.text);
    }
    // Points: one rectangle per occupied cell, by density level (alpha grows with the count).
    // Few points go over the curves (a curve through them would hide them), a cloud under them.
    const QColor base = m_data.pointColor.isValid() ? m_data.pointColor : QColor(0x1f, 0x77, 0xb4);
    const auto paintPoints = [&]() {
        painter.setRenderHint(QPainter::Antialiasing, false);
        for (std::size_t level = 0; level < g.cells.size(); ++level)
            if (!g.cells[level].empty())
                fillRectsInBands(painter, g.cells[level],
                    QBrush(withAlpha(base, std::min(255, 150 + 21 * static_cast<int>(level)))));
    };
    const bool pointsOnTop = m.points.size() <= kModelPointsOverCurves;
    if (!pointsOnTop)
        paintPoints();
    // Fits: the best one on top and thicker.
    painter.setRenderHint(QPainter::Antialiasing, true);
    const auto best = bestModelFit(m);
    for (std::size_t i = 0; i < g.fits.size(); ++i) {
        if (best && *best == i)
            continue;
        painter.setPen(QPen(fitColor(m.fits[i].kind), 1.5, Qt::DashLine));
        painter.drawPolyline(g.fits[i]);
    }
    if (best) {
        painter.setPen(QPen(fitColor(m.fits[*best].kind), 3.0));
        painter.drawPolyline(g.fits[*best]);
    }
    if (pointsOnTop)
        paintPoints();
    painter.setRenderHint(QPainter::Antialiasing, true);
    if (onScreen && m_hover && *m_hover < g.pointPositions.size()) {
        painter.setPen(QPen(style.text, 1.5));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(g.pointPositions[*m_hover], 5.0, 5.0);
    }
    painter.restore();
    painter.setRenderHint(QPainter::Antialiasing, false);
    paintChartAxes(painter, g, style, f.size.width());
    paintLegend(painter, f, style);
    if (onScreen)
        paintDragAndBusy(
            painter, g.plot, [](int) { return core::TimeUs(0); }, style, f.size.width(), true);
}

void ModelChart::paintLegend(QPainter& painter, const Frame& f, const ChartStyle& style) const
{
    const auto& g = f.geometry;
    if (g.legend.isEmpty())
        return;
    const QFontMetricsF fm(painter.font());
    const double line = std::ceil(fm.height()) * 1.4;
    const auto lines = legendLines();
    const auto& m = m_data.model;
    const auto best = bestModelFit(m);
    const QColor base = m_data.pointColor.isValid() ? m_data.pointColor : QColor(0x1f, 0x77, 0xb4);
    double y = g.legend.top();
    const double swatchX = g.legend.left();
    const double textX = swatchX + fm.height() * 1.8;
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (int i = 0; i < lines.size(); ++i, y += line) {
        const double mid = y + line / 2;
        QFont font = painter.font();
        const bool isFit = i >= 2 && !m.fits.empty();
        const auto fitIndex = static_cast<std::size_t>(i - 2);
        const bool isBest = isFit && best && *best == fitIndex;
        if (i == 0) {
            painter.fillRect(QRectF(swatchX + 4, mid - 3, 6, 6), base);
        } else if (i == 1) {
            painter.setPen(QPen(style.text, 1.5));
            painter.drawLine(QPointF(swatchX + 7, mid - 6), QPointF(swatchX + 7, mid + 6));
            painter.fillRect(QRectF(swatchX + 3, mid - 1.5, 8, 3), style.text);
        } else if (isFit) {
            painter.setPen(QPen(fitColor(m.fits[fitIndex].kind), isBest ? 3.0 : 1.5,
                isBest ? Qt::SolidLine : Qt::DashLine));
            painter.drawLine(QPointF(swatchX, mid), QPointF(swatchX + fm.height() * 1.4, mid));
        }
        font.setBold(isBest);
        painter.setFont(font);
        painter.setPen(i >= 2 && !isFit ? style.muted : style.text);
        const bool weak = isBest && m.fits[fitIndex].r2 < 0.5;
        const QString text
            = isBest ? lines[i] + (weak ? tr("  best, but weak") : tr("  best")) : lines[i];
        painter.drawText(QRectF(textX, y, g.legend.right() - textX, line),
            Qt::AlignVCenter | Qt::AlignLeft,
            QFontMetricsF(font).elidedText(text, Qt::ElideRight, g.legend.right() - textX));
        font.setBold(false);
        painter.setFont(font);
    }
    if (m.withoutX > 0) {
        painter.setPen(style.muted);
        painter.drawText(QRectF(swatchX, y + line / 2, g.legend.width(), line),
            Qt::AlignVCenter | Qt::AlignLeft,
            tr("%1 without this x left out")
                .arg(modelCountText(m.withoutX, "execution", "executions")));
    }
}

QString ModelChart::toolTipAt(QPoint pos) const
{
    const auto hit = modelPointAt(geometry(), pos);
    if (!hit)
        return {};
    const auto& p = m_data.model.points[*hit];
    const auto& g = geometry();
    const QString clamped = g.logY && p.duration <= 0
        ? tr(" (drawn at %1, the bottom: a log axis has no 0)").arg(formatTime(g.yMin))
        : QString();
    return tr("PE %1, began at %2\nx = %3, took %4%5\nClick: this execution in the Timeline")
        .arg(p.pe)
        .arg(formatTime(static_cast<double>(p.begin)), formatBarValue(p.x, m_data.xUnit),
            formatTime(static_cast<double>(p.duration)), clamped);
}

void ModelChart::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    const auto hit = modelPointAt(geometry(), pos);
    if (hit != m_hover) {
        m_hover = hit;
        update();
    }
    showPlotTip(event->globalPosition().toPoint(), hit ? toolTipAt(pos) : QString(), false);
}

void ModelChart::mouseReleaseEvent(QMouseEvent* event)
{
    // No drag here (mouseMoveEvent follows none): a release is a click or nothing.
    const auto press = releaseClick(event, geometry().plot, {});
    if (!press)
        return;
    if (const auto hit = modelPointAt(geometry(), *press))
        emit pointClicked(static_cast<int>(*hit));
}

void ModelChart::contextMenuEvent(QContextMenuEvent* event)
{
    const auto hit = modelPointAt(geometry(), event->pos());
    emit contextMenuRequested(event->globalPos(), hit ? static_cast<int>(*hit) : -1);
}

} // namespace parallax::views
