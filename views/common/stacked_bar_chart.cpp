#include "views/common/stacked_bar_chart.h"

#include "core/text_args.h"
#include "views/common/analysis_view.h"
#include "views/common/async_computation.h"
#include "views/common/chart_frame.h"
#include "views/common/entry_palette.h"
#include "views/common/fill_rects.h"
#include "views/common/options_bar.h"

#include <QColorDialog>
#include <QContextMenuEvent>
#include <QEvent>
#include <QFontMetricsF>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QProgressBar>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace parallax::views {

namespace {

QString percentOf(double part, double whole)
{
    if (!(whole > 0))
        return {};
    const double p = part * 100.0 / whole;
    return QLocale().toString(p, 'f', p >= 10 ? 1 : 2) + QStringLiteral(" %");
}

} // namespace

StackedBarChart::StackedBarChart(EntryPalette* palette, QWidget* parent)
    : FramedChart(parent)
    , m_palette(palette)
{
    if (palette != nullptr)
        connect(palette, &EntryPalette::changed, this, qOverload<>(&QWidget::update));
}

void StackedBarChart::setData(StackedBarData data, core::analysis::ActivityColumns columns)
{
    m_columns = columns;
    FramedChart::setData(std::move(data));
}

void StackedBarChart::clearHover()
{
    m_hoverColumn.reset();
    m_hoverSegment.reset();
    m_hoverLegendRow.reset();
}

StackedBarChart::Frame StackedBarChart::buildFrame(QSize size) const
{
    const QFontMetricsF fm(font());
    auto items = legendItems(m_data);
    auto axes = layoutAxesFrame(size, fm, items, 22.0, 0.3);
    const double line = axes.layout.lineHeight;
    axes.layout.maxSeparatorGap = line * 2.5;
    axes.layout.maxBarWidth = line * 6.0;
    axes.layout.tickLength = 4.0;
    Frame f;
    f.size = size;
    f.titleBox = axes.titleBox;
    f.geometry = buildStackedBars(m_data, size, axes.layout);
    if (!f.geometry.empty())
        f.legend
            = layoutLegendBeside(std::move(items), size, axes.legendWidth, f.geometry.plot.top(),
                fm, m_legendHeading.isEmpty() ? tr("Activity · share") : m_legendHeading);
    return f;
}

const StackedBarGeometry& StackedBarChart::geometry() const
{
    return frame().geometry;
}

const LegendLayout& StackedBarChart::legend() const
{
    return frame().legend;
}

QRect StackedBarChart::barRect(std::size_t category) const
{
    const auto& g = geometry();
    const auto column = columnOfCategory(g, category);
    if (!column)
        return {};
    const auto& c = g.columns[*column];
    if (c.bar.height() > 0)
        return c.bar;
    return QRect(c.bar.left(), g.plot.top() + g.plot.height() - 1, c.bar.width(), 1);
}

QColor StackedBarChart::seriesColor(std::size_t series) const
{
    if (series >= m_data.series.size())
        return Qt::gray;
    const auto& s = m_data.series[series];
    if (s.color)
        return QColor::fromRgb(*s.color);
    if (m_palette)
        return m_palette->color(m_columns, s.activity);
    return Qt::gray;
}

QColor StackedBarChart::seriesHatch(std::size_t series) const
{
    if (series >= m_data.series.size())
        return {};
    const auto& s = m_data.series[series];
    if (s.color || s.activity != m_columns.overhead())
        return {};
    return seriesColor(series).lighter(135); // quiet stripes: overhead must not dominate
}

