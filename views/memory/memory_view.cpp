#include "views/memory/memory_view.h"

#include "core/analysis/series_csv.h"
#include "views/common/async_computation.h"
#include "views/common/entry_palette.h"
#include "views/common/line_chart.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

#include <QComboBox>

#include <cmath>

namespace parallax::views {

namespace {
constexpr long long kDefaultBins = 200;
constexpr std::size_t kMaxPeLines = 8;
constexpr std::size_t kMaxValueLabels = 24;
} // namespace

MemoryView::MemoryView(EntryPalette* palette, QWidget* parent)
    : LineChartView(ViewKind::Memory, palette, parent)
{
    m_by = m_options->addChoice(tr("S&how"), { tr("Over time"), tr("Peak per PE") });
    m_by->setObjectName(QStringLiteral("by"));
    addIntervalFields(kDefaultBins);
    m_lines->setObjectName(QStringLiteral("memoryChart"));
    m_lines->setHint(tr("Drag to zoom · click a line or the band for its PE's Timeline"));
    m_chart->setObjectName(QStringLiteral("memoryBars"));
    m_chart->setHint(tr("Click a bar for the PE's Timeline"));
    connect(m_by, &QComboBox::currentIndexChanged, this, [this]() { rebuildChart(); });
    recompute();
}

bool MemoryView::perPe() const
{
    return m_by->currentIndex() == 1;
}

bool MemoryView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    for (const auto& [name, value] : options) {
        if (applyIntervalOption(name, value))
            continue;
        if (name == QStringLiteral("by")) {
            if (!applyByOption(m_by, value, error))
                return false;
        } else {
            return rejectOption(name, error);
        }
    }
    return applyFields(error);
}

void MemoryView::clearResult()
{
    m_result.reset();
}

void MemoryView::recompute()
{
    m_lines->setTitle(tr("Memory usage"));
    m_chart->setTitle(tr("Peak memory per PE"));
    if (!m_trace) {
        m_computation->cancel();
        m_result.reset();
        m_lines->clearData(tr("No run loaded"));
        m_chart->clearData(tr("No run loaded"));
        return;
    }
    auto request = m_options->request();
    if (rejectTooManyIntervals(request.range))
        return;
    core::analysis::MemoryUsageOptions options;
    options.intervalSize = intervalSize();
    options.bins = intervalBins();
    const auto trace = m_trace;
    using Computed = ResultOrReason<core::analysis::MemoryUsage>;
    m_computation->run<Computed>(
        [trace, request, options](const core::analysis::Progress& progress) {
            return computeFromLogs<core::analysis::MemoryUsage>(
                *trace, tr("memory usage"),
                [&]() {
                    return core::analysis::hasMemoryRecords(*trace)
                        ? QString()
                        : tr("This run has no memory-usage (MEMORY_USAGE) records: the program "
                             "records them by calling traceMemoryUsage()");
                },
                [&]() {
                    return core::analysis::computeMemoryUsage(*trace, request, options, progress);
                });
        },
        [this](Computed result) {
            m_result = std::move(result.result);
            m_message = result.reason;
            rebuildChart();
            emit computed();
        });
}

