#include "views/overview/overview_view.h"

#include "core/analysis/clustering.h"
#include "core/analysis/csv_export.h"
#include "core/analysis/run_span.h"
#include "core/text_args.h"
#include "views/common/entry_palette.h"
#include "views/common/options_bar.h"
#include "views/common/pe_lists_file.h"
#include "views/common/stacked_bar_chart.h"

// After the other project headers (see time_profile_view.cpp: a GCC 12 false positive).
#include "views/common/async_computation.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <memory>

namespace parallax::views {

namespace {

// At most `limit` rows of groups: the largest limit - 1 groups in their order, the others
// gathered into one (signatures of a real run are few; rare entry methods can make many).
std::vector<core::analysis::PeGroup> keepLargestGroups(
    std::vector<core::analysis::PeGroup> groups, std::size_t limit)
{
    if (groups.size() <= limit || limit < 2)
        return groups;
    std::vector<std::size_t> order(groups.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    std::stable_sort(order.begin(), order.end(),
        [&](std::size_t a, std::size_t b) { return groups[a].pes.size() > groups[b].pes.size(); });
    std::vector<bool> kept(groups.size(), false);
    for (std::size_t k = 0; k + 1 < limit; ++k)
        kept[order[k]] = true;
    std::vector<core::analysis::PeGroup> out;
    core::analysis::PeGroup others;
    std::size_t merged = 0;
    for (std::size_t k = 0; k < groups.size(); ++k) {
        if (kept[k]) {
            out.push_back(std::move(groups[k]));
            continue;
        }
        ++merged;
        others.pes.insert(others.pes.end(), groups[k].pes.begin(), groups[k].pes.end());
    }
    std::sort(others.pes.begin(), others.pes.end());
    others.name = OverviewView::tr("%n other signature(s)", nullptr, static_cast<int>(merged))
                      .toStdString();
    out.push_back(std::move(others));
    return out;
}

// One group per non-empty cluster, named after its size and exemplar.
std::vector<core::analysis::PeGroup> clusterGroups(const core::analysis::PeClustering& c)
{
    namespace a = core::analysis;
    std::vector<core::PeId> exemplar(static_cast<std::size_t>(c.k), core::kNoPe);
    for (std::size_t i = 0; i < c.role.size(); ++i)
        if (c.role[i] == a::ClusterRole::Exemplar)
            exemplar[static_cast<std::size_t>(c.cluster[i])] = c.features.pes[i];
    return a::groupByAssignment(c.features.pes, c.cluster, [&](int cluster) {
        const auto e = exemplar[static_cast<std::size_t>(cluster)];
        return OverviewView::tr("cluster %1 (PE %2 typical)").arg(cluster).arg(e).toStdString();
    });
}

} // namespace

OverviewView::OverviewView(EntryPalette* palette, QWidget* parent)
    : AnalysisView(ViewKind::Overview, palette, parent)
{
    m_options = new OptionsBar(this);
    m_options->offerCommThreads();
    m_columns = m_options->addField(
        tr("&Columns"), QStringLiteral("1000"),
        [](const QString& text) { return countFieldError(text, 1, kMaxColumns, tr("Columns")); },
        6);
    m_columns->setObjectName(QStringLiteral("columns"));
    m_columns->setToolTip(tr("Number of time columns over the range"));
    m_coloring
        = m_options->addChoice(tr("Colour &by"), { tr("Dominant activity"), tr("Utilization") });
    m_coloring->setObjectName(QStringLiteral("coloring"));
    m_grouping = m_options->addChoice(tr("&Group"),
        { tr("auto"), tr("PEs"), tr("node"), tr("block"), tr("signature"), tr("cluster"),
            tr("lists…") });
    m_grouping->setObjectName(QStringLiteral("grouping"));
    m_grouping->setToolTip(
        tr("Auto: one row per PE up to %1 PEs, else groups (SMP nodes, or blocks of consecutive "
           "PEs). Signatures: PEs that executed the same set of entry methods in the range. "
           "Clusters: PEs whose time per entry method is alike (k-means, k chosen "
           "automatically).")
            .arg(kMaxRows));
    m_groupDisplay = m_options->addChoice(tr("&Mode"), { tr("SUM"), tr("SET"), tr("KEY") });
    m_groupDisplay->setObjectName(QStringLiteral("groupDisplay"));
    m_groupDisplay->setToolTip(
        tr("SUM: one row, the members' mean. SET: the highest, mean and lowest utilization of "
           "the members. KEY: the first member, the busiest, the least busy (their own rows) and "
           "the mean of the rest."));
    m_chart = new OverviewChart(palette, this);
    setFocusProxy(m_chart); // keys go to the chart, not to the options bar
    m_computation = new AsyncComputation(this);
    m_memberComputation = new AsyncComputation(this);
    auto* top = new QHBoxLayout();
    top->setContentsMargins(0, 0, 6, 0);
    top->addWidget(m_options, 1);
    top->addWidget(makeBusyIndicator(m_computation, nullptr, this));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    layout->addWidget(m_chart, 1);

    connect(m_options, &OptionsBar::applied, this, [this]() {
        // Choosing a colouring also applies the bar: recompute and report only real changes.
        const bool changed
            = rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
        m_chart->setCommThreadsMuted(!m_options->includeCommThreads());
        if (!changed && m_overview
            && m_overview->grid.count == countFieldValue(m_columns->text(), 1000))
            return;
        m_chart->setSelectedRange(std::nullopt);
        recompute();
        if (changed)
            emit selectionChanged(m_options->range(), m_options->pes());
    });
    connect(m_coloring, &QComboBox::currentIndexChanged, this, [this](int index) {
        setColoring(
            index == 1 ? OverviewColoring::Utilization : OverviewColoring::DominantActivity);
    });
    connect(m_grouping, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index == static_cast<int>(Grouping::Lists)) {
            // Named PE lists from a file, chosen now; cancelling keeps the previous grouping.
            if (!choosePeListsFile(this, [this](const QString& path, QString* error) {
                    return loadPeLists(path, error);
                })) {
                const QSignalBlocker block(m_grouping);
                m_grouping->setCurrentIndex(m_lastGrouping);
                return;
            }
        }
        m_lastGrouping = index;
        m_blockSize = 0;
        m_expanded.clear();
        recompute();
    });
    connect(m_groupDisplay, &QComboBox::currentIndexChanged, this, [this]() {
        if (!m_trace || !m_groups)
            return;
        // The groups carry every display; regroup only when the number of rows per group
        // changes how many groups fit.
        std::vector<QString> names;
        static_cast<void>(makeGroups(request(), names));
        if (names == m_groupNames)
            showComposed();
        else
            recompute();
    });
    connect(m_chart, &OverviewChart::groupClicked, this, &OverviewView::toggleGroup);
    connect(m_computation, &AsyncComputation::busyChanged, m_chart, &OverviewChart::setBusy);
    connect(m_chart, &OverviewChart::rowClicked, this,
        [this](core::PeId pe) { emit timelineRequested({ pe }, currentRange()); });
    connect(m_chart, &OverviewChart::rangeSelected, this, [this](core::TimeRange range, QPoint at) {
        emit selectionChanged(range, m_options->pes());
        showRangeMenu(range, at);
    });
    connect(m_chart, &OverviewChart::contextMenuRequested, this, &OverviewView::showContextMenu);
}

