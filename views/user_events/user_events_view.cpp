#include "views/user_events/user_events_view.h"

#include "core/text_args.h"
#include "views/common/async_computation.h"
#include "views/common/options_bar.h"
#include "views/common/result_table_view.h"
#include "views/common/stacked_bar_chart.h"

#include <QLineEdit>
#include <QLocale>

#include <algorithm>
#include <iterator>

namespace parallax::views {

namespace {

using core::analysis::UserEventKind;

TableColumns statsColumns()
{
    return {
        { "event_name", UserEventsView::tr("User event"), {} },
        { "pe", UserEventsView::tr("PE"), UserEventsView::tr("all: the PEs together") },
        { "kind", UserEventsView::tr("Kind"),
            UserEventsView::tr("instant (traceUserEvent) or bracket (a begin and an end)") },
        { "count", UserEventsView::tr("Count"), {} },
        { "total_us", UserEventsView::tr("Total"),
            UserEventsView::tr("Brackets: summed duration") },
        { "min_us", UserEventsView::tr("Min"), {} },
        { "mean_us", UserEventsView::tr("Mean"), {} },
        { "max_us", UserEventsView::tr("Max"), {} },
        { "event", UserEventsView::tr("Id"), UserEventsView::tr("User event id (.sts EVENT)") },
    };
}

TableColumns occurrenceColumns()
{
    return {
        { "begin_us", UserEventsView::tr("Time"), {} },
        { "pe", UserEventsView::tr("PE"), {} },
        { "event_name", UserEventsView::tr("User event"), {} },
        { "kind", UserEventsView::tr("Kind"), {} },
        { "duration_us", UserEventsView::tr("Duration"), {} },
        { "end_us", UserEventsView::tr("End"), {} },
        { "event", UserEventsView::tr("Id"), {} },
    };
}

std::optional<QString> eventListError(const QString& text)
{
    if (text.trimmed().isEmpty())
        return std::nullopt;
    std::string error;
    if (!core::parsePeList(text.trimmed().toStdString(), &error, 1'000'000))
        return UserEventsView::tr("Events: %1").arg(QString::fromStdString(error));
    return std::nullopt;
}

} // namespace

// What the worker hands the view: the summary and both tables built from it (hundreds of
// thousands of occurrences on a big run: too many rows to build on the GUI thread).
struct UserEventsShown {
    core::analysis::UserEventSummary summary;
    core::analysis::ResultTable stats;
    core::analysis::ResultTable occurrences; // all of them (no row selected)
};

UserEventsView::UserEventsView(EntryPalette* palette, QWidget* parent)
    : TableAnalysisView(ViewKind::UserEvents, palette, parent)
{
    m_options->offerCommThreads();
    m_events = m_options->addField(tr("&Events"), {}, eventListError, 8);
    m_events->setObjectName(QStringLiteral("events"));
    m_events->setPlaceholderText(tr("all"));
    m_events->setToolTip(tr("User event ids, e.g. 10,20 (empty: all)"));
    m_occurrences = addDetailTable(QStringLiteral("occurrences"));
    m_detailComputation = new AsyncComputation(this);
    m_table->model()->setRowToolTip([](int) {
        return tr("Select: list its occurrences below · double-click: the first one in the "
                  "Timeline");
    });
    m_occurrences->model()->setRowToolTip(
        [](int) { return tr("Double-click: this occurrence in the Timeline"); });
    recompute();
}

bool UserEventsView::applyViewOption(const QString& name, const QString& value, QString* error)
{
    if (name != QStringLiteral("events"))
        return TableAnalysisView::applyViewOption(name, value, error);
    m_events->setText(value);
    return true;
}

void UserEventsView::clearResult()
{
    m_detailComputation->cancel();
    m_summary.reset();
    m_occurrences->setTable({}, {});
}

void UserEventsView::recompute()
{
    core::analysis::UserEventOptions options;
    if (const auto ids = core::parsePeList(m_events->text().trimmed().toStdString()))
        options.events.assign(ids->begin(), ids->end());
    computeAndShow<UserEventsShown>(
        tr("User Events"),
        [options](const core::Trace& trace, const core::analysis::AnalysisRequest& request,
            const core::analysis::Progress& progress) -> std::optional<UserEventsShown> {
            auto summary = core::analysis::computeUserEvents(trace, request, options, progress);
            if (!summary)
                return std::nullopt;
            UserEventsShown shown;
            if (summary->error.empty()) {
                shown.stats = core::analysis::userEventStatsTable(*summary, trace.metadata);
                shown.occurrences
                    = core::analysis::userEventOccurrencesTable(*summary, trace.metadata);
            }
            shown.summary = std::move(*summary);
            return shown;
        },
        [this](UserEventsShown shown) { show(std::move(shown)); });
}

void UserEventsView::show(UserEventsShown shown)
{
    m_detailComputation->cancel();
    m_summary = std::make_shared<const core::analysis::UserEventSummary>(std::move(shown.summary));
    const auto& s = *m_summary;
    std::uint64_t instants = 0;
    std::uint64_t brackets = 0;
    for (const auto& o : s.occurrences)
        ++(o.kind == UserEventKind::Instant ? instants : brackets);
    const QLocale locale;
    setHeading(tr("User Events"),
        describe(s.range, s.pes, s.apart)
            + tr(" · %1 instants, %2 brackets")
                  .arg(locale.toString(static_cast<qulonglong>(instants)),
                      locale.toString(static_cast<qulonglong>(brackets))));
    if (!s.error.empty()) {
        showMessage(QString::fromStdString(s.error));
        m_occurrences->setTable({}, {});
        return;
    }
    m_table->setEmptyMessage(tr("No user events in this range on these PEs"));
    m_table->setTable(std::move(shown.stats), statsColumns());
    m_occurrences->setEmptyMessage(tr("No occurrences"));
    m_occurrences->setTable(std::move(shown.occurrences), occurrenceColumns());
}

void UserEventsView::showDetail(int row)
{
    if (!m_summary || !m_trace)
        return;
    // On the worker: a row of all the PEs of a frequent event has as many occurrences as the
    // run has (a click, or the focus landing on the first row, froze the window).
    std::optional<core::analysis::UserEventStats> picked;
    if (row >= 0 && static_cast<std::size_t>(row) < m_summary->stats.size())
        picked = m_summary->stats[static_cast<std::size_t>(row)];
    m_detailComputation->run<core::analysis::ResultTable>(
        [summary = m_summary, trace = m_trace, picked](const core::analysis::Progress&) {
            core::analysis::UserEventSummary shown;
            if (picked)
                std::copy_if(summary->occurrences.begin(), summary->occurrences.end(),
                    std::back_inserter(shown.occurrences),
                    [&](const core::analysis::UserEventOccurrence& o) {
                        return o.event == picked->event && o.kind == picked->kind
                            && (picked->pe == core::kNoPe || o.pe == picked->pe);
                    });
            else
                shown.occurrences = summary->occurrences;
            return core::analysis::userEventOccurrencesTable(shown, trace->metadata);
        },
        [this](core::analysis::ResultTable table) {
            m_occurrences->setEmptyMessage(tr("No occurrences"));
            m_occurrences->setTable(std::move(table), occurrenceColumns());
        });
}

bool UserEventsView::busy() const
{
    return TableAnalysisView::busy() || m_detailComputation->busy();
}

} // namespace parallax::views