void MemoryView::rebuildChart()
{
    showLines(!perPe());
    if (!m_result || !m_trace) {
        if (!m_message.isEmpty()) {
            m_lines->clearData(m_message);
            m_chart->clearData(m_message);
        }
        return;
    }
    const auto& r = *m_result;
    const QString what = describeSelection(*m_trace, m_options->range(), m_options->pes());
    std::uint64_t samples = 0;
    double peak = 0.0;
    for (const auto& p : r.perPe) {
        samples += p.count;
        if (!p.empty())
            peak = std::max(peak, p.max);
    }
    const QString subtitle = samples == 0
        ? what
        : tr("%1 · peak %2 · %n sample(s)", nullptr, static_cast<int>(samples))
              .arg(what, formatBarValue(peak, BarUnit::Bytes));
    m_lines->setTitle(tr("Memory usage"), subtitle);
    m_chart->setTitle(tr("Peak memory per PE"), subtitle);
    const auto mainColor = EntryPalette::rankColor(0).rgb();

    if (perPe()) {
        StackedBarData bars;
        bars.unit = BarUnit::Bytes;
        bars.xTitle = tr("PE");
        bars.yTitle = tr("peak memory in use");
        bars.series.push_back(
            { -1, tr("Peak memory"), tr("Peak of the PE's samples in the range"), -1, mainColor });
        for (std::size_t k = 0; k < r.pes.size(); ++k) {
            if (r.perPe[k].empty())
                continue;
            StackedBarCategory c;
            c.label = QString::number(r.pes[k]);
            c.title = tr("PE %1 · %n sample(s)", nullptr, static_cast<int>(r.perPe[k].count))
                          .arg(r.pes[k]);
            bars.categories.push_back(c);
            bars.values.push_back(r.perPe[k].max);
        }
        if (bars.categories.empty()) {
            m_chart->clearData(tr("No memory-usage sample in this range"));
            return;
        }
        if (bars.categories.size() <= kMaxValueLabels)
            for (const double v : bars.values)
                bars.valueLabels.push_back(formatBarValue(v, BarUnit::Bytes));
        m_chart->setLegendHeading(tr("Memory"));
        m_chart->setData(std::move(bars), {});
        return;
    }

    const auto& g = r.overTime;
    const auto n = static_cast<std::size_t>(std::max<std::int64_t>(g.grid.count, 0));
    bool any = false;
    for (std::size_t i = 0; i < n && !any; ++i)
        any = g.pesWithValue[i] > 0;
    if (!any) {
        m_lines->clearData(tr("No memory-usage sample in or before this range"));
        return;
    }
    LineChartData lines;
    lines.axis = LineAxis::Time;
    lines.unit = BarUnit::Bytes;
    lines.steps = true;
    lines.includeZero = false; // the spread between PEs and the growth matter, not the base
    lines.xTitle = tr("Time");
    lines.yTitle
        = tr("memory in use (peak per %1)").arg(formatTime(static_cast<double>(g.grid.size)));
    for (std::size_t i = 0; i < n; ++i) {
        const auto at = static_cast<std::int64_t>(i);
        lines.spans.push_back({ g.grid.begin(at), g.grid.end(at) });
    }
    std::vector<std::size_t> withValue;
    for (std::size_t k = 0; k < r.pes.size(); ++k)
        for (std::size_t i = 0; i < n; ++i)
            if (g.has[g.cell(k, static_cast<std::int64_t>(i))] != 0) {
                withValue.push_back(k);
                break;
            }
    LineSeries mean;
    mean.name
        = withValue.size() == 1 ? tr("PE %1").arg(r.pes[withValue.front()]) : tr("Mean over PEs");
    mean.values = g.mean;
    mean.color = mainColor;
    mean.emphasised = true;
    if (withValue.size() == 1)
        mean.pe = r.pes[withValue.front()];
    lines.series.push_back(std::move(mean));
    if (withValue.size() > 1) {
        LineBand band;
        band.name = tr("lowest – highest PE");
        band.low = g.low;
        band.high = g.high;
        band.lowPe = g.lowPe;
        band.highPe = g.highPe;
        lines.bands.push_back(std::move(band));
    }
    if (withValue.size() > 1 && withValue.size() <= kMaxPeLines)
        for (const auto k : withValue) {
            LineSeries pe;
            pe.name = tr("PE %1").arg(r.pes[k]);
            pe.pe = r.pes[k];
            pe.color = EntryPalette::rankColor(static_cast<int>(lines.series.size())).rgb();
            pe.values.resize(n);
            for (std::size_t i = 0; i < n; ++i)
                pe.values[i] = g.value[g.cell(k, static_cast<std::int64_t>(i))];
            lines.series.push_back(std::move(pe));
        }
    m_lines->setLegendHeading(tr("Memory"));
    m_lines->setData(std::move(lines));
}

BarChartView::BarPes MemoryView::pesOfBar(int category) const
{
    return peOfNumberedBar(category);
}

QString MemoryView::csv() const
{
    const auto* result = m_result ? &*m_result : nullptr;
    return QString::fromStdString(
        perPe() ? core::analysis::memoryPerPeCsv(result) : core::analysis::memoryCsv(result));
}

} // namespace parallax::views
