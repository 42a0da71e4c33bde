#include "views/common/analysis_view.h"

#include "core/text_args.h"

#include <QMenu>
#include <QStringList>

namespace parallax::views {

QString viewKey(ViewKind kind)
{
    switch (kind) {
    case ViewKind::Overview:
        return QStringLiteral("overview");
    case ViewKind::UsageProfile:
        return QStringLiteral("usage");
    case ViewKind::TimeProfile:
        return QStringLiteral("time-profile");
    case ViewKind::Histogram:
        return QStringLiteral("histogram");
    case ViewKind::Communication:
        return QStringLiteral("comm");
    case ViewKind::Extrema:
        return QStringLiteral("extrema");
    case ViewKind::Timeline:
        return QStringLiteral("timeline");
    case ViewKind::Clusters:
        return QStringLiteral("clusters");
    case ViewKind::CommMatrix:
        return QStringLiteral("comm-matrix");
    case ViewKind::MsgSizeEvolution:
        return QStringLiteral("msg-size-evolution");
    case ViewKind::Animation:
        return QStringLiteral("animation");

    case ViewKind::EntryProfile:
        return QStringLiteral("entry-profile");
    case ViewKind::CallTable:
        return QStringLiteral("call-table");
    case ViewKind::UserEvents:
        return QStringLiteral("user-events");
    case ViewKind::LogView:
        return QStringLiteral("log");
    case ViewKind::Noise:
        return QStringLiteral("noise");

    case ViewKind::UserStats:
        return QStringLiteral("user-stats");
    case ViewKind::Memory:
        return QStringLiteral("memory");
    case ViewKind::Counters:
        return QStringLiteral("counters");
    case ViewKind::Compare:
        return QStringLiteral("compare");
    case ViewKind::Iterations:
        return QStringLiteral("iterations");
    case ViewKind::EntryModel:
        return QStringLiteral("model");
    case ViewKind::Why:
        return QStringLiteral("why");
    }
    return {};
}

QString viewTitle(ViewKind kind)
{
    switch (kind) {
    case ViewKind::Overview:
        return QObject::tr("Overview");
    case ViewKind::UsageProfile:
        return QObject::tr("Usage Profile");
    case ViewKind::TimeProfile:
        return QObject::tr("Time Profile");
    case ViewKind::Histogram:
        return QObject::tr("Histogram");
    case ViewKind::Communication:
        return QObject::tr("Communication over Time");
    case ViewKind::Extrema:
        return QObject::tr("Extrema");
    case ViewKind::Timeline:
        return QObject::tr("Timeline");
    case ViewKind::Clusters:
        return QObject::tr("Clusters");
    case ViewKind::CommMatrix:
        return QObject::tr("Communication per Processor");
    case ViewKind::MsgSizeEvolution:
        return QObject::tr("Message Size Evolution");
    case ViewKind::Animation:
        return QObject::tr("Animation");

    case ViewKind::EntryProfile:
        return QObject::tr("Entry Method Profile");
    case ViewKind::CallTable:
        return QObject::tr("Call Table");
    case ViewKind::UserEvents:
        return QObject::tr("User Events");
    case ViewKind::LogView:
        return QObject::tr("Log Files");
    case ViewKind::Noise:
        return QObject::tr("Noise Miner");

    case ViewKind::UserStats:
        return QObject::tr("User Stats");
    case ViewKind::Memory:
        return QObject::tr("Memory Usage");
    case ViewKind::Counters:
        return QObject::tr("Performance Counters");
    case ViewKind::Compare:
        return QObject::tr("Compare");
    case ViewKind::Iterations:
        return QObject::tr("Iterations");
    case ViewKind::EntryModel:
        return QObject::tr("Entry Model");
    case ViewKind::Why:
        return QObject::tr("Why: Critical Path and Idle Blame");
    }
    return {};
}

bool AnalysisView::exportSvg(const QString& path, QSize size, QString* error)
{
    (void)path;
    (void)size;
    if (error != nullptr)
        *error = QObject::tr("the %1 view exports PNG only").arg(viewTitle(m_kind));
    return false;
}

QImage AnalysisView::renderFrame(int frame, QSize size)
{
    (void)frame;
    return renderChart(size);
}

bool AnalysisView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    return options.empty() || rejectOption(options.begin()->first, error);
}

