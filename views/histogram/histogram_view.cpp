#include "views/histogram/histogram_view.h"

#include "core/analysis/csv_export.h"
#include "core/analysis/entry_ranking.h"
#include "core/text_args.h"
#include "views/common/async_computation.h"
#include "views/common/entry_chooser.h"
#include "views/common/entry_palette.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>

#include <cmath>

namespace parallax::views {

namespace {

using core::analysis::Histogram;
using core::analysis::HistogramMetric;
using core::analysis::HistogramOptions;

constexpr long long kMaxBins = 10'000;
constexpr std::int64_t kAutoBins = 100; // about this many bins in auto mode
constexpr std::int64_t kProbeBins = 1000;
constexpr std::int64_t kMaxAutoBins = 500; // auto bins may grow to this to reach the longest

// A bin bound as a label: "1.5 ms", "2 kB", "40 %".
QString boundText(HistogramMetric metric, double value)
{
    switch (metric) {
    case HistogramMetric::Duration:
        return formatTime(value);
    case HistogramMetric::MessageSize:
        return formatBarValue(value, BarUnit::Bytes);
    case HistogramMetric::IdlePercent:
        return QLocale().toString(value, 'g', 4) + QStringLiteral(" %");
    }
    return {};
}

// Auto bins: probe with fine bins (growing 100× while more than 0.1 % of the values overflow),
// take the value below which 99.9 % of them lie, and cover it with about kAutoBins nice bins.
std::optional<Histogram> computeAuto(const core::Trace& trace,
    const core::analysis::AnalysisRequest& request, HistogramOptions options,
    const core::analysis::Progress& progress)
{
    core::analysis::Progress probeProgress;
    probeProgress.cancelled = progress.cancelled;
    double scale = options.metric == HistogramMetric::Duration ? 10.0 : 16.0;
    double upper = 0.0;
    double longest = 0.0;
    for (int round = 0; round < 4; ++round, scale *= 100.0) {
        HistogramOptions probe = options;
        probe.bins = kProbeBins;
        probe.binSize = scale;
        const auto h = core::analysis::computeHistogram(trace, request, probe, probeProgress);
        if (!h)
            return std::nullopt;
        // Entry executions and messages only: long idle periods must not stretch the scale.
        const auto width = static_cast<std::size_t>(h->columns.count());
        const auto entries = static_cast<std::size_t>(h->columns.entryCount);
        std::vector<double> perBin(static_cast<std::size_t>(h->bins) + 1, 0.0);
        double total = 0.0;
        for (std::size_t b = 0; b < perBin.size(); ++b) {
            for (std::size_t c = 0; c < entries; ++c)
                perBin[b] += h->counts[b * width + c];
            total += perBin[b];
        }
        if (total <= 0.0)
            break;
        const bool last = round == 3;
        if (upper <= 0.0 && (perBin.back() <= total * 0.001 || last)) {
            double cumulative = 0.0;
            for (std::size_t b = 0; b < perBin.size(); ++b) {
                cumulative += perBin[b];
                if (cumulative >= total * 0.999) {
                    upper = static_cast<double>(b + 1) * scale;
                    break;
                }
            }
        }
        // The longest value: the end of the last non-empty bin, once the probe's bins reach it
        // (nothing in its overflow bin); the last probe's overflow counts as its low edge.
        if (perBin.back() <= 0.0 || last) {
            for (std::size_t b = perBin.size(); b-- > 0;)
                if (perBin[b] > 0.0) {
                    longest = static_cast<double>(b + 1) * scale;
                    break;
                }
            break;
        }
    }
    if (upper > 0.0) {
        const std::int64_t bins = options.bins > 0 ? options.bins : kAutoBins;
        double step = niceStep(upper / static_cast<double>(bins));
        if (options.bins <= 0) {
            // The longest value keeps its own bin (a straggler must not vanish into the
            // overflow bin): more bins, and wider ones when even kMaxAutoBins do not reach it.
            const double reach = std::max(upper, longest) * 1.05;
            if (reach / step > static_cast<double>(kMaxAutoBins))
                step = niceStep(reach / static_cast<double>(kMaxAutoBins));
            while (reach / step > static_cast<double>(kMaxAutoBins))
                step *= 2.0;
        }
        options.binSize = std::max(1.0, step);
        const double reach = std::max(upper * 1.05, longest * 1.05);
        options.bins = options.bins > 0
            ? options.bins
            // 5 % headroom, so the largest values do not sit against the overflow bin.
            : std::clamp<std::int64_t>(
                static_cast<std::int64_t>(std::ceil(reach / options.binSize - 1e-9)), 1,
                kMaxAutoBins);
    } else {
        options.binSize = 0; // nothing to scale by: the analysis's defaults
    }
    return core::analysis::computeHistogram(trace, request, options, progress);
}

} // namespace

HistogramView::HistogramView(EntryPalette* palette, QWidget* parent)
    : BarChartView(ViewKind::Histogram, palette, parent)
{
    m_metric = m_options->addChoice(
        tr("&Metric"), { tr("Execution time"), tr("Message size"), tr("Idle % of PEs") });
    m_metric->setObjectName(QStringLiteral("metric"));
    m_bins = m_options->addField(
        tr("&Bins"), {},
        [](const QString& text) { return countFieldError(text, 1, kMaxBins, tr("Bins")); }, 5);
    m_bins->setObjectName(QStringLiteral("bins"));
    m_binSize = m_options->addField(tr("Bin &size"), {},
        [this](const QString& text) { return quantityError(text, tr("Bin size"), true); });
    m_binSize->setObjectName(QStringLiteral("binSize"));
    m_minimum = m_options->addField(
        tr("M&in"), {},
        [this](const QString& text) { return quantityError(text, tr("Min"), false); }, 6);
    m_minimum->setObjectName(QStringLiteral("minimum"));
    m_minimum->setPlaceholderText(QStringLiteral("0"));
    m_minimum->setToolTip(tr("Values below are left out"));

    m_accumulated = new QCheckBox(tr("&Total time"), this);
    m_accumulated->setObjectName(QStringLiteral("accumulated"));
    m_accumulated->setToolTip(
        tr("Show the summed execution time of each bin instead of the number of executions"));

    m_logScale = new QCheckBox(tr("&Log scale"), this);
    m_logScale->setObjectName(QStringLiteral("logScale"));
    m_logScale->setToolTip(tr("Logarithmic y axis, for counts that span several decades"));

    m_idle = new QCheckBox(tr("I&dle periods"), this);
    m_idle->setObjectName(QStringLiteral("idlePeriods"));
    m_idle->setToolTip(tr("Also count idle periods by their length (they are not executions; "
                          "never with chosen entry methods)"));

    m_entriesButton = new EntriesButton(
        [](const std::vector<core::EntryId>& entries) {
            return entries.empty() ? tr("Choose the entry methods counted (now all of them)")
                                   : tr("Choose the entry methods counted (now %1 of them; idle "
                                        "periods are left out)")
                                         .arg(entries.size());
        },
        this);

    m_chart->setObjectName(QStringLiteral("histogramChart"));
    addToolbarWidget(m_entriesButton);
    addToolbarWidget(m_idle);
    addToolbarWidget(m_accumulated);
    addToolbarWidget(m_logScale);

    // The metric changes the meaning of the fields: reset them before the bar applies.
    connect(m_metric, &QComboBox::currentIndexChanged, this, &HistogramView::metricChanged);
    connect(m_accumulated, &QCheckBox::toggled, this, [this]() { rebuildChart(); });
    connect(m_logScale, &QCheckBox::toggled, this, [this]() { rebuildChart(); });
    connect(m_idle, &QCheckBox::toggled, this, [this]() { recompute(); });
    connect(m_entriesButton, &QPushButton::clicked, this, &HistogramView::chooseEntries);
    metricChanged();
    recompute();
}

HistogramMetric HistogramView::metric() const
{
    return static_cast<HistogramMetric>(std::clamp(m_metric->currentIndex(), 0, 2));
}

void HistogramView::metricChanged()
{
    const auto m = metric();
    m_binSize->clear();
    m_minimum->clear();
    m_bins->clear();
    m_bins->setPlaceholderText(tr("auto"));
    switch (m) {
    case HistogramMetric::Duration:
        m_binSize->setPlaceholderText(tr("auto"));
        m_binSize->setToolTip(tr("Bin width with a unit, e.g. 100µs, 1ms (empty: from the data)"));
        m_minimum->setToolTip(
            tr("Shortest duration shown, e.g. 100µs (shorter ones are left out)"));
        break;
    case HistogramMetric::MessageSize:
        m_binSize->setPlaceholderText(tr("auto"));
        m_binSize->setToolTip(tr("Bin width in bytes (empty: from the data)"));
        m_minimum->setToolTip(tr("Smallest message size shown, in bytes"));
        break;
    case HistogramMetric::IdlePercent:
        m_bins->setPlaceholderText(QStringLiteral("100"));
        m_binSize->setPlaceholderText(QStringLiteral("1"));
        m_binSize->setToolTip(tr("Bin width in percent (default 1)"));
        m_minimum->setToolTip(tr("Lowest idle percentage shown"));
        break;
    }
    m_accumulated->setEnabled(m == HistogramMetric::Duration);
    m_idle->setEnabled(m == HistogramMetric::Duration && entries().empty());
    m_entriesButton->setEnabled(m != HistogramMetric::IdlePercent);
}

std::optional<QString> HistogramView::quantityError(
    const QString& text, const QString& what, bool positive) const
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return std::nullopt;
    double v = 0.0;
    if (metric() == HistogramMetric::Duration) {
        QString why;
        const auto us = OptionsBar::parseTimeField(t, &why);
        if (!us)
            return tr("%1: %2").arg(what, why);
        v = static_cast<double>(*us);
    } else {
        bool ok = false;
        v = t.toDouble(&ok);
        if (!ok || !std::isfinite(v))
            return tr("%1: '%2' is not a number").arg(what, t);
    }
    if (positive && !(v > 0.0))
        return tr("%1: must be more than 0").arg(what);
    if (v < 0.0)
        return tr("%1: must not be negative").arg(what);
    return std::nullopt;
}

