// TimelineView's session state: the window, the rows in their order, collapsed groups, the
// reference mark, the selected execution and what it highlights.

#include "core/text_args.h"
#include "views/timeline/timeline_details_panel.h"
#include "views/timeline/timeline_view.h"

#include <QCheckBox>
#include <QStringList>

namespace parallax::views {

namespace {

QString timelinePeText(const std::vector<core::PeId>& pes)
{
    QStringList parts;
    for (const auto pe : pes)
        parts << QString::number(pe);
    return parts.join(QLatin1Char(','));
}

// "3,9,0": the rows in order (a PE list would sort them). PEs the run lacks go to `missing`.
std::vector<core::PeId> timelinePesOf(
    const QString& text, core::PeId processors, std::vector<core::PeId>& missing)
{
    std::vector<core::PeId> pes;
    for (const auto& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int pe = part.trimmed().toInt(&ok);
        if (ok && pe >= 0 && pe < processors)
            pes.push_back(pe);
        else if (ok)
            missing.push_back(pe);
    }
    return pes;
}

} // namespace

AnalysisView::State TimelineView::saveState() const
{
    State state;
    state[QStringLiteral("range")] = stateRangeText(m_timeline->window());
    state[QStringLiteral("rows")] = timelinePeText(m_timeline->pes());
    const auto& groups = m_timeline->groups();
    for (std::size_t g = 0; g < groups.size(); ++g) {
        state[QStringLiteral("group.%1.label").arg(g)] = groups[g].label;
        state[QStringLiteral("group.%1.pes").arg(g)] = timelinePeText(groups[g].pes);
    }
    if (const auto reference = m_timeline->referenceTime())
        state[QStringLiteral("reference")] = QString::number(*reference);
    if (const auto selected = m_timeline->selectedBlock(); selected && m_shown) {
        const auto& executions = m_shown->pes[static_cast<std::size_t>(selected->pe)].executions;
        if (selected->execution < executions.size())
            state[QStringLiteral("selection")] = QStringLiteral("%1@%2")
                                                     .arg(selected->pe)
                                                     .arg(executions.begin[selected->execution]);
        if (m_details->highlightEntry()->isChecked())
            state[QStringLiteral("highlight")] = m_details->highlightObject()->isChecked()
                ? QStringLiteral("object")
                : QStringLiteral("entry");
    }
    if (m_timeline->backTraceHops() != 1)
        state[QStringLiteral("hops")] = QString::number(m_timeline->backTraceHops());
    return state;
}

bool TimelineView::restoreState(const State& state, QString* problems)
{
    QStringList notes;
    const auto value = [&state](const char* key) {
        const auto it = state.find(QString::fromLatin1(key));
        return it == state.end() ? QString() : it->second;
    };
    const core::PeId processors = m_trace ? m_trace->metadata.processors : 0;
    std::vector<core::PeId> missing;
    if (state.count(QStringLiteral("rows")) > 0)
        setPes(timelinePesOf(value("rows"), processors, missing));
    m_timeline->expandAll();
    for (int g = 0; state.count(QStringLiteral("group.%1.pes").arg(g)) > 0; ++g) {
        const auto pes
            = timelinePesOf(state.at(QStringLiteral("group.%1.pes").arg(g)), processors, missing);
        if (!pes.empty())
            m_timeline->collapse(pes, state.at(QStringLiteral("group.%1.label").arg(g)));
    }
    if (!missing.empty())
        notes
            << tr("the run has no PE %1").arg(QString::fromStdString(core::formatPeList(missing)));
    if (state.count(QStringLiteral("range")) > 0) {
        if (const auto range = parseStateRange(value("range")))
            setWindow(*range);
        else
            notes << tr("range '%1' is not B:E in µs").arg(value("range"));
    }
    bool ok = false;
    const auto reference = value("reference").toLongLong(&ok);
    m_timeline->setReferenceTime(ok ? std::optional<core::TimeUs>(reference) : std::nullopt);
    const int hops = value("hops").toInt(&ok);
    m_timeline->setBackTraceHops(ok ? hops : 1);
    if (const auto selection = value("selection"); !selection.isEmpty()) {
        const auto parts = selection.split(QLatin1Char('@'));
        bool okPe = false;
        bool okTime = false;
        const int pe = parts.value(0).toInt(&okPe);
        const auto begin = parts.value(1).toLongLong(&okTime);
        if (!okPe || !okTime || !m_timeline->selectAt(pe, begin))
            notes << tr("the selected execution (%1) is not in the run").arg(selection);
        const auto highlight = value("highlight");
        m_details->highlightEntry()->setChecked(!highlight.isEmpty());
        m_details->highlightObject()->setChecked(highlight == QStringLiteral("object"));
    } else {
        m_timeline->clearSelection();
    }
    if (problems != nullptr)
        *problems = notes.join(QLatin1Char('\n'));
    return notes.isEmpty();
}

std::optional<core::TimeRange> TimelineView::timeAxisRange() const
{
    return m_timeline->window();
}

void TimelineView::zoomTimeAxis(core::TimeRange range)
{
    m_timeline->setWindow(range);
}

} // namespace parallax::views
