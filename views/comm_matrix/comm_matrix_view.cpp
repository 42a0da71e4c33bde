#include "views/comm_matrix/comm_matrix_view.h"

#include "core/text_args.h"
#include "views/common/async_computation.h"
#include "views/common/heat_map_chart.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLocale>
#include <QMenu>

#include <algorithm>

namespace parallax::views {

namespace {

QString messagesText(double n)
{
    return n == 1.0 ? CommMatrixView::tr("1 message")
                    : CommMatrixView::tr("%1 messages").arg(formatBarValue(n, BarUnit::Count));
}

QString share(double part, double whole)
{
    if (!(whole > 0))
        return QStringLiteral("–");
    return QLocale().toString(part * 100.0 / whole, 'f', 1) + QStringLiteral(" %");
}

} // namespace

CommMatrixView::CommMatrixView(EntryPalette* palette, QWidget* parent)
    : HeatMapView(ViewKind::CommMatrix, palette, parent)
{
    m_metric = m_options->addChoice(tr("&Count"), { tr("Messages"), tr("Bytes") });
    m_metric->setObjectName(QStringLiteral("metric"));
    m_axisMode = m_options->addChoice(tr("&Axes"), { tr("PEs"), tr("PEs by node"), tr("Nodes") });
    m_axisMode->setObjectName(QStringLiteral("axes"));
    m_axisMode->setToolTip(tr("One row and column per PE (in PE order or node after node), or "
                              "per SMP node; above 200 PEs groups that a click expands"));
    m_external = new QCheckBox(tr("Between &nodes only"), this);
    m_external->setObjectName(QStringLiteral("external"));
    m_external->setToolTip(tr("Count only messages between PEs of different SMP nodes"));
    addToolbarWidget(m_external);
    m_options->offerCommThreads(); // included, their relays count as messages of their own
    m_chart->setObjectName(QStringLiteral("commMatrixChart"));
    m_chart->setHint(tr("click a cell: both PEs' timelines · a group: expand it"));
    m_chart->setCellToolTip(
        [this](HeatMapCell cell) { return cellToolTip(cell.row, cell.column); });
    m_chart->setRowBarToolTip([this](std::size_t row) {
        const auto& d = m_chart->data();
        return tr("%1 sent %2 to the PEs shown")
            .arg(m_axis.at(row).label,
                showsBytes() ? heatValueText(d.rowTotals.at(row), BarUnit::Bytes)
                             : messagesText(d.rowTotals.at(row)));
    });
    m_chart->setColumnBarToolTip([this](std::size_t column) {
        const auto& d = m_chart->data();
        return tr("%1 received %2 from the PEs shown")
            .arg(m_axis.at(column).label,
                showsBytes() ? heatValueText(d.columnTotals.at(column), BarUnit::Bytes)
                             : messagesText(d.columnTotals.at(column)));
    });
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this]() { rebuildChart(); });
    connect(m_axisMode, &QComboBox::currentIndexChanged, this, [this]() { rebuildChart(); });
    connect(m_external, &QCheckBox::toggled, this, [this]() { recompute(); });
    connect(m_chart, &HeatMapChart::cellClicked, this, &CommMatrixView::cellClicked);
    connect(m_chart, &HeatMapChart::rowLabelClicked, this,
        [this](int row) { itemClicked(static_cast<std::size_t>(row)); });
    connect(m_chart, &HeatMapChart::columnLabelClicked, this,
        [this](int column) { itemClicked(static_cast<std::size_t>(column)); });
    connect(m_chart, &HeatMapChart::contextMenuRequested, this, &CommMatrixView::showContextMenu);
    recompute();
}

bool CommMatrixView::showsBytes() const
{
    return m_metric->currentIndex() == 1;
}

CommAxisMode CommMatrixView::axisMode() const
{
    return static_cast<CommAxisMode>(std::clamp(m_axisMode->currentIndex(), 0, 2));
}

bool CommMatrixView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    for (const auto& [name, value] : options) {
        if (name == QStringLiteral("metric")) {
            const QStringList names { QStringLiteral("messages"), QStringLiteral("bytes") };
            if (!names.contains(value)) {
                if (error != nullptr)
                    *error = tr("--metric takes messages or bytes, got '%1'").arg(value);
                return false;
            }
            m_metric->setCurrentIndex(static_cast<int>(names.indexOf(value)));
        } else if (name == QStringLiteral("by")) {
            const QStringList names { QStringLiteral("pe"), QStringLiteral("pe-by-node"),
                QStringLiteral("node") };
            if (!names.contains(value)) {
                if (error != nullptr)
                    *error = tr("--by takes pe, pe-by-node or node, got '%1'").arg(value);
                return false;
            }
            m_axisMode->setCurrentIndex(static_cast<int>(names.indexOf(value)));
        } else if (name == QStringLiteral("external")) {
            if (value != QStringLiteral("on") && value != QStringLiteral("off")) {
                if (error != nullptr)
                    *error = tr("--external takes on or off, got '%1'").arg(value);
                return false;
            }
            m_external->setChecked(value == QStringLiteral("on"));
        } else {
            return rejectOption(name, error);
        }
    }
    return applyFields(error);
}