void OverviewView::setTrace(core::TracePtr trace)
{
    m_trace = std::move(trace);
    m_overview.reset();
    m_groups.reset();
    m_members.reset();
    m_expanded.clear();
    m_zoomHistory.clear();
    m_options->setTrace(m_trace);
    rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
    m_chart->setSelectedRange(std::nullopt);
    m_chart->setData(m_trace, nullptr, coloring());
    recompute();
}

void OverviewView::setSelection(core::TimeRange range, std::vector<core::PeId> pes)
{
    if (range.empty() && m_trace)
        range = core::analysis::tracedRunSpan(*m_trace);
    m_options->setRange(range);
    m_options->setPes(pes);
    rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
    m_chart->setSelectedRange(std::nullopt);
    recompute();
}

bool OverviewView::busy() const
{
    return m_computation->busy();
}

OverviewColoring OverviewView::coloring() const
{
    return m_coloring->currentIndex() == 1 ? OverviewColoring::Utilization
                                           : OverviewColoring::DominantActivity;
}

void OverviewView::setColoring(OverviewColoring coloring)
{
    {
        const QSignalBlocker block(m_coloring);
        m_coloring->setCurrentIndex(coloring == OverviewColoring::Utilization ? 1 : 0);
    }
    m_chart->setData(m_trace, m_overview ? &*m_overview : nullptr, coloring, m_chart->rows(),
        m_groups ? &*m_groups : nullptr);
}

