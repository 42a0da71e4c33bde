#include "views/animation/animation_view.h"

#include "core/text_args.h"
#include "views/common/async_computation.h"
#include "views/common/chart_style.h"
#include "views/common/heat_map_chart.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <vector>

namespace parallax::views {

namespace {

constexpr int kMaxFrames = 2000;
constexpr int kDefaultFps = 5;
constexpr double kFirstBusyPercent = 1.0; // the view opens on the first frame this busy
const int kSpeeds[] = { 1, 2, 5, 10, 20, 30 };

QString percentText(double v)
{
    return QLocale().toString(v, 'f', 1) + QStringLiteral(" %");
}

} // namespace

// Every frame's mean utilization as a bar on the ramp, the frame shown outlined; pressing or
// dragging picks a frame (`pick`).
class FrameStrip : public QWidget {
public:
    FrameStrip(std::function<void(int)> pick, QWidget* parent)
        : QWidget(parent)
        , m_pick(std::move(pick))
    {
        setMinimumHeight(26);
        setMouseTracking(true);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }
    // Means of each frame (NaN: no data), the frame shown, and each frame's tooltip.
    void set(std::vector<double> means, int current, std::function<QString(int)> describe)
    {
        m_means = std::move(means);
        m_current = current;
        m_describe = std::move(describe);
        update();
    }
    void setCurrent(int current)
    {
        m_current = current;
        update();
    }
    [[nodiscard]] int frameAt(int x) const
    {
        const auto n = static_cast<int>(m_means.size());
        if (n == 0 || width() <= 0)
            return -1;
        return std::clamp(x * n / std::max(width(), 1), 0, n - 1);
    }
    [[nodiscard]] QSize sizeHint() const override { return { 400, 26 }; }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        const ChartStyle style = screenChartStyle(palette(), 0.42, 0.85);
        painter.fillRect(rect(), style.background);
        const auto n = static_cast<int>(m_means.size());
        for (int f = 0; f < n; ++f) {
            const int left = f * width() / n;
            const int right = std::max((f + 1) * width() / n, left + 1);
            const double mean = m_means[static_cast<std::size_t>(f)];
            if (std::isnan(mean)) {
                painter.fillRect(QRect(left, height() - 3, right - left, 3), noDataCellColor());
                continue;
            }
            const int h = std::max(2, static_cast<int>(std::lround(mean / 100.0 * (height() - 4))));
            painter.fillRect(
                QRect(left, height() - h, right - left, h), viridisColor(mean / 100.0));
        }
        if (m_current >= 0 && m_current < n) {
            const int left = m_current * width() / n;
            const int right = std::max((m_current + 1) * width() / n, left + 3);
            painter.setPen(QPen(QColor(0xd6, 0x27, 0x28), 2));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(QRect(left, 1, right - left, height() - 2));
        }
    }
    void mousePressEvent(QMouseEvent* event) override { pickAt(event->position().toPoint().x()); }
    void mouseMoveEvent(QMouseEvent* event) override
    {
        const int x = event->position().toPoint().x();
        if ((event->buttons() & Qt::LeftButton) != 0)
            pickAt(x);
        if (const int f = frameAt(x); f >= 0 && m_describe)
            QToolTip::showText(event->globalPosition().toPoint(), m_describe(f), this);
    }

private:
    void pickAt(int x)
    {
        if (const int f = frameAt(x); f >= 0 && m_pick)
            m_pick(f);
    }

    std::function<void(int)> m_pick;
    std::function<QString(int)> m_describe;
    std::vector<double> m_means;
    int m_current = -1;
};

