#include "views/log_view/log_view.h"

#include "core/analysis/run_span.h"
#include "core/trace.h"
#include "views/common/async_computation.h"
#include "views/common/options_bar.h"
#include "views/common/result_table_view.h"
#include "views/common/stacked_bar_chart.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>

#include <limits>

namespace parallax::views {

namespace {

using core::RecordType;

TableColumns logColumns()
{
    return {
        { "line", LogView::tr("Line"),
            LogView::tr("Line number in the log file (the header is 1)") },
        { "time_us", LogView::tr("Time"), {} },
        { "type", LogView::tr("Record"), {} },
        { "entry_name", LogView::tr("Entry method"), {} },
        { "chare", LogView::tr("Chare"), {} },
        { "pe", LogView::tr("PE"),
            LogView::tr("The record's PE field: the sender of a BEGIN_PROCESSING, the writer of "
                        "a user event, ...") },
        { "event", LogView::tr("Event"), LogView::tr("The message's event number") },
        { "bytes", LogView::tr("Bytes"), {} },
        { "user_event_name", LogView::tr("User event"), {} },
        { "details", LogView::tr("Details"), {} },
    };
}

} // namespace

namespace {

core::analysis::LogListingReader& defaultReader()
{
    static core::analysis::LogListingReader reader;
    return reader;
}

} // namespace

void LogView::setDefaultReader(core::analysis::LogListingReader reader)
{
    defaultReader() = std::move(reader);
}

const std::vector<LogView::RecordKind>& LogView::recordKinds()
{
    static const std::vector<RecordKind> kinds = {
        { tr("All records"), {} },
        { tr("Executions (begin, end)"),
            { RecordType::BeginProcessing, RecordType::EndProcessing } },
        { tr("Messages sent"),
            { RecordType::Creation, RecordType::CreationBcast, RecordType::CreationMulticast } },
        { tr("User events and stats"),
            { RecordType::UserEvent, RecordType::BeginUserEventPair, RecordType::EndUserEventPair,
                RecordType::UserEventPair, RecordType::UserStat, RecordType::UserSupplied,
                RecordType::UserSuppliedNote, RecordType::UserSuppliedBracketedNote,
                RecordType::MemoryUsage } },
        { tr("Idle"), { RecordType::BeginIdle, RecordType::EndIdle } },
        { tr("Pack and unpack"),
            { RecordType::BeginPack, RecordType::EndPack, RecordType::BeginUnpack,
                RecordType::EndUnpack } },
        { tr("Markers (computation, tracing, flushes, phases)"),
            { RecordType::BeginComputation, RecordType::EndComputation, RecordType::BeginTrace,
                RecordType::EndTrace, RecordType::BeginInterrupt, RecordType::EndInterrupt,
                RecordType::EndPhase } },
    };
    return kinds;
}

LogView::LogView(EntryPalette* palette, QWidget* parent)
    : TableAnalysisView(ViewKind::LogView, palette, parent)
    , m_reader(defaultReader())
{
    auto* box = new QWidget(this);
    auto* layout = new QHBoxLayout(box);
    layout->setContentsMargins(6, 0, 6, 0);
    auto* peLabel = new QLabel(tr("Log of P&E"), box);
    m_pe = new QSpinBox(box);
    m_pe->setObjectName(QStringLiteral("logPe"));
    m_pe->setKeyboardTracking(false);
    m_pe->setToolTip(tr("The PE whose log file is listed"));
    peLabel->setBuddy(m_pe);
    auto* recordsLabel = new QLabel(tr("&Records"), box);
    m_records = new QComboBox(box);
    m_records->setObjectName(QStringLiteral("logRecords"));
    for (const auto& kind : recordKinds())
        m_records->addItem(kind.name);
    recordsLabel->setBuddy(m_records);
    layout->addWidget(peLabel);
    layout->addWidget(m_pe);
    layout->addWidget(recordsLabel);
    layout->addWidget(m_records);
    addToolbarWidget(box);
    m_table->model()->setRowToolTip([](int) { return tr("Double-click: the Timeline here"); });
    // The spin box and the options bar's PE field name the same PE.
    connect(m_pe, &QSpinBox::valueChanged, this, [this](int pe) {
        m_options->setPes({ pe });
        recompute();
    });
    connect(m_records, &QComboBox::currentIndexChanged, this, [this]() { recompute(); });
    recompute();
}

void LogView::setReader(core::analysis::LogListingReader reader)
{
    m_reader = std::move(reader);
    recompute();
}

void LogView::setTrace(core::TracePtr trace)
{
    {
        const QSignalBlocker block(m_pe);
        const auto processors = trace ? std::max<core::PeId>(trace->metadata.processors, 1) : 1;
        m_pe->setRange(0, processors - 1);
        const auto valid = trace ? trace->validPes() : std::vector<core::PeId> {};
        if (!valid.empty())
            m_pe->setValue(valid.front());
    }
    TableAnalysisView::setTrace(std::move(trace));
    m_options->setPes({ m_pe->value() });
}

void LogView::setSelection(core::TimeRange range, std::vector<core::PeId> pes)
{
    if (!pes.empty()) {
        const QSignalBlocker block(m_pe);
        m_pe->setValue(pes.front());
    }
    TableAnalysisView::setSelection(range, std::move(pes));
}

bool LogView::applyViewOption(const QString& name, const QString& value, QString* error)
{
    if (name != QStringLiteral("records"))
        return TableAnalysisView::applyViewOption(name, value, error);
    const auto& kinds = recordKinds();
    bool number = false;
    int index = value.toInt(&number);
    if (!number)
        index = static_cast<int>(std::find_if(kinds.begin(), kinds.end(), [&](const RecordKind& k) {
            return k.name.section(QLatin1Char(' '), 0, 0).compare(value, Qt::CaseInsensitive) == 0;
        }) - kinds.begin());
    if (index < 0 || index >= static_cast<int>(kinds.size())) {
        if (error != nullptr)
            *error = tr("--records takes all, executions, messages, user, idle, pack or markers");
        return false;
    }
    const QSignalBlocker block(m_records);
    m_records->setCurrentIndex(index);
    return true;
}

void LogView::clearResult()
{
    m_listing.reset();
}

void LogView::recompute()
{
    if (m_trace && !m_reader) {
        clearResult();
        setHeading(tr("Log Files"), {});
        showMessage(tr("This build cannot read logs here"));
        return;
    }
    if (const auto& pes = m_options->pes(); !pes.empty() && pes.front() != m_pe->value()) {
        const QSignalBlocker block(m_pe); // a PE typed into the options bar
        m_pe->setValue(pes.front());
    }
    const core::PeId pe = m_pe->value();
    core::analysis::LogFilter filter;
    // The log's records at the traced span's edges (BEGIN/END_COMPUTATION, a comm thread's
    // tail) belong to it: a range reaching an edge is open on that side.
    filter.range = m_options->range();
    if (m_trace) {
        const auto span = core::analysis::tracedRunSpan(*m_trace);
        if (filter.range.begin <= span.begin)
            filter.range.begin = std::numeric_limits<core::TimeUs>::min();
        if (filter.range.end >= span.end)
            filter.range.end = core::kTimeMax;
    }
    const auto kind = static_cast<std::size_t>(std::max(m_records->currentIndex(), 0));
    filter.types = recordKinds()[kind].types;
    filter.limit = kMaxRecords;
    computeAndShow<core::analysis::LogListing>(
        tr("Log Files"),
        [reader = m_reader, pe, filter](const core::Trace& trace,
            const core::analysis::AnalysisRequest&, const core::analysis::Progress& progress) {
            return std::optional(reader(trace, pe, filter, progress));
        },
        [this](core::analysis::LogListing listing) { show(std::move(listing)); });
}

void LogView::show(core::analysis::LogListing listing)
{
    m_listing = std::move(listing);
    const auto& l = *m_listing;
    const QLocale locale;
    QString subtitle = tr("%1 · %2 · %3 of %4 lines")
                           .arg(QString::fromStdString(l.file), formatTimeSpan(m_options->range()),
                               locale.toString(static_cast<qulonglong>(l.lines.size())),
                               locale.toString(static_cast<qulonglong>(l.linesRead)));
    if (l.malformed > 0)
        subtitle += tr(" · %1 lines could not be read").arg(l.malformed);
    if (l.truncated)
        subtitle += tr(" · the first %1 records only: narrow the range")
                        .arg(locale.toString(static_cast<qulonglong>(kMaxRecords)));
    setHeading(tr("Log of PE %1").arg(l.pe), subtitle);
    if (!l.error.empty()) {
        showMessage(QString::fromStdString(l.error));
        return;
    }
    m_table->setEmptyMessage(tr("No records of this kind in this range"));
    m_table->setTable(core::analysis::logListingTable(l, m_trace->metadata), logColumns());
}

} // namespace parallax::views
