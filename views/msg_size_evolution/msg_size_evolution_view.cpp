#include "views/msg_size_evolution/msg_size_evolution_view.h"

#include "core/analysis/entry_ranking.h"
#include "core/text_args.h"
#include "views/common/async_computation.h"
#include "views/common/entry_chooser.h"
#include "views/common/entry_palette.h"
#include "views/common/heat_map_chart.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

#include <QComboBox>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPushButton>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace parallax::views {

namespace {

using core::analysis::MessageEvent;
using core::analysis::MsgSizeEvolution;

// Powers of two in binary units (512 B, 1 KiB, 64 KiB, 2 MiB); other sizes in bytes.
QString sizeText(double bytes, bool binary)
{
    const QLocale locale;
    if (binary) {
        static constexpr const char* kUnits[] = { " B", " KiB", " MiB", " GiB", " TiB" };
        int unit = 0;
        double value = bytes;
        while (value >= 1024.0 && unit < 4) {
            value /= 1024.0;
            ++unit;
        }
        return locale.toString(value, 'g', 4) + QString::fromLatin1(kUnits[unit]);
    }
    return locale.toString(static_cast<qlonglong>(std::llround(bytes))) + QStringLiteral(" B");
}

QString messagesText(double n)
{
    return n == 1.0
        ? MsgSizeEvolutionView::tr("1 message")
        : MsgSizeEvolutionView::tr("%1 messages").arg(formatBarValue(n, BarUnit::Count));
}

} // namespace

QString MsgSizeEvolutionView::sizeBinLabel(const MsgSizeEvolution& e, std::size_t bin)
{
    const double lo = e.edges.at(bin);
    const double hi = e.edges.at(bin + 1);
    if (std::isinf(hi))
        return QStringLiteral("≥ ") + sizeText(lo, e.logScale);
    if (e.logScale && lo == 0.0)
        return QStringLiteral("0 B");
    return sizeText(lo, e.logScale) + QStringLiteral("–") + sizeText(hi, e.logScale);
}