PeGridLayout peGridLayout(
    const std::vector<core::PeId>& pes, const core::RunMetadata& metadata, double aspect)
{
    PeGridLayout l;
    const auto n = pes.size();
    if (n == 0)
        return l;
    // One row per node while the nodes are few and hold several PEs each.
    std::map<int, std::vector<std::size_t>> byNode;
    for (std::size_t k = 0; k < n; ++k)
        byNode[metadata.nodeOf(pes[k])].push_back(k);
    std::size_t widest = 0;
    for (const auto& [node, members] : byNode)
        widest = std::max(widest, members.size());
    if (metadata.smp && byNode.size() >= 2 && byNode.size() <= 64 && widest >= 2 && widest <= 256) {
        l.rows = byNode.size();
        l.columns = widest;
        l.cells.assign(l.rows * l.columns, -1);
        std::size_t row = 0;
        for (const auto& [node, members] : byNode) {
            l.rowLabels.push_back(QObject::tr("node %1").arg(node));
            for (std::size_t c = 0; c < members.size(); ++c)
                l.cells[row * l.columns + c] = static_cast<std::ptrdiff_t>(members[c]);
            ++row;
        }
    } else {
        l.columns = std::clamp<std::size_t>(
            static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(n) * aspect))), 1, n);
        l.rows = (n + l.columns - 1) / l.columns;
        l.cells.assign(l.rows * l.columns, -1);
        for (std::size_t k = 0; k < n; ++k)
            l.cells[k] = static_cast<std::ptrdiff_t>(k);
        for (std::size_t r = 0; r < l.rows; ++r)
            l.rowLabels.push_back(QObject::tr("PE %1").arg(pes[r * l.columns]));
    }
    for (std::size_t c = 0; c < l.columns; ++c)
        l.columnLabels.push_back(QStringLiteral("+%1").arg(c));
    return l;
}

AnimationView::AnimationView(EntryPalette* palette, QWidget* parent)
    : HeatMapView(ViewKind::Animation, palette, parent)
{
    const auto fields = m_options->addIntervalFields(
        tr("&Frames"), QStringLiteral("frames"), tr("Number of frames"), 50, kMaxFrames);
    m_interval = fields.interval;
    m_frames = fields.count;
    m_options->offerCommThreads(); // no idle records: always busy, shown only on request

    auto* controls = new QWidget(this);
    auto* row = new QHBoxLayout(controls);
    row->setContentsMargins(6, 2, 6, 2);
    auto button = [&](QStyle::StandardPixmap icon, const QString& tip, const char* name) {
        auto* b = new QToolButton(controls);
        b->setIcon(style()->standardIcon(icon));
        b->setToolTip(tip);
        b->setObjectName(QLatin1String(name));
        row->addWidget(b);
        return b;
    };
    m_back = button(QStyle::SP_MediaSeekBackward, tr("Previous frame (←)"), "previousFrame");
    m_play = button(QStyle::SP_MediaPlay, tr("Play or pause (Space)"), "play");
    m_forward = button(QStyle::SP_MediaSeekForward, tr("Next frame (→)"), "nextFrame");
    m_strip = new FrameStrip([this](int frame) { showFrame(frame); }, controls);
    m_strip->setObjectName(QStringLiteral("frameStrip"));
    m_strip->setToolTip(tr("Mean utilization of every frame: click or drag to go to a frame"));
    row->addWidget(m_strip, 1);
    m_position = new QLabel(controls);
    row->addWidget(m_position);
    row->addWidget(new QLabel(tr("Speed"), controls));
    m_speed = new QComboBox(controls);
    m_speed->setObjectName(QStringLiteral("speed"));
    for (const int fps : kSpeeds)
        m_speed->addItem(tr("%1 frames/s").arg(fps), fps);
    m_speed->setCurrentIndex(m_speed->findData(kDefaultFps));
    row->addWidget(m_speed);
    addControlRow(controls);

    m_timer = new QTimer(this);
    m_timer->setInterval(frameDelayMs());
    connect(m_timer, &QTimer::timeout, this, [this]() {
        if (m_frame + 1 >= frameCount())
            setPlaying(false);
        else
            showFrame(m_frame + 1);
    });
    connect(m_play, &QToolButton::clicked, this, [this]() { setPlaying(!playing()); });
    connect(m_back, &QToolButton::clicked, this, [this]() { showFrame(m_frame - 1); });
    connect(m_forward, &QToolButton::clicked, this, [this]() { showFrame(m_frame + 1); });
    connect(m_speed, &QComboBox::currentIndexChanged, this,
        [this]() { m_timer->setInterval(frameDelayMs()); });

    m_chart->setObjectName(QStringLiteral("animationChart"));
    m_chart->setHint(tr("Space: play · ←/→: step · click a PE: its timeline at this frame"));
    m_chart->setCellToolTip([this](HeatMapCell cell) {
        const auto pe = peAt(cell.row, cell.column);
        if (!pe || !m_result)
            return QString();
        const auto k
            = static_cast<std::size_t>(m_layout.cells[cell.row * m_layout.columns + cell.column]);
        const float v = m_result->at(m_frame, k);
        const auto range = frameRange(m_frame);
        return tr("PE %1%2\n%3 in %4 (frame %5 of %6)\nClick: PE %1 in the Timeline at this frame")
            .arg(*pe)
            .arg(m_trace && m_trace->metadata.smp
                    ? tr(" · node %1").arg(m_trace->metadata.nodeOf(*pe))
                    : QString())
            .arg(std::isnan(v) ? tr("not traced") : tr("%1 busy").arg(percentText(v)),
                formatTimeSpan(range))
            .arg(m_frame + 1)
            .arg(frameCount());
    });
    connect(m_chart, &HeatMapChart::cellClicked, this, [this](int r, int c) {
        if (r < 0 || c < 0)
            return;
        if (const auto pe = peAt(static_cast<std::size_t>(r), static_cast<std::size_t>(c)))
            emit timelineRequested({ *pe }, frameRange(m_frame));
    });
    connect(m_chart, &HeatMapChart::contextMenuRequested, this, [this](QPoint at, int r, int c) {
        std::vector<core::PeId> pes;
        if (r >= 0 && c >= 0)
            if (const auto pe = peAt(static_cast<std::size_t>(r), static_cast<std::size_t>(c)))
                pes.push_back(*pe);
        showMenu(at, pes, frameRange(m_frame));
    });
    updateControls();
    recompute();
}