std::optional<core::TimeRange> OverviewView::selectedRange() const
{
    return m_chart->selectedRange();
}

core::TimeRange OverviewView::currentRange() const
{
    return m_chart->selectedRange().value_or(m_options->range());
}

void OverviewView::zoomTo(core::TimeRange range)
{
    if (range.empty())
        return;
    m_zoomHistory.push_back(m_options->range());
    m_options->setRange(range);
    m_chart->setSelectedRange(std::nullopt);
    recompute();
    rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
    emit selectionChanged(m_options->range(), m_options->pes());
}

bool OverviewView::zoomOut()
{
    if (m_zoomHistory.empty())
        return false;
    m_options->setRange(m_zoomHistory.back());
    m_zoomHistory.pop_back();
    m_chart->setSelectedRange(std::nullopt);
    recompute();
    rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
    emit selectionChanged(m_options->range(), m_options->pes());
    return true;
}

void OverviewView::showRangeMenu(core::TimeRange range, QPoint globalPos)
{
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addAction(tr("Zoom to %1 (%2)")
                        .arg(formatTimeSpan(range),
                            QString::fromStdString(core::formatDuration(range.length()))),
        this, [this, range]() { zoomTo(range); });
    menu->addSeparator();
    addOpenRangeMenu(*menu, *this, range, m_options->pes());
    menu->addSeparator();
    menu->addAction(
        tr("Clear the selection"), this, [this]() { m_chart->setSelectedRange(std::nullopt); });
    menu->popup(globalPos);
}

void OverviewView::showContextMenu(QPoint globalPos, std::optional<core::PeId> pe)
{
    if (!m_trace)
        return;
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    const auto range = currentRange();
    if (pe)
        menu->addAction(tr("Open PE %1 in the timeline").arg(*pe), this,
            [this, pe = *pe, range]() { emit timelineRequested({ pe }, range); });
    const auto group = m_chart->groupAt(m_chart->mapFromGlobal(globalPos));
    if (group && m_groups && static_cast<std::size_t>(*group) < m_groups->groupCount()) {
        const auto g = static_cast<std::size_t>(*group);
        const QString name = g < m_groupNames.size() ? m_groupNames[g] : QString();
        menu->addAction(m_expanded.contains(*group) ? tr("Hide the PEs of %1").arg(name)
                                                    : tr("Show the PEs of %1").arg(name),
            this, [this, group = *group]() { toggleGroup(group); });
        // Drill down: the group's key PEs (first, busiest, least busy), or all of its PEs.
        std::vector<core::PeId> keys;
        for (int role = 0; role < core::analysis::GroupOverview::Rest; ++role) {
            const auto k = m_groups->keyPe[g * core::analysis::GroupOverview::kKeyRoles
                + static_cast<std::size_t>(role)];
            if (k >= 0)
                keys.push_back(k);
        }
        if (!keys.empty()) {
            QStringList list;
            for (const auto k : keys)
                list << QString::number(k);
            menu->addAction(tr("Open the key PEs of %1 in the timeline (%2)")
                                .arg(name, list.join(QStringLiteral(", "))),
                this, [this, keys, range]() { emit timelineRequested(keys, range); });
        }
        menu->addAction(tr("Save these groups as PE lists…"), this, [this]() {
            const QString path = QFileDialog::getSaveFileName(
                this, tr("Save Groups as PE Lists"), QStringLiteral("groups.txt"), peListsFilter());
            QString error;
            if (!path.isEmpty() && !saveGroupsAsLists(path, &error))
                QMessageBox::warning(this, tr("PE Lists"), error);
        });
        const auto& members = m_groups->members[g];
        if (!members.empty() && members.size() <= 64)
            menu->addAction(tr("Open all %n PE(s) of %1 in the timeline", nullptr,
                                static_cast<int>(members.size()))
                                .arg(name),
                this, [this, members, range]() { emit timelineRequested(members, range); });
    }
    if (const auto selected = m_chart->selectedRange()) {
        menu->addAction(tr("Zoom to the selection"), this, [this, r = *selected]() { zoomTo(r); });
        menu->addAction(
            tr("Clear the selection"), this, [this]() { m_chart->setSelectedRange(std::nullopt); });
    }
    QAction* back = menu->addAction(tr("Zoom out"), this, [this]() { zoomOut(); });
    back->setEnabled(!m_zoomHistory.empty());
    menu->addAction(tr("Show the whole traced run"), this,
        [this]() { zoomTo(core::analysis::tracedRunSpan(*m_trace)); });
    menu->addSeparator();
    addOpenRangeMenu(*menu, *this, range, m_options->pes());
    addExportActions(*menu, *this);
    menu->popup(globalPos);
}

