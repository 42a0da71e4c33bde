#include "views/call_table/call_table_view.h"

#include "views/common/async_computation.h"
#include "views/common/options_bar.h"
#include "views/common/result_table_view.h"
#include "views/common/stacked_bar_chart.h"

#include <QLocale>

namespace parallax::views {

namespace {

TableColumns callColumns()
{
    return {
        { "entry_name", CallTableView::tr("Entry method"),
            CallTableView::tr("The entry method whose executions the messages started") },
        { "caller_name", CallTableView::tr("Called by"),
            CallTableView::tr("The entry method running on the sending PE when the message was "
                              "created (through SMP comm threads, the first sender)") },
        { "caller_pe", CallTableView::tr("From PE"), {} },
        { "count", CallTableView::tr("Executions"),
            CallTableView::tr("Executions started by these messages in the range") },
        { "bytes", CallTableView::tr("Bytes"), CallTableView::tr("Their message bytes") },
        { "min_us", CallTableView::tr("Min latency"),
            CallTableView::tr("From the send to the execution's begin") },
        { "mean_us", CallTableView::tr("Mean latency"), {} },
        { "max_us", CallTableView::tr("Max latency"), {} },
        { "entry", CallTableView::tr("Id"), CallTableView::tr("Entry method id") },
        { "caller_entry", CallTableView::tr("Caller id"),
            CallTableView::tr("Entry id of the caller, or outside (between entry methods), none "
                              "(no sender recorded), unknown (the send was not found)") },
    };
}

} // namespace

CallTableView::CallTableView(EntryPalette* palette, QWidget* parent)
    : TableAnalysisView(ViewKind::CallTable, palette, parent)
{
    m_options->offerCommThreads();
    m_table->model()->setRowToolTip([this](int row) {
        const auto target = m_table->model()->target(row);
        return target.valid()
            ? tr("Double-click: PE %1 (the sender) in the Timeline over the range").arg(target.pe)
            : QString();
    });
    recompute();
}

void CallTableView::recompute()
{
    computeAndShow<core::analysis::CallTable>(tr("Call Table"), core::analysis::computeCallTable,
        [this](core::analysis::CallTable table) { show(std::move(table)); });
}

void CallTableView::show(core::analysis::CallTable table)
{
    m_result = std::move(table);
    const auto& t = *m_result;
    std::uint64_t executions = 0;
    std::uint64_t found = 0;
    for (const auto& e : t.edges) {
        executions += e.count;
        if (e.kind == core::analysis::CallerKind::Entry
            || e.kind == core::analysis::CallerKind::Outside)
            found += e.count;
    }
    const QLocale locale;
    setHeading(tr("Call Table: who started each entry method"),
        describe(t.range, t.pes, t.apart)
            + tr(" · %1 executions, the sender of %2 found")
                  .arg(locale.toString(static_cast<qulonglong>(executions)),
                      locale.toString(static_cast<qulonglong>(found))));
    if (!t.error.empty()) {
        showMessage(QString::fromStdString(t.error));
        return;
    }
    m_table->setEmptyMessage(tr("No entry method began in this range on these PEs"));
    m_table->setTable(core::analysis::callTableTable(t, m_trace->metadata), callColumns());
}

} // namespace parallax::views
