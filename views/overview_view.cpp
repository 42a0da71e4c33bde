#include "overview_view.h"

#include "async_computation.h"
#include "core/text_args.h"
#include "entry_palette.h"
#include "options_bar.h"

#include <QComboBox>
#include <QHelpEvent>
#include <QLineEdit>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QVBoxLayout>

#include <cmath>

namespace parallax::views {

namespace {

QString timeLabel(double us)
{
    return QString::fromStdString(
        core::formatDuration(static_cast<core::TimeUs>(std::llround(us))));
}

QString activityName(
    const core::Trace& trace, const core::analysis::ActivityColumns& columns, int column)
{
    if (columns.isEntry(column))
        return QString::fromStdString(trace.metadata.entryName(column));
    return QString::fromStdString(columns.name(column));
}

} // namespace

OverviewCanvas::OverviewCanvas(EntryPalette* palette, QWidget* parent)
    : QWidget(parent)
    , m_palette(palette)
{
    setMouseTracking(true);
    setMinimumSize(320, 200);
    setAttribute(Qt::WA_OpaquePaintEvent);
    connect(palette, &EntryPalette::changed, this,
        [this]() { setData(m_trace, m_overview, m_coloring); });
}

void OverviewCanvas::setData(const core::TracePtr& trace, const core::analysis::Overview* overview,
    OverviewColoring coloring)
{
    m_trace = trace;
    m_overview = overview;
    m_coloring = coloring;
    m_image = QImage();
    if (m_overview != nullptr) {
        const auto columns = m_overview->columns;
        m_image = overviewImage(
            *m_overview, coloring, [&](int column) { return m_palette->color(columns, column); });
    }
    update();
}

void OverviewCanvas::setBusy(bool busy)
{
    m_busy = busy;
    update();
}

OverviewGeometry OverviewCanvas::geometryFor(QSize size) const
{
    const auto rows = m_overview != nullptr ? m_overview->pes.size() : 0;
    const auto columns = m_overview != nullptr ? m_overview->grid.count : 0;
    return buildOverviewGeometry(rows, columns, size, OverviewLayout {});
}

void OverviewCanvas::paintAll(QPainter& painter, QSize size) const
{
    painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    const auto g = geometryFor(size);
    const OverviewLayout layout;
    QFont title = painter.font();
    title.setBold(true);
    painter.setFont(title);
    painter.setPen(QColor(0x22, 0x22, 0x22));
    QString heading = QObject::tr("Overview");
    if (m_overview != nullptr && m_trace)
        heading += QStringLiteral("  ·  %1 PEs · %2 – %3 · %4 columns of %5")
                       .arg(m_overview->pes.size())
                       .arg(timeLabel(static_cast<double>(m_overview->grid.origin)),
                           timeLabel(static_cast<double>(m_overview->grid.limit())))
                       .arg(m_overview->grid.count)
                       .arg(timeLabel(static_cast<double>(m_overview->grid.size)));
    painter.drawText(
        QRect(layout.margin, layout.margin, size.width() - 2 * layout.margin, layout.titleHeight),
        Qt::AlignLeft | Qt::AlignVCenter, heading);
    QFont normal = painter.font();
    normal.setBold(false);
    painter.setFont(normal);
    if (m_overview == nullptr || m_image.isNull()) {
        painter.setPen(QColor(0x77, 0x77, 0x77));
        painter.drawText(g.plot, Qt::AlignCenter,
            m_busy ? QObject::tr("Computing…") : QObject::tr("No run loaded"));
        return;
    }
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.drawImage(g.plot, m_image);
    // Row labels: as many as fit without overlapping.
    const auto& pes = m_overview->pes;
    const int lineHeight = painter.fontMetrics().height();
    const double rowHeight = static_cast<double>(g.plot.height())
        / static_cast<double>(std::max<std::size_t>(pes.size(), 1));
    const auto step = static_cast<std::size_t>(std::max(1.0, std::ceil(lineHeight / rowHeight)));
    painter.setPen(QColor(0x44, 0x44, 0x44));
    for (std::size_t r = 0; r < pes.size(); r += step) {
        const QRect row = g.rowRect(r);
        painter.drawText(QRect(layout.margin, row.center().y() - lineHeight / 2,
                             layout.labelWidth - 6, lineHeight),
            Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("PE %1").arg(pes[r]));
    }
    // SMP node boundaries.
    if (m_trace && m_trace->metadata.smp && pes.size() > 1) {
        painter.setPen(QPen(QColor(255, 255, 255, 200), 1));
        for (std::size_t r = 1; r < pes.size(); ++r)
            if (m_trace->metadata.nodeOf(pes[r]) != m_trace->metadata.nodeOf(pes[r - 1]))
                painter.drawLine(
                    g.plot.left(), g.rowRect(r).top(), g.plot.right(), g.rowRect(r).top());
    }
    // Time axis with about one tick per 110 px.
    const double t0 = static_cast<double>(m_overview->grid.origin);
    const double t1 = static_cast<double>(m_overview->grid.limit());
    const double raw = (t1 - t0) / std::max(1.0, static_cast<double>(g.plot.width()) / 110.0);
    const double magnitude = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
    double tick = magnitude;
    for (const double f : { 1.0, 2.0, 5.0, 10.0 })
        if (magnitude * f >= raw) {
            tick = magnitude * f;
            break;
        }
    painter.setPen(QColor(0x55, 0x55, 0x55));
    painter.drawLine(g.plot.bottomLeft() + QPoint(0, 1), g.plot.bottomRight() + QPoint(0, 1));
    for (double t = std::ceil(t0 / tick) * tick; t <= t1; t += tick) {
        const int x = g.plot.left() + static_cast<int>((t - t0) / (t1 - t0) * g.plot.width());
        painter.drawLine(x, g.plot.bottom() + 1, x, g.plot.bottom() + 5);
        painter.drawText(QRect(x - 60, g.plot.bottom() + 6, 120, lineHeight),
            Qt::AlignHCenter | Qt::AlignTop, timeLabel(t));
    }
    // Legend.
    const int ly = g.plot.bottom() + layout.axisHeight;
    int x = g.plot.left();
    auto swatch = [&](const QColor& color, const QString& text) {
        painter.fillRect(QRect(x, ly + 5, 12, 12), color);
        painter.setPen(QColor(0x99, 0x99, 0x99));
        painter.drawRect(QRect(x, ly + 5, 12, 12));
        painter.setPen(QColor(0x33, 0x33, 0x33));
        painter.drawText(QPoint(x + 16, ly + 15), text);
        x += 24 + painter.fontMetrics().horizontalAdvance(text);
    };
    if (m_coloring == OverviewColoring::Utilization) {
        for (const int p : { 0, 25, 50, 70, 85, 100 })
            swatch(utilizationColor(p), QStringLiteral("%1 %").arg(p));
    } else {
        swatch(EntryPalette::idleColor(), QObject::tr("idle"));
        swatch(EntryPalette::overheadColor(), QObject::tr("overhead"));
        painter.setPen(QColor(0x55, 0x55, 0x55));
        painter.drawText(
            QPoint(x, ly + 15), QObject::tr("entry methods in their colours (hover for names)"));
    }
    // Drag band.
    if (m_dragStart && m_dragNow) {
        const int a = std::min(*m_dragStart, *m_dragNow);
        const int b = std::max(*m_dragStart, *m_dragNow);
        painter.fillRect(QRect(a, g.plot.top(), b - a, g.plot.height()), QColor(66, 133, 244, 60));
    }
}

void OverviewCanvas::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    paintAll(painter, size());
}