void OverviewView::setGrouping(Grouping grouping)
{
    m_grouping->setCurrentIndex(static_cast<int>(grouping));
}

void OverviewView::setGroupDisplay(GroupDisplay display)
{
    m_groupDisplay->setCurrentIndex(static_cast<int>(display));
}

GroupDisplay OverviewView::groupDisplay() const
{
    return static_cast<GroupDisplay>(std::clamp(m_groupDisplay->currentIndex(), 0, 2));
}

core::analysis::AnalysisRequest OverviewView::request() const
{
    auto r = m_options->request();
    // A reduced run: its PEs without a log are drawn from their summary files.
    r.summaryFallback = m_trace && m_trace->reduced.has_value();
    return r;
}

std::vector<std::vector<core::PeId>> OverviewView::makeGroups(
    const core::analysis::AnalysisRequest& request, std::vector<QString>& names) const
{
    namespace a = core::analysis;
    names.clear();
    const auto grouping = static_cast<Grouping>(std::clamp(m_grouping->currentIndex(), 0, 6));
    const auto pes = a::resolve(*m_trace, request).pes;
    const auto limit = static_cast<std::size_t>(kMaxRows / rowsPerGroup(groupDisplay()));
    const auto& meta = m_trace->metadata;
    std::vector<a::PeGroup> groups;
    switch (grouping) {
    case Grouping::EveryPe:
        return {};
    case Grouping::Auto:
        if (pes.size() <= static_cast<std::size_t>(kMaxRows))
            return {};
        groups = a::axisGroups(meta, pes, limit);
        break;
    case Grouping::Nodes:
        groups = a::capRows(a::groupByNode(meta, pes), limit);
        break;
    case Grouping::Blocks: {
        const auto span = pes.empty() ? 0 : static_cast<std::size_t>(pes.back() - pes.front()) + 1;
        groups = a::groupByBlock(pes,
            m_blockSize > 0 ? static_cast<std::size_t>(m_blockSize)
                            : a::autoBlockSize(span, limit > 1 ? limit - 1 : 1));
        break;
    }
    case Grouping::Signature:
    case Grouping::Cluster:
        groups = m_signatures;
        break;
    case Grouping::Lists:
        groups = a::groupByLists(m_lists);
        break;
    }
    std::vector<std::vector<core::PeId>> members;
    for (auto& g : groups) {
        names.push_back(QString::fromStdString(g.name));
        members.push_back(std::move(g.pes));
    }
    return members;
}

bool OverviewView::loadPeLists(const QString& path, QString* error)
{
    auto lists = readPeListsFile(path, error);
    if (!lists)
        return false;
    m_lists = std::move(*lists);
    return true;
}

bool OverviewView::saveGroupsAsLists(const QString& path, QString* error) const
{
    if (!m_groups) {
        if (error != nullptr)
            *error = tr("the Overview shows no groups");
        return false;
    }
    std::vector<core::analysis::NamedPeList> lists;
    for (std::size_t g = 0; g < m_groups->groupCount(); ++g)
        lists.emplace_back(
            g < m_groupNames.size() ? m_groupNames[g].toStdString() : "group " + std::to_string(g),
            m_groups->members[g]);
    return writePeListsFile(path, lists, error);
}