double HistogramView::quantity(const QString& text) const
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return 0.0;
    if (metric() == HistogramMetric::Duration)
        return static_cast<double>(OptionsBar::parseTimeField(t, nullptr).value_or(0));
    return t.toDouble();
}

void HistogramView::setAccumulated(bool accumulated)
{
    m_accumulated->setChecked(accumulated);
}

void HistogramView::setEntries(std::vector<core::EntryId> entries)
{
    if (!m_entriesButton->choose(std::move(entries), m_trace.get()))
        return;
    m_idle->setEnabled(metric() == HistogramMetric::Duration && this->entries().empty());
    recompute();
}

void HistogramView::chooseEntries()
{
    if (!m_trace)
        return;
    // The palette ranked the run's entry methods when it opened (setRun): the same order without
    // another pass over every execution on the GUI thread. A palette of another run: rank here.
    auto order = palette()->entryOrder();
    if (order.size() != m_trace->metadata.entries.size())
        order = core::analysis::rankEntriesByTime(*m_trace).order;
    auto chosen = m_entriesButton->ask(*m_trace, order, palette(), this);
    if (!chosen)
        return;
    if (chosen->empty()) {
        m_chart->clearData(tr("No entry method chosen: choose at least one in “Entries…”"));
        m_entriesButton->assign({}, m_trace.get());
        return;
    }
    setEntries(std::move(*chosen));
}

