#include "timeline_view.h"

#include "core/text_args.h"
#include "entry_palette.h"
#include "options_bar.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace parallax::views {

namespace {

constexpr int kLabelWidth = 64;
constexpr int kRulerHeight = 26;
constexpr int kRowHeight = 24;
constexpr int kRowGap = 6;
constexpr int kMargin = 8;
constexpr core::TimeUs kArrowTolerance = 100; // µs a send may appear after its receive (clock skew)

QString duration(core::TimeUs us)
{
    return QString::fromStdString(core::formatDuration(us));
}

} // namespace

TimelineCanvas::TimelineCanvas(EntryPalette* palette, QWidget* parent)
    : QWidget(parent)
    , m_palette(palette)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(320, 120);
    connect(palette, &EntryPalette::changed, this, qOverload<>(&QWidget::update));
}

void TimelineCanvas::setTrace(core::TracePtr trace)
{
    m_trace = std::move(trace);
    m_pes.clear();
    m_pick.reset();
    fit();
}

void TimelineCanvas::setPes(std::vector<core::PeId> pes)
{
    m_pes = std::move(pes);
    if (m_pick && std::find(m_pes.begin(), m_pes.end(), m_pick->pe) == m_pes.end())
        m_pick.reset();
    updateGeometry();
    update();
}

void TimelineCanvas::setWindow(core::TimeRange window)
{
    if (window.end - window.begin < 2)
        window.end = window.begin + 2; // at least a couple of microseconds
    m_window = window;
    update();
    emit windowChanged(m_window);
}

void TimelineCanvas::fit()
{
    setWindow({ 0, m_trace ? std::max<core::TimeUs>(m_trace->endTime(), 2) : 2 });
}

void TimelineCanvas::zoom(double factor, double anchorX)
{
    const double t = static_cast<double>(timeAt(anchorX, size()));
    const double b = t - (t - static_cast<double>(m_window.begin)) * factor;
    const double e = t + (static_cast<double>(m_window.end) - t) * factor;
    setWindow({ static_cast<core::TimeUs>(std::floor(std::max(b, -1e15))),
        static_cast<core::TimeUs>(std::ceil(e)) });
}

double TimelineCanvas::xOf(core::TimeUs t, QSize size) const
{
    const double width = std::max(size.width() - kLabelWidth - 2 * kMargin, 1);
    return kMargin + kLabelWidth
        + static_cast<double>(t - m_window.begin) * width / static_cast<double>(m_window.length());
}

core::TimeUs TimelineCanvas::timeAt(double x, QSize size) const
{
    const double width = std::max(size.width() - kLabelWidth - 2 * kMargin, 1);
    return m_window.begin
        + static_cast<core::TimeUs>(std::llround(
            (x - kMargin - kLabelWidth) * static_cast<double>(m_window.length()) / width));
}

int TimelineCanvas::rowTop(std::size_t row) const
{
    return kMargin + kRulerHeight + static_cast<int>(row) * (kRowHeight + kRowGap);
}

std::optional<std::size_t> TimelineCanvas::rowAt(int y) const
{
    for (std::size_t r = 0; r < m_pes.size(); ++r)
        if (y >= rowTop(r) && y < rowTop(r) + kRowHeight)
            return r;
    return std::nullopt;
}

std::optional<std::size_t> TimelineCanvas::executionAt(
    core::PeId pe, core::TimeUs t, core::TimeUs slack) const
{
    if (!m_trace || pe < 0 || static_cast<std::size_t>(pe) >= m_trace->pes.size())
        return std::nullopt;
    const auto& p = m_trace->pes[static_cast<std::size_t>(pe)];
    const auto range = p.executionsOverlapping(t - slack, t + slack + 1);
    std::optional<std::size_t> best;
    core::TimeUs bestDistance = 0;
    for (auto k = range.first; k < range.last; ++k) {
        const auto& ex = p.executions;
        const core::TimeUs distance
            = t < ex.begin[k] ? ex.begin[k] - t : (t >= ex.end[k] ? t - ex.end[k] : 0);
        if (!best || distance < bestDistance) {
            best = k;
            bestDistance = distance;
        }
    }
    return best;
}