void OverviewView::recompute()
{
    if (!m_trace) {
        m_computation->cancel();
        m_memberComputation->cancel();
        m_overview.reset();
        m_groups.reset();
        m_members.reset();
        m_chart->setData(m_trace, nullptr, coloring());
        m_chart->setSubtitle({});
        return;
    }
    auto request = this->request();
    m_chart->setCommThreadsMuted(!request.includeCommThreads);
    core::analysis::OverviewOptions options;
    options.columns = countFieldValue(m_columns->text(), 1000);
    auto trace = m_trace;
    m_memberComputation->cancel();
    // Signatures and clusters depend on the range: computed on the worker, before the rows.
    const bool bySignature = m_grouping->currentIndex() == static_cast<int>(Grouping::Signature);
    const bool byCluster = m_grouping->currentIndex() == static_cast<int>(Grouping::Cluster);
    std::vector<QString> names;
    std::vector<std::vector<core::PeId>> groups;
    if (!bySignature && !byCluster) {
        groups = makeGroups(request, names);
        if (groups.empty()) {
            m_groups.reset();
            m_members.reset();
            m_expanded.clear();
            m_computation->run<std::optional<core::analysis::Overview>>(
                [trace, request, options](const core::analysis::Progress& progress) {
                    return core::analysis::computeOverview(*trace, request, options, progress);
                },
                [this](std::optional<core::analysis::Overview> result) {
                    m_overview = std::move(result);
                    showComposed();
                    emit computed();
                });
            return;
        }
    }
    // The expanded groups' PEs are computed with the groups, so a new range keeps them open
    // (signature groups may change with the range: they close).
    std::vector<core::PeId> open;
    if (bySignature || byCluster || groups.size() != (m_groups ? m_groups->groupCount() : 0))
        m_expanded.clear();
    for (const int g : m_expanded)
        if (static_cast<std::size_t>(g) < groups.size())
            open.insert(open.end(), groups[static_cast<std::size_t>(g)].begin(),
                groups[static_cast<std::size_t>(g)].end());
    struct Result {
        std::optional<std::vector<core::analysis::PeGroup>> signatures;
        std::optional<core::analysis::GroupOverview> groups;
        std::optional<core::analysis::Overview> members;
    };
    const auto limit = static_cast<std::size_t>(kMaxRows / rowsPerGroup(groupDisplay()));
    m_computation->run<Result>(
        [trace, request, options, bySignature, byCluster, limit, groups = std::move(groups),
            open = std::move(open)](const core::analysis::Progress& progress) mutable {
            namespace a = core::analysis;
            Result result;
            if (bySignature)
                result.signatures = a::groupBySignature(*trace, request, progress);
            if (byCluster) {
                const auto clustering = a::clusterPes(*trace, request, {}, progress);
                if (clustering && clustering->error.empty())
                    result.signatures = clusterGroups(*clustering);
                else if (clustering) // too few PEs to cluster: one row each
                    result.signatures = a::groupByBlock(a::resolve(*trace, request).pes, 1);
            }
            if (bySignature || byCluster) {
                if (!result.signatures)
                    return result;
                result.signatures = keepLargestGroups(std::move(*result.signatures), limit);
                for (const auto& g : *result.signatures)
                    groups.push_back(g.pes);
            }
            result.groups = a::computeGroupOverview(*trace, request, groups, options, progress);
            if (result.groups && !open.empty()) {
                auto members = request;
                members.pes = open;
                result.members = a::computeOverview(*trace, members, options, progress);
            }
            return result;
        },
        [this, names = std::move(names)](Result result) {
            m_groupNames = names;
            if (result.signatures) {
                m_signatures = std::move(*result.signatures);
                m_groupNames.clear();
                for (const auto& g : m_signatures)
                    m_groupNames.push_back(QString::fromStdString(g.name));
            }
            m_groups = std::move(result.groups);
            m_members = std::move(result.members);
            showComposed();
            emit computed();
        });
}

void OverviewView::toggleGroup(int group)
{
    if (!m_groups || group < 0 || static_cast<std::size_t>(group) >= m_groups->groupCount())
        return;
    if (!m_expanded.erase(group))
        m_expanded.insert(group);
    computeMembers();
}