void StackedBarChart::paintFrame(
    QPainter& painter, const Frame& f, const Style& style, bool onScreen) const
{
    const QFontMetricsF fm(painter.font());
    if (!paintBackdrop(painter, f.size, f.titleBox, style, onScreen, hasData(), f.geometry.empty()))
        return;
    const auto& g = f.geometry;
    painter.setRenderHint(QPainter::Antialiasing, false);
    const int baseline = g.plot.top() + g.plot.height();
    paintYGrid(painter, g.plot, g.yTicks, style);

    // Bars, one fill call per series (grouped by colour). A hovered legend row fades the rest.
    std::vector<bool> emphasised;
    if (onScreen && m_hoverLegendRow && *m_hoverLegendRow < f.legend.rows.size()) {
        emphasised.assign(m_data.series.size(), false);
        const auto& item = f.legend.rows[*m_hoverLegendRow].item;
        if (item.others)
            for (auto s : item.hidden)
                emphasised[s] = true;
        else
            emphasised[item.series] = true;
    }
    painter.setPen(Qt::NoPen);
    for (std::size_t s = 0; s < g.seriesRects.size(); ++s) {
        const auto& rects = g.seriesRects[s];
        if (rects.empty())
            continue;
        QColor color = seriesColor(s);
        if (!emphasised.empty() && !emphasised[s])
            color = faded(color, style.background, 0.8);
        fillRectsInBands(painter, rects, QBrush(color));
        QColor hatch = seriesHatch(s);
        if (hatch.isValid()) {
            if (!emphasised.empty() && !emphasised[s])
                hatch = faded(hatch, style.background, 0.8);
            fillRectsInBands(painter, rects, QBrush(hatch, Qt::BDiagPattern));
        }
    }
    // Free-standing bars get a thin outline, so a light top (idle) still reads as a bar.
    // (Opaque 1-pixel fills: a translucent outline goes through Qt's span blending, which hands
    // every tall rectangle to its thread pool — tens of milliseconds for a hundred bars.)
    if (!m_data.contiguous && !g.merged) {
        const QColor outline = faded(style.text, style.background, 1.0 - 70.0 / 255.0);
        for (const auto& c : g.columns) {
            const QRect& b = c.bar;
            if (b.height() <= 0)
                continue;
            painter.fillRect(QRect(b.left(), b.top(), b.width(), 1), outline);
            painter.fillRect(QRect(b.left(), b.bottom(), b.width(), 1), outline);
            painter.fillRect(QRect(b.left(), b.top(), 1, b.height()), outline);
            painter.fillRect(QRect(b.right(), b.top(), 1, b.height()), outline);
        }
    }
    // Spreads over group bars: the min–max whisker with its caps, then the mean ± σ box drawn
    // as an outline with a light halo inside, so it reads over any bar colour. All opaque
    // one-pixel fills (see the outlines above).
    const QColor halo = faded(style.text, style.background, 0.75);
    for (const auto& mark : g.spreads) {
        const int x = mark.x;
        const int top = mark.whisker.top();
        const int bottom = mark.whisker.top() + mark.whisker.height();
        const int half = mark.capWidth / 2;
        painter.fillRect(QRect(x, top, 1, std::max(bottom - top, 1)), style.text);
        painter.fillRect(QRect(x - half, top, 2 * half + 1, 1), style.text);
        painter.fillRect(QRect(x - half, bottom, 2 * half + 1, 1), style.text);
        const QRect& b = mark.band;
        if (b.width() <= 0 || b.height() <= 0)
            continue;
        const QRect inner = b.adjusted(1, 1, -1, -1);
        if (inner.width() > 0 && inner.height() > 0) {
            painter.fillRect(QRect(inner.left(), inner.top(), inner.width(), 1), halo);
            painter.fillRect(QRect(inner.left(), inner.bottom(), inner.width(), 1), halo);
        }
        painter.fillRect(QRect(b.left(), b.top(), b.width(), 1), style.text);
        painter.fillRect(QRect(b.left(), b.bottom(), b.width(), 1), style.text);
        painter.fillRect(QRect(b.left(), b.top(), 1, b.height()), style.text);
        painter.fillRect(QRect(b.right(), b.top(), 1, b.height()), style.text);
    }
    // Separators between groups of columns (averages | PEs, bins | overflow).
    painter.setPen(QPen(style.muted, 1.0, Qt::DashLine));
    for (const int x : g.separators)
        painter.drawLine(x, g.plot.top(), x, baseline + 3);
    paintValueLabels(painter, f, style);

    paintChartAxes(painter, f.geometry, style, f.size.width());
    paintLegend(
        painter, f.legend, fm, [this](std::size_t s) { return seriesColor(s); },
        [this](std::size_t s) { return seriesHatch(s); }, style.text, style.muted,
        onScreen ? m_hoverLegendRow : std::nullopt);
    if (onScreen)
        paintOverlays(painter, f, style);
}