QRect TimelineCanvas::blockRectAt(core::PeId pe, core::TimeUs time) const
{
    const auto row = std::find(m_pes.begin(), m_pes.end(), pe);
    if (row == m_pes.end())
        return {};
    const auto k = executionAt(pe, time, 0);
    if (!k)
        return {};
    const auto& ex = m_trace->pes[static_cast<std::size_t>(pe)].executions;
    const int x0 = static_cast<int>(std::floor(xOf(ex.begin[*k], size())));
    const int x1 = static_cast<int>(std::ceil(xOf(ex.end[*k], size())));
    return QRect(x0, rowTop(static_cast<std::size_t>(row - m_pes.begin())), std::max(x1 - x0, 1),
        kRowHeight);
}

bool TimelineCanvas::selectAt(core::PeId pe, core::TimeUs time)
{
    const auto k = executionAt(pe, time, 0);
    if (!k) {
        m_pick.reset();
        update();
        return false;
    }
    TimelinePick pick;
    pick.pe = pe;
    pick.execution = *k;
    const auto& ex = m_trace->pes[static_cast<std::size_t>(pe)].executions;
    pick.senderPe = ex.sourcePe[*k];
    const auto eventId = ex.eventId[*k];
    // The sender's CREATION with this event id (FORMAT.md §2.3): the latest one at or before the
    // block's begin (plus a small skew tolerance); a later one is a stale id and no arrow is drawn.
    if (pick.senderPe >= 0 && static_cast<std::size_t>(pick.senderPe) < m_trace->pes.size()
        && eventId >= 0) {
        const auto& sends = m_trace->pes[static_cast<std::size_t>(pick.senderPe)].sends;
        const auto limit = ex.begin[*k] + kArrowTolerance;
        for (std::size_t s = 0; s < sends.size() && sends.time[s] <= limit; ++s)
            if (sends.eventId[s] == eventId)
                pick.send = s;
        if (pick.send) {
            const auto& meta = m_trace->metadata;
            const bool thread = meta.entryName(ex.entry[*k]) == "dummy_thread_ep";
            pick.weak = thread || sends.entry[*pick.send] != ex.entry[*k];
        }
    }
    m_pick = pick;
    update();
    if (pick.send && std::find(m_pes.begin(), m_pes.end(), pick.senderPe) == m_pes.end())
        emit senderMissing(pick.senderPe);
    return true;
}