void OverviewView::computeMembers()
{
    std::vector<core::PeId> open;
    for (const int g : m_expanded) {
        const auto& m = m_groups->members[static_cast<std::size_t>(g)];
        open.insert(open.end(), m.begin(), m.end());
    }
    if (open.empty()) {
        m_memberComputation->cancel();
        m_members.reset();
        showComposed();
        emit computed();
        return;
    }
    auto request = this->request();
    request.pes = std::move(open);
    core::analysis::OverviewOptions options;
    options.columns = countFieldValue(m_columns->text(), 1000);
    auto trace = m_trace;
    m_memberComputation->run<std::optional<core::analysis::Overview>>(
        [trace, request, options](const core::analysis::Progress& progress) {
            return core::analysis::computeOverview(*trace, request, options, progress);
        },
        [this](std::optional<core::analysis::Overview> result) {
            m_members = std::move(result);
            showComposed();
            emit computed();
        });
}

void OverviewView::showComposed()
{
    std::vector<OverviewRowInfo> rows;
    const core::analysis::GroupOverview* groups = nullptr;
    if (m_groups) {
        auto composed = composeOverview(*m_trace, *m_groups, m_groupNames, groupDisplay(),
            m_expanded, m_members ? &*m_members : nullptr);
        m_overview = std::move(composed.overview);
        rows = std::move(composed.rows);
        groups = &*m_groups;
    }
    QString subtitle;
    if (m_overview) {
        const auto& grid = m_overview->grid;
        // A reduced run's PEs without a log are shown too (from their summaries): name them all.
        const bool summaries
            = !(m_groups ? m_groups->fromSummary : m_overview->fromSummary).empty();
        subtitle
            = describeSelection(*m_trace, m_options->range(),
                  summaries ? core::analysis::resolve(*m_trace, request()).pes : m_options->pes())
            + tr(" · %1 columns of %2")
                  .arg(QLocale().toString(static_cast<qlonglong>(grid.count)),
                      formatTime(static_cast<double>(grid.size)));
        if (m_groups)
            subtitle += tr(" · %n group(s) of PEs, click one to show its PEs", nullptr,
                static_cast<int>(m_groups->groupCount()));
        if (summaries)
            subtitle += tr(" · %n PE(s) without a log drawn from their summaries", nullptr,
                static_cast<int>(
                    (m_groups ? m_groups->fromSummary : m_overview->fromSummary).size()));
    }
    m_chart->setSubtitle(subtitle);
    m_chart->setData(
        m_trace, m_overview ? &*m_overview : nullptr, coloring(), std::move(rows), groups);
}

QImage OverviewView::renderChart(QSize size)
{
    if (size.isEmpty())
        size = m_chart->isVisible() ? m_chart->size() : QSize(1200, 700);
    return m_chart->renderImage(size);
}

QString OverviewView::csv() const
{
    return QString::fromStdString(core::analysis::overviewCsv(m_overview ? &*m_overview : nullptr));
}

AnalysisView::CsvWriter OverviewView::csvWriter() const
{
    if (!m_overview)
        return {};
    // A copy of the shown result (a memory copy); its text, 100 ms on 512 PEs, is written on
    // the exporter's worker.
    return [overview = std::make_shared<const core::analysis::Overview>(*m_overview)](
               const CsvSink& sink, const core::analysis::Progress&) {
        return sink(core::analysis::overviewCsv(overview.get()));
    };
}

