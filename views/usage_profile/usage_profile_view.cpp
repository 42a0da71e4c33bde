#include "views/usage_profile/usage_profile_view.h"

#include "core/analysis/csv_export.h"
#include "core/text_args.h"
#include "views/common/async_computation.h"
#include "views/common/not_traced_series.h"
#include "views/common/options_bar.h"
#include "views/common/pe_lists_file.h"
#include "views/common/stacked_bar_chart.h"

#include <QComboBox>
#include <QMenu>
#include <QToolButton>

namespace parallax::views {

namespace {

namespace analysis = core::analysis;

// The choices of the group and mode boxes, in order.
constexpr UsageGrouping kGroupings[] = { UsageGrouping::Auto, UsageGrouping::None,
    UsageGrouping::Node, UsageGrouping::Block, UsageGrouping::Signature, UsageGrouping::Lists };
constexpr const char* kGroupingKeys[] = { "auto", "pes", "node", "block", "signature", "list" };
constexpr int kGroupingCount = 6;
constexpr analysis::AggregationMode kModes[] = { analysis::AggregationMode::Sum,
    analysis::AggregationMode::Set, analysis::AggregationMode::Key };

} // namespace

UsageProfileView::UsageProfileView(EntryPalette* palette, QWidget* parent)
    : BarChartView(ViewKind::UsageProfile, palette, parent)
{
    m_options->offerCommThreads();
    m_grouping = m_options->addChoice(tr("&Group"),
        { tr("auto"), tr("PEs"), tr("node"), tr("block"), tr("signature"), tr("lists…") });
    m_grouping->setObjectName(QStringLiteral("grouping"));
    m_grouping->setToolTip(tr("How PEs are grouped: auto groups above %1 PEs (by node on SMP "
                              "runs, else by blocks); signature = same executed entry methods; "
                              "lists = your named PE lists from a file (name: 0-15,32 per line)")
                               .arg(analysis::kMaxAxisRows));
    // Choosing "lists…" asks for the file first; cancelling keeps the grouping shown. (The
    // options bar applies on `activated`, after this.)
    connect(m_grouping, &QComboBox::activated, this, [this](int index) {
        if (kGroupings[std::clamp(index, 0, kGroupingCount - 1)] != UsageGrouping::Lists) {
            m_lastGrouping = index;
            return;
        }
        if (!choosePeListsFile(this,
                [this](const QString& path, QString* error) { return loadPeLists(path, error); })) {
            const QSignalBlocker block(m_grouping);
            m_grouping->setCurrentIndex(m_lastGrouping);
        }
        recompute(); // with the lists, or as before
    });
    m_mode = m_options->addChoice(tr("&Mode"), { tr("SUM"), tr("SET"), tr("KEY") });
    m_mode->setObjectName(QStringLiteral("aggregationMode"));
    m_mode->setToolTip(tr("SUM: the members' total per PE. SET: their mean with min–max and "
                          "mean ± σ of the entry-method time. KEY: the first, slowest and "
                          "fastest members' own bars and the rest's mean"));
    m_back = new QToolButton(this);
    m_back->setObjectName(QStringLiteral("collapseGroup"));
    m_back->setAutoRaise(true);
    m_back->setVisible(false);
    addToolbarWidget(m_back);
    connect(m_back, &QToolButton::clicked, this, [this]() { collapseLast(); });
    connect(m_chart, &StackedBarChart::categoryClicked, this,
        [this](int category) { groupClicked(category); });

    m_chart->setObjectName(QStringLiteral("usageChart"));
    m_chart->setHint(tr("Click a PE's bar to open its timeline"));

    recompute();
}

UsageGrouping UsageProfileView::grouping() const
{
    const int i = std::clamp(m_grouping->currentIndex(), 0, kGroupingCount - 1);
    return kGroupings[i];
}

bool UsageProfileView::loadPeLists(const QString& path, QString* error)
{
    auto lists = readPeListsFile(path, error);
    if (!lists)
        return false;
    m_lists = std::make_shared<const std::vector<analysis::NamedPeList>>(std::move(*lists));
    return true;
}

analysis::AggregationMode UsageProfileView::aggregationMode() const
{
    return kModes[std::clamp(m_mode->currentIndex(), 0, 2)];
}

void UsageProfileView::setGrouping(UsageGrouping grouping)
{
    for (int i = 0; i < kGroupingCount; ++i)
        if (kGroupings[i] == grouping && i != m_grouping->currentIndex()) {
            m_grouping->setCurrentIndex(i);
            m_lastGrouping = i;
            recompute();
        }
}

void UsageProfileView::setAggregationMode(analysis::AggregationMode mode)
{
    for (int i = 0; i < 3; ++i)
        if (kModes[i] == mode && i != m_mode->currentIndex()) {
            m_mode->setCurrentIndex(i);
            recompute();
        }
}

bool UsageProfileView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    for (const auto& [name, value] : options) {
        if (name == QStringLiteral("by")) {
            int found = -1;
            if (value.startsWith(QStringLiteral("list:"))) {
                if (!loadPeLists(value.mid(5), error))
                    return false;
                found = kGroupingCount - 1;
            }
            for (int i = 0; i + 1 < kGroupingCount; ++i)
                if (value == QLatin1String(kGroupingKeys[i]))
                    found = i;
            if (found < 0) {
                if (error != nullptr)
                    *error = tr("unknown group '%1' (auto, pes, node, block, signature or "
                                "list:FILE)")
                                 .arg(value);
                return false;
            }
            m_grouping->setCurrentIndex(found);
            m_lastGrouping = found;
        } else if (name == QStringLiteral("mode")) {
            const auto mode = analysis::parseAggregationMode(value.toStdString());
            if (!mode || *mode == analysis::AggregationMode::Signature) {
                if (error != nullptr)
                    *error = tr("unknown mode '%1' (sum, set or key)").arg(value);
                return false;
            }
            setAggregationMode(*mode);
        } else {
            return rejectOption(name, error);
        }
    }
    return applyFields(error);
}