void StackedBarChart::paintValueLabels(QPainter& painter, const Frame& f, const Style& style) const
{
    const auto& g = f.geometry;
    if (m_data.valueLabels.empty() || g.merged)
        return;
    const QFontMetrics fm(painter.font());
    for (const auto& c : g.columns) {
        if (c.lastCategory != c.firstCategory + 1 || c.firstCategory >= m_data.valueLabels.size())
            continue;
        const QString& text = m_data.valueLabels[c.firstCategory];
        if (text.isEmpty())
            continue;
        const int w = fm.horizontalAdvance(text) + 8;
        const int h = fm.height() + 2;
        // Above the bar; a full bar gets its label inside its top, on a light box.
        const int y = std::max(g.plot.top(), c.bar.top() - h - 2);
        const QRect box(c.bar.center().x() - w / 2, y, w, h);
        painter.setPen(Qt::NoPen);
        painter.setBrush(withAlpha(style.background, 225));
        painter.drawRoundedRect(box, 3, 3);
        painter.setPen(style.text);
        painter.drawText(box, Qt::AlignCenter, text);
    }
}

void StackedBarChart::paintOverlays(QPainter& painter, const Frame& f, const Style& style) const
{
    const auto& g = f.geometry;
    if (m_hoverColumn && *m_hoverColumn < g.columns.size() && !dragging()) {
        const auto& c = g.columns[*m_hoverColumn];
        // A light band above the bar marks the whole slot; the bar and segment get outlines.
        const QRect above(c.bar.left(), g.plot.top(), c.bar.width(), c.bar.top() - g.plot.top());
        if (above.height() > 0)
            painter.fillRect(above, withAlpha(style.text, 14));
        painter.setBrush(Qt::NoBrush);
        if (c.bar.height() > 0) {
            painter.setPen(QPen(withAlpha(style.text, 150), 1.0));
            painter.drawRect(c.bar.adjusted(0, 0, -1, -1));
        }
        if (m_hoverSegment && *m_hoverSegment < g.segments.size()) {
            const QRect r = g.segments[*m_hoverSegment].rect;
            painter.setPen(QPen(style.background, 1.0));
            painter.drawRect(r.adjusted(1, 1, -2, -2));
            painter.setPen(QPen(style.text, 2.0));
            painter.drawRect(QRectF(r).adjusted(0.0, 0.0, -1.0, -1.0));
        }
    }
    paintDragAndBusy(
        painter, g.plot, [&g](int x) { return timeAtX(g, x); }, style, f.size.width(), hasData());
}

QString StackedBarChart::categoryHeading(const BarColumn& column, std::size_t category) const
{
    const auto& cats = m_data.categories;
    if (column.categoryCount() > 1) {
        const auto& first = cats[column.firstCategory];
        const auto& last = cats[column.lastCategory - 1];
        const auto count = QLocale().toString(static_cast<qulonglong>(column.categoryCount()));
        if (first.span && last.span)
            return tr("%1 (%2 intervals, averaged)")
                .arg(formatTimeSpan({ first.span->begin, last.span->end }), count);
        return tr("%1 … %2 (%3 columns, averaged)").arg(first.label, last.label, count);
    }
    const auto& c = cats[category];
    if (!c.title.isEmpty())
        return c.title;
    if (c.span)
        return formatTimeSpan(*c.span);
    return c.label;
}