bool OverviewView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    bool regroup = false;
    for (const auto& [name, value] : options) {
        if (name == QStringLiteral("columns")) {
            m_columns->setText(value);
        } else if (name == QStringLiteral("coloring") || name == QStringLiteral("color")) {
            if (value == QStringLiteral("utilization"))
                setColoring(OverviewColoring::Utilization);
            else if (value == QStringLiteral("activity"))
                setColoring(OverviewColoring::DominantActivity);
            else {
                if (error != nullptr)
                    *error = tr("--%1: '%2' is not activity or utilization").arg(name, value);
                return false;
            }
        } else if (name == QStringLiteral("by")) {
            const QStringList keys { QStringLiteral("auto"), QStringLiteral("pes"),
                QStringLiteral("node"), QStringLiteral("block"), QStringLiteral("signature"),
                QStringLiteral("cluster") };
            if (value.startsWith(QStringLiteral("list:"))) {
                if (!loadPeLists(value.mid(5), error))
                    return false;
                const QSignalBlocker block(m_grouping);
                m_grouping->setCurrentIndex(static_cast<int>(Grouping::Lists));
                m_lastGrouping = m_grouping->currentIndex();
                regroup = true;
                continue;
            }
            QString key = value;
            int blockSize = 0;
            if (value.startsWith(QStringLiteral("block:"))) {
                bool ok = false;
                blockSize = value.mid(6).toInt(&ok);
                if (!ok || blockSize < 1) {
                    if (error != nullptr)
                        *error = tr("--by: '%1' needs a block size of at least 1").arg(value);
                    return false;
                }
                key = QStringLiteral("block");
            }
            if (!keys.contains(key)) {
                if (error != nullptr)
                    *error = tr("--by: '%1' is not auto, pes, node, block, block:N, signature, "
                                "cluster or list:FILE")
                                 .arg(value);
                return false;
            }
            regroup = regroup || blockSize != m_blockSize;
            m_blockSize = blockSize;
            const QSignalBlocker block(m_grouping);
            regroup = regroup || m_grouping->currentIndex() != keys.indexOf(key);
            m_grouping->setCurrentIndex(static_cast<int>(keys.indexOf(key)));
        } else if (name == QStringLiteral("mode")) {
            const QStringList keys { QStringLiteral("sum"), QStringLiteral("set"),
                QStringLiteral("key") };
            if (!keys.contains(value)) {
                if (error != nullptr)
                    *error = tr("--mode: '%1' is not sum, set or key").arg(value);
                return false;
            }
            const QSignalBlocker block(m_groupDisplay);
            regroup = regroup || m_groupDisplay->currentIndex() != keys.indexOf(value);
            m_groupDisplay->setCurrentIndex(static_cast<int>(keys.indexOf(value)));
        } else {
            if (error != nullptr)
                *error = tr("the %1 view has no option --%2").arg(viewKey(kind()), name);
            return false;
        }
    }
    if (!m_options->apply()) {
        if (error != nullptr)
            *error = m_options->errorText();
        return false;
    }
    if (regroup) {
        m_expanded.clear();
        recompute();
    }
    return true;
}

AnalysisView::State OverviewView::saveState() const
{
    State state;
    saveSelectionState(state, m_options->range(), m_options->pes());
    state[QStringLiteral("columns")] = m_columns->text();
    state[QStringLiteral("coloring")] = coloring() == OverviewColoring::Utilization
        ? QStringLiteral("utilization")
        : QStringLiteral("activity");
    static const char* const byKey[]
        = { "auto", "pes", "node", "block", "signature", "cluster", "lists" };
    const auto grouping = std::clamp(m_grouping->currentIndex(), 0, 6);
    QString by = QString::fromLatin1(byKey[grouping]);
    if (grouping == static_cast<int>(Grouping::Blocks) && m_blockSize > 0)
        by += QStringLiteral(":%1").arg(m_blockSize);
    if (grouping == static_cast<int>(Grouping::Lists))
        state[QStringLiteral("lists")]
            = QString::fromStdString(core::analysis::formatPeLists(m_lists));
    state[QStringLiteral("by")] = by;
    static const char* const modeKey[] = { "sum", "set", "key" };
    state[QStringLiteral("mode")] = QString::fromLatin1(modeKey[static_cast<int>(groupDisplay())]);
    return state;
}

bool OverviewView::restoreState(const State& state, QString* problems)
{
    State rest = state;
    QString listsProblem;
    if (rest[QStringLiteral("by")] == QStringLiteral("lists")) {
        rest.erase(QStringLiteral("by"));
        std::string why;
        auto lists
            = core::analysis::parsePeLists(rest[QStringLiteral("lists")].toStdString(), &why);
        if (lists && !lists->empty()) {
            m_lists = std::move(*lists);
            const QSignalBlocker block(m_grouping);
            m_grouping->setCurrentIndex(static_cast<int>(Grouping::Lists));
            m_lastGrouping = m_grouping->currentIndex();
        } else {
            listsProblem
                = tr("the PE lists were not restored: %1").arg(QString::fromStdString(why));
        }
    }
    rest.erase(QStringLiteral("lists"));
    const bool restored = AnalysisView::restoreState(rest, problems);
    if (listsProblem.isEmpty())
        return restored;
    if (problems != nullptr)
        *problems
            = problems->isEmpty() ? listsProblem : *problems + QLatin1Char('\n') + listsProblem;
    return false;
}

std::optional<core::TimeRange> OverviewView::timeAxisRange() const
{
    return m_options->range();
}

} // namespace parallax::views
