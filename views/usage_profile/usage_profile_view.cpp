#include "views/usage_profile/usage_profile_view.h"

#include "core/analysis/csv_export.h"
#include "core/text_args.h"
#include "views/common/async_computation.h"
#include "views/common/not_traced_series.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

namespace parallax::views {

UsageProfileView::UsageProfileView(EntryPalette* palette, QWidget* parent)
    : BarChartView(ViewKind::UsageProfile, palette, parent)
{
    m_options->offerCommThreads();
    m_chart->setObjectName(QStringLiteral("usageChart"));
    m_chart->setHint(tr("Click a PE's bar to open its timeline"));

    recompute();
}

void UsageProfileView::clearResult()
{
    m_profile.reset();
}

void UsageProfileView::recompute()
{
    m_chart->setTitle(tr("Usage profile"));
    if (!m_trace) {
        m_computation->cancel();
        m_profile.reset();
        m_chart->clearData(tr("No run loaded"));
        return;
    }
    auto request = m_options->request();
    const auto trace = m_trace;
    m_computation->run<std::optional<core::analysis::UsageProfile>>(
        [trace, request](const core::analysis::Progress& progress) {
            return core::analysis::computeUsageProfile(*trace, request, progress);
        },
        [this](std::optional<core::analysis::UsageProfile> profile) {
            if (profile) {
                showProfile(std::move(*profile));
            } else {
                m_profile.reset();
                m_chart->clearData(tr("This run has neither logs nor summaries to profile"));
            }
            emit computed();
        });
}

void UsageProfileView::showProfile(core::analysis::UsageProfile profile)
{
    m_profile = std::move(profile);
    const auto& p = *m_profile;
    const auto& metadata = m_trace->metadata;
    m_chart->setTitle(tr("Usage profile"), describeSelection(*m_trace, p.range, p.pes));
    if (p.pes.empty()) {
        m_chart->clearData(tr("None of the selected PEs has data"));
        return;
    }
    StackedBarData chartData;
    chartData.series = activitySeries(metadata, p.columns, p.average);
    chartData.unit = BarUnit::Percent;
    chartData.yMaximum = 100.0;
    chartData.yTitle = tr("% of the time range");
    chartData.xTitle = p.apart.empty() ? tr("PE") : tr("PE (c: comm thread, not in the average)");
    chartData.legendReference = 0; // shares of the average bar
    StackedBarCategory average;
    average.label = tr("avg");
    const auto averaged = p.pes.size() - p.apart.size();
    average.title = p.apart.empty() ? tr("Average of %1 PEs").arg(p.pes.size())
                                    : tr("Average of %1 worker PEs").arg(averaged);
    if (!p.apart.empty())
        average.note = tr("Comm threads (PE %1) are not in the average: they have no idle "
                          "records. \"Include comm threads\" adds them.")
                           .arg(QString::fromStdString(core::formatPeList(p.apart)));
    chartData.categories.push_back(average);
    for (std::size_t k = 0; k < p.pes.size(); ++k) {
        const auto pe = p.pes[k];
        const bool apart = std::find(p.apart.begin(), p.apart.end(), pe) != p.apart.end();
        StackedBarCategory c;
        c.label = apart ? tr("%1c").arg(pe) : QString::number(pe);
        c.title = tr("PE %1").arg(pe);
        // A gap after the average and before the comm threads kept apart.
        c.separatorBefore = k == 0 || (apart && pe == p.apart.front());
        QString note = metadata.isCommThread(pe)
            ? tr("Communication thread of node %1").arg(metadata.nodeOf(pe))
                + (apart ? tr(" (not in the average)") : QString())
            : (metadata.smp ? tr("Node %1").arg(metadata.nodeOf(pe)) : QString());
        if (!note.isEmpty())
            note += QLatin1Char('\n');
        c.note = note + tr("Click to open its timeline");
        chartData.categories.push_back(std::move(c));
    }
    const auto series = chartData.series.size();
    chartData.values.assign(chartData.categories.size() * series, 0.0);
    for (std::size_t s = 0; s < series; ++s) {
        const int column = chartData.series[s].activity;
        chartData.values[s] = p.average[static_cast<std::size_t>(column)];
        for (std::size_t k = 0; k < p.pes.size(); ++k)
            chartData.values[(k + 1) * series + s] = p.at(k, column);
    }
    addNotTracedSeries(chartData);
    m_chart->setData(std::move(chartData), p.columns);
}

BarChartView::BarPes UsageProfileView::pesOfBar(int category) const
{
    if (!m_profile || category < 1)
        return {};
    const auto k = static_cast<std::size_t>(category - 1);
    if (k >= m_profile->pes.size())
        return {};
    return { { m_profile->pes[k] }, m_profile->range };
}

QRect UsageProfileView::barRectForPe(core::PeId pe) const
{
    if (!m_profile)
        return {};
    const auto& pes = m_profile->pes;
    const auto it = std::find(pes.begin(), pes.end(), pe);
    if (it == pes.end())
        return {};
    const QRect r = m_chart->barRect(static_cast<std::size_t>(it - pes.begin()) + 1);
    return r.isNull() ? QRect() : r.translated(m_chart->mapTo(this, QPoint(0, 0)));
}

QString UsageProfileView::csv() const
{
    return QString::fromStdString(core::analysis::usageCsv(m_profile ? &*m_profile : nullptr));
}

} // namespace parallax::views
