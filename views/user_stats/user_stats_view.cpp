#include "views/user_stats/user_stats_view.h"

#include "core/analysis/series_csv.h"
#include "core/text_args.h"
#include "views/common/async_computation.h"
#include "views/common/entry_palette.h"
#include "views/common/line_chart.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

#include <QComboBox>
#include <QLocale>

#include <cmath>

namespace parallax::views {

namespace {

using core::analysis::SampleAggregate;

constexpr long long kDefaultBins = 100;
constexpr std::size_t kMaxPeLines = 8; // more PEs: the band alone
constexpr std::size_t kMaxMarkers = 80;

QString aggregateLabel(SampleAggregate a)
{
    switch (a) {
    case SampleAggregate::Sum:
        return UserStatsView::tr("Sum");
    case SampleAggregate::Mean:
        return UserStatsView::tr("Mean");
    case SampleAggregate::Min:
        return UserStatsView::tr("Min");
    case SampleAggregate::Max:
        return UserStatsView::tr("Max");
    case SampleAggregate::Count:
        return UserStatsView::tr("Count");
    case SampleAggregate::Last:
        return UserStatsView::tr("Last");
    }
    return {};
}

QString statLabel(std::int32_t id, const std::string& name)
{
    return name.empty() ? UserStatsView::tr("stat %1").arg(id)
                        : QStringLiteral("%1 · %2").arg(id).arg(QString::fromStdString(name));
}

} // namespace

UserStatsView::UserStatsView(EntryPalette* palette, QWidget* parent)
    : LineChartView(ViewKind::UserStats, palette, parent)
{
    m_stat = m_options->addChoice(tr("&Stat"), {});
    m_stat->setObjectName(QStringLiteral("stat"));
    m_stat->setToolTip(tr("The user statistic (STAT line of the .sts) to show"));
    QStringList aggregates;
    for (int a = 0; a < core::analysis::kSampleAggregates; ++a)
        aggregates << aggregateLabel(static_cast<SampleAggregate>(a));
    m_aggregate = m_options->addChoice(tr("&Aggregate"), aggregates);
    m_aggregate->setObjectName(QStringLiteral("aggregate"));
    m_aggregate->setCurrentIndex(static_cast<int>(SampleAggregate::Mean));
    m_aggregate->setToolTip(tr("How the samples of an interval (or of a PE) become one value"));
    m_by = m_options->addChoice(tr("S&how"), { tr("Over time"), tr("Per PE") });
    m_by->setObjectName(QStringLiteral("by"));
    addIntervalFields(kDefaultBins);
    m_lines->setObjectName(QStringLiteral("userStatsChart"));
    m_lines->setHint(
        tr("Drag to zoom · click a line or PE for its Timeline · right-click for more"));

    connect(m_stat, &QComboBox::currentIndexChanged, this, [this]() {
        m_provisionalStat = false; // the analyst's choice
        rebuildChart();
    });
    connect(m_by, &QComboBox::currentIndexChanged, this, [this]() { rebuildChart(); });
    recompute();
}

std::int32_t UserStatsView::currentStat() const
{
    return m_stat->currentData().isValid() ? m_stat->currentData().toInt() : -1;
}

bool UserStatsView::perPe() const
{
    return m_by->currentIndex() == 1;
}

bool UserStatsView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    for (const auto& [name, value] : options) {
        if (applyIntervalOption(name, value))
            continue;
        if (name == QStringLiteral("stat")) {
            if (m_stat->findData(value.toInt()) < 0)
                readLogStats();
            const int index = m_stat->findData(value.toInt());
            bool ok = false;
            value.toInt(&ok);
            if (!ok || index < 0) {
                QStringList known;
                for (int i = 0; i < m_stat->count(); ++i)
                    known << m_stat->itemText(i);
                if (error != nullptr)
                    *error
                        = tr("--stat %1 is not a stat of this run (%2)")
                              .arg(value, known.isEmpty() ? tr("it has none") : known.join(", "));
                return false;
            }
            m_stat->setCurrentIndex(index);
            m_provisionalStat = false;
        } else if (name == QStringLiteral("aggregate")) {
            SampleAggregate a = SampleAggregate::Mean;
            if (!core::analysis::parseSampleAggregate(value.toStdString(), a)) {
                if (error != nullptr)
                    *error = tr("--aggregate takes sum, mean, min, max, count or last, got '%1'")
                                 .arg(value);
                return false;
            }
            m_aggregate->setCurrentIndex(static_cast<int>(a));
        } else if (name == QStringLiteral("by")) {
            if (!applyByOption(m_by, value, error))
                return false;
        } else {
            return rejectOption(name, error);
        }
    }
    return applyFields(error);
}

