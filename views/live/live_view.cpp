#include "live_view.h"

#include "views/common/entry_palette.h"
#include "views/common/stacked_bar_chart.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace parallax::views {

namespace {

constexpr std::size_t kWindowSeconds = 10;
constexpr std::uint32_t kOtherGrey = 0xff9e9e9eU;

// The chart data of stream points: one series per entry method seen (the heaviest at the
// bottom), "Other" grey on top; values in percent of all PEs' time.
std::pair<StackedBarData, core::analysis::ActivityColumns> liveBars(
    const core::stream::UtilizationStream& stream,
    const std::vector<core::stream::UtilizationPoint>& points)
{
    std::map<std::uint16_t, double> totals;
    for (const auto& point : points)
        for (const auto& share : point.shares)
            totals[share.entry] += share.percent;
    std::vector<std::pair<std::uint16_t, double>> order(totals.begin(), totals.end());
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
        if ((a.first == core::stream::kOtherEntry) != (b.first == core::stream::kOtherEntry))
            return b.first == core::stream::kOtherEntry;
        return a.second > b.second;
    });
    core::analysis::ActivityColumns columns;
    for (const auto& [entry, total] : order)
        if (entry != core::stream::kOtherEntry)
            columns.entryCount = std::max(columns.entryCount, int { entry } + 1);

    StackedBarData data;
    std::map<std::uint16_t, std::size_t> seriesOf;
    for (const auto& [entry, total] : order) {
        StackedBarSeries s;
        const auto name = QString::fromStdString(stream.entryName(entry));
        s.name = name;
        if (entry == core::stream::kOtherEntry) {
            s.activity = columns.overhead();
            s.color = kOtherGrey;
            s.fullName = LiveUtilizationView::tr("Other (entry methods under 10 % of a bin)");
        } else {
            s.activity = entry;
            s.entry = entry;
            s.fullName = name + LiveUtilizationView::tr(" (entry %1)").arg(entry);
        }
        seriesOf[entry] = data.series.size();
        data.series.push_back(std::move(s));
    }
    data.axis = BarAxis::Time;
    data.contiguous = true;
    data.unit = BarUnit::Percent;
    data.yMaximum = 100.0;
    data.yTitle = LiveUtilizationView::tr("% of all PEs' time");
    data.xTitle = LiveUtilizationView::tr("Program time");
    data.categories.resize(points.size());
    data.values.assign(points.size() * data.series.size(), 0.0);
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto begin = static_cast<core::TimeUs>(points[i].beginMs * 1000);
        data.categories[i].span
            = core::TimeRange { begin, begin + static_cast<core::TimeUs>(points[i].bins) * 1000 };
        for (const auto& share : points[i].shares)
            data.values[i * data.series.size() + seriesOf[share.entry]] = share.percent;
    }
    return { std::move(data), columns };
}

// Empty 100-ms bars after the last one up to `windowBeginMs` + 10 s: with less than 10 s
// received the axis still spans 10 s and the bars fill it from the left, so the time scale
// never changes while the stream comes in.
void padToWindow(StackedBarData& data, std::uint64_t windowBeginMs)
{
    constexpr core::TimeUs kBarUs = 100'000;
    const auto windowEnd
        = static_cast<core::TimeUs>((windowBeginMs + kWindowSeconds * 1000) * 1000);
    auto end = data.categories.empty() || !data.categories.back().span
        ? static_cast<core::TimeUs>(windowBeginMs * 1000)
        : data.categories.back().span->end;
    for (; end < windowEnd; end += kBarUs) {
        StackedBarCategory bar;
        bar.span = core::TimeRange { end, std::min(end + kBarUs, windowEnd) };
        data.categories.push_back(std::move(bar));
    }
    data.values.resize(data.categories.size() * data.series.size(), 0.0);
}

} // namespace