void CommMatrixView::setExpanded(const std::string& group, bool expanded)
{
    if (expanded)
        m_expanded.insert(group);
    else
        m_expanded.erase(group);
    rebuildChart();
}

void CommMatrixView::clearResult()
{
    m_result.reset();
    m_requestKey.clear();
    m_expanded.clear();
}

void CommMatrixView::recompute()
{
    m_chart->setTitle(tr("Communication per Processor"));
    if (showNothingToCompute(tr("message records"))) {
        m_result.reset();
        return;
    }
    const auto request = m_options->request();
    core::analysis::CommMatrixOptions options;
    options.externalOnly = m_external->isChecked();
    const QString key = QStringLiteral("%1:%2:%3:%4:%5")
                            .arg(request.range.begin)
                            .arg(request.range.end)
                            .arg(QString::fromStdString(core::formatPeList(request.pes)))
                            .arg(request.includeCommThreads)
                            .arg(options.externalOnly);
    if (key == m_requestKey && (m_result || m_computation->busy())) {
        rebuildChart();
        return;
    }
    m_requestKey = key;
    const auto trace = m_trace;
    m_computation->run<std::optional<core::analysis::CommMatrix>>(
        [trace, request, options](const core::analysis::Progress& progress) {
            return core::analysis::computeCommMatrix(*trace, request, options, progress);
        },
        [this](std::optional<core::analysis::CommMatrix> result) {
            m_result = std::move(result);
            rebuildChart();
            emit computed();
        });
}

void CommMatrixView::rebuildChart()
{
    if (!m_trace || !m_result)
        return;
    const auto& r = *m_result;
    const bool bytes = showsBytes();
    const QString what = bytes ? tr("Bytes") : tr("Messages");
    m_chart->setTitle(tr("Communication per Processor"), {});
    if (r.pairs.empty()) {
        m_axis.clear();
        m_cells = {};
        m_chart->clearData(r.externalOnly
                ? tr("No message between nodes was delivered to these PEs in this range")
                : tr("No message was delivered to these PEs in this range"));
        return;
    }
    m_axis = buildCommAxis(r, m_trace->metadata, axisMode(), m_expanded);
    std::vector<std::vector<core::PeId>> items;
    items.reserve(m_axis.size());
    for (const auto& item : m_axis)
        items.push_back(item.pes);
    m_cells = core::analysis::aggregateCommMatrix(r, items);

    HeatMapData heat;
    const auto n = m_axis.size();
    heat.rows = n;
    heat.columns = n;
    heat.values = bytes ? m_cells.bytes : m_cells.messages;
    for (const auto& item : m_axis) {
        heat.rowAxis.labels.push_back(item.label);
        heat.columnAxis.labels.push_back(item.label);
    }
    heat.rowAxis.title = tr("Sender");
    heat.columnAxis.title = tr("Receiver");
    heat.rowTotals.assign(n, 0.0);
    heat.columnTotals.assign(n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            heat.rowTotals[i] += heat.values[i * n + j];
            heat.columnTotals[j] += heat.values[i * n + j];
        }
    const auto heaviest = [](const std::vector<double>& v) {
        return static_cast<std::size_t>(std::max_element(v.begin(), v.end()) - v.begin());
    };
    const auto sender = heaviest(heat.rowTotals);
    const auto receiver = heaviest(heat.columnTotals);
    heat.rowAxis.emphasized = { sender };
    heat.columnAxis.emphasized = { receiver };
    heat.rowTotalsTitle = tr("sent");
    heat.columnTotalsTitle = tr("received");
    heat.unit = bytes ? BarUnit::Bytes : BarUnit::Count;
    heat.legendTitle = bytes ? tr("bytes") : tr("messages");
    heat.scale = heatScaleFor(heat.values, true, true);

    double total = 0;
    for (const double v : heat.values)
        total += v;
    const auto amount = [bytes](double v) {
        return bytes ? formatBarValue(v, BarUnit::Bytes) : messagesText(v);
    };
    const QString subtitle = tr("%1 · %2%3 · heaviest sender %4 (%5), receiver %6 (%7)")
                                 .arg(describeSelection(*m_trace, r.range, r.pes), amount(total),
                                     r.externalOnly ? tr(" between nodes") : QString(),
                                     m_axis[sender].label, amount(heat.rowTotals[sender]),
                                     m_axis[receiver].label, amount(heat.columnTotals[receiver]));
    QStringList notes;
    if (!r.apart.empty())
        notes << tr("Comm threads (PE %1) are not ends: a message they relayed counts once, from "
                    "the worker that sent it")
                     .arg(QString::fromStdString(core::formatPeList(r.apart)));
    if (r.fromOtherPes > 0)
        notes << tr("%1 from PEs not selected left out")
                     .arg(messagesText(static_cast<double>(r.fromOtherPes)));
    if (r.unresolvedRelays + r.invalidSenders > 0)
        notes << tr("%1 with an unknown sender left out")
                     .arg(messagesText(static_cast<double>(r.unresolvedRelays + r.invalidSenders)));
    m_chart->setFootnote(notes.join(QStringLiteral(" · ")));
    m_chart->setTitle(tr("Communication per Processor: %1").arg(what), subtitle);
    m_chart->setData(std::move(heat));
}