void UserStatsView::clearResult()
{
    m_result.reset();
    m_logStats.reset();
    fillStats();
}

void UserStatsView::readLogStats()
{
    if (m_logStats || !m_trace)
        return;
    m_logStats = core::analysis::statIdsInLogs(*m_trace);
    fillStats();
}

void UserStatsView::fillStats()
{
    // A provisional pick (made before the logs' stats were known) is not the analyst's.
    const auto keep = m_provisionalStat ? -1 : currentStat();
    const QSignalBlocker block(m_stat);
    m_stat->clear();
    if (!m_trace)
        return;
    std::map<std::int32_t, std::string> stats = m_trace->metadata.stats;
    if (m_logStats)
        for (const auto id : *m_logStats)
            stats.emplace(id, std::string());
    for (const auto& [id, name] : stats)
        m_stat->addItem(statLabel(id, name), id);
    // The first stat that has samples, unless one was chosen.
    int index = m_stat->findData(keep);
    m_provisionalStat = index < 0 && !m_logStats;
    if (index < 0)
        index = !m_logStats || m_logStats->empty() ? 0 : m_stat->findData(m_logStats->front());
    m_stat->setCurrentIndex(std::max(index, 0));
}

void UserStatsView::recompute()
{
    m_lines->setTitle(tr("User stats"));
    m_message.clear();
    if (!m_trace) {
        m_computation->cancel();
        m_result.reset();
        m_lines->clearData(tr("No run loaded"));
        return;
    }
    auto request = m_options->request();
    if (rejectTooManyIntervals(request.range))
        return;
    core::analysis::UserStatsOptions options;
    options.intervalSize = intervalSize();
    options.bins = intervalBins();
    options.aggregate = static_cast<SampleAggregate>(
        std::clamp(m_aggregate->currentIndex(), 0, core::analysis::kSampleAggregates - 1));
    struct Computed {
        ResultOrReason<core::analysis::UserStats> stats;
        std::vector<std::int32_t> logStats; // statIdsInLogs
    };
    const auto trace = m_trace;
    m_computation->run<Computed>(
        [trace, request, options](const core::analysis::Progress& progress) {
            Computed c;
            c.logStats = core::analysis::statIdsInLogs(*trace);
            c.stats = computeFromLogs<core::analysis::UserStats>(
                *trace, tr("user stats"),
                [&]() {
                    if (!c.logStats.empty())
                        return QString();
                    QString reason = tr("This run has no user-stat (USER_STAT) records");
                    if (!trace->metadata.stats.empty())
                        reason += tr(", although its .sts declares %n stat(s)", nullptr,
                            static_cast<int>(trace->metadata.stats.size()));
                    return reason;
                },
                [&]() {
                    return core::analysis::computeUserStats(*trace, request, options, progress);
                });
            return c;
        },
        [this](Computed result) {
            if (!m_logStats) {
                m_logStats = std::move(result.logStats);
                fillStats();
            }
            m_result = std::move(result.stats.result);
            m_message = result.stats.reason;
            rebuildChart();
            emit computed();
        });
}