void UsageProfileView::clearResult()
{
    m_profile.reset();
    m_groups.reset();
    m_bars.clear();
    m_expandedPaths.clear();
}

void UsageProfileView::recompute()
{
    m_chart->setTitle(tr("Usage profile"));
    if (!m_trace) {
        m_computation->cancel();
        clearResult();
        m_back->setVisible(false);
        m_chart->clearData(tr("No run loaded"));
        return;
    }
    auto request = m_options->request();
    // A reduced run: its PEs without a log are profiled from their summary files.
    request.summaryFallback = m_trace->reduced.has_value();
    const auto trace = m_trace;
    const auto groupBy = grouping();
    const auto mode = aggregationMode();
    m_computation->run<Result>(
        [trace, request, groupBy, mode, lists = m_lists](const analysis::Progress& progress) {
            Result result;
            auto profile = analysis::computeUsageProfile(*trace, request, progress);
            if (!profile || progress.isCancelled())
                return result;
            result.profile = std::make_shared<const analysis::UsageProfile>(std::move(*profile));
            std::optional<analysis::PeSignatures> signatures;
            if (groupBy == UsageGrouping::Signature)
                signatures = analysis::computeSignatures(*trace, request, progress);
            auto groups = usageGroups(*trace, *result.profile, groupBy, mode,
                signatures ? &*signatures : nullptr, lists.get());
            if (!groups.empty())
                result.groups = std::make_shared<UsageGroupBars>(
                    trace, result.profile, std::move(groups), mode);
            return result;
        },
        [this](Result result) {
            showResult(std::move(result));
            emit computed();
        });
}

void UsageProfileView::showResult(Result result)
{
    if (!result.profile) {
        m_profile.reset();
        m_groups.reset();
        m_bars.clear();
        m_back->setVisible(false);
        m_chart->clearData(tr("This run has neither logs nor summaries to profile"));
        return;
    }
    m_profile = std::move(result.profile);
    m_groups = std::move(result.groups);
    // Keep the user's place: the groups expanded before stay expanded when they still exist.
    if (m_groups) {
        const auto paths = m_expandedPaths;
        for (const auto& path : paths)
            m_groups->expand(path);
        m_expandedPaths = m_groups->expanded();
    }
    showProfile();
}