QString StackedBarChart::toolTipAt(QPoint pos) const
{
    const auto& g = geometry();
    const auto hit = hitTestBars(g, pos.x(), pos.y());
    if (!hit)
        return {};
    const auto& column = g.columns[hit->column];
    const std::size_t n = m_data.series.size();
    const double count = static_cast<double>(column.categoryCount());
    auto mean = [&](const std::vector<double>& v, std::size_t s) {
        double sum = 0.0;
        for (std::size_t c = column.firstCategory; c < column.lastCategory; ++c)
            sum += v[c * n + s];
        return sum / count;
    };
    auto nameOf = [&](std::size_t s) {
        const auto& series = m_data.series[s];
        return (series.fullName.isEmpty() ? series.name : series.fullName).toHtmlEscaped();
    };
    auto swatch = [&](std::size_t s) {
        return QStringLiteral("<span style=\"color:%1\">&#9632;</span> ")
            .arg(seriesColor(s).name());
    };
    QStringList lines;
    lines
        << QStringLiteral("<b>%1</b>").arg(categoryHeading(column, hit->category).toHtmlEscaped());
    const auto& category = m_data.categories[hit->category];
    if (column.categoryCount() == 1 && !category.note.isEmpty())
        lines << category.note.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    if (hit->series) {
        const auto s = *hit->series;
        const double v = mean(m_data.values, s);
        QString line = swatch(s)
            + QStringLiteral("<b>%1</b><br>%2").arg(nameOf(s), formatBarValue(v, m_data.unit));
        if (column.total > 0)
            line += tr(" &nbsp;(%1 of the bar)").arg(percentOf(v, column.total));
        lines << line;
        if (!m_data.secondary.empty())
            lines << QStringLiteral("%1: %2").arg(m_data.secondaryLabel.toHtmlEscaped(),
                formatBarValue(mean(m_data.secondary, s), m_data.secondaryUnit));
    } else {
        // Not on a segment: the largest activities of the bar.
        std::vector<std::pair<double, std::size_t>> parts;
        for (std::size_t s = 0; s < n; ++s) {
            const double v = mean(m_data.values, s);
            if (v > 0)
                parts.emplace_back(v, s);
        }
        std::sort(parts.begin(), parts.end(), [](auto a, auto b) { return a.first > b.first; });
        const std::size_t shown = std::min<std::size_t>(parts.size(), 6);
        for (std::size_t k = 0; k < shown; ++k)
            lines << swatch(parts[k].second)
                    + QStringLiteral("%1: %2").arg(
                        nameOf(parts[k].second), formatBarValue(parts[k].first, m_data.unit));
        if (parts.size() > shown)
            lines << tr("… %1 more").arg(parts.size() - shown);
    }
    lines << tr("Bar total: %1").arg(formatBarValue(column.total, m_data.unit));
    return QStringLiteral("<html>%1</html>").arg(lines.join(QStringLiteral("<br>")));
}

void StackedBarChart::updateHover(QPoint pos, QPoint globalPos)
{
    const auto& f = frame();
    const auto hit = hitTestBars(f.geometry, pos.x(), pos.y());
    std::optional<std::size_t> column;
    std::optional<std::size_t> segment;
    if (hit) {
        column = hit->column;
        segment = hit->segment;
    }
    const auto legendRow = f.legend.rowAt(pos);
    if (column != m_hoverColumn || segment != m_hoverSegment || legendRow != m_hoverLegendRow) {
        m_hoverColumn = column;
        m_hoverSegment = segment;
        m_hoverLegendRow = legendRow;
        update();
    }
    if (legendRow) {
        const auto& item = f.legend.rows[*legendRow].item;
        QString tip = item.toolTip;
        if (item.entry >= 0 && m_palette)
            tip += tr("\nClick to change the colour");
        setCursor(item.entry >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
        QToolTip::showText(globalPos, tip, this);
        return;
    }
    showPlotTip(globalPos, hit ? toolTipAt(pos) : QString(),
        m_data.axis == BarAxis::Time && f.geometry.plot.contains(pos));
}

void StackedBarChart::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (followDrag(pos, event->buttons(), geometry().plot, m_data.axis == BarAxis::Time))
        return;
    updateHover(pos, event->globalPosition().toPoint());
}

void StackedBarChart::mouseReleaseEvent(QMouseEvent* event)
{
    const auto& f = frame();
    const auto click
        = releaseClick(event, f.geometry.plot, [&f](int x) { return timeAtX(f.geometry, x); });
    if (!click)
        return;
    const QPoint press = *click;
    if (const auto row = f.legend.rowAt(press)) {
        const LegendItem item = f.legend.rows[*row].item;
        editColor(item);
        return;
    }
    if (const auto hit = hitTestBars(f.geometry, press.x(), press.y()))
        emit categoryClicked(static_cast<int>(hit->category));
}

void StackedBarChart::contextMenuEvent(QContextMenuEvent* event)
{
    const auto hit = hitTestBars(geometry(), event->pos().x(), event->pos().y());
    emit contextMenuRequested(event->globalPos(), hit ? static_cast<int>(hit->category) : -1);
}

void StackedBarChart::editColor(const LegendItem& item)
{
    if (item.entry < 0 || !m_palette || item.others)
        return;
    const QColor current = seriesColor(item.series);
    const QColor chosen = QColorDialog::getColor(current, this, tr("Colour of %1").arg(item.label));
    if (chosen.isValid())
        m_palette->setEntryColor(item.entry, chosen);
}