void TimelineCanvas::paintAll(QPainter& painter, QSize size) const
{
    painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    if (!m_trace) {
        painter.setPen(QColor(0x77, 0x77, 0x77));
        painter.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter, tr("No run loaded"));
        return;
    }
    const int plotLeft = kMargin + kLabelWidth;
    const int plotRight = size.width() - kMargin;
    // Ruler: about one tick per 120 px.
    const double raw
        = static_cast<double>(m_window.length()) / std::max(1.0, (plotRight - plotLeft) / 120.0);
    const double magnitude = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
    double tick = magnitude;
    for (const double f : { 1.0, 2.0, 5.0, 10.0 })
        if (magnitude * f >= raw) {
            tick = magnitude * f;
            break;
        }
    painter.setPen(QColor(0x55, 0x55, 0x55));
    painter.drawLine(plotLeft, kMargin + kRulerHeight - 4, plotRight, kMargin + kRulerHeight - 4);
    for (double t = std::ceil(static_cast<double>(m_window.begin) / tick) * tick;
         t <= static_cast<double>(m_window.end); t += tick) {
        const int x = static_cast<int>(xOf(static_cast<core::TimeUs>(t), size));
        painter.setPen(QColor(0xe4, 0xe4, 0xe4));
        painter.drawLine(x, kMargin + kRulerHeight - 4, x, size.height() - kMargin);
        painter.setPen(QColor(0x55, 0x55, 0x55));
        painter.drawText(QRect(x - 60, kMargin, 120, kRulerHeight - 6),
            Qt::AlignHCenter | Qt::AlignBottom, duration(static_cast<core::TimeUs>(t)));
    }
    painter.setClipRect(QRect(0, kMargin + kRulerHeight - 3, size.width(), size.height()));
    const auto& meta = m_trace->metadata;
    core::analysis::ActivityColumns columns;
    columns.entryCount = static_cast<int>(meta.entries.size());
    for (std::size_t r = 0; r < m_pes.size(); ++r) {
        const auto pe = m_pes[r];
        const int top = rowTop(r);
        if (top > size.height())
            break;
        painter.setPen(QColor(0x33, 0x33, 0x33));
        const QString label
            = meta.isCommThread(pe) ? tr("PE %1 (comm)").arg(pe) : tr("PE %1").arg(pe);
        painter.drawText(QRect(kMargin, top, kLabelWidth - 6, kRowHeight),
            Qt::AlignRight | Qt::AlignVCenter, label);
        painter.fillRect(
            QRect(plotLeft, top, plotRight - plotLeft, kRowHeight), QColor(0xfa, 0xfa, 0xfa));
        if (pe < 0 || static_cast<std::size_t>(pe) >= m_trace->pes.size())
            continue;
        const auto& p = m_trace->pes[static_cast<std::size_t>(pe)];
        painter.setClipRect(QRect(plotLeft, top, plotRight - plotLeft, kRowHeight));
        // Idle: pale, low.
        const auto idles = p.idlesOverlapping(m_window.begin, m_window.end);
        for (auto k = idles.first; k < idles.last; ++k) {
            const double x0 = xOf(p.idles.begin[k], size);
            const double x1 = std::max(xOf(p.idles.end[k], size), x0 + 1);
            painter.fillRect(QRectF(x0, top + kRowHeight * 0.6, x1 - x0, kRowHeight * 0.4),
                EntryPalette::idleColor().darker(110));
        }
        // Executions: sub-pixel blocks share their pixel column (the longest wins).
        const auto execs = p.executionsOverlapping(m_window.begin, m_window.end);
        int lastPixel = -1;
        core::TimeUs lastDuration = 0;
        for (auto k = execs.first; k < execs.last; ++k) {
            const double x0 = xOf(p.executions.begin[k], size);
            const double x1 = xOf(p.executions.end[k], size);
            const core::TimeUs d = p.executions.end[k] - p.executions.begin[k];
            const int pixel = static_cast<int>(std::floor(x0));
            if (x1 - x0 < 1.0 && pixel == lastPixel && d <= lastDuration)
                continue;
            lastPixel = static_cast<int>(std::floor(x1));
            lastDuration = d;
            const QColor color = m_palette->color(columns, p.executions.entry[k]);
            painter.fillRect(QRectF(x0, top, std::max(x1 - x0, 1.0), kRowHeight), color);
        }
        // Pack/unpack: thin dark marks at the top of the row.
        for (const auto* c : { &p.packs, &p.unpacks }) {
            const auto r2 = core::overlappingRange(c->begin, c->end, m_window.begin, m_window.end);
            for (auto k = r2.first; k < r2.last; ++k) {
                const double x0 = xOf(c->begin[k], size);
                painter.fillRect(QRectF(x0, top, std::max(xOf(c->end[k], size) - x0, 1.0), 3),
                    c == &p.packs ? EntryPalette::packColor() : EntryPalette::unpackColor());
            }
        }
        painter.setClipRect(QRect(0, kMargin + kRulerHeight - 3, size.width(), size.height()));
    }
    painter.setClipping(false);
    // Selection and the message arrow from its sender.
    if (m_pick) {
        const auto row = std::find(m_pes.begin(), m_pes.end(), m_pick->pe);
        const auto& ex = m_trace->pes[static_cast<std::size_t>(m_pick->pe)].executions;
        if (row != m_pes.end()) {
            const int top = rowTop(static_cast<std::size_t>(row - m_pes.begin()));
            const double x0 = xOf(ex.begin[m_pick->execution], size);
            const double x1 = std::max(xOf(ex.end[m_pick->execution], size), x0 + 2);
            painter.setPen(QPen(QColor(0x11, 0x11, 0x11), 2));
            painter.drawRect(QRectF(x0, top, x1 - x0, kRowHeight));
            const auto senderRow = std::find(m_pes.begin(), m_pes.end(), m_pick->senderPe);
            if (m_pick->send && senderRow != m_pes.end()) {
                const auto& sends = m_trace->pes[static_cast<std::size_t>(m_pick->senderPe)].sends;
                const QPointF from(xOf(sends.time[*m_pick->send], size),
                    rowTop(static_cast<std::size_t>(senderRow - m_pes.begin())) + kRowHeight / 2.0);
                const QPointF to(x0, top + kRowHeight / 2.0);
                painter.setRenderHint(QPainter::Antialiasing, true);
                QPen pen(QColor(0xd6, 0x27, 0x28), 2);
                if (m_pick->weak)
                    pen.setStyle(Qt::DashLine);
                painter.setPen(pen);
                painter.drawLine(from, to);
                const double angle = std::atan2(to.y() - from.y(), to.x() - from.x());
                QPainterPath head;
                head.moveTo(to);
                head.lineTo(to - QPointF(std::cos(angle - 0.4) * 9, std::sin(angle - 0.4) * 9));
                head.lineTo(to - QPointF(std::cos(angle + 0.4) * 9, std::sin(angle + 0.4) * 9));
                head.closeSubpath();
                painter.fillPath(head, pen.color());
                painter.setRenderHint(QPainter::Antialiasing, false);
            }
        }
    }
}