QString OverviewCanvas::toolTipAt(QPoint p) const
{
    if (m_overview == nullptr || !m_trace)
        return {};
    const auto g = geometryFor(size());
    const auto cell = g.cellAt(p);
    if (!cell)
        return {};
    const auto& o = *m_overview;
    const auto index = o.index(cell->first, cell->second);
    return QObject::tr("<b>PE %1</b><br>%2 – %3<br>utilization %4 %<br>idle %5 %<br>most time: %6")
        .arg(o.pes[cell->first])
        .arg(timeLabel(static_cast<double>(o.grid.begin(cell->second))),
            timeLabel(static_cast<double>(o.grid.end(cell->second))))
        .arg(static_cast<double>(o.utilization[index]), 0, 'f', 1)
        .arg(static_cast<double>(o.idle[index]), 0, 'f', 1)
        .arg(activityName(*m_trace, o.columns, o.dominant[index]).toHtmlEscaped());
}

bool OverviewCanvas::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const auto text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

void OverviewCanvas::mousePressEvent(QMouseEvent* e)
{
    if (e->button() == Qt::LeftButton) {
        m_dragStart = e->position().toPoint().x();
        m_dragNow = m_dragStart;
    }
}

void OverviewCanvas::mouseMoveEvent(QMouseEvent* e)
{
    if (m_dragStart) {
        m_dragNow = e->position().toPoint().x();
        update();
    }
}