void UserStatsView::rebuildChart()
{
    if (!m_result || !m_trace) {
        if (!m_message.isEmpty())
            m_lines->clearData(m_message);
        return;
    }
    const auto& r = *m_result;
    const auto id = currentStat();
    const core::analysis::UserStatSeries* stat = nullptr;
    for (const auto& s : r.stats)
        if (s.statId == id)
            stat = &s;
    if (stat == nullptr) {
        m_lines->clearData(tr("Choose a stat"));
        return;
    }
    const QString name = statLabel(stat->statId, stat->name);
    const QString aggregate = aggregateLabel(r.aggregate);
    const QString what = describeSelection(*m_trace, m_options->range(), m_options->pes());
    m_lines->setTitle(tr("User stat %1").arg(name),
        tr("%1 · %2 of %n sample(s)", nullptr, static_cast<int>(stat->overall.count))
            .arg(what, aggregate.toLower()));
    if (stat->overall.empty()) {
        m_lines->clearData(tr("No samples of %1 in this range").arg(name));
        return;
    }
    LineChartData lines;
    lines.unit = BarUnit::Count;
    lines.includeZero = false;
    const auto mainColor = EntryPalette::rankColor(0).rgb();
    if (perPe()) {
        lines.axis = LineAxis::Categorical;
        lines.xTitle = tr("PE");
        lines.yTitle = tr("%1 of the PE's samples").arg(aggregate);
        LineSeries series;
        series.name = name;
        series.color = mainColor;
        series.dotsOnly = true;
        series.emphasised = true;
        for (std::size_t k = 0; k < r.pes.size(); ++k) {
            lines.labels.push_back(QString::number(r.pes[k]));
            lines.pes.push_back(r.pes[k]);
            const auto& p = stat->perPe[k];
            series.values.push_back(
                p.empty() ? std::numeric_limits<double>::quiet_NaN() : p.value(r.aggregate));
        }
        lines.series.push_back(std::move(series));
        m_lines->setLegendHeading(tr("Stat"));
        m_lines->setData(std::move(lines));
        return;
    }
    const auto& g = stat->overTime;
    const auto n = static_cast<std::size_t>(std::max<std::int64_t>(g.grid.count, 0));
    lines.axis = LineAxis::Time;
    lines.xTitle = tr("Time");
    lines.yTitle
        = tr("%1 per interval (%2)").arg(aggregate, formatTime(static_cast<double>(g.grid.size)));
    for (std::size_t i = 0; i < n; ++i) {
        const auto at = static_cast<std::int64_t>(i);
        lines.spans.push_back({ g.grid.begin(at), g.grid.end(at) });
    }
    std::size_t points = 0;
    for (std::size_t i = 0; i < n; ++i)
        points += g.combinedSamples[i] > 0 ? 1U : 0U;
    std::size_t pesWithSamples = 0;
    for (const auto& p : stat->perPe)
        pesWithSamples += p.empty() ? 0U : 1U;
    std::optional<core::PeId> onlyPe;
    for (std::size_t k = 0; k < r.pes.size() && pesWithSamples == 1; ++k)
        if (!stat->perPe[k].empty())
            onlyPe = r.pes[k];
    LineSeries all;
    all.name = onlyPe ? tr("PE %1").arg(*onlyPe) : tr("%1 over PEs").arg(aggregate);
    all.fullName = tr("%1 of the samples of the selected PEs").arg(aggregate);
    all.values = g.combined;
    all.color = mainColor;
    all.joinGaps = true;
    all.emphasised = true;
    all.markers = points <= kMaxMarkers;
    if (onlyPe)
        all.pe = *onlyPe;
    lines.series.push_back(std::move(all));
    const bool showPes = pesWithSamples > 1 && pesWithSamples <= kMaxPeLines;
    if (pesWithSamples > kMaxPeLines) {
        LineBand band;
        band.name = tr("lowest – highest PE");
        band.low = g.low;
        band.high = g.high;
        band.lowPe = g.lowPe;
        band.highPe = g.highPe;
        band.joinGaps = true;
        lines.bands.push_back(std::move(band));
    }
    if (showPes)
        for (std::size_t k = 0; k < r.pes.size(); ++k) {
            if (stat->perPe[k].empty())
                continue;
            LineSeries pe;
            pe.name = tr("PE %1").arg(r.pes[k]);
            pe.pe = r.pes[k];
            pe.color = EntryPalette::rankColor(static_cast<int>(k) + 1).rgb();
            pe.joinGaps = true;
            pe.markers = points <= kMaxMarkers;
            pe.values.resize(n);
            for (std::size_t i = 0; i < n; ++i)
                pe.values[i] = g.value[g.cell(k, static_cast<std::int64_t>(i))];
            lines.series.push_back(std::move(pe));
        }
    m_lines->setLegendHeading(tr("Series"));
    m_lines->setData(std::move(lines));
}

QString UserStatsView::csv() const
{
    const auto* result = m_result ? &*m_result : nullptr;
    return QString::fromStdString(perPe() ? core::analysis::userStatsPeCsv(result)
                                          : core::analysis::userStatsTimeCsv(result));
}

} // namespace parallax::views