void TimelineCanvas::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    paintAll(painter, size());
    if (m_press && m_selecting) {
        const int a = std::min(m_press->x(), m_selectionEnd);
        const int b = std::max(m_press->x(), m_selectionEnd);
        painter.fillRect(
            QRect(a, kMargin + kRulerHeight - 3, b - a, height()), QColor(66, 133, 244, 60));
    }
}

QString TimelineCanvas::toolTipAt(QPoint p) const
{
    const auto row = rowAt(p.y());
    if (!row || !m_trace)
        return {};
    const auto pe = m_pes[*row];
    const auto pixel
        = std::max<core::TimeUs>(1, m_window.length() / std::max(width() - kLabelWidth, 1));
    const auto k = executionAt(pe, timeAt(p.x(), size()), pixel);
    if (!k)
        return {};
    const auto& ex = m_trace->pes[static_cast<std::size_t>(pe)].executions;
    const auto& meta = m_trace->metadata;
    return tr("<b>%1</b><br>chare %2<br>PE %3, begin %4, duration %5<br>from PE %6, %7 bytes")
        .arg(QString::fromStdString(meta.entryName(ex.entry[*k])).toHtmlEscaped(),
            QString::fromStdString(meta.chareNameOfEntry(ex.entry[*k])).toHtmlEscaped())
        .arg(pe)
        .arg(duration(ex.begin[*k]), duration(ex.end[*k] - ex.begin[*k]))
        .arg(ex.sourcePe[*k])
        .arg(ex.msgBytes[*k]);
}

bool TimelineCanvas::event(QEvent* e)
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

void TimelineCanvas::wheelEvent(QWheelEvent* e)
{
    const double steps = e->angleDelta().y() / 120.0;
    if (steps != 0.0)
        zoom(std::pow(0.8, steps), e->position().x());
    e->accept();
}

void TimelineCanvas::mousePressEvent(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton)
        return;
    m_press = e->position().toPoint();
    m_pressWindow = m_window;
    m_dragged = false;
    // Shift+drag selects a time range (to zoom to or open in another view); a plain drag pans.
    m_selecting = (e->modifiers() & Qt::ShiftModifier) != 0;
    m_selectionEnd = m_press->x();
}

