#include "views/extrema/extrema_view.h"

#include "core/analysis/csv_export.h"
#include "core/analysis/pe_groups.h"
#include "core/text_args.h"
#include "views/common/async_computation.h"
#include "views/common/not_traced_series.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

#include <QComboBox>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPushButton>

#include <map>

namespace parallax::views {

namespace {

using core::analysis::ExtremaCriterion;

constexpr int kCriteria = 8;
constexpr const char* kByKeys[] = { "pes", "node", "block" };

} // namespace

QString ExtremaView::criterionLabel(ExtremaCriterion criterion)
{
    switch (criterion) {
    case ExtremaCriterion::LeastIdle:
        return tr("Least idle time");
    case ExtremaCriterion::MostIdle:
        return tr("Most idle time");
    case ExtremaCriterion::Overhead:
        return tr("Most overhead");
    case ExtremaCriterion::ActiveEntries:
        return tr("Most active entry methods");
    case ExtremaCriterion::GrainSize:
        return tr("Largest grain size");
    case ExtremaCriterion::MsgsSent:
        return tr("Most messages sent");
    case ExtremaCriterion::BytesSent:
        return tr("Most bytes sent");
    case ExtremaCriterion::Clustering:
        return tr("Outliers by clustering");
    }
    return {};
}

ExtremaView::ExtremaView(EntryPalette* palette, QWidget* parent)
    : BarChartView(ViewKind::Extrema, palette, parent)
{
    QStringList labels;
    for (int c = 0; c < kCriteria; ++c)
        labels << criterionLabel(static_cast<ExtremaCriterion>(c));
    m_criterion = m_options->addChoice(tr("&Criterion"), labels);
    m_criterion->setObjectName(QStringLiteral("criterion"));
    // The bars stay bounded: the averaged columns and at most this many extremes.
    constexpr long long maxCount = kMaxBars - kAveragedColumns;
    m_count = m_options->addField(
        tr("&Count"), {},
        [](const QString& text) { return countFieldError(text, 1, maxCount, tr("Count")); }, 4);
    m_count->setObjectName(QStringLiteral("count"));
    m_count->setPlaceholderText(tr("auto"));
    m_count->setToolTip(tr("Number of extreme PEs or groups, at most %1 (empty: 10 %, 20 above "
                           "256)")
                            .arg(maxCount));
    m_by = m_options->addChoice(tr("&By"), { tr("PE"), tr("node"), tr("block") });
    m_by->setObjectName(QStringLiteral("extremaBy"));
    m_by->setToolTip(tr("Rank PEs, or groups of PEs by their members' mean score: SMP nodes, or "
                        "blocks of consecutive PEs. Click a group's bar to show its PEs."));
    m_clusters = m_options->addField(
        tr("C&lusters"), {},
        [](const QString& text) { return countFieldError(text, 1, 9'999, tr("Clusters")); }, 4);
    m_clusters->setObjectName(QStringLiteral("clusters"));
    m_clusters->setPlaceholderText(tr("auto"));
    m_clusters->setToolTip(tr("Number of clusters k for clustering (empty: √ of the PE count)"));
    m_clusters->setEnabled(false);

    m_addAll = new QPushButton(tr("&Add all to Timeline"), this);
    m_addAll->setObjectName(QStringLiteral("addAllToTimeline"));
    m_addAll->setToolTip(tr("Open the timeline of every extreme PE"));
    m_addAll->setEnabled(false);

    m_options->offerCommThreads(); // comm threads are ranked only when included
    m_chart->setObjectName(QStringLiteral("extremaChart"));
    m_chart->setHint(tr("Click a PE's bar to open its timeline"));
    addToolbarWidget(m_addAll);

    connect(m_criterion, &QComboBox::currentIndexChanged, this,
        [this]() { m_clusters->setEnabled(criterion() == ExtremaCriterion::Clustering); });
    connect(m_addAll, &QPushButton::clicked, this, [this]() {
        if (const auto pes = extremePes(); !pes.empty())
            emit timelineRequested(pes, m_range);
    });
    connect(m_chart, &StackedBarChart::categoryClicked, this, [this](int category) {
        const auto bar = static_cast<std::size_t>(category - kAveragedColumns);
        if (m_groups && category >= kAveragedColumns && bar < m_groupBars.size()
            && m_groupBars[bar].member == core::kNoPe)
            toggleGroup(m_groupBars[bar].rank);
    });
    recompute();
}

ExtremaCriterion ExtremaView::criterion() const
{
    return static_cast<ExtremaCriterion>(std::clamp(m_criterion->currentIndex(), 0, kCriteria - 1));
}

bool ExtremaView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    for (const auto& [name, value] : options) {
        if (name == QStringLiteral("criterion")) {
            const auto c = core::analysis::parseExtremaCriterion(value.toStdString());
            if (!c) {
                if (error != nullptr)
                    *error = tr("unknown criterion '%1' (least-idle, most-idle, overhead, "
                                "active-entries, grain-size, msgs-sent, bytes-sent or clustering)")
                                 .arg(value);
                return false;
            }
            m_criterion->setCurrentIndex(static_cast<int>(*c));
        } else if (name == QStringLiteral("count")) {
            m_count->setText(value);
        } else if (name == QStringLiteral("clusters")) {
            m_clusters->setText(value);
        } else if (name == QStringLiteral("by")) {
            int found = -1;
            for (int i = 0; i < 3; ++i)
                if (value == QLatin1String(kByKeys[i]))
                    found = i;
            if (found < 0) {
                if (error != nullptr)
                    *error = tr("--by: '%1' is not pes, node or block").arg(value);
                return false;
            }
            m_by->setCurrentIndex(found);
        } else {
            return rejectOption(name, error);
        }
    }
    return applyFields(error);
}

void ExtremaView::clearResult()
{
    m_extrema.reset();
    m_groups.reset();
    m_groupBars.clear();
}

ExtremaView::By ExtremaView::by() const
{
    return static_cast<By>(std::clamp(m_by->currentIndex(), 0, 2));
}

void ExtremaView::setBy(By by)
{
    if (static_cast<int>(by) == m_by->currentIndex())
        return;
    m_by->setCurrentIndex(static_cast<int>(by));
    recompute();
}

void ExtremaView::recompute()
{
    m_chart->setTitle(tr("Extrema: %1").arg(criterionLabel(criterion()).toLower()));
    if (!m_trace) {
        m_computation->cancel();
        m_extrema.reset();
        m_addAll->setEnabled(false);
        m_chart->clearData(tr("No run loaded"));
        return;
    }
    if (!m_trace->hasLogs()
        && (criterion() == ExtremaCriterion::MsgsSent
            || criterion() == ExtremaCriterion::BytesSent)) {
        // Sends are only in the event logs: say so rather than rank PEs by zeros.
        m_computation->cancel();
        m_extrema.reset();
        m_addAll->setEnabled(false);
        m_chart->clearData(tr("This run has summaries only: messages and bytes sent are in the "
                              "event logs (.log files), which this run does not have"));
        emit computed();
        return;
    }
    auto request = m_options->request();
    core::analysis::ExtremaOptions options;
    options.criterion = criterion();
    options.count = countFieldValue(m_count->text(), 0);
    options.clusters = countFieldValue(m_clusters->text(), 0);
    const auto trace = m_trace;
    const auto grouping = by();
    m_computation->run<Result>(
        [trace, request, options, grouping](const core::analysis::Progress& progress) {
            namespace a = core::analysis;
            Result result;
            result.extrema = a::computeExtrema(*trace, request, options, progress);
            if (!result.extrema || grouping == By::Pes || !result.extrema->error.empty())
                return result;
            // Every analysed PE has its score: the groups' scores are their members' means.
            const auto& pes = result.extrema->pes;
            const auto groups = grouping == By::Node
                ? a::groupByNode(trace->metadata, pes)
                : a::groupByBlock(pes,
                    a::autoBlockSize(
                        pes.empty() ? 0 : static_cast<std::size_t>(pes.back() - pes.front() + 1),
                        a::kMaxAxisRows));
            std::vector<std::vector<core::PeId>> members;
            for (const auto& g : groups) {
                members.push_back(g.pes);
                result.groupNames.push_back(QString::fromStdString(g.name));
            }
            result.groups = a::rankGroups(*result.extrema, members, options.count);
            return result;
        },
        [this, range = request.range](Result result) {
            m_range = range;
            showResult(std::move(result));
            emit computed();
        });
}

void ExtremaView::showResult(Result result)
{
    m_groups = std::move(result.groups);
    m_groupNames = std::move(result.groupNames);
    m_expanded.assign(m_groups ? m_groups->extremes.size() : 0, false);
    if (!result.extrema) {
        m_extrema.reset();
        m_addAll->setEnabled(false);
        m_chart->clearData(tr("This run has neither logs nor summaries to analyse"));
        return;
    }
    m_extrema = std::move(result.extrema);
    showExtrema();
}

void ExtremaView::toggleGroup(std::size_t rank)
{
    if (!m_groups || rank >= m_expanded.size())
        return;
    m_expanded[rank] = !m_expanded[rank];
    showExtrema();
}

bool ExtremaView::isExpanded(std::size_t rank) const
{
    return rank < m_expanded.size() && m_expanded[rank];
}

QString ExtremaView::scoreText(double score, ScoreText form) const
{
    const bool bar = form == ScoreText::OnBar;
    switch (m_extrema ? m_extrema->criterion : criterion()) {
    case ExtremaCriterion::LeastIdle:
    case ExtremaCriterion::MostIdle:
        return tr("%1 idle").arg(formatBarValue(score, BarUnit::Percent));
    case ExtremaCriterion::Overhead:
        return (bar ? tr("%1 ovh") : tr("%1 overhead"))
            .arg(formatBarValue(score, BarUnit::Percent));
    case ExtremaCriterion::ActiveEntries:
        return (bar ? tr("%1 EPs") : tr("%1 entry methods ran"))
            .arg(formatBarValue(score, BarUnit::Count));
    case ExtremaCriterion::GrainSize:
        return bar ? formatTime(score) : tr("%1 per execution on average").arg(formatTime(score));
    case ExtremaCriterion::MsgsSent:
        return (bar ? tr("%1 msgs") : tr("%1 messages sent"))
            .arg(formatBarValue(score, BarUnit::Messages));
    case ExtremaCriterion::BytesSent:
        return bar ? formatBarValue(score, BarUnit::Bytes)
                   : tr("%1 sent").arg(formatBarValue(score, BarUnit::Bytes));
    case ExtremaCriterion::Clustering:
        return bar
            ? tr("d %1").arg(QLocale().toString(score, 'g', 3))
            : tr("distance %1 from its cluster's centre").arg(QLocale().toString(score, 'g', 4));
    }
    return {};
}

void ExtremaView::showExtrema()
{
    const auto& x = *m_extrema;
    const QString title = tr("Extrema: %1").arg(criterionLabel(x.criterion).toLower());
    const auto shown = m_groups ? m_groups->extremes.size() : x.extremes.size();
    const bool one = shown == 1;
    const QString unit = !m_groups ? (one ? tr("PE") : tr("PEs"))
        : by() == By::Node         ? (one ? tr("node") : tr("nodes"))
                                   : (one ? tr("block") : tr("blocks"));
    QString subtitle = tr("%1 extreme %2").arg(shown).arg(unit);
    if (m_groups)
        subtitle += tr(" of %1, by their PEs' mean score").arg(m_groups->ranked);
    subtitle += tr(" among ") + describeSelection(*m_trace, m_range, x.pes);
    if (x.criterion == ExtremaCriterion::Clustering && x.error.empty())
        subtitle += tr(" · %1 non-empty clusters").arg(x.clusterCount);
    if (!x.apart.empty()) // comm threads: no idle records, relays; the options bar includes them
        subtitle += tr(" · comm threads (PE %1) not ranked")
                        .arg(QString::fromStdString(core::formatPeList(x.apart)));
    m_chart->setTitle(title, subtitle);
    const auto all = extremePes();
    m_addAll->setEnabled(!all.empty());
    m_addAll->setText(
        all.empty() ? tr("&Add all to Timeline") : tr("&Add all %1 to Timeline").arg(all.size()));
    if (!x.error.empty()) {
        m_chart->clearData(QString::fromStdString(x.error));
        return;
    }
    if (x.pes.empty()) {
        m_chart->clearData(tr("None of the selected PEs has data"));
        return;
    }
    const auto width = static_cast<std::size_t>(x.columns.count());
    StackedBarData chartData;
    chartData.series = activitySeries(m_trace->metadata, x.columns, x.average);
    chartData.unit = BarUnit::Percent;
    chartData.yMaximum = 100.0;
    chartData.yTitle = tr("% of the time range");
    chartData.xTitle = tr("Averages  |  extreme PEs (most extreme on the right)");
    chartData.legendReference = 0; // shares of the average over all PEs
    const auto outliers = m_groups ? all.size() : x.extremes.size();
    const auto others = x.pes.size() - std::min(x.pes.size(), outliers);
    const std::vector<double>* groups[]
        = { &x.average, m_groups ? &m_groups->nonOutliers : &x.nonOutliers,
              m_groups ? &m_groups->outliers : &x.outliers };
    const QString groupLabels[] = { tr("avg"), tr("non-outliers"), tr("outliers") };
    const QString groupTitles[]
        = { x.apart.empty() ? tr("Average of all %1 PEs").arg(x.pes.size())
                            : tr("Average of all %1 worker PEs").arg(x.pes.size()),
              tr("Average of the %1 non-outliers").arg(others),
              tr("Average of the %1 outliers").arg(outliers) };
    // The ranked value is drawn above every bar: the mean score of each group, then each PE's.
    double groupScore[kAveragedColumns] = { 0.0, 0.0, 0.0 };
    std::size_t groupSize[kAveragedColumns] = { 0, 0, 0 };
    for (std::size_t k = 0; k < x.pes.size() && k < x.scores.size(); ++k) {
        const auto& extremes = m_groups ? all : x.extremes;
        const bool extreme
            = std::find(extremes.begin(), extremes.end(), x.pes[k]) != extremes.end();
        for (const int g : { 0, extreme ? 2 : 1 }) {
            groupScore[g] += x.scores[k];
            ++groupSize[g];
        }
    }
    for (int g = 0; g < kAveragedColumns; ++g) {
        StackedBarCategory c;
        c.label = groupLabels[g];
        c.title = groupTitles[g];
        if (g == kAveragedColumns - 1 && outliers > 0)
            c.note = tr("Click to open their timelines");
        const auto n = groupSize[g];
        if (n > 0)
            c.note = tr("Mean score: %1").arg(scoreText(groupScore[g] / static_cast<double>(n)))
                + (c.note.isEmpty() ? QString() : QStringLiteral("\n") + c.note);
        chartData.valueLabels.push_back(n > 0
                ? scoreText(groupScore[g] / static_cast<double>(n), ScoreText::OnBar)
                : QString());
        chartData.categories.push_back(c);
    }
    if (m_groups) {
        addGroupBars(chartData, width);
        return;
    }
    // Most extreme rightmost.
    for (std::size_t k = outliers; k-- > 0;) {
        const auto pe = x.extremes[k];
        StackedBarCategory c;
        c.label = tr("PE %1").arg(pe);
        c.title = tr("PE %1 · rank %2 of %3").arg(pe).arg(k + 1).arg(outliers);
        c.note = tr("Score: %1\nClick to open its timeline").arg(scoreText(x.extremeScores[k]));
        c.separatorBefore = k + 1 == outliers;
        chartData.valueLabels.push_back(scoreText(x.extremeScores[k], ScoreText::OnBar));
        chartData.categories.push_back(std::move(c));
    }
    const auto series = chartData.series.size();
    chartData.values.assign(chartData.categories.size() * series, 0.0);
    auto fill = [&](std::size_t category, const double* vector) {
        for (std::size_t s = 0; s < series; ++s)
            chartData.values[category * series + s]
                = vector[static_cast<std::size_t>(chartData.series[s].activity)];
    };
    for (std::size_t g = 0; g < kAveragedColumns; ++g)
        if (groups[g]->size() == width)
            fill(g, groups[g]->data());
    for (std::size_t k = 0; k < outliers; ++k) {
        const auto it = std::find(x.pes.begin(), x.pes.end(), x.extremes[k]);
        if (it == x.pes.end())
            continue;
        const auto position = static_cast<std::size_t>(it - x.pes.begin());
        fill(kAveragedColumns + (outliers - 1 - k), x.vectors.data() + position * width);
    }
    addNotTracedSeries(chartData); // a bar never stops short unlabelled
    m_chart->setData(std::move(chartData), x.columns);
}

void ExtremaView::addGroupBars(StackedBarData& chartData, std::size_t width)
{
    const auto& x = *m_extrema;
    const auto& extremes = m_groups->extremes;
    const auto series = chartData.series.size();
    const auto fill = [&](const double* vector) {
        for (std::size_t s = 0; s < series; ++s)
            chartData.values.push_back(
                vector[static_cast<std::size_t>(chartData.series[s].activity)]);
    };
    chartData.values.resize(chartData.categories.size() * series, 0.0);
    for (std::size_t g = 0; g < kAveragedColumns; ++g) {
        const std::vector<double>* v[]
            = { &x.average, &m_groups->nonOutliers, &m_groups->outliers };
        if (v[g]->size() == width)
            for (std::size_t s = 0; s < series; ++s)
                chartData.values[g * series + s]
                    = (*v[g])[static_cast<std::size_t>(chartData.series[s].activity)];
    }
    chartData.xTitle = tr("Averages  |  extreme groups (most extreme on the right)");
    m_groupBars.clear();
    // Before anything is expanded the bars fit kMaxBars (the count is bounded); an expanded
    // group shows its most extreme members, as many as still fit (at least 16).
    std::size_t bars = kAveragedColumns + extremes.size();
    std::map<core::PeId, std::size_t> indexOf;
    for (std::size_t k = 0; k < x.pes.size(); ++k)
        indexOf.emplace(x.pes[k], k);
    for (std::size_t rank = extremes.size(); rank-- > 0;) {
        const auto& e = extremes[rank];
        const QString name
            = e.group < m_groupNames.size() ? m_groupNames[e.group] : tr("group %1").arg(e.group);
        const bool open = isExpanded(rank);
        const auto room = std::max<std::size_t>(
            static_cast<std::size_t>(kMaxBars) - std::min<std::size_t>(bars, kMaxBars), 16);
        const auto showing = open ? std::min(e.members.size(), room) : 0;
        bars += showing;
        StackedBarCategory c;
        c.label = (open ? QStringLiteral("▾ ") : QStringLiteral("▸ ")) + name;
        c.title = tr("%1 · rank %2 of %3 · %n PE(s)", nullptr, static_cast<int>(e.members.size()))
                      .arg(name)
                      .arg(rank + 1)
                      .arg(extremes.size());
        c.note = tr("Mean score of its PEs: %1").arg(scoreText(e.score));
        if (!e.members.empty())
            c.note += tr("\nMost extreme: PE %1 (%2)")
                          .arg(e.members.front())
                          .arg(scoreText(e.memberScores.front()));
        if (open && showing < e.members.size())
            c.note
                += tr("\nShowing its %1 most extreme PEs of %2").arg(showing).arg(e.members.size());
        c.note += open ? tr("\nClick to hide its PEs") : tr("\nClick to show its PEs");
        c.separatorBefore = rank + 1 == extremes.size() || isExpanded(rank + 1);
        chartData.valueLabels.push_back(scoreText(e.score, ScoreText::OnBar));
        chartData.categories.push_back(std::move(c));
        fill(e.vector.data());
        m_groupBars.push_back({ rank, core::kNoPe });
        // Its members after it, the most extreme rightmost.
        for (std::size_t k = showing; k-- > 0;) {
            const auto pe = e.members[k];
            StackedBarCategory m;
            m.label = tr("PE %1").arg(pe);
            m.title = tr("PE %1 of %2 · rank %3 of %4 in it")
                          .arg(pe)
                          .arg(name)
                          .arg(k + 1)
                          .arg(e.members.size());
            m.note = tr("Score: %1\nClick to open its timeline").arg(scoreText(e.memberScores[k]));
            chartData.valueLabels.push_back(scoreText(e.memberScores[k], ScoreText::OnBar));
            chartData.categories.push_back(std::move(m));
            const auto it = indexOf.find(pe);
            if (it != indexOf.end())
                fill(x.vectors.data() + it->second * width);
            else
                chartData.values.resize(chartData.values.size() + series, 0.0);
            m_groupBars.push_back({ rank, pe });
        }
    }
    addNotTracedSeries(chartData);
    m_chart->setData(std::move(chartData), x.columns);
}

std::vector<core::PeId> ExtremaView::extremePes() const
{
    if (!m_extrema)
        return {};
    if (!m_groups)
        return m_extrema->extremes;
    std::vector<core::PeId> pes;
    for (const auto& e : m_groups->extremes)
        pes.insert(pes.end(), e.members.begin(), e.members.end());
    return pes;
}

QRect ExtremaView::barRectForGroup(std::size_t rank) const
{
    for (std::size_t b = 0; b < m_groupBars.size(); ++b)
        if (m_groupBars[b].rank == rank && m_groupBars[b].member == core::kNoPe) {
            const QRect r = m_chart->barRect(kAveragedColumns + b);
            return r.isNull() ? QRect() : r.translated(m_chart->mapTo(this, QPoint(0, 0)));
        }
    return {};
}

QRect ExtremaView::barRectForPe(core::PeId pe) const
{
    if (!m_extrema || !m_chart->hasData())
        return {};
    if (m_groups) {
        for (std::size_t b = 0; b < m_groupBars.size(); ++b)
            if (m_groupBars[b].member == pe) {
                const QRect r = m_chart->barRect(kAveragedColumns + b);
                return r.isNull() ? QRect() : r.translated(m_chart->mapTo(this, QPoint(0, 0)));
            }
        return {};
    }
    const auto& extremes = m_extrema->extremes;
    const auto it = std::find(extremes.begin(), extremes.end(), pe);
    if (it == extremes.end())
        return {};
    const auto rank = static_cast<std::size_t>(it - extremes.begin());
    const auto category = kAveragedColumns + (extremes.size() - 1 - rank);
    const QRect r = m_chart->barRect(category);
    return r.isNull() ? QRect() : r.translated(m_chart->mapTo(this, QPoint(0, 0)));
}

BarChartView::BarPes ExtremaView::pesOfBar(int category) const
{
    if (!m_extrema || category < 0)
        return {};
    if (category == 2) // the outliers' average
        return { extremePes(), m_range };
    if (m_groups) {
        // A member's bar: its PE; a group's bar expands instead (see the constructor).
        const auto bar = static_cast<std::size_t>(category - kAveragedColumns);
        if (category < kAveragedColumns || bar >= m_groupBars.size()
            || m_groupBars[bar].member == core::kNoPe)
            return {};
        return { { m_groupBars[bar].member }, m_range };
    }
    const auto& extremes = m_extrema->extremes;
    if (category < kAveragedColumns)
        return {};
    const auto index = static_cast<std::size_t>(category - kAveragedColumns);
    if (index >= extremes.size())
        return {};
    return { { extremes[extremes.size() - 1 - index] }, m_range }; // most extreme rightmost
}

void ExtremaView::showContextMenu(QPoint globalPos, int category)
{
    const auto bar = static_cast<std::size_t>(category - kAveragedColumns);
    if (!m_groups || category < kAveragedColumns || bar >= m_groupBars.size()
        || m_groupBars[bar].member != core::kNoPe) {
        BarChartView::showContextMenu(globalPos, category);
        return;
    }
    const auto rank = m_groupBars[bar].rank;
    const auto& e = m_groups->extremes[rank];
    QMenu menu(this);
    menu.addAction(isExpanded(rank) ? tr("Hide its PEs") : tr("Show its PEs"), this,
        [this, rank]() { toggleGroup(rank); });
    addOpenTimelineAction(menu, *this, e.members, m_range);
    addExportActions(menu, *this);
    menu.exec(globalPos);
}

QString ExtremaView::csv() const
{
    return QString::fromStdString(core::analysis::extremaCsv(m_extrema ? &*m_extrema : nullptr));
}

AnalysisView::State ExtremaView::saveState() const
{
    auto state = BarChartView::saveState();
    state[QStringLiteral("criterion")] = QString::fromUtf8(core::analysis::extremaCriterionName(
        static_cast<core::analysis::ExtremaCriterion>(m_criterion->currentIndex())));
    state[QStringLiteral("count")] = m_count->text();
    state[QStringLiteral("clusters")] = m_clusters->text();
    return state;
}

} // namespace parallax::views