bool HistogramView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    // The metric first: choosing it resets the other fields.
    if (const auto it = options.find(QStringLiteral("metric")); it != options.end()) {
        int index = -1;
        for (const auto m : { HistogramMetric::Duration, HistogramMetric::MessageSize,
                 HistogramMetric::IdlePercent })
            if (it->second == QString::fromUtf8(core::analysis::histogramMetricKey(m)))
                index = static_cast<int>(m);
        if (index < 0) {
            if (error != nullptr)
                *error = tr("--metric takes duration, msg-size or idle, got '%1'").arg(it->second);
            return false;
        }
        m_metric->setCurrentIndex(index);
    }
    for (const auto& [name, value] : options) {
        if (name == QStringLiteral("metric"))
            continue;
        if (name == QStringLiteral("bins")) {
            m_bins->setText(value);
        } else if (name == QStringLiteral("bin-size")) {
            m_binSize->setText(value);
        } else if (name == QStringLiteral("min")) {
            m_minimum->setText(value);
        } else if (name == QStringLiteral("entries")) {
            auto list = OptionsBar::parseEntryField(value, m_trace.get(), error);
            if (!list)
                return false;
            m_entriesButton->assign(std::move(*list), m_trace.get());
        } else if (name == QStringLiteral("idle")) {
            if (value != QStringLiteral("on") && value != QStringLiteral("off")) {
                if (error != nullptr)
                    *error = tr("--idle takes on or off, got '%1'").arg(value);
                return false;
            }
            m_idle->setChecked(value == QStringLiteral("on"));
        } else if (name == QStringLiteral("total-time") || name == QStringLiteral("log-scale")) {
            if (value != QStringLiteral("on") && value != QStringLiteral("off")) {
                if (error != nullptr)
                    *error = tr("--%1 takes on or off, got '%2'").arg(name, value);
                return false;
            }
            (name == QStringLiteral("log-scale") ? m_logScale : m_accumulated)
                ->setChecked(value == QStringLiteral("on"));
        } else {
            return rejectOption(name, error);
        }
    }
    return applyFields(error);
}