AnimationView::~AnimationView() = default;

QWidget* AnimationView::frameStrip() const
{
    return m_strip;
}

int AnimationView::frameCount() const
{
    return m_result ? static_cast<int>(m_result->frameCount()) : 0;
}

int AnimationView::frameDelayMs() const
{
    const int fps = m_speed != nullptr ? m_speed->currentData().toInt() : kDefaultFps;
    return 1000 / std::max(fps, 1);
}

bool AnimationView::playing() const
{
    return m_timer->isActive();
}

void AnimationView::setPlaying(bool play)
{
    if (play && frameCount() > 1) {
        if (m_frame + 1 >= frameCount())
            showFrame(0); // from the start again
        m_timer->start(frameDelayMs());
    } else {
        m_timer->stop();
    }
    updateControls();
}

core::TimeRange AnimationView::frameRange(int frame) const
{
    if (!m_result)
        return m_options->range();
    return { m_result->grid.begin(frame), m_result->grid.end(frame) };
}

std::optional<core::PeId> AnimationView::peAt(std::size_t row, std::size_t column) const
{
    if (!m_result || row >= m_layout.rows || column >= m_layout.columns)
        return std::nullopt;
    const auto k = m_layout.cells[row * m_layout.columns + column];
    if (k < 0)
        return std::nullopt;
    return m_result->pes[static_cast<std::size_t>(k)];
}