void OverviewCanvas::mouseReleaseEvent(QMouseEvent* e)
{
    if (!m_dragStart)
        return;
    const int start = *m_dragStart;
    const int end = e->position().toPoint().x();
    m_dragStart.reset();
    m_dragNow.reset();
    update();
    const auto g = geometryFor(size());
    if (std::abs(end - start) < 4) {
        // A click: the PE of that row.
        if (const auto cell = g.cellAt(e->position().toPoint()); cell && m_overview != nullptr)
            emit rowClicked(m_overview->pes[cell->first]);
        return;
    }
    emit rangeDragged(g.columnAt(std::min(start, end)), g.columnAt(std::max(start, end)),
        e->position().toPoint());
}

OverviewView::OverviewView(EntryPalette* palette, QWidget* parent)
    : AnalysisView(ViewKind::Overview, palette, parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_options = new OptionsBar(this);
    m_columns = m_options->addField(
        tr("Columns"), QStringLiteral("1000"), [](const QString& text) -> std::optional<QString> {
            bool ok = false;
            const int n = text.toInt(&ok);
            if (!ok || n < 1 || n > 20000)
                return tr("Columns: a number from 1 to 20000");
            return std::nullopt;
        });
    m_coloring
        = m_options->addChoice(tr("Colour by"), { tr("Dominant activity"), tr("Utilization") });
    m_canvas = new OverviewCanvas(palette, this);
    m_computation = new AsyncComputation(this);
    layout->addWidget(m_options);
    layout->addWidget(m_canvas, 1);
    connect(m_options, &OptionsBar::applied, this, [this]() {
        recompute();
        emit selectionChanged(m_options->range(), m_options->pes());
    });
    connect(m_coloring, &QComboBox::currentIndexChanged, this, [this](int index) {
        setColoring(
            index == 1 ? OverviewColoring::Utilization : OverviewColoring::DominantActivity);
    });
    connect(m_computation, &AsyncComputation::busyChanged, m_canvas, &OverviewCanvas::setBusy);
    connect(m_canvas, &OverviewCanvas::rowClicked, this,
        [this](core::PeId pe) { emit timelineRequested({ pe }, m_options->range()); });
    connect(m_canvas, &OverviewCanvas::rangeDragged, this, [this](double c0, double c1, QPoint at) {
        if (!m_overview)
            return;
        const auto& grid = m_overview->grid;
        const core::TimeRange range { grid.origin
                + static_cast<core::TimeUs>(c0 * static_cast<double>(grid.size)),
            grid.origin + static_cast<core::TimeUs>(c1 * static_cast<double>(grid.size)) };
        if (range.empty())
            return;
        QMenu menu(this);
        menu.addAction(tr("Zoom to %1 – %2")
                           .arg(timeLabel(static_cast<double>(range.begin)),
                               timeLabel(static_cast<double>(range.end))),
            this, [this, range]() {
                m_options->setRange(range);
                recompute();
                emit selectionChanged(range, m_options->pes());
            });
        auto* open = menu.addMenu(tr("Open range in"));
        for (const auto kind : { ViewKind::TimeProfile, ViewKind::UsageProfile, ViewKind::Histogram,
                 ViewKind::Communication, ViewKind::Extrema, ViewKind::Timeline })
            open->addAction(viewTitle(kind), this,
                [this, kind, range]() { emit openRangeRequested(kind, range, m_options->pes()); });
        menu.exec(m_canvas->mapToGlobal(at));
    });
}