// Helpers shared by the bar-chart views.

QString activityName(const core::RunMetadata& metadata,
    const core::analysis::ActivityColumns& columns, int column, bool full)
{
    if (columns.isEntry(column)) {
        QString entry = QString::fromStdString(metadata.entryName(column));
        const QString chare = QString::fromStdString(metadata.chareNameOfEntry(column));
        if (!full) {
            entry.remove(QStringLiteral(" impl_msg"));
            entry.replace(QStringLiteral("(void)"), QStringLiteral("()"));
            if (entry.endsWith(QStringLiteral("()")))
                entry.chop(2);
        }
        return chare.isEmpty() ? entry : chare + QStringLiteral("::") + entry;
    }
    if (column == columns.overhead())
        return StackedBarChart::tr("Overhead");
    if (column == columns.idle())
        return StackedBarChart::tr("Idle");
    if (column == columns.pack())
        return StackedBarChart::tr("Pack");
    if (column == columns.unpack())
        return StackedBarChart::tr("Unpack");
    return QString::number(column);
}

std::vector<StackedBarSeries> activitySeries(const core::RunMetadata& metadata,
    const core::analysis::ActivityColumns& columns, const std::vector<double>& totals)
{
    auto total = [&](int c) {
        return c >= 0 && static_cast<std::size_t>(c) < totals.size()
            ? totals[static_cast<std::size_t>(c)]
            : 0.0;
    };
    std::vector<int> entries;
    for (int c = 0; c < columns.entryCount; ++c)
        if (total(c) > 0)
            entries.push_back(c);
    std::stable_sort(
        entries.begin(), entries.end(), [&](int a, int b) { return total(a) > total(b); });
    std::vector<StackedBarSeries> series;
    for (const int c : entries) {
        StackedBarSeries s;
        s.activity = c;
        s.entry = c;
        s.name = activityName(metadata, columns, c, false);
        s.fullName
            = activityName(metadata, columns, c, true) + StackedBarChart::tr(" (entry %1)").arg(c);
        series.push_back(std::move(s));
    }
    for (const int c : { columns.pack(), columns.unpack(), columns.overhead(), columns.idle() }) {
        if (!(total(c) > 0))
            continue;
        StackedBarSeries s;
        s.activity = c;
        s.name = activityName(metadata, columns, c, false);
        series.push_back(std::move(s));
    }
    return series;
}

QString describeSelection(
    const core::Trace& trace, core::TimeRange range, const std::vector<core::PeId>& selected)
{
    const auto pes = selected.empty() ? trace.validPes() : selected;
    QString who;
    if (pes.empty())
        who = StackedBarChart::tr("no PEs");
    else if (pes.size() == 1)
        who = StackedBarChart::tr("PE %1").arg(pes.front());
    else
        who = StackedBarChart::tr("%1 PEs (%2)")
                  .arg(QLocale().toString(static_cast<qulonglong>(pes.size())),
                      QString::fromStdString(core::formatPeList(pes)));
    QString text
        = StackedBarChart::tr("%1 · %2 (%3)")
              .arg(who, formatTimeSpan(range), formatTime(static_cast<double>(range.length())));
    if (trace.reduced)
        text += StackedBarChart::tr(" · reduced run: %n representative PE(s) with logs", nullptr,
            static_cast<int>(trace.reduced->kept.size()));
    return text;
}

bool rememberSelection(core::TimeRange& range, std::vector<core::PeId>& pes,
    core::TimeRange newRange, const std::vector<core::PeId>& newPes)
{
    const bool changed
        = newRange.begin != range.begin || newRange.end != range.end || newPes != pes;
    range = newRange;
    pes = newPes;
    return changed;
}

std::optional<QString> countFieldError(
    const QString& text, long long minimum, long long maximum, const QString& what)
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return std::nullopt;
    bool ok = false;
    const long long v = t.toLongLong(&ok);
    if (!ok || v < minimum || v > maximum)
        return StackedBarChart::tr("%1: '%2' is not a whole number from %3 to %4")
            .arg(what, t, QLocale().toString(minimum), QLocale().toString(maximum));
    return std::nullopt;
}

