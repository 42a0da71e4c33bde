#include "views/time_profile/time_profile_view.h"

#include "core/analysis/csv_export.h"
#include "views/common/async_computation.h"
#include "views/common/not_traced_series.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

#include <QLineEdit>
#include <QLocale>

namespace parallax::views {

TimeProfileView::TimeProfileView(EntryPalette* palette, QWidget* parent)
    : BarChartView(ViewKind::TimeProfile, palette, parent)
{
    addIntervalFields(1000);

    m_options->offerCommThreads();
    m_chart->setObjectName(QStringLiteral("timeProfileChart"));
    m_chart->setHint(tr("Drag across the chart to zoom · right-click for more"));

    connect(m_chart, &StackedBarChart::rangeSelected, this, &TimeProfileView::zoomTo);
    recompute();
}

bool TimeProfileView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    for (const auto& [name, value] : options) {
        if (!applyIntervalOption(name, value))
            return rejectOption(name, error);
    }
    return applyFields(error);
}

void TimeProfileView::clearResult()
{
    m_profile.reset();
}

void TimeProfileView::recompute()
{
    m_chart->setTitle(tr("Time profile"));
    if (!intervalsComputable())
        return;
    auto request = m_options->request();
    core::analysis::TimeProfileOptions options;
    options.intervalSize = intervalSize();
    options.bins = intervalBins();
    const auto trace = m_trace;
    m_computation->run<std::optional<core::analysis::TimeProfile>>(
        [trace, request, options](const core::analysis::Progress& progress) {
            return core::analysis::computeTimeProfile(*trace, request, options, progress);
        },
        [this](std::optional<core::analysis::TimeProfile> profile) {
            if (profile) {
                const auto peCount = profile->peCount;
                showProfile(std::move(*profile), peCount);
            } else {
                m_profile.reset();
                m_chart->clearData(tr("This run has neither logs nor summaries to profile"));
            }
            emit computed();
        });
}

void TimeProfileView::showProfile(core::analysis::TimeProfile profile, std::size_t peCount)
{
    m_profile = std::move(profile);
    const auto& p = *m_profile;
    const auto& grid = p.grid;
    QString subtitle = describeSelection(*m_trace, m_options->range(), m_options->pes());
    subtitle += tr(" · %1 intervals of %2")
                    .arg(QLocale().toString(static_cast<qlonglong>(grid.count)),
                        formatTime(static_cast<double>(grid.size)));
    m_chart->setTitle(tr("Time profile"), subtitle);
    if (peCount == 0 || grid.count <= 0) {
        m_chart->clearData(tr("None of the selected PEs has data"));
        return;
    }
    const auto width = static_cast<std::size_t>(p.columns.count());
    std::vector<double> totals(width, 0.0);
    for (std::int64_t i = 0; i < grid.count; ++i)
        for (std::size_t c = 0; c < width; ++c)
            totals[c] += p.at(i, static_cast<int>(c));

    StackedBarData chartData;
    chartData.series = activitySeries(m_trace->metadata, p.columns, totals);
    if (chartData.series.empty()) {
        m_chart->clearData(tr("Nothing was recorded in this range"));
        return;
    }
    chartData.axis = BarAxis::Time;
    chartData.contiguous = true;
    chartData.unit = BarUnit::Percent;
    chartData.yMaximum = 100.0;
    chartData.yTitle = peCount == 1 ? tr("% of the PE's time")
        : p.apart.empty()
        ? tr("% of processor time (%1 PEs)").arg(peCount)
        : tr("% of processor time (%1 worker PEs; comm threads apart)").arg(peCount);
    chartData.xTitle = tr("Time");
    chartData.secondaryLabel = tr("Processor time");
    chartData.secondaryUnit = BarUnit::Time;
    const auto n = static_cast<std::size_t>(grid.count);
    const auto series = chartData.series.size();
    chartData.categories.resize(n);
    chartData.values.assign(n * series, 0.0);
    chartData.secondary.assign(n * series, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        const auto interval = static_cast<std::int64_t>(i);
        chartData.categories[i].span = core::TimeRange { grid.begin(interval), grid.end(interval) };
        for (std::size_t s = 0; s < series; ++s) {
            const int column = chartData.series[s].activity;
            chartData.values[i * series + s] = p.percent(interval, column);
            chartData.secondary[i * series + s] = p.at(interval, column);
        }
    }
    addNotTracedSeries(chartData);
    m_chart->setData(std::move(chartData), p.columns);
}

void TimeProfileView::showContextMenu(QPoint globalPos, int category)
{
    std::optional<core::TimeRange> interval;
    if (m_profile && category >= 0 && category < m_profile->grid.count)
        interval
            = core::TimeRange { m_profile->grid.begin(category), m_profile->grid.end(category) };
    showTimeAxisMenu(globalPos, interval);
}

QString TimeProfileView::csv() const
{
    return QString::fromStdString(
        core::analysis::timeProfileCsv(m_profile ? &*m_profile : nullptr));
}

AnalysisView::State TimeProfileView::saveState() const
{
    auto state = BarChartView::saveState();
    state[QStringLiteral("interval")] = m_interval->text();
    state[QStringLiteral("bins")] = m_bins->text();
    return state;
}

std::optional<core::TimeRange> TimeProfileView::timeAxisRange() const
{
    return m_options->range();
}

} // namespace parallax::views