QString CommMatrixView::cellToolTip(std::size_t row, std::size_t column) const
{
    if (row >= m_axis.size() || column >= m_axis.size())
        return {};
    const auto n = m_cells.size;
    const auto cell = row * n + column;
    const double messages = m_cells.messages[cell];
    const double bytes = m_cells.bytes[cell];
    const auto& d = m_chart->data();
    const double value = showsBytes() ? bytes : messages;
    QStringList lines;
    lines << QStringLiteral("%1 → %2").arg(m_axis[row].label, m_axis[column].label);
    if (messages == 0) {
        lines << tr("no messages");
    } else {
        lines << tr("%1 · %2 (mean %3)")
                     .arg(messagesText(messages), heatValueText(bytes, BarUnit::Bytes),
                         formatBarValue(bytes / messages, BarUnit::Bytes));
        lines << tr("%1 of what %2 sent, %3 of what %4 received")
                     .arg(share(value, d.rowTotals.at(row)), m_axis[row].label,
                         share(value, d.columnTotals.at(column)), m_axis[column].label);
    }
    if (!m_axis[row].group.empty() || !m_axis[column].group.empty())
        lines << tr("Click to expand the group");
    else
        lines << tr("Click to open both PEs in the Timeline");
    return lines.join(QLatin1Char('\n'));
}

void CommMatrixView::itemClicked(std::size_t item)
{
    if (item >= m_axis.size() || !m_result)
        return;
    if (!m_axis[item].group.empty()) {
        setExpanded(m_axis[item].group, true);
        return;
    }
    emit timelineRequested(m_axis[item].pes, m_result->range);
}

void CommMatrixView::cellClicked(int row, int column)
{
    if (!m_result || row < 0 || column < 0 || static_cast<std::size_t>(row) >= m_axis.size()
        || static_cast<std::size_t>(column) >= m_axis.size())
        return;
    const auto& sender = m_axis[static_cast<std::size_t>(row)];
    const auto& receiver = m_axis[static_cast<std::size_t>(column)];
    if (!sender.group.empty() || !receiver.group.empty()) {
        if (!sender.group.empty())
            m_expanded.insert(sender.group);
        if (!receiver.group.empty())
            m_expanded.insert(receiver.group);
        rebuildChart();
        return;
    }
    std::vector<core::PeId> pes = sender.pes;
    pes.insert(pes.end(), receiver.pes.begin(), receiver.pes.end());
    std::sort(pes.begin(), pes.end());
    pes.erase(std::unique(pes.begin(), pes.end()), pes.end());
    emit timelineRequested(pes, m_result->range);
}

void CommMatrixView::showContextMenu(QPoint globalPos, int row, int column)
{
    std::vector<core::PeId> pes;
    std::vector<std::string> parents;
    if (row >= 0 && column >= 0 && static_cast<std::size_t>(row) < m_axis.size()
        && static_cast<std::size_t>(column) < m_axis.size()) {
        for (const auto* item :
            { &m_axis[static_cast<std::size_t>(row)], &m_axis[static_cast<std::size_t>(column)] }) {
            if (item->group.empty())
                pes.insert(pes.end(), item->pes.begin(), item->pes.end());
            if (!item->parent.empty())
                parents.push_back(item->parent);
        }
        std::sort(pes.begin(), pes.end());
        pes.erase(std::unique(pes.begin(), pes.end()), pes.end());
    }
    const auto range = m_result ? m_result->range : m_options->range();
    showMenu(globalPos, pes, range, [this, parents](QMenu& menu) {
        for (const auto& parent : parents)
            menu.addAction(tr("Collapse %1").arg(QString::fromStdString(parent)), this,
                [this, parent]() { setExpanded(parent, false); });
        if (!m_expanded.empty())
            menu.addAction(tr("Collapse all groups"), this, [this]() {
                m_expanded.clear();
                rebuildChart();
            });
    });
}

QString CommMatrixView::csv() const
{
    if (m_result && m_trace && axisMode() == CommAxisMode::Nodes)
        return QString::fromStdString(
            core::analysis::commNodeMatrixCsv(&*m_result, m_trace->metadata));
    return QString::fromStdString(core::analysis::commMatrixCsv(m_result ? &*m_result : nullptr));
}

} // namespace parallax::views