void HistogramView::clearResult()
{
    m_histogram.reset();
    m_entriesButton->assign({}, m_trace.get()); // entry ids belong to the previous run
}

void HistogramView::recompute()
{
    m_chart->setTitle(tr("Histogram"));
    if (!m_trace) {
        m_computation->cancel();
        m_histogram.reset();
        m_chart->clearData(tr("No run loaded"));
        return;
    }
    if (!m_trace->hasLogs()) {
        m_computation->cancel();
        m_histogram.reset();
        m_chart->clearData(
            tr("This run has summaries only: the histogram needs the event logs (.log files)"));
        return;
    }
    auto request = m_options->request();
    request.entries = entries();
    HistogramOptions options;
    options.includeIdle = m_idle->isChecked() && entries().empty();
    options.metric = metric();
    options.bins = countFieldValue(m_bins->text(), 0);
    options.binSize = quantity(m_binSize->text());
    options.minimum = quantity(m_minimum->text());
    const bool autoBins = options.binSize <= 0.0 && options.metric != HistogramMetric::IdlePercent;
    const auto trace = m_trace;
    m_computation->run<std::optional<Histogram>>(
        [trace, request, options, autoBins](const core::analysis::Progress& progress) {
            return autoBins ? computeAuto(*trace, request, options, progress)
                            : core::analysis::computeHistogram(*trace, request, options, progress);
        },
        [this](std::optional<Histogram> histogram) {
            m_histogram = std::move(histogram);
            rebuildChart();
            emit computed();
        });
}