MsgSizeEvolutionView::MsgSizeEvolutionView(EntryPalette* palette, QWidget* parent)
    : HeatMapView(ViewKind::MsgSizeEvolution, palette, parent)
{
    m_event = m_options->addChoice(tr("&Messages"), { tr("Sent"), tr("Received") });
    m_event->setObjectName(QStringLiteral("event"));
    m_event->setToolTip(tr("Sent: at their send, a broadcast once per destination · Received: "
                           "at the begin of the execution they started"));
    m_sizeBin = m_options->addField(tr("&Size bin"), {}, [](const QString& text) {
        return countFieldError(text, 1, 1'000'000'000, tr("Size bin"));
    });
    m_sizeBin->setObjectName(QStringLiteral("sizeBin"));
    m_sizeBin->setPlaceholderText(tr("2ⁿ"));
    m_sizeBin->setToolTip(tr("Bytes per size bin, 50 bins then one for everything larger "
                             "(empty: powers of two)"));
    const auto fields = m_options->addIntervalFields(
        tr("&Bins"), QStringLiteral("bins"), tr("Number of intervals"), 100, kMaxIntervals);
    m_interval = fields.interval;
    m_bins = fields.count;
    m_entriesButton = new EntriesButton(
        [](const std::vector<core::EntryId>&) {
            return tr("Count only the messages of some entry methods (a send by the entry method "
                      "it calls, a receive by the one it starts)");
        },
        this);
    m_entriesButton->setNamesSingleEntry(true);
    addToolbarWidget(m_entriesButton);
    m_options->offerCommThreads(); // their relays are messages of their own when included

    m_chart->setObjectName(QStringLiteral("msgSizeEvolutionChart"));
    m_chart->setHint(tr("drag along the time axis to zoom · click a cell: its interval in the "
                        "Timeline"));
    m_chart->setCellToolTip([this](HeatMapCell cell) {
        if (!m_result)
            return QString();
        const auto bin = binOfRow(cell.row);
        const auto cellIndex = cell.column * m_result->sizeBins() + bin;
        const double n = m_result->counts.at(cellIndex);
        return tr("%1 of %2\n%3 – %4%5\nClick: this interval in the Timeline")
            .arg(n == 0 ? tr("No message") : messagesText(n), sizeBinLabel(*m_result, bin),
                formatTime(static_cast<double>(intervalRange(cell.column).begin)),
                formatTime(static_cast<double>(intervalRange(cell.column).end)),
                n == 0 ? QString()
                       : tr(" · %1").arg(
                           heatValueText(m_result->bytes.at(cellIndex), BarUnit::Bytes)));
    });
    m_chart->setRowBarToolTip([this](std::size_t row) {
        return tr("%1 of %2 in the range")
            .arg(messagesText(m_chart->data().rowTotals.at(row)),
                sizeBinLabel(*m_result, binOfRow(row)));
    });
    m_chart->setColumnBarToolTip([this](std::size_t column) {
        return tr("%1 in %2")
            .arg(messagesText(m_chart->data().columnTotals.at(column)),
                formatTimeSpan(intervalRange(column)));
    });
    connect(m_entriesButton, &QPushButton::clicked, this, &MsgSizeEvolutionView::chooseEntries);
    connect(m_chart, &HeatMapChart::rangeSelected, this, &MsgSizeEvolutionView::zoomTo);
    connect(m_chart, &HeatMapChart::cellClicked, this, [this](int, int column) {
        if (m_result && column >= 0)
            emit timelineRequested(
                m_options->pes(), intervalRange(static_cast<std::size_t>(column)));
    });
    connect(
        m_chart, &HeatMapChart::contextMenuRequested, this, &MsgSizeEvolutionView::showContextMenu);
    recompute();
}

std::size_t MsgSizeEvolutionView::binOfRow(std::size_t row) const
{
    return m_result ? m_result->sizeBins() - 1 - row : 0; // the largest sizes at the top
}

core::TimeRange MsgSizeEvolutionView::intervalRange(std::size_t column) const
{
    if (!m_result)
        return {};
    const auto i = static_cast<std::int64_t>(column);
    return { m_result->grid.begin(i), m_result->grid.end(i) };
}

void MsgSizeEvolutionView::setEntries(std::vector<core::EntryId> entries)
{
    if (m_entriesButton->choose(std::move(entries), m_trace.get()))
        recompute();
}

void MsgSizeEvolutionView::chooseEntries()
{
    if (!m_trace)
        return;
    // The entry methods with the most messages first (from the last result), then the others.
    std::vector<core::EntryId> order(m_trace->metadata.entryCount());
    std::iota(order.begin(), order.end(), 0);
    if (m_result && m_result->entryCounts.size() == order.size())
        std::stable_sort(order.begin(), order.end(), [this](core::EntryId a, core::EntryId b) {
            return m_result->entryCounts[static_cast<std::size_t>(a)]
                > m_result->entryCounts[static_cast<std::size_t>(b)];
        });
    auto chosen = m_entriesButton->ask(*m_trace, order, palette(), this);
    if (!chosen)
        return;
    if (chosen->empty()) {
        m_chart->clearData(tr("No entry method chosen: choose at least one in “Entries…”"));
        return;
    }
    setEntries(std::move(*chosen));
}

bool MsgSizeEvolutionView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    const auto fail = [error](const QString& message) {
        if (error != nullptr)
            *error = message;
        return false;
    };
    for (const auto& [name, value] : options) {
        if (name == QStringLiteral("event")) {
            if (value != QStringLiteral("send") && value != QStringLiteral("receive"))
                return fail(tr("--event takes send or receive, got '%1'").arg(value));
            m_event->setCurrentIndex(value == QStringLiteral("send") ? 0 : 1);
        } else if (name == QStringLiteral("sizes")) {
            if (value != QStringLiteral("log") && value != QStringLiteral("linear"))
                return fail(tr("--sizes takes log or linear, got '%1'").arg(value));
            if (value == QStringLiteral("log"))
                m_sizeBin->clear();
            else if (m_sizeBin->text().trimmed().isEmpty())
                m_sizeBin->setText(QStringLiteral("100"));
        } else if (name == QStringLiteral("size-bin")) {
            m_sizeBin->setText(value);
        } else if (name == QStringLiteral("interval")) {
            m_interval->setText(value);
        } else if (name == QStringLiteral("bins")) {
            m_bins->setText(value);
        } else if (name == QStringLiteral("entries")) {
            auto list = OptionsBar::parseEntryField(value, m_trace.get(), error);
            if (!list)
                return false;
            if (m_trace && list->size() >= m_trace->metadata.entryCount())
                list->clear(); // every entry method: no filter
            m_entriesButton->assign(std::move(*list), m_trace.get());
        } else {
            return rejectOption(name, error);
        }
    }
    return applyFields(error);
}

void MsgSizeEvolutionView::clearResult()
{
    m_result.reset();
    m_entriesButton->assign({}, m_trace.get()); // entry ids belong to the previous run
}

void MsgSizeEvolutionView::recompute()
{
    m_chart->setTitle(tr("Message Size Evolution"));
    if (showNothingToCompute(tr("message records"))) {
        m_result.reset();
        return;
    }
    auto request = m_options->request();
    request.entries = entries();
    core::analysis::MsgSizeOptions options;
    options.event = m_event->currentIndex() == 0 ? MessageEvent::Send : MessageEvent::Receive;
    if (const auto binSize = countFieldValue(m_sizeBin->text(), 0); binSize > 0) {
        options.logScale = false;
        options.binSize = static_cast<double>(binSize);
    }
    if (!m_interval->text().trimmed().isEmpty())
        options.intervalSize
            = OptionsBar::parseTimeField(m_interval->text().trimmed(), nullptr).value_or(0);
    else
        options.intervals = countFieldValue(m_bins->text(), 0);
    const auto grid = core::analysis::gridForRange(
        request.range, options.intervalSize, options.intervalSize > 0 ? 0 : options.intervals);
    if (grid.count > kMaxIntervals) {
        m_computation->cancel();
        m_result.reset();
        m_chart->clearData(tooManyIntervalsText(grid.size, grid.count));
        return;
    }
    for (const auto id : entries())
        if (static_cast<std::size_t>(id) >= m_trace->metadata.entryCount()) {
            m_computation->cancel();
            m_result.reset();
            m_chart->clearData(tr("This run has no entry method %1 (it has %2): choose others in "
                                  "“Entries…”")
                                   .arg(id)
                                   .arg(m_trace->metadata.entryCount()));
            return;
        }
    const auto trace = m_trace;
    m_computation->run<std::optional<MsgSizeEvolution>>(
        [trace, request, options](const core::analysis::Progress& progress) {
            return core::analysis::computeMsgSizeEvolution(*trace, request, options, progress);
        },
        [this](std::optional<MsgSizeEvolution> result) {
            m_result = std::move(result);
            rebuildChart();
            emit computed();
        });
}