void AnimationView::updateControls()
{
    const int frames = frameCount();
    m_play->setIcon(
        style()->standardIcon(playing() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    m_play->setEnabled(frames > 1);
    m_back->setEnabled(m_frame > 0);
    m_forward->setEnabled(m_frame + 1 < frames);
    m_strip->setEnabled(frames > 1);
    m_strip->setCurrent(frames > 0 ? m_frame : -1);
    m_position->setText(frames > 0 ? tr("%1 / %2").arg(m_frame + 1).arg(frames) : QString());
}

void AnimationView::showFrame(int frame)
{
    const int frames = frameCount();
    if (!m_result || !m_trace || frames <= 0)
        return;
    m_frame = std::clamp(frame, 0, frames - 1);
    const auto& r = *m_result;
    HeatMapData heat;
    heat.rows = m_layout.rows;
    heat.columns = m_layout.columns;
    heat.values.assign(heat.rows * heat.columns, -std::numeric_limits<double>::infinity());
    heat.cellLabels.resize(heat.values.size());
    for (std::size_t c = 0; c < m_layout.cells.size(); ++c)
        if (const auto k = m_layout.cells[c]; k >= 0) {
            heat.values[c] = static_cast<double>(r.at(m_frame, static_cast<std::size_t>(k)));
            heat.cellLabels[c] = tr("PE %1").arg(r.pes[static_cast<std::size_t>(k)]);
        }
    heat.rowAxis.labels = m_layout.rowLabels;
    heat.columnAxis.labels = m_layout.columnLabels;
    heat.unit = BarUnit::Percent;
    heat.legendTitle = tr("busy");
    heat.scale = heatScaleFor({}, false, false, 100.0);
    const auto range = frameRange(m_frame);
    const double mean = r.meanOf(m_frame);
    QString subtitle = tr("frame %1 of %2 · %3 · %4 PEs")
                           .arg(m_frame + 1)
                           .arg(frames)
                           .arg(formatTimeSpan(range))
                           .arg(QLocale().toString(static_cast<qlonglong>(r.pes.size())));
    if (!std::isnan(mean))
        subtitle += tr(" · mean %1 busy").arg(percentText(mean));
    m_chart->setTitle(
        tr("Animation: utilization at %1").arg(formatTime(static_cast<double>(range.begin))),
        subtitle);
    QStringList notes;
    if (r.fromSummaries)
        notes << tr("From the .sum files (the run has no logs)");
    if (!r.apart.empty())
        notes << tr("Comm threads (PE %1) left out: they have no idle records")
                     .arg(QString::fromStdString(core::formatPeList(r.apart)));
    m_chart->setFootnote(notes.join(QStringLiteral(" · ")));
    m_chart->setData(std::move(heat));
    updateControls();
}

QImage AnimationView::renderFrame(int frame, QSize size)
{
    const int shown = m_frame;
    showFrame(frame);
    QImage image = renderChart(size);
    showFrame(shown);
    return image;
}

void AnimationView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Space:
        setPlaying(!playing());
        return;
    case Qt::Key_Left:
        showFrame(m_frame - 1);
        return;
    case Qt::Key_Right:
        showFrame(m_frame + 1);
        return;
    case Qt::Key_Home:
        showFrame(0);
        return;
    case Qt::Key_End:
        showFrame(frameCount() - 1);
        return;
    default:
        HeatMapView::keyPressEvent(event);
    }
}

bool AnimationView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    std::optional<int> frame;
    for (const auto& [name, value] : options) {
        if (name == QStringLiteral("frames")) {
            m_frames->setText(value);
        } else if (name == QStringLiteral("interval")) {
            m_interval->setText(value);
        } else if (name == QStringLiteral("fps")) {
            const int index = m_speed->findData(value.toInt());
            if (index < 0) {
                if (error != nullptr)
                    *error = tr("--fps takes 1, 2, 5, 10, 20 or 30, got '%1'").arg(value);
                return false;
            }
            m_speed->setCurrentIndex(index);
        } else if (name == QStringLiteral("frame")) {
            bool ok = false;
            frame = value.toInt(&ok);
            if (!ok || *frame < 1) {
                if (error != nullptr)
                    *error = tr("--frame takes a frame number from 1, got '%1'").arg(value);
                return false;
            }
        } else {
            return rejectOption(name, error);
        }
    }
    if (!applyFields(error))
        return false;
    if (frame) {
        // Shown once the frames are computed (recompute starts at the first frame).
        connect(
            this, &AnalysisView::computed, this,
            [this, wanted = *frame - 1]() { showFrame(wanted); }, Qt::SingleShotConnection);
    }
    return true;
}