LiveUtilizationView::LiveUtilizationView(QWidget* parent)
    : QWidget(parent)
    , m_palette(new EntryPalette(this))
    , m_scroll(new StackedBarChart(m_palette, this))
    , m_detail(new StackedBarChart(m_palette, this))
    , m_status(new QLabel(this))
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_play(new QToolButton(this))
    , m_playTimer(new QTimer(this))
{
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);
    m_play->setText(tr("Play"));
    m_play->setCheckable(true);
    m_playTimer->setInterval(1000);
    auto* replayRow = new QHBoxLayout;
    replayRow->addWidget(m_play);
    replayRow->addWidget(m_slider, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addLayout(replayRow);
    layout->addWidget(m_scroll, 3);
    layout->addWidget(m_detail, 2);
    m_scroll->setHint(tr("click a bar: that second at 1 ms below"));
    m_slider->setVisible(false);
    m_play->setVisible(false);

    connect(m_scroll, &StackedBarChart::categoryClicked, this, [this](int category) {
        const auto& bars = m_scroll->data().categories;
        if (category < 0 || static_cast<std::size_t>(category) >= bars.size()
            || !bars[static_cast<std::size_t>(category)].span)
            return;
        const auto ms = static_cast<std::uint64_t>(
            bars[static_cast<std::size_t>(category)].span->begin / 1000);
        if (ms >= m_stream.endMs() || m_stream.chunkAtMs(ms) >= m_windowEnd)
            return; // an empty bar of the seconds still to come
        m_secondChosen = true;
        selectSecond(m_stream.chunkAtMs(ms));
    });
    connect(m_slider, &QSlider::valueChanged, this, [this](int value) {
        m_followNewest = static_cast<std::size_t>(value) >= m_stream.chunkCount();
        m_windowEnd = static_cast<std::size_t>(value);
        if (!m_secondChosen && m_windowEnd > 0)
            m_second = m_windowEnd - 1;
        rebuildCharts();
    });
    connect(m_play, &QToolButton::toggled, this, [this](bool on) {
        m_play->setText(on ? tr("Pause") : tr("Play"));
        if (on && m_slider->value() >= m_slider->maximum())
            m_slider->setValue(std::min(m_slider->maximum(), static_cast<int>(kWindowSeconds)));
        on ? m_playTimer->start() : m_playTimer->stop();
    });
    connect(m_playTimer, &QTimer::timeout, this, &LiveUtilizationView::stepReplay);
    connect(m_palette, &EntryPalette::changed, this, &LiveUtilizationView::rebuildCharts);
    rebuildCharts();
    updateStatus();
}

void LiveUtilizationView::appendPayload(std::span<const std::uint8_t> payload)
{
    if (takePayload(payload))
        chunksAdded();
}

void LiveUtilizationView::appendPayloads(const std::vector<std::vector<std::uint8_t>>& payloads)
{
    bool added = false;
    for (const auto& payload : payloads)
        added = takePayload(payload) || added;
    if (added)
        chunksAdded();
}

void LiveUtilizationView::setStream(
    core::stream::UtilizationStream stream, std::size_t refused, const QString& refusal)
{
    auto names = m_stream.entryNames();
    m_stream = std::move(stream);
    m_stream.setEntryNames(std::move(names));
    m_refused = refused;
    m_followNewest = true; // a new stream starts at its newest second
    m_secondChosen = false;
    if (refused > 0)
        m_lastError = tr("chunk refused: %1").arg(refusal);
    if (m_stream.chunkCount() > 0) {
        chunksAdded();
    } else {
        rebuildCharts();
        updateStatus();
    }
}

void LiveUtilizationView::setWaitingText(const QString& text)
{
    m_waitingText = text;
    rebuildCharts();
}

bool LiveUtilizationView::takePayload(std::span<const std::uint8_t> payload)
{
    const auto outcome = m_stream.appendPayload(payload);
    if (outcome.kind == core::stream::PayloadKind::Corrupt) {
        ++m_refused;
        setLastError(tr("chunk refused: %1").arg(QString::fromStdString(outcome.error)));
        emit payloadRefused(m_lastError);
    }
    return outcome.kind == core::stream::PayloadKind::Chunk;
}

void LiveUtilizationView::chunksAdded()
{
    const auto chunks = m_stream.chunkCount();
    {
        // The range's clamping must not pass for a move of the user's.
        const QSignalBlocker block(m_slider);
        m_slider->setRange(1, static_cast<int>(chunks));
        if (m_followNewest)
            m_slider->setValue(static_cast<int>(chunks));
    }
    if (m_followNewest) {
        m_windowEnd = chunks;
        if (!m_secondChosen)
            m_second = chunks - 1;
    }
    rebuildCharts();
    updateStatus();
    emit chunkAdded(chunks);
}

void LiveUtilizationView::setEntryNames(std::vector<std::string> names)
{
    std::vector<QString> qnames;
    qnames.reserve(names.size());
    for (const auto& name : names)
        qnames.push_back(QString::fromStdString(name));
    m_stream.setEntryNames(std::move(names));
    m_palette->setEntryNames(std::move(qnames)); // rebuilds through changed()
}