void MsgSizeEvolutionView::rebuildChart()
{
    if (!m_trace || !m_result)
        return;
    const auto& e = *m_result;
    const bool sent = e.event == MessageEvent::Send;
    const QString title
        = sent ? tr("Message Size Evolution: sent") : tr("Message Size Evolution: received");
    const double total = e.total();
    if (total == 0 || e.grid.count <= 0) {
        m_chart->setTitle(title);
        m_chart->setFootnote({});
        m_chart->clearData(entries().empty()
                ? (sent ? tr("No message was sent in this range")
                        : tr("No message was received in this range"))
                : tr("No message of the chosen entry methods in this range"));
        return;
    }
    const auto bins = e.sizeBins();
    const auto columns = static_cast<std::size_t>(e.grid.count);
    HeatMapData heat;
    heat.rows = bins;
    heat.columns = columns;
    heat.values.assign(bins * columns, 0.0);
    heat.rowTotals.assign(bins, 0.0);
    heat.columnTotals.assign(columns, 0.0);
    for (std::size_t row = 0; row < bins; ++row) {
        const auto bin = bins - 1 - row;
        heat.rowAxis.labels.push_back(sizeBinLabel(e, bin));
        for (std::size_t c = 0; c < columns; ++c) {
            const double n = e.counts[c * bins + bin];
            heat.values[row * columns + c] = n;
            heat.rowTotals[row] += n;
            heat.columnTotals[c] += n;
        }
    }
    heat.rowAxis.title = tr("Message size");
    heat.columnAxis.title = tr("Time");
    heat.columnAxis.span = core::TimeRange { e.grid.origin, e.grid.limit() };
    heat.rowTotalsTitle = tr("per size");
    heat.columnTotalsTitle = tr("per interval");
    heat.unit = BarUnit::Count;
    heat.legendTitle = tr("messages");
    heat.scale = heatScaleFor(heat.values, true, true);
    // The busiest size bin, named in the subtitle and outlined.
    const auto busiest = static_cast<std::size_t>(
        std::max_element(heat.rowTotals.begin(), heat.rowTotals.end()) - heat.rowTotals.begin());
    heat.rowAxis.emphasized = { busiest };
    QString subtitle = tr("%1 · %2, most in %3 · %4 intervals of %5")
                           .arg(describeSelection(*m_trace, m_options->range(), m_options->pes()),
                               messagesText(total), heat.rowAxis.labels[busiest],
                               QLocale().toString(static_cast<qlonglong>(columns)),
                               formatTime(static_cast<double>(e.grid.size)));
    if (entries().size() == 1)
        subtitle += tr(" · %1").arg(
            QString::fromStdString(m_trace->metadata.entryName(entries().front())));
    else if (!entries().empty())
        subtitle += tr(" · %1 entry methods").arg(entries().size());
    m_chart->setFootnote(e.apart.empty()
            ? QString()
            : tr("Comm threads (PE %1) left out: what they send and receive relays the workers' "
                 "messages (“Include comm threads” counts them)")
                  .arg(QString::fromStdString(core::formatPeList(e.apart))));
    m_chart->setTitle(title, subtitle);
    m_chart->setData(std::move(heat));
}

void MsgSizeEvolutionView::showContextMenu(QPoint globalPos, int /*row*/, int column)
{
    const auto range = m_options->range();
    QMenu menu(this);
    if (m_result && column >= 0) {
        const auto interval = intervalRange(static_cast<std::size_t>(column));
        menu.addAction(tr("Zoom to %1").arg(formatTimeSpan(interval)), this,
            [this, interval]() { zoomTo(interval); });
        addOpenTimelineAction(menu, *this, m_options->pes(), interval);
        menu.addSeparator();
    }
    addOpenRangeMenu(menu, *this, range, m_options->pes());
    addExportActions(menu, *this);
    menu.exec(globalPos);
}

QString MsgSizeEvolutionView::csv() const
{
    return QString::fromStdString(
        core::analysis::msgSizeEvolutionCsv(m_result ? &*m_result : nullptr));
}

} // namespace parallax::views
