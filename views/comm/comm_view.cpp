#include "views/comm/comm_view.h"

#include "core/analysis/csv_export.h"
#include "core/text_args.h"
#include "views/common/async_computation.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

#include <QComboBox>
#include <QLineEdit>
#include <QLocale>

namespace parallax::views {

namespace {

using core::analysis::CommMetric;
using core::analysis::kCommMetrics;

bool isBytes(CommMetric m)
{
    return m == CommMetric::BytesSent || m == CommMetric::BytesRecv || m == CommMetric::ExtBytesRecv
        || m == CommMetric::ExtNodeBytesRecv;
}

bool isSend(CommMetric m)
{
    return m == CommMetric::MsgsSent || m == CommMetric::BytesSent;
}

} // namespace

QString CommView::metricLabel(CommMetric metric)
{
    switch (metric) {
    case CommMetric::MsgsSent:
        return tr("Messages sent");
    case CommMetric::BytesSent:
        return tr("Bytes sent");
    case CommMetric::MsgsRecv:
        return tr("Messages received");
    case CommMetric::BytesRecv:
        return tr("Bytes received");
    case CommMetric::ExtMsgsRecv:
        return tr("Messages received from other PEs");
    case CommMetric::ExtBytesRecv:
        return tr("Bytes received from other PEs");
    case CommMetric::ExtNodeMsgsRecv:
        return tr("Messages received from other nodes");
    case CommMetric::ExtNodeBytesRecv:
        return tr("Bytes received from other nodes");
    }
    return {};
}

CommView::CommView(EntryPalette* palette, QWidget* parent)
    : BarChartView(ViewKind::Communication, palette, parent)
{
    QStringList labels;
    for (int m = 0; m < kCommMetrics; ++m)
        labels << metricLabel(static_cast<CommMetric>(m));
    m_metric = m_options->addChoice(tr("&Metric"), labels);
    m_metric->setObjectName(QStringLiteral("metric"));
    m_options->offerCommThreads(); // relays are counted only when included
    addIntervalFields(1000);

    m_chart->setObjectName(QStringLiteral("commChart"));
    m_chart->setHint(tr("Drag across the chart to zoom · right-click for more"));

    connect(m_metric, &QComboBox::currentIndexChanged, this, [this]() {
        if (!m_computation->busy())
            rebuildChart();
    });
    connect(m_chart, &StackedBarChart::rangeSelected, this, &CommView::zoomTo);
    recompute();
}

CommMetric CommView::metric() const
{
    return static_cast<CommMetric>(std::clamp(m_metric->currentIndex(), 0, kCommMetrics - 1));
}

void CommView::setMetric(CommMetric metric)
{
    m_metric->setCurrentIndex(static_cast<int>(metric));
}

bool CommView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    for (const auto& [name, value] : options) {
        if (applyIntervalOption(name, value)) {
            continue;
        }
        if (name == QStringLiteral("metric")) {
            int index = -1;
            QString wanted = value;
            wanted.replace(QLatin1Char('-'), QLatin1Char('_'));
            for (int m = 0; m < kCommMetrics; ++m)
                if (wanted
                    == QString::fromUtf8(
                        core::analysis::commMetricName(static_cast<CommMetric>(m))))
                    index = m;
            if (index < 0) {
                if (error != nullptr)
                    *error = tr("--metric takes msgs_sent, bytes_sent, msgs_recv, bytes_recv, "
                                "ext_msgs_recv, ext_bytes_recv, ext_node_msgs_recv or "
                                "ext_node_bytes_recv, got '%1'")
                                 .arg(value);
                return false;
            }
            m_metric->setCurrentIndex(index);
        } else {
            return rejectOption(name, error);
        }
    }
    return applyFields(error);
}

void CommView::clearResult()
{
    m_result.reset();
    m_requestKey.clear();
}

void CommView::recompute()
{
    m_chart->setTitle(metricLabel(metric()));
    if (!intervalsComputable())
        return;
    auto request = m_options->request();
    core::analysis::CommOptions options;
    options.intervalSize = intervalSize();
    options.bins = intervalBins();
    // All eight metrics come out of one computation: switching metrics only redraws.
    const QString key = QStringLiteral("%1:%2:%3:%4:%5")
                            .arg(request.range.begin)
                            .arg(request.range.end)
                            .arg(QString::fromStdString(core::formatPeList(request.pes)))
                            .arg(options.intervalSize)
                            .arg(options.bins);
    if (key == m_requestKey && (m_result || m_computation->busy())) {
        rebuildChart();
        return;
    }
    m_requestKey = key;
    const auto trace = m_trace;
    m_computation->run<std::optional<core::analysis::CommunicationOverTime>>(
        [trace, request, options](const core::analysis::Progress& progress) {
            return core::analysis::computeCommunication(*trace, request, options, progress);
        },
        [this](std::optional<core::analysis::CommunicationOverTime> result) {
            m_result = std::move(result);
            rebuildChart();
            emit computed();
        });
}