void HistogramView::rebuildChart()
{
    if (!m_histogram) {
        if (m_trace)
            m_chart->clearData(tr("This run has no logs to build a histogram from"));
        return;
    }
    const auto& h = *m_histogram;
    const bool total = m_accumulated->isChecked() && h.metric == HistogramMetric::Duration
        && !h.accumulated.empty();
    const QString what = h.metric == HistogramMetric::Duration ? tr("Execution time")
        : h.metric == HistogramMetric::MessageSize             ? tr("Message size")
                                                               : tr("Idle % of the range");
    m_chart->setTitle(total ? tr("Histogram: %1, total time per bin").arg(what.toLower())
                            : tr("Histogram: %1").arg(what.toLower()),
        describeSelection(*m_trace, m_options->range(), m_options->pes()));
    const auto width = static_cast<std::size_t>(h.columns.count());
    const auto rows = static_cast<std::size_t>(h.bins) + 1;
    const std::vector<double>& primary = total ? h.accumulated : h.counts;
    std::vector<double> totals(width, 0.0);
    for (std::size_t b = 0; b < rows; ++b)
        for (std::size_t c = 0; c < width; ++c)
            totals[c] += primary[b * width + c];

    StackedBarData chartData;
    if (h.metric == HistogramMetric::IdlePercent) {
        StackedBarSeries pes;
        pes.activity = h.columns.idle();
        pes.name = tr("PEs");
        pes.fullName = tr("PEs with this idle %");
        pes.color = qRgb(0x5b, 0x7f, 0xa6);
        if (totals[static_cast<std::size_t>(h.columns.idle())] > 0)
            chartData.series.push_back(pes);
    } else {
        chartData.series = activitySeries(m_trace->metadata, h.columns, totals);
    }
    if (chartData.series.empty()) {
        m_chart->clearData(h.metric == HistogramMetric::MessageSize
                ? tr("No messages were sent in this range")
                : tr("Nothing to count in this range"));
        return;
    }
    switch (h.metric) {
    case HistogramMetric::Duration:
        chartData.unit = total ? BarUnit::Time : BarUnit::Count;
        chartData.yTitle = total ? tr("Total execution time") : tr("Executions");
        chartData.xTitle = tr("Execution time (bins of %1)").arg(formatTime(h.binSize));
        m_chart->setLegendHeading(tr("Entry method · share"));
        if (!total && !h.accumulated.empty()) {
            chartData.secondaryLabel = tr("Total time");
            chartData.secondaryUnit = BarUnit::Time;
        } else if (total) {
            chartData.secondaryLabel = tr("Executions");
            chartData.secondaryUnit = BarUnit::Count;
        }
        break;
    case HistogramMetric::MessageSize:
        chartData.unit = BarUnit::Messages;
        chartData.yTitle = tr("Messages");
        chartData.xTitle
            = tr("Message size (bins of %1)").arg(formatBarValue(h.binSize, BarUnit::Bytes));
        m_chart->setLegendHeading(tr("Destination entry · share"));
        break;
    case HistogramMetric::IdlePercent:
        chartData.unit = BarUnit::Count;
        chartData.yTitle = tr("PEs");
        chartData.xTitle
            = tr("Idle % of the range (bins of %1)").arg(boundText(h.metric, h.binSize));
        m_chart->setLegendHeading({});
        break;
    }
    chartData.contiguous = true;
    chartData.edgeLabels = true;
    chartData.logScale = m_logScale->isChecked();
    const auto series = chartData.series.size();
    chartData.categories.resize(rows);
    chartData.values.assign(rows * series, 0.0);
    const std::vector<double>* second = nullptr;
    if (!chartData.secondaryLabel.isEmpty()) {
        second = total ? &h.counts : &h.accumulated;
        chartData.secondary.assign(rows * series, 0.0);
    }
    for (std::size_t b = 0; b < rows; ++b) {
        auto& c = chartData.categories[b];
        const auto bin = static_cast<std::int64_t>(b);
        const QString lo = boundText(h.metric, h.binLow(bin));
        c.value = h.binLow(bin);
        if (bin == h.bins) {
            c.label = QStringLiteral("≥ %1").arg(lo);
            c.title = tr("Overflow: %1 and more").arg(lo);
            c.separatorBefore = true;
        } else {
            c.label = lo;
            c.title
                = tr("Bin %1: %2 – %3").arg(bin).arg(lo, boundText(h.metric, h.binLow(bin + 1)));
        }
        for (std::size_t s = 0; s < series; ++s) {
            const auto column = static_cast<std::size_t>(chartData.series[s].activity);
            chartData.values[b * series + s] = primary[b * width + column];
            if (second != nullptr)
                chartData.secondary[b * series + s] = (*second)[b * width + column];
        }
    }
    m_chart->setData(std::move(chartData), h.columns);
}

QString HistogramView::csv() const
{
    return QString::fromStdString(
        core::analysis::histogramCsv(m_histogram ? &*m_histogram : nullptr));
}

AnalysisView::State HistogramView::saveState() const
{
    auto state = BarChartView::saveState();
    const auto onOff = [](const QCheckBox* box) {
        return box->isChecked() ? QStringLiteral("on") : QStringLiteral("off");
    };
    state[QStringLiteral("metric")]
        = QString::fromUtf8(core::analysis::histogramMetricKey(metric()));
    state[QStringLiteral("bins")] = m_bins->text();
    state[QStringLiteral("bin-size")] = m_binSize->text();
    state[QStringLiteral("min")] = m_minimum->text();
    if (!entries().empty())
        state[QStringLiteral("entries")] = QString::fromStdString(core::formatPeList(entries()));
    state[QStringLiteral("idle")] = onOff(m_idle);
    state[QStringLiteral("total-time")] = onOff(m_accumulated);
    state[QStringLiteral("log-scale")] = onOff(m_logScale);
    return state;
}

} // namespace parallax::views