void UsageProfileView::showProfile()
{
    const auto& p = *m_profile;
    m_chart->setTitle(tr("Usage profile"), describeSelection(*m_trace, p.range, p.pes));
    if (p.pes.empty()) {
        m_bars.clear();
        m_back->setVisible(false);
        m_chart->clearData(tr("None of the selected PEs has data"));
        return;
    }
    if (m_groups) {
        showGroups();
        return;
    }
    m_bars.clear();
    m_back->setVisible(false);
    m_chart->setHint(tr("Click a PE's bar to open its timeline"));
    const auto& metadata = m_trace->metadata;
    StackedBarData chartData;
    chartData.series = activitySeries(metadata, p.columns, p.average);
    chartData.unit = BarUnit::Percent;
    chartData.yMaximum = 100.0;
    chartData.yTitle = tr("% of the time range");
    chartData.xTitle = p.apart.empty() ? tr("PE") : tr("PE (c: comm thread, not in the average)");
    if (!p.fromSummary.empty())
        chartData.xTitle += tr(" · *: from its summary file (no log in this reduced run)");
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
        const bool summary = std::binary_search(p.fromSummary.begin(), p.fromSummary.end(), pe);
        c.label = (apart ? tr("%1c").arg(pe) : QString::number(pe))
            + (summary ? QStringLiteral("*") : QString());
        c.title = summary ? tr("PE %1 · from its summary file").arg(pe) : tr("PE %1").arg(pe);
        // A gap after the average and before the comm threads kept apart.
        c.separatorBefore = k == 0 || (apart && pe == p.apart.front());
        QString note = metadata.isCommThread(pe)
            ? tr("Communication thread of node %1").arg(metadata.nodeOf(pe))
                + (apart ? tr(" (not in the average)") : QString())
            : (metadata.smp ? tr("Node %1").arg(metadata.nodeOf(pe)) : QString());
        if (summary)
            note += (note.isEmpty() ? QString() : QStringLiteral("\n"))
                + tr("This reduced run has no log of it: busy and idle from its .sum file (entry "
                     "methods from its .sumd when there is one)");
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

void UsageProfileView::showGroups()
{
    const auto& p = *m_profile;
    const auto& metadata = m_trace->metadata;
    m_bars = m_groups->bars();
    const auto& expanded = m_groups->expanded();
    m_back->setVisible(!expanded.empty());
    if (!expanded.empty()) {
        const auto& last = expanded.back();
        const auto name = last.substr(last.rfind('\n') + 1);
        m_back->setText(tr("◂ Collapse %1").arg(QString::fromStdString(name)));
        m_back->setToolTip(
            tr("Back: show %1 as one group again").arg(QString::fromStdString(name)));
    }
    m_chart->setHint(tr("Click a group to expand or collapse it"));
    StackedBarData chartData;
    chartData.series = activitySeries(metadata, p.columns, p.average);
    chartData.unit = BarUnit::Percent;
    chartData.yMaximum = 100.0;
    chartData.yTitle = tr("% of the time range (per PE)");
    QString how;
    switch (m_groups->mode()) {
    case analysis::AggregationMode::Set:
        how = tr("SET: the members' mean; whisker min–max, band mean ± σ of entry-method time");
        break;
    case analysis::AggregationMode::Key:
        how = tr("KEY: first PE, slowest ▲, fastest ▼, mean of the rest");
        break;
    default:
        how = tr("SUM: the members' total per PE");
        break;
    }
    chartData.xTitle
        = tr("%n group(s) of PEs", nullptr, static_cast<int>(m_groups->groups().size()))
        + QStringLiteral(" · ") + how
        + (expanded.empty() ? tr(" · click a group to expand it") : tr(" · ▾ expanded"));
    chartData.legendReference = 0;
    StackedBarCategory average;
    average.label = tr("avg");
    average.title = tr("Average of %1 PEs").arg(p.pes.size() - p.apart.size());
    chartData.categories.push_back(average);
    const bool spreads = std::any_of(
        m_bars.begin(), m_bars.end(), [](const UsageBar& b) { return b.spread.has_value(); });
    if (spreads)
        chartData.spreads.emplace_back();
    for (std::size_t k = 0; k < m_bars.size(); ++k) {
        const auto& bar = m_bars[k];
        StackedBarCategory c;
        c.label = bar.label;
        c.title = bar.title;
        c.note = bar.note;
        c.separatorBefore = k == 0 || bar.separatorBefore;
        chartData.categories.push_back(std::move(c));
        if (spreads)
            chartData.spreads.push_back(bar.spread);
    }
    const auto series = chartData.series.size();
    chartData.values.assign(chartData.categories.size() * series, 0.0);
    for (std::size_t s = 0; s < series; ++s) {
        const auto column = static_cast<std::size_t>(chartData.series[s].activity);
        chartData.values[s] = p.average[column];
        for (std::size_t k = 0; k < m_bars.size(); ++k)
            chartData.values[(k + 1) * series + s] = m_bars[k].percent[column];
    }
    addNotTracedSeries(chartData);
    m_chart->setData(std::move(chartData), p.columns);
}

void UsageProfileView::groupClicked(int category)
{
    if (!m_groups || category < 1)
        return;
    const auto k = static_cast<std::size_t>(category - 1);
    if (k < m_bars.size() && !m_bars[k].path.empty())
        toggleGroup(m_bars[k].path);
}

bool UsageProfileView::toggleGroup(const std::string& path)
{
    if (!m_groups || !m_groups->toggle(path))
        return false;
    m_expandedPaths = m_groups->expanded();
    showProfile();
    return true;
}

bool UsageProfileView::collapseLast()
{
    if (!m_groups || m_groups->expanded().empty())
        return false;
    m_groups->collapse(m_groups->expanded().back());
    m_expandedPaths = m_groups->expanded();
    showProfile();
    return true;
}

BarChartView::BarPes UsageProfileView::pesOfBar(int category) const
{
    if (!m_profile || category < 1)
        return {};
    const auto k = static_cast<std::size_t>(category - 1);
    if (m_groups) {
        if (k >= m_bars.size() || !m_bars[k].path.empty())
            return {};
        return { { m_bars[k].pe }, m_profile->range };
    }
    if (k >= m_profile->pes.size())
        return {};
    return { { m_profile->pes[k] }, m_profile->range };
}

void UsageProfileView::showContextMenu(QPoint globalPos, int category)
{
    if (!m_groups || category < 1 || static_cast<std::size_t>(category - 1) >= m_bars.size()) {
        BarChartView::showContextMenu(globalPos, category);
        return;
    }
    const auto& bar = m_bars[static_cast<std::size_t>(category - 1)];
    QMenu menu(this);
    if (!bar.path.empty()) {
        const auto path = bar.path;
        menu.addAction(bar.expanded ? tr("Collapse the group") : tr("Expand the group"), this,
            [this, path]() { toggleGroup(path); });
    }
    // A KEY bar is one real PE; a group bar stands for its members.
    const std::vector<core::PeId> pes
        = bar.pe != core::kNoPe ? std::vector<core::PeId> { bar.pe } : bar.pes;
    addOpenTimelineAction(menu, *this, pes, m_profile->range);
    addExportActions(menu, *this);
    menu.exec(globalPos);
}

QRect UsageProfileView::barRectForPe(core::PeId pe) const
{
    if (!m_profile)
        return {};
    std::optional<std::size_t> category;
    if (m_groups) {
        for (std::size_t k = 0; k < m_bars.size() && !category; ++k)
            if (m_bars[k].pe == pe && m_bars[k].path.empty())
                category = k + 1;
    } else {
        const auto& pes = m_profile->pes;
        if (const auto it = std::find(pes.begin(), pes.end(), pe); it != pes.end())
            category = static_cast<std::size_t>(it - pes.begin()) + 1;
    }
    if (!category)
        return {};
    const QRect r = m_chart->barRect(*category);
    return r.isNull() ? QRect() : r.translated(m_chart->mapTo(this, QPoint(0, 0)));
}

QRect UsageProfileView::barRectForGroup(const std::string& path) const
{
    for (std::size_t k = 0; k < m_bars.size(); ++k)
        if (m_bars[k].path == path) {
            const QRect r = m_chart->barRect(k + 1);
            return r.isNull() ? QRect() : r.translated(m_chart->mapTo(this, QPoint(0, 0)));
        }
    return {};
}

QString UsageProfileView::csv() const
{
    // Grouped: the groups shown, as `parallax-cli groups` writes them.
    if (m_groups)
        return QString::fromStdString(analysis::groupAggregationCsv(m_groups->shownAggregation()));
    return QString::fromStdString(core::analysis::usageCsv(m_profile.get()));
}

AnalysisView::State UsageProfileView::saveState() const
{
    auto state = BarChartView::saveState();
    state[QStringLiteral("by")]
        = QString::fromLatin1(kGroupingKeys[std::clamp(m_grouping->currentIndex(), 0, 4)]);
    state[QStringLiteral("mode")]
        = QString::fromStdString(std::string(analysis::aggregationModeName(aggregationMode())));
    return state;
}

} // namespace parallax::views