void LiveUtilizationView::setConnectionStatus(
    const QString& source, const QString& state, std::size_t behind, const QString& recordingTo)
{
    m_source = source;
    m_state = state;
    m_behind = behind;
    m_recordingTo = recordingTo;
    updateStatus();
}

void LiveUtilizationView::setLastError(const QString& error)
{
    m_lastError = error;
    updateStatus();
}

void LiveUtilizationView::setReplay(bool replay)
{
    m_replay = replay;
    m_slider->setVisible(replay);
    m_play->setVisible(replay);
    if (!replay)
        m_play->setChecked(false);
}

void LiveUtilizationView::showUpTo(std::size_t end)
{
    m_slider->setValue(static_cast<int>(std::min(end, m_stream.chunkCount())));
}

void LiveUtilizationView::selectSecond(std::size_t second)
{
    m_second = second;
    rebuildCharts();
}

void LiveUtilizationView::stepReplay()
{
    if (m_slider->value() >= m_slider->maximum()) {
        m_play->setChecked(false);
        return;
    }
    m_secondChosen = false;
    m_slider->setValue(m_slider->value() + 1);
}

QString LiveUtilizationView::statusText() const
{
    QStringList parts;
    parts << (m_source.isEmpty() ? tr("Not connected") : m_source);
    if (!m_state.isEmpty())
        parts << m_state;
    const auto count = [](std::size_t n, const QString& one, const QString& many) {
        return (n == 1 ? one : many).arg(n);
    };
    const auto chunks = m_stream.chunkCount();
    parts << count(chunks, tr("%1 chunk received"), tr("%1 chunks received"));
    if (m_stream.pes() > 0)
        parts << count(m_stream.pes(), tr("%1 PE averaged"), tr("%1 PEs averaged"));
    if (m_behind > 0)
        parts << count(m_behind, tr("behind by %1 chunk"), tr("behind by %1 chunks"));
    if (m_refused > 0)
        parts << count(m_refused, tr("%1 refused"), tr("%1 refused"));
    if (!m_recordingTo.isEmpty())
        parts << tr("recording to %1").arg(m_recordingTo);
    if (!m_lastError.isEmpty())
        parts << tr("last error: %1").arg(m_lastError);
    return parts.join(QStringLiteral(" · "));
}

void LiveUtilizationView::updateStatus()
{
    m_status->setText(statusText());
}

void LiveUtilizationView::rebuildCharts()
{
    const auto end = m_windowEnd;
    if (end == 0) {
        m_scroll->setTitle(tr("Utilization, last 10 s (100 ms bars)"));
        m_scroll->clearData(m_waitingText.isEmpty()
                ? tr("Waiting for the first second of the stream…")
                : m_waitingText);
        m_detail->setTitle(tr("One second at 1 ms"));
        m_detail->clearData(tr("No second to show yet"));
        return;
    }
    const auto first = end > kWindowSeconds ? end - kWindowSeconds : 0;
    const auto tenths = m_stream.points(first, end - first, 100);
    auto [bars, columns] = liveBars(m_stream, tenths);
    padToWindow(bars, tenths.empty() ? 0 : tenths.front().beginMs);
    m_scroll->setTitle(tr("Utilization, last 10 s (100 ms bars)"),
        tr("program time %1 s – %2 s").arg(first).arg(end));
    if (bars.series.empty())
        m_scroll->clearData(tr("No work recorded in these seconds"));
    else
        m_scroll->setData(std::move(bars), columns);

    const auto second = std::min(m_second, m_stream.chunkCount() - 1);
    auto [detail, detailColumns] = liveBars(m_stream, m_stream.points(second, 1, 1));
    m_detail->setTitle(tr("Second %1 at 1 ms").arg(second),
        tr("program time %1 s – %2 s").arg(second).arg(second + 1));
    if (!m_stream.hasBins(second))
        m_detail->clearData(tr("The 1-ms bins of second %1 are no longer kept: a live window "
                               "keeps them for the last %2 min (replay the recording to see them)")
                                .arg(second)
                                .arg(m_stream.detailSeconds() / 60));
    else if (detail.series.empty())
        m_detail->clearData(tr("No work recorded in second %1").arg(second));
    else
        m_detail->setData(std::move(detail), detailColumns);
}

} // namespace parallax::views