long long countFieldValue(const QString& text, long long fallback)
{
    bool ok = false;
    const long long v = text.trimmed().toLongLong(&ok);
    return ok ? v : fallback;
}

std::optional<core::TimeRange> typedRange(const OptionsBar* options)
{
    const auto* begin = options->findChild<QLineEdit*>(QStringLiteral("rangeBegin"));
    const auto* end = options->findChild<QLineEdit*>(QStringLiteral("rangeEnd"));
    if (begin == nullptr || end == nullptr)
        return options->range();
    const auto b = OptionsBar::parseTimeField(begin->text(), nullptr);
    const auto e = OptionsBar::parseTimeField(end->text(), nullptr);
    if (!b || !e || *e <= *b)
        return std::nullopt;
    return core::TimeRange { *b, *e };
}

void addOpenRangeMenu(
    QMenu& menu, AnalysisView& view, core::TimeRange range, const std::vector<core::PeId>& pes)
{
    QMenu* open = menu.addMenu(StackedBarChart::tr("Open %1 in").arg(formatTimeSpan(range)));
    // The Timeline first (where a range is usually looked at next), then every other view in
    // menu order, so a new view is offered without being listed here.
    std::vector<ViewKind> targets { ViewKind::Timeline };
    for (const auto kind : kAllViewKinds)
        if (kind != ViewKind::Timeline)
            targets.push_back(kind);
    for (const auto target : targets) {
        if (target == view.kind())
            continue;
        QAction* action = open->addAction(viewTitle(target));
        QPointer<AnalysisView> guard(&view);
        QObject::connect(action, &QAction::triggered, &view, [guard, target, range, pes]() {
            if (guard)
                emit guard->openRangeRequested(target, range, pes);
        });
    }
}

std::optional<QString> intervalFieldError(const QString& text, const OptionsBar* options)
{
    if (text.trimmed().isEmpty())
        return std::nullopt;
    QString why;
    const auto size = OptionsBar::parseTimeField(text.trimmed(), &why);
    if (!size)
        return StackedBarChart::tr("Interval: %1").arg(why);
    if (*size <= 0)
        return StackedBarChart::tr("Interval: must be longer than 0");
    if (const auto range = typedRange(options)) {
        const auto count = (range->length() + *size - 1) / *size;
        if (count > kMaxIntervals)
            return StackedBarChart::tr("Interval: %1 gives %2 intervals over %3; at most %4 — "
                                       "choose a longer interval")
                .arg(formatTime(static_cast<double>(*size)),
                    QLocale().toString(static_cast<qlonglong>(count)),
                    formatTime(static_cast<double>(range->length())),
                    QLocale().toString(kMaxIntervals));
    }
    return std::nullopt;
}

QString tooManyIntervalsText(core::TimeUs intervalSize, long long count)
{
    return StackedBarChart::tr("An interval of %1 gives %2 intervals over this range; at most %3 "
                               "can be shown. Choose a longer interval.")
        .arg(formatTime(static_cast<double>(intervalSize)),
            QLocale().toString(static_cast<qlonglong>(count)), QLocale().toString(kMaxIntervals));
}

QProgressBar* makeBusyIndicator(
    AsyncComputation* computation, StackedBarChart* chart, QWidget* parent)
{
    auto* bar = new QProgressBar(parent);
    bar->setObjectName(QStringLiteral("busyIndicator"));
    bar->setTextVisible(false);
    bar->setRange(0, 0);
    bar->setFixedWidth(80);
    bar->setMaximumHeight(10);
    bar->setToolTip(StackedBarChart::tr("Computing…"));
    // Keep the row's height when hidden, so the options do not jump.
    QSizePolicy policy = bar->sizePolicy();
    policy.setRetainSizeWhenHidden(true);
    bar->setSizePolicy(policy);
    bar->hide();
    QObject::connect(computation, &AsyncComputation::busyChanged, bar, [bar, chart](bool busy) {
        bar->setRange(0, 0);
        bar->setVisible(busy);
        if (chart != nullptr)
            chart->setBusy(busy);
    });
    QObject::connect(computation, &AsyncComputation::progressChanged, bar, [bar](double fraction) {
        bar->setRange(0, 1000);
        bar->setValue(static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000.0)));
    });
    return bar;
}

} // namespace parallax::views