void TimelineCanvas::mouseMoveEvent(QMouseEvent* e)
{
    if (!m_press)
        return;
    const int dx = e->position().toPoint().x() - m_press->x();
    if (std::abs(dx) > 3)
        m_dragged = true;
    if (m_selecting) {
        m_selectionEnd = e->position().toPoint().x();
        update();
        return;
    }
    if (m_dragged) {
        const double width = std::max(this->width() - kLabelWidth - 2 * kMargin, 1);
        const auto shift = static_cast<core::TimeUs>(
            std::llround(dx * static_cast<double>(m_pressWindow.length()) / width));
        setWindow({ m_pressWindow.begin - shift, m_pressWindow.end - shift });
    }
}

void TimelineCanvas::mouseReleaseEvent(QMouseEvent* e)
{
    if (m_press && m_selecting && m_dragged) {
        const int a = std::min(m_press->x(), m_selectionEnd);
        const int b = std::max(m_press->x(), m_selectionEnd);
        const core::TimeRange range { timeAt(a, size()), timeAt(b, size()) };
        m_press.reset();
        m_selecting = false;
        update();
        if (!range.empty())
            emit rangeSelected(range, e->position().toPoint());
        return;
    }
    if (m_press && !m_dragged) {
        if (const auto row = rowAt(e->position().toPoint().y()))
            selectAt(m_pes[*row], timeAt(e->position().x(), size()));
    }
    m_press.reset();
    m_selecting = false;
    update();
}

void TimelineCanvas::keyPressEvent(QKeyEvent* e)
{
    const double centre = kMargin + kLabelWidth + (width() - kLabelWidth - 2 * kMargin) / 2.0;
    const auto quarter = m_window.length() / 4;
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoom(0.5, centre);
        break;
    case Qt::Key_Minus:
        zoom(2.0, centre);
        break;
    case Qt::Key_Left:
        setWindow({ m_window.begin - quarter, m_window.end - quarter });
        break;
    case Qt::Key_Right:
        setWindow({ m_window.begin + quarter, m_window.end + quarter });
        break;
    case Qt::Key_Home:
        fit();
        break;
    default:
        QWidget::keyPressEvent(e);
    }
}

TimelineView::TimelineView(EntryPalette* palette, QWidget* parent)
    : AnalysisView(ViewKind::Timeline, palette, parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_options = new OptionsBar(this);
    m_loadSender = new QToolButton(m_options);
    m_loadSender->hide();
    m_canvas = new TimelineCanvas(palette, this);
    layout->addWidget(m_options);
    layout->addWidget(m_loadSender);
    layout->addWidget(m_canvas, 1);
    connect(m_options, &OptionsBar::applied, this, [this]() {
        m_canvas->setWindow(m_options->range());
        if (!m_options->pes().empty())
            m_canvas->setPes(m_options->pes());
        emit selectionChanged(m_options->range(), m_canvas->pes());
    });
    connect(m_canvas, &TimelineCanvas::windowChanged, this, [this](core::TimeRange window) {
        const QSignalBlocker block(m_options);
        m_options->setRange(window);
    });
    connect(
        m_canvas, &TimelineCanvas::rangeSelected, this, [this](core::TimeRange range, QPoint at) {
            QMenu menu(this);
            menu.addAction(tr("Zoom to %1 – %2")
                               .arg(QString::fromStdString(core::formatDuration(range.begin)),
                                   QString::fromStdString(core::formatDuration(range.end))),
                this, [this, range]() { m_canvas->setWindow(range); });
            auto* open = menu.addMenu(tr("Open range in"));
            for (const auto kind :
                { ViewKind::Overview, ViewKind::TimeProfile, ViewKind::UsageProfile,
                    ViewKind::Histogram, ViewKind::Communication, ViewKind::Extrema })
                open->addAction(viewTitle(kind), this, [this, kind, range]() {
                    emit openRangeRequested(kind, range, m_canvas->pes());
                });
            menu.exec(m_canvas->mapToGlobal(at));
        });
    connect(m_canvas, &TimelineCanvas::senderMissing, this, [this](core::PeId pe) {
        m_loadSender->setText(tr("Load PE %1 to see the message's sender").arg(pe));
        m_loadSender->show();
        disconnect(m_loadSender, nullptr, this, nullptr);
        connect(m_loadSender, &QToolButton::clicked, this, [this, pe]() {
            addPes({ pe });
            m_loadSender->hide();
        });
    });
}