void OverviewView::setTrace(core::TracePtr trace)
{
    m_trace = std::move(trace);
    m_overview.reset();
    m_options->setTrace(m_trace);
    m_canvas->setData(m_trace, nullptr, OverviewColoring::DominantActivity);
    recompute();
}

void OverviewView::setSelection(core::TimeRange range, std::vector<core::PeId> pes)
{
    if (!range.empty())
        m_options->setRange(range);
    m_options->setPes(pes);
    recompute();
}

bool OverviewView::busy() const
{
    return m_computation->busy();
}

void OverviewView::setColoring(OverviewColoring coloring)
{
    m_coloring->setCurrentIndex(coloring == OverviewColoring::Utilization ? 1 : 0);
    m_canvas->setData(m_trace, m_overview ? &*m_overview : nullptr, coloring);
}

void OverviewView::recompute()
{
    if (!m_trace) {
        m_computation->cancel();
        return;
    }
    core::analysis::AnalysisRequest request;
    request.range = m_options->range();
    request.pes = m_options->pes();
    core::analysis::OverviewOptions options;
    options.columns = m_columns->text().toInt();
    auto trace = m_trace;
    m_computation->run<std::optional<core::analysis::Overview>>(
        [trace, request, options](const core::analysis::Progress& progress) {
            return core::analysis::computeOverview(*trace, request, options, progress);
        },
        [this](std::optional<core::analysis::Overview> result) {
            if (!result)
                return;
            m_overview = std::move(result);
            m_canvas->setData(m_trace, &*m_overview,
                m_coloring->currentIndex() == 1 ? OverviewColoring::Utilization
                                                : OverviewColoring::DominantActivity);
            emit computed();
        });
}

QImage OverviewView::renderChart(QSize size)
{
    if (size.isEmpty())
        size = m_canvas->isVisible() ? m_canvas->size() : QSize(1200, 700);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    m_canvas->paintAll(painter, size);
    return image;
}

QString OverviewView::csv() const
{
    QString out = QStringLiteral("pe,column,begin_us,end_us,dominant,utilization_pct,idle_pct\n");
    if (!m_overview)
        return out;
    const auto& o = *m_overview;
    for (std::size_t k = 0; k < o.pes.size(); ++k)
        for (std::int64_t i = 0; i < o.grid.count; ++i) {
            const auto index = o.index(k, i);
            if (o.utilization[index] == 0.0F && o.idle[index] == 0.0F)
                continue;
            out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7\n")
                       .arg(o.pes[k])
                       .arg(i + o.grid.firstIndex)
                       .arg(o.grid.begin(i))
                       .arg(o.grid.end(i))
                       .arg(QString::fromStdString(o.columns.name(o.dominant[index])))
                       .arg(static_cast<double>(o.utilization[index]), 0, 'g', 6)
                       .arg(static_cast<double>(o.idle[index]), 0, 'g', 6);
        }
    return out;
}

bool OverviewView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    for (const auto& [name, value] : options) {
        if (name == QStringLiteral("columns")) {
            m_columns->setText(value);
        } else {
            if (error != nullptr)
                *error = tr("the overview view has no option --%1").arg(name);
            return false;
        }
    }
    if (!m_options->apply()) {
        if (error != nullptr)
            *error = m_options->errorText();
        return false;
    }
    return true;
}

} // namespace parallax::views