void CommView::rebuildChart()
{
    const auto m = metric();
    if (!m_result) {
        m_chart->setTitle(metricLabel(m));
        if (m_trace)
            m_chart->clearData(tr("This run has no logs to count messages in"));
        return;
    }
    const auto& r = *m_result;
    const auto& grid = r.grid;
    const auto width = static_cast<std::size_t>(r.columns.count());
    const auto n = static_cast<std::size_t>(std::max<std::int64_t>(grid.count, 0));
    const auto& values = r.values[static_cast<std::size_t>(m)];
    std::vector<double> totals(width, 0.0);
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t c = 0; c < width; ++c) {
            totals[c] += values[i * width + c];
            sum += values[i * width + c];
        }
    const bool bytes = isBytes(m);
    const QString totalText = bytes ? formatBarValue(sum, BarUnit::Bytes)
                                    : tr("%1 messages").arg(formatBarValue(sum, BarUnit::Messages));
    QString subtitle = tr("%1 · total %2 · %3 intervals of %4")
                           .arg(describeSelection(*m_trace, m_options->range(), m_options->pes()),
                               totalText, QLocale().toString(static_cast<qlonglong>(grid.count)),
                               formatTime(static_cast<double>(grid.size)));
    if (!r.apart.empty()) // their sends and receives are relays of the workers' messages
        subtitle += tr(" · comm threads (PE %1) not counted: relays")
                        .arg(QString::fromStdString(core::formatPeList(r.apart)));
    m_chart->setTitle(metricLabel(m), subtitle);
    m_chart->setLegendHeading(isSend(m) ? tr("Destination entry · share") : tr("Entry · share"));

    StackedBarData chartData;
    chartData.series = activitySeries(m_trace->metadata, r.columns, totals);
    if (chartData.series.empty() || n == 0) {
        m_chart->clearData(bytes ? tr("No bytes counted for this metric in this range")
                                 : tr("No messages counted for this metric in this range"));
        return;
    }
    chartData.axis = BarAxis::Time;
    chartData.contiguous = true;
    chartData.unit = bytes ? BarUnit::Bytes : BarUnit::Messages;
    const QString interval = formatTime(static_cast<double>(grid.size));
    chartData.yTitle = bytes ? tr("bytes per interval (%1)").arg(interval)
                             : tr("messages per interval (%1)").arg(interval);
    chartData.xTitle = tr("Time");
    const auto series = chartData.series.size();
    chartData.categories.resize(n);
    chartData.values.assign(n * series, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        const auto index = static_cast<std::int64_t>(i);
        chartData.categories[i].span = core::TimeRange { grid.begin(index), grid.end(index) };
        for (std::size_t s = 0; s < series; ++s)
            chartData.values[i * series + s]
                = values[i * width + static_cast<std::size_t>(chartData.series[s].activity)];
    }
    m_chart->setData(std::move(chartData), r.columns);
}

void CommView::showContextMenu(QPoint globalPos, int category)
{
    std::optional<core::TimeRange> interval;
    if (m_result && category >= 0 && category < m_result->grid.count)
        interval = core::TimeRange { m_result->grid.begin(category), m_result->grid.end(category) };
    showTimeAxisMenu(globalPos, interval);
}

QString CommView::csv() const
{
    return QString::fromStdString(core::analysis::commCsv(m_result ? &*m_result : nullptr));
}

AnalysisView::State CommView::saveState() const
{
    auto state = BarChartView::saveState();
    state[QStringLiteral("interval")] = m_interval->text();
    state[QStringLiteral("bins")] = m_bins->text();
    state[QStringLiteral("metric")] = QString::fromUtf8(core::analysis::commMetricName(metric()));
    return state;
}

std::optional<core::TimeRange> CommView::timeAxisRange() const
{
    return m_options->range();
}

} // namespace parallax::views