void TimelineView::setTrace(core::TracePtr trace)
{
    m_trace = std::move(trace);
    m_options->setTrace(m_trace);
    m_canvas->setTrace(m_trace);
    m_loadSender->hide();
    // Opened on its own, the timeline shows the first few PEs; the first PEs asked for by
    // another view replace them.
    if (m_trace) {
        const auto valid = m_trace->validPes();
        m_canvas->setPes({ valid.begin(),
            valid.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(valid.size(), 4)) });
        syncOptions();
    }
    m_showingDefault = true;
}

void TimelineView::addPes(const std::vector<core::PeId>& pes)
{
    if (pes.empty())
        return;
    auto shown = m_showingDefault ? std::vector<core::PeId> {} : m_canvas->pes();
    m_showingDefault = false;
    for (auto pe : pes)
        if (m_trace && pe >= 0 && pe < m_trace->metadata.processors
            && std::find(shown.begin(), shown.end(), pe) == shown.end())
            shown.push_back(pe);
    m_canvas->setPes(shown);
    syncOptions();
}

const std::vector<core::PeId>& TimelineView::loadedPes() const
{
    return m_canvas->pes();
}

void TimelineView::syncOptions()
{
    auto sorted = m_canvas->pes();
    std::sort(sorted.begin(), sorted.end());
    const QSignalBlocker block(m_options);
    m_options->setPes(sorted);
}

void TimelineView::setSelection(core::TimeRange range, std::vector<core::PeId> pes)
{
    addPes(pes);
    if (!range.empty())
        m_canvas->setWindow(range);
}

QImage TimelineView::renderChart(QSize size)
{
    if (size.isEmpty())
        size = m_canvas->isVisible() ? m_canvas->size() : QSize(1200, 700);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    m_canvas->paintAll(painter, size);
    return image;
}

QString TimelineView::csv() const
{
    QString out = QStringLiteral("pe,begin_us,end_us,kind,entry,entry_name,source_pe,msg_bytes\n");
    if (!m_trace)
        return out;
    const auto window = m_canvas->window();
    auto quote = [](const std::string& s) {
        QString q = QString::fromStdString(s);
        if (q.contains(QLatin1Char(',')) || q.contains(QLatin1Char('"')))
            q = QLatin1Char('"') + q.replace(QLatin1Char('"'), QStringLiteral("\"\""))
                + QLatin1Char('"');
        return q;
    };
    for (const auto pe : m_canvas->pes()) {
        if (pe < 0 || static_cast<std::size_t>(pe) >= m_trace->pes.size())
            continue;
        const auto& p = m_trace->pes[static_cast<std::size_t>(pe)];
        const auto execs = p.executionsOverlapping(window.begin, window.end);
        for (auto k = execs.first; k < execs.last; ++k)
            out += QStringLiteral("%1,%2,%3,exec,%4,%5,%6,%7\n")
                       .arg(pe)
                       .arg(p.executions.begin[k])
                       .arg(p.executions.end[k])
                       .arg(p.executions.entry[k])
                       .arg(quote(m_trace->metadata.entryName(p.executions.entry[k])))
                       .arg(p.executions.sourcePe[k])
                       .arg(p.executions.msgBytes[k]);
        const std::pair<const core::IntervalColumns*, const char*> others[]
            = { { &p.idles, "idle" }, { &p.packs, "pack" }, { &p.unpacks, "unpack" } };
        for (const auto& [c, kind] : others) {
            const auto r = core::overlappingRange(c->begin, c->end, window.begin, window.end);
            for (auto k = r.first; k < r.last; ++k)
                out += QStringLiteral("%1,%2,%3,%4,,,,\n")
                           .arg(pe)
                           .arg(c->begin[k])
                           .arg(c->end[k])
                           .arg(QLatin1String(kind));
        }
    }
    return out;
}

} // namespace parallax::views
