#include "views/why/why_view.h"

#include "core/trace.h"
#include "views/common/options_bar.h"
#include "views/common/result_table_view.h"
#include "views/common/stacked_bar_chart.h"

#include <QComboBox>
#include <QLocale>

#include <array>

namespace parallax::views {

namespace {

using core::analysis::BlamedIdle;
using core::analysis::CellKind;
using core::analysis::ResultTable;
using core::analysis::RowTarget;

// The chooser's items in WhyView::Table order, with their option values.
constexpr std::array<const char*, 5> kWhyTableKeys { "critical-path", "path-entry", "blame-pe",
    "caused-entry", "caused-pe" };

QString whyEntry(const core::Trace& trace, core::EntryId entry, const QString& none)
{
    if (entry < 0 || static_cast<std::size_t>(entry) >= trace.metadata.entries.size())
        return none;
    return QString::fromStdString(trace.metadata.entryName(entry));
}

QString betweenExecutions()
{
    return WhyView::tr("(between executions)");
}

double idleSharePct(core::TimeUs part, core::TimeUs whole)
{
    return whole <= 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

// The largest blamed idle period that `matches`: where a blame row opens the Timeline.
template <typename Matches>
RowTarget largestIdle(const core::analysis::IdleBlame& blame, Matches matches)
{
    const BlamedIdle* best = nullptr;
    for (const auto& idle : blame.idles)
        if (idle.kind == BlamedIdle::Kind::Message && matches(idle)
            && (best == nullptr || idle.idle() > best->idle()))
            best = &idle;
    return best == nullptr ? RowTarget {} : RowTarget { best->consumerPe, best->begin, best->end };
}

ResultTable pathTable(const core::analysis::CriticalPath& path, const core::Trace& trace)
{
    ResultTable t;
    const auto step = t.addColumn("step", CellKind::Integer);
    const auto pe = t.addColumn("pe", CellKind::Integer);
    const auto kind = t.addColumn("kind", CellKind::Text);
    const auto entry = t.addColumn("entry_name", CellKind::Text);
    const auto begin = t.addColumn("begin_us", CellKind::TimeUs);
    const auto end = t.addColumn("end_us", CellKind::TimeUs);
    const auto duration = t.addColumn("duration_us", CellKind::DurationUs);
    std::size_t n = 0;
    for (const auto& s : path.steps) {
        t.push(step, static_cast<double>(n++));
        t.push(pe, static_cast<double>(s.pe));
        t.push(kind, core::analysis::criticalStepKindName(s.kind));
        t.push(entry, whyEntry(trace, s.entry, {}).toStdString());
        t.push(begin, static_cast<double>(s.begin));
        t.push(end, static_cast<double>(s.end));
        t.push(duration, static_cast<double>(s.end - s.begin));
        t.targets.push_back({ s.pe, s.begin, s.end });
    }
    return t;
}

// The path's time per entry method; a row opens the Timeline at its longest execution on the
// path.
ResultTable pathByEntryTable(const core::analysis::CriticalPath& path,
    const std::vector<core::analysis::CriticalEntryShare>& byEntry, const core::Trace& trace)
{
    ResultTable t;
    const auto entry = t.addColumn("entry_name", CellKind::Text);
    const auto exec = t.addColumn("exec_us", CellKind::DurationUs);
    const auto share = t.addColumn("share_pct", CellKind::Percent);
    const auto message = t.addColumn("message_us", CellKind::DurationUs);
    const auto executions = t.addColumn("executions", CellKind::Integer);
    for (const auto& row : byEntry) {
        t.push(entry, whyEntry(trace, row.entry, {}).toStdString());
        t.push(exec, static_cast<double>(row.exec));
        t.push(share, idleSharePct(row.exec, path.length()));
        t.push(message, static_cast<double>(row.message));
        t.push(executions, static_cast<double>(row.executions));
        const auto& longest = path.steps[row.longestStep];
        t.targets.push_back(row.executions == 0
                ? RowTarget {}
                : RowTarget { longest.pe, longest.begin, longest.end });
    }
    return t;
}

ResultTable blameTable(const core::analysis::IdleBlame& blame, const core::Trace& trace)
{
    ResultTable t;
    const auto producerPe = t.addColumn("producer_pe", CellKind::Integer);
    const auto producerEntry = t.addColumn("producer_entry", CellKind::Text);
    const auto consumerPe = t.addColumn("consumer_pe", CellKind::Integer);
    const auto idle = t.addColumn("idle_us", CellKind::DurationUs);
    const auto count = t.addColumn("count", CellKind::Integer);
    const auto share = t.addColumn("share_pct", CellKind::Percent);
    const auto late = t.addColumn("producer_late", CellKind::Text);
    for (const auto& row :
        core::analysis::aggregateBlame(blame, core::analysis::BlameGrouping::Detail)) {
        t.push(producerPe, static_cast<double>(row.producerPe));
        t.push(
            producerEntry, whyEntry(trace, row.producerEntry, betweenExecutions()).toStdString());
        t.push(consumerPe, static_cast<double>(row.consumerPe));
        t.push(idle, static_cast<double>(row.idle));
        t.push(count, static_cast<double>(row.count));
        t.push(share, idleSharePct(row.idle, blame.totalIdle));
        QString why = QString::fromUtf8(core::analysis::producerLateName(row.producerLate));
        if (row.producerLatePe != core::kNoPe)
            why += WhyView::tr(": PE %1 %2")
                       .arg(row.producerLatePe)
                       .arg(whyEntry(trace, row.producerLateEntry, {}));
        t.push(late, why.toStdString());
        t.targets.push_back(largestIdle(blame, [&row](const BlamedIdle& i) {
            return i.producerPe == row.producerPe && i.producerEntry == row.producerEntry
                && i.consumerPe == row.consumerPe && i.producerLate == row.producerLate
                && i.producerLatePe == row.producerLatePe
                && i.producerLateEntry == row.producerLateEntry;
        }));
    }
    return t;
}

ResultTable causedTable(
    const core::analysis::IdleBlame& blame, const core::Trace& trace, bool byEntry)
{
    using Kind = core::analysis::IdleCaused::Kind;
    ResultTable t;
    const auto producer = byEntry ? t.addColumn("entry_name", CellKind::Text)
                                  : t.addColumn("producer_pe", CellKind::Integer);
    const auto idle = t.addColumn("idle_us", CellKind::DurationUs);
    const auto count = t.addColumn("count", CellKind::Integer);
    const auto share = t.addColumn("share_pct", CellKind::Percent);
    for (const auto& row : core::analysis::idleCaused(blame)) {
        if (row.kind != (byEntry ? Kind::Entry : Kind::Pe))
            continue;
        if (byEntry)
            t.push(producer, whyEntry(trace, row.entry, betweenExecutions()).toStdString());
        else
            t.push(producer, static_cast<double>(row.pe));
        t.push(idle, static_cast<double>(row.idle));
        t.push(count, static_cast<double>(row.count));
        t.push(share, idleSharePct(row.idle, blame.totalIdle));
        t.targets.push_back(largestIdle(blame, [&row, byEntry](const BlamedIdle& i) {
            return byEntry ? i.producerEntry == row.entry : i.producerPe == row.pe;
        }));
    }
    return t;
}

TableColumns whyColumns(WhyView::Table table)
{
    switch (table) {
    case WhyView::Table::CriticalPath:
        return {
            { "step", WhyView::tr("Step"), {} },
            { "pe", WhyView::tr("PE"), WhyView::tr("A message's row: the sending PE") },
            { "kind", WhyView::tr("Kind"),
                WhyView::tr("exec: running · message: in flight to the next step's PE · wait: "
                            "the PE was free but the next execution had not begun") },
            { "entry_name", WhyView::tr("Entry method"),
                WhyView::tr("A message's row: the entry method it was sent to") },
            { "begin_us", WhyView::tr("Begin"), {} },
            { "end_us", WhyView::tr("End"), {} },
            { "duration_us", WhyView::tr("Duration"), {} },
        };
    case WhyView::Table::PathByEntry:
        return {
            { "entry_name", WhyView::tr("Entry method"), {} },
            { "exec_us", WhyView::tr("On the path"),
                WhyView::tr("Time its executions ran on the critical path: what a speed-up of "
                            "this entry method could take off the path") },
            { "share_pct", WhyView::tr("Share"), WhyView::tr("Of the path's length") },
            { "message_us", WhyView::tr("Messages to it"),
                WhyView::tr("Time the messages sent to it were in flight on the path") },
            { "executions", WhyView::tr("Executions"),
                WhyView::tr("Its executions on the path (some only in part)") },
        };
    case WhyView::Table::BlameByPe:
        return {
            { "producer_pe", WhyView::tr("Producer PE"),
                WhyView::tr("The PE that sent the message") },
            { "producer_entry", WhyView::tr("Producer entry method"),
                WhyView::tr("The execution that sent it") },
            { "consumer_pe", WhyView::tr("Consumer PE"), WhyView::tr("The PE that sat idle") },
            { "idle_us", WhyView::tr("Idle"), WhyView::tr("Idle time its messages ended") },
            { "count", WhyView::tr("Count"), WhyView::tr("Idle periods") },
            { "share_pct", WhyView::tr("Share"), WhyView::tr("Of all idle time shown") },
            { "producer_late", WhyView::tr("Producer waited for"),
                WhyView::tr("What the producer's execution itself waited for: message (from that "
                            "PE's entry method), busy (that PE ran it before) or none") },
        };
    case WhyView::Table::CausedByEntry:
    case WhyView::Table::CausedByPe:
        break;
    }
    return {
        { "entry_name", WhyView::tr("Producer entry method"), {} },
        { "producer_pe", WhyView::tr("Producer PE"), {} },
        { "idle_us", WhyView::tr("Idle caused"),
            WhyView::tr("Idle time of other PEs that its messages ended") },
        { "count", WhyView::tr("Count"), WhyView::tr("Idle periods") },
        { "share_pct", WhyView::tr("Share"), WhyView::tr("Of all idle time shown") },
    };
}

} // namespace

WhyView::WhyView(EntryPalette* palette, QWidget* parent)
    : TableAnalysisView(ViewKind::Why, palette, parent)
{
    m_options->offerCommThreads();
    m_chooser = m_options->addChoice(tr("&Show"),
        { tr("Critical path"), tr("Critical path by entry method"), tr("Idle blame by PE"),
            tr("Idle caused by entry method"), tr("Idle caused by PE") });
    m_chooser->setObjectName(QStringLiteral("show"));
    connect(m_chooser, &QComboBox::currentIndexChanged, this, [this]() { display(); });
    m_table->model()->setRowToolTip([](int) {
        return tr("Double-click: this step, or the largest idle period, in the Timeline");
    });
    recompute();
}

WhyView::Table WhyView::shownTable() const
{
    return static_cast<Table>(m_chooser->currentIndex());
}

void WhyView::setShownTable(Table table)
{
    m_chooser->setCurrentIndex(static_cast<int>(table));
}

AnalysisView::State WhyView::saveState() const
{
    auto state = TableAnalysisView::saveState();
    state[QStringLiteral("show")]
        = QString::fromUtf8(kWhyTableKeys[static_cast<std::size_t>(m_chooser->currentIndex())]);
    return state;
}

bool WhyView::applyViewOption(const QString& name, const QString& value, QString* error)
{
    if (name != QStringLiteral("show"))
        return TableAnalysisView::applyViewOption(name, value, error);
    for (std::size_t i = 0; i < kWhyTableKeys.size(); ++i)
        if (value == QString::fromUtf8(kWhyTableKeys[i])) {
            setShownTable(static_cast<Table>(i));
            return true;
        }
    if (error != nullptr)
        *error = tr("--show takes critical-path, path-entry, blame-pe, caused-entry or caused-pe");
    return false;
}

void WhyView::recompute()
{
    computeAndShow<Result>(
        tr("Why"),
        [](const core::Trace& trace, const core::analysis::AnalysisRequest& request,
            const core::analysis::Progress& progress) {
            // Both analyses stop early once a newer request supersedes this one (a range or
            // PEs changed while a large run is still being walked); the result is then dropped.
            // The walk is a third of the work on large runs, the blame the rest.
            auto path = core::analysis::findCriticalPath(trace, request, progress.part(0.0, 0.3));
            auto byEntry = core::analysis::criticalPathByEntry(path);
            return Result { std::move(path), std::move(byEntry),
                core::analysis::findIdleBlame(trace, request, progress.part(0.3, 0.7)) };
        },
        [this](Result result) {
            m_result = std::move(result);
            display();
        });
}

void WhyView::display()
{
    if (!m_result || !m_trace)
        return;
    const auto& path = m_result->path;
    const auto& blame = m_result->blame;
    const QLocale locale;
    const QString where = describe(path.range, blame.pes, {});
    using Kind = core::analysis::CriticalStep::Kind;
    const auto table = shownTable();
    switch (table) {
    case Table::CriticalPath:
    case Table::PathByEntry: {
        // The entry method an analyst would speed up first, in the heading of both tables.
        const auto& byEntry = m_result->pathByEntry;
        QString most;
        if (!byEntry.empty() && byEntry.front().exec > 0)
            most = tr(" · most on it: %1 (%2 %)")
                       .arg(whyEntry(*m_trace, byEntry.front().entry, tr("unknown")))
                       .arg(locale.toString(
                           idleSharePct(byEntry.front().exec, path.length()), 'f', 1));
        // Right after the length, so that a narrow window still shows it.
        // (One arg() for all: an entry name holding "%3" must stay as it is.)
        setHeading(tr("Critical path: %1%2 — exec %3 · message %4 · wait %5 in %6 steps")
                       .arg(formatTime(static_cast<double>(path.length())), most,
                           formatTime(static_cast<double>(path.total(Kind::Exec))),
                           formatTime(static_cast<double>(path.total(Kind::Message))),
                           formatTime(static_cast<double>(path.total(Kind::Wait))),
                           locale.toString(static_cast<qulonglong>(path.steps.size()))),
            where
                + tr(" · starts: %1 · unresolved links: %2")
                      .arg(QString::fromStdString(path.startReason))
                      .arg(path.unresolvedLinks));
        m_table->setEmptyMessage(tr("No execution of the selected PEs in the range"));
        m_table->setTable(table == Table::CriticalPath ? pathTable(path, *m_trace)
                                                       : pathByEntryTable(path, byEntry, *m_trace),
            whyColumns(table));
        return;
    }
    case Table::BlameByPe:
    case Table::CausedByEntry:
    case Table::CausedByPe:
        break;
    }
    setHeading(table == Table::BlameByPe
            ? tr("Idle blame: who ended each PE's idle time")
            : (table == Table::CausedByEntry ? tr("Idle caused, by producer entry method")
                                             : tr("Idle caused, by producer PE")),
        where
            + tr(" · %1 idle in %2 periods, %3 (%4 %) blamed on a message from another PE")
                  .arg(formatTime(static_cast<double>(blame.totalIdle)))
                  .arg(locale.toString(static_cast<qulonglong>(blame.idles.size())))
                  .arg(formatTime(static_cast<double>(blame.blamedIdle())))
                  .arg(locale.toString(idleSharePct(blame.blamedIdle(), blame.totalIdle), 'f', 1)));
    m_table->setEmptyMessage(tr("No idle period here was ended by a message from another PE"));
    m_table->setTable(table == Table::BlameByPe
            ? blameTable(blame, *m_trace)
            : causedTable(blame, *m_trace, table == Table::CausedByEntry),
        whyColumns(table));
}

} // namespace parallax::views