void AnimationView::clearResult()
{
    setPlaying(false);
    m_result.reset();
    m_frame = 0;
}

void AnimationView::recompute()
{
    setPlaying(false);
    m_chart->setTitle(tr("Animation"));
    m_chart->setFootnote({});
    if (showNothingToCompute({})) {
        m_result.reset();
        updateControls();
        return;
    }
    if (!m_trace->hasLogs() && !m_trace->hasSummaries()) {
        m_computation->cancel();
        m_result.reset();
        m_chart->clearData(tr("This run has neither logs nor summary files to take utilization "
                              "from"));
        updateControls();
        return;
    }
    const auto request = m_options->request();
    core::analysis::AnimationOptions options;
    if (!m_interval->text().trimmed().isEmpty())
        options.intervalSize
            = OptionsBar::parseTimeField(m_interval->text().trimmed(), nullptr).value_or(0);
    else
        options.frames = countFieldValue(m_frames->text(), 0);
    if (options.intervalSize > 0
        && core::analysis::gridForRange(request.range, options.intervalSize, 0).count
            > kMaxFrames) {
        m_computation->cancel();
        m_result.reset();
        m_chart->clearData(tooManyIntervalsText(options.intervalSize,
            core::analysis::gridForRange(request.range, options.intervalSize, 0).count));
        updateControls();
        return;
    }
    const auto trace = m_trace;
    m_computation->run<std::optional<core::analysis::UtilizationFrames>>(
        [trace, request, options](const core::analysis::Progress& progress) {
            return core::analysis::computeAnimation(*trace, request, options, progress);
        },
        [this](std::optional<core::analysis::UtilizationFrames> result) {
            m_result = std::move(result);
            m_frame = 0;
            if (m_result && m_trace) {
                const QSize plot = m_chart->size().isEmpty() ? QSize(1200, 700) : m_chart->size();
                m_layout = peGridLayout(m_result->pes, m_trace->metadata,
                    static_cast<double>(plot.width()) / std::max(plot.height(), 1));
            }
            std::vector<double> means;
            if (m_result)
                for (std::int64_t f = 0; f < m_result->frameCount(); ++f)
                    means.push_back(m_result->meanOf(f));
            m_strip->set(std::move(means), 0, [this](int f) {
                return tr("Frame %1: %2 · mean %3 busy")
                    .arg(f + 1)
                    .arg(formatTimeSpan(frameRange(f)))
                    .arg(m_result && !std::isnan(m_result->meanOf(f))
                            ? percentText(m_result->meanOf(f))
                            : tr("–"));
            });
            if (!m_result || m_result->pes.empty() || m_result->frameCount() <= 0) {
                m_chart->clearData(tr("No PE to show: only comm threads are selected (“Include "
                                      "comm threads” shows them)"));
                updateControls();
            } else {
                // Open on the first frame where the PEs do something (a run's start-up is often
                // idle), not on an empty picture.
                int first = 0;
                while (first + 1 < m_result->frameCount()
                    && !(m_result->meanOf(first) >= kFirstBusyPercent))
                    ++first;
                showFrame(first < m_result->frameCount() - 1 ? first : 0);
            }
            emit computed();
        });
}

QString AnimationView::csv() const
{
    return QString::fromStdString(core::analysis::animationCsv(m_result ? &*m_result : nullptr));
}

} // namespace parallax::views