bool AnalysisView::rejectOption(const QString& name, QString* error) const
{
    if (error != nullptr)
        *error = QObject::tr("the %1 view has no option --%2").arg(viewKey(m_kind), name);
    return false;
}

AnalysisView::State AnalysisView::saveState() const
{
    return {};
}

bool AnalysisView::restoreState(const State& state, QString* problems)
{
    State options = state;
    QStringList notes;
    auto selection = takeSelectionState(options, shownRun(), notes);
    if (!selection.range.empty() || !selection.pes.empty())
        setSelection(selection.range, std::move(selection.pes));
    QString error;
    if (!applyOptions(options, &error)) {
        // One by one, so that one option that no longer applies does not cost the others.
        for (const auto& option : options)
            if (!applyOptions({ option }, &error))
                notes << tr("%1 not restored: %2").arg(option.first, error);
    }
    if (problems != nullptr)
        *problems = notes.join(QLatin1Char('\n'));
    return notes.isEmpty();
}

QString stateRangeText(core::TimeRange range)
{
    return QStringLiteral("%1:%2").arg(range.begin).arg(range.end);
}

std::optional<core::TimeRange> parseStateRange(const QString& text)
{
    const auto parts = text.split(QLatin1Char(':'));
    bool okBegin = false;
    bool okEnd = false;
    if (parts.size() != 2)
        return std::nullopt;
    const core::TimeRange range { parts[0].toLongLong(&okBegin), parts[1].toLongLong(&okEnd) };
    if (!okBegin || !okEnd || range.begin < 0 || range.end <= range.begin)
        return std::nullopt;
    return range;
}

void saveSelectionState(
    AnalysisView::State& state, core::TimeRange range, const std::vector<core::PeId>& pes)
{
    if (!range.empty())
        state[QStringLiteral("range")] = stateRangeText(range);
    if (!pes.empty())
        state[QStringLiteral("pes")] = QString::fromStdString(core::formatPeList(pes));
}

SelectionState takeSelectionState(
    AnalysisView::State& state, const core::Trace* trace, QStringList& problems)
{
    SelectionState selection;
    if (const auto it = state.find(QStringLiteral("range")); it != state.end()) {
        if (const auto range = parseStateRange(it->second))
            selection.range = *range;
        else
            problems << QObject::tr("range '%1' is not B:E in µs").arg(it->second);
        state.erase(it);
    }
    if (const auto it = state.find(QStringLiteral("pes")); it != state.end()) {
        std::string why;
        if (const auto pes = core::parsePeList(it->second.toStdString(), &why)) {
            std::vector<core::PeId> missing;
            for (const auto pe : *pes)
                (trace == nullptr || pe < trace->metadata.processors ? selection.pes : missing)
                    .push_back(pe);
            if (!missing.empty())
                problems << QObject::tr("the run has no PE %1")
                                .arg(QString::fromStdString(core::formatPeList(missing)));
        } else {
            problems
                << QObject::tr("PE list '%1': %2").arg(it->second, QString::fromStdString(why));
        }
        state.erase(it);
    }
    return selection;
}

AnalysisView::AnalysisView(ViewKind kind, EntryPalette* palette, QWidget* parent)
    : QWidget(parent)
    , m_kind(kind)
    , m_palette(palette)
{ }

void addOpenTimelineAction(
    QMenu& menu, AnalysisView& view, const std::vector<core::PeId>& pes, core::TimeRange range)
{
    if (pes.empty())
        return;
    const QString text = pes.size() == 1
        ? QObject::tr("Open PE %1 in the Timeline").arg(pes.front())
        : QObject::tr("Open these %1 PEs in the Timeline").arg(pes.size());
    menu.addAction(text, &view, [&view, pes, range]() { emit view.timelineRequested(pes, range); });
}

void addExportActions(QMenu& menu, AnalysisView& view)
{
    if (!menu.isEmpty())
        menu.addSeparator();
    menu.addAction(view.canExportSvg() ? QObject::tr("Export Chart as PNG or SVG…")
                                       : QObject::tr("Export Chart as PNG…"),
        &view, &AnalysisView::exportChartRequested);
    menu.addAction(QObject::tr("Export Data as CSV…"), &view, &AnalysisView::exportDataRequested);
}

} // namespace parallax::views
