#include "views/iterations/iterations_view.h"

#include "core/trace.h"
#include "views/common/async_computation.h"
#include "views/common/heat_map_chart.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

#include <QComboBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPushButton>

#include <algorithm>

namespace parallax::views {

namespace {

using core::analysis::IterationResult;

// What the strip says about how the iterations were found.
QString iterationSourceText(const IterationResult& r, const core::Trace& trace)
{
    if (r.source == "user-event") {
        const auto it = trace.metadata.userEvents.find(r.markerId);
        return IterationsView::tr("from the user event “%1”")
            .arg(it == trace.metadata.userEvents.end() ? QString::number(r.markerId)
                                                       : QString::fromStdString(it->second));
    }
    if (r.source == "note")
        return IterationsView::tr("from the notes naming steps");
    if (r.source == "entry")
        return IterationsView::tr("from the entry method %1")
            .arg(QString::fromStdString(trace.metadata.entryName(r.markerId)));
    return {};
}

} // namespace

IterationsView::IterationsView(EntryPalette* palette, QWidget* parent)
    : HeatMapView(ViewKind::Iterations, palette, parent)
{
    m_color = m_options->addChoice(tr("&Colour"), { tr("Busy time"), tr("Above the median") });
    m_color->setObjectName(QStringLiteral("color"));
    m_color->setToolTip(tr("Busy time: each PE's entry-method time in the iteration · Above the "
                           "median: how much longer than the iteration's median PE it was busy"));
    connect(m_color, &QComboBox::currentIndexChanged, this, [this]() { rebuildChart(); });

    // The selected iterations, and the button that makes them every view's time range.
    auto* selection = new QWidget(this);
    auto* selectionRow = new QHBoxLayout(selection);
    selectionRow->setContentsMargins(6, 0, 0, 0);
    auto* label = new QLabel(tr("&Iterations"), selection);
    m_selection = new QLineEdit(selection);
    m_selection->setObjectName(QStringLiteral("iterationSelection"));
    m_selection->setPlaceholderText(tr("e.g. 5-9"));
    m_selection->setMaximumWidth(
        m_selection->fontMetrics().horizontalAdvance(QLatin1Char('0')) * 10);
    m_selection->setToolTip(tr("One iteration or a range of them (5-9); a click on an iteration "
                               "selects it, a shift-click extends the selection"));
    label->setBuddy(m_selection);
    m_useRange = new QPushButton(tr("Use as time range"), selection);
    m_useRange->setObjectName(QStringLiteral("useAsTimeRange"));
    m_useRange->setToolTip(tr("Every view opened from now on shows the selected iterations' time, "
                              "and the open views with a time axis move to it"));
    m_useRange->setEnabled(false);
    m_selectionError = new QLabel(selection);
    m_selectionError->setObjectName(QStringLiteral("iterationSelectionError"));
    m_selectionError->setStyleSheet(QStringLiteral("color: #b00020"));
    selectionRow->addWidget(label);
    selectionRow->addWidget(m_selection);
    selectionRow->addWidget(m_useRange);
    selectionRow->addWidget(m_selectionError);
    addToolbarWidget(selection);
    connect(m_selection, &QLineEdit::textEdited, this, [this](const QString& text) {
        const auto count = m_result ? m_result->iterations.size() : 0;
        QString error;
        const auto parsed = parseIterationRange(text, count, &error);
        m_selected = parsed;
        m_useRange->setEnabled(parsed.has_value());
        const bool refused = !parsed && !text.trimmed().isEmpty();
        m_selection->setStyleSheet(refused ? QStringLiteral("color: #b00020") : QString());
        m_selectionError->setText(refused ? error : QString());
        showSelection();
    });
    connect(m_selection, &QLineEdit::returnPressed, this, [this]() { useSelectionAsTimeRange(); });
    connect(m_useRange, &QPushButton::clicked, this, [this]() { useSelectionAsTimeRange(); });

    m_chart->setObjectName(QStringLiteral("iterationsChart"));
    m_chart->setHint(tr("click a cell: that PE in the Timeline · an iteration's label: the "
                        "iteration · shift-click: select iterations · right click: open it in "
                        "any view"));
    m_chart->setCellToolTip([this](HeatMapCell cell) {
        if (!m_result)
            return QString();
        const auto& it = m_result->iterations.at(cell.column);
        if (!m_groups.empty()) {
            const auto& group = m_groups.at(cell.row);
            const auto& busy = m_groupBusy.at(cell.column * m_groups.size() + cell.row);
            return tr("%1 (%2 PEs) in iteration %3 (%4)\nits busiest member PE %5 was busy %6, "
                      "its mean %7; the median PE of the run %8\nClick: PE %5 in the Timeline")
                .arg(QString::fromStdString(group.name))
                .arg(group.pes.size())
                .arg(cell.column)
                .arg(formatTimeSpan(it.range))
                .arg(busy.slowestPe)
                .arg(formatTime(static_cast<double>(busy.maxBusyUs)), formatTime(busy.meanBusyUs),
                    formatTime(it.medianBusyUs));
        }
        const auto pe = m_result->pes.at(cell.row);
        const auto busy = m_result->busyOf(cell.column, cell.row);
        return tr("PE %1 in iteration %2 (%3)\nbusy %4, the median PE %5, the busiest PE %6 "
                  "(%7)\nClick: PE %1 in the Timeline")
            .arg(pe)
            .arg(cell.column)
            .arg(formatTimeSpan(it.range), formatTime(static_cast<double>(busy)),
                formatTime(it.medianBusyUs))
            .arg(it.slowestPe)
            .arg(formatTime(static_cast<double>(it.slowestBusyUs)));
    });
    m_chart->setColumnBarToolTip([this](std::size_t column) {
        if (!m_result)
            return QString();
        const auto& it = m_result->iterations.at(column);
        return tr("Iteration %1: %2 long (%3)\nits busiest PE %4 was busy %5, the median PE %6")
            .arg(column)
            .arg(formatTime(static_cast<double>(it.range.end - it.range.begin)),
                formatTimeSpan(it.range))
            .arg(it.slowestPe)
            .arg(formatTime(static_cast<double>(it.slowestBusyUs)), formatTime(it.medianBusyUs));
    });
    m_chart->setRowBarToolTip([this](std::size_t row) {
        if (!m_groups.empty())
            return tr("%1: its busiest member in each iteration, summed: %2")
                .arg(QString::fromStdString(m_groups.at(row).name),
                    formatTime(m_chart->data().rowTotals.at(row)));
        return tr("PE %1: busy %2 over these iterations")
            .arg(m_result->pes.at(row))
            .arg(formatTime(m_chart->data().rowTotals.at(row)));
    });
    connect(m_chart, &HeatMapChart::cellClicked, this, [this](int row, int column) {
        if (!m_result || row < 0 || column < 0 || clickIteration(static_cast<std::size_t>(column)))
            return;
        emit timelineRequested(
            { rowPe(static_cast<std::size_t>(row), static_cast<std::size_t>(column)) },
            iterationRange(static_cast<std::size_t>(column)));
    });
    connect(m_chart, &HeatMapChart::columnLabelClicked, this, [this](int column) {
        if (!m_result || column < 0 || clickIteration(static_cast<std::size_t>(column)))
            return;
        emit timelineRequested(m_options->pes(), iterationRange(static_cast<std::size_t>(column)));
    });
    connect(m_chart, &HeatMapChart::rowLabelClicked, this, [this](int row) {
        if (m_result && row >= 0)
            emit timelineRequested(rowPes(static_cast<std::size_t>(row)), m_options->range());
    });
    connect(m_chart, &HeatMapChart::contextMenuRequested, this, &IterationsView::showContextMenu);
    recompute();
}

core::TimeRange IterationsView::iterationRange(std::size_t iteration) const
{
    if (!m_result || iteration >= m_result->iterations.size())
        return {};
    return m_result->iterations[iteration].range;
}

std::optional<std::pair<std::size_t, std::size_t>> IterationsView::parseIterationRange(
    const QString& text, std::size_t count, QString* error)
{
    return OptionsBar::parseIterationField(text, count, error);
}

void IterationsView::selectIterations(std::size_t first, std::size_t last)
{
    const auto count = m_result ? m_result->iterations.size() : 0;
    if (first > last)
        std::swap(first, last);
    if (last >= count)
        m_selected.reset();
    else
        m_selected = std::make_pair(first, last);
    m_selection->setText(!m_selected ? QString()
            : first == last          ? QString::number(first)
                                     : QStringLiteral("%1-%2").arg(first).arg(last));
    m_selection->setStyleSheet({});
    m_selectionError->clear();
    m_useRange->setEnabled(m_selected.has_value());
    showSelection();
}

core::TimeRange IterationsView::selectedRange() const
{
    if (!m_selected || !m_result)
        return {};
    return { iterationRange(m_selected->first).begin, iterationRange(m_selected->second).end };
}

bool IterationsView::useSelectionAsTimeRange()
{
    const auto range = selectedRange();
    if (range.empty())
        return false;
    emit timeRangeChosen(range);
    return true;
}

bool IterationsView::clickIteration(std::size_t column)
{
    if ((QGuiApplication::keyboardModifiers() & Qt::ShiftModifier) && m_anchor) {
        selectIterations(*m_anchor, column);
        return true;
    }
    m_anchor = column;
    selectIterations(column, column);
    return false;
}

void IterationsView::showSelection()
{
    if (!m_selected || !m_result) {
        m_chart->setFootnote({});
        return;
    }
    const auto range = selectedRange();
    const auto [first, last] = *m_selected;
    m_chart->setFootnote(first == last
            ? tr("Selected: iteration %1 (%2)").arg(first).arg(formatTimeSpan(range))
            : tr("Selected: iterations %1–%2 (%3, %4)")
                  .arg(first)
                  .arg(last)
                  .arg(formatTimeSpan(range),
                      formatTime(static_cast<double>(range.end - range.begin))));
}

core::PeId IterationsView::rowPe(std::size_t row, std::size_t column) const
{
    if (m_groups.empty())
        return m_result->pes.at(row);
    return m_groupBusy.at(column * m_groups.size() + row).slowestPe;
}

std::vector<core::PeId> IterationsView::rowPes(std::size_t row) const
{
    if (m_groups.empty())
        return { m_result->pes.at(row) };
    return m_groups.at(row).pes;
}

bool IterationsView::showsLateness() const
{
    return m_color->currentIndex() == 1;
}

bool IterationsView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    for (const auto& [name, value] : options) {
        if (name == QStringLiteral("color")) {
            if (value != QStringLiteral("busy") && value != QStringLiteral("lateness")) {
                if (error != nullptr)
                    *error = tr("--color takes busy or lateness, got '%1'").arg(value);
                return false;
            }
            m_color->setCurrentIndex(value == QStringLiteral("busy") ? 0 : 1);
        } else {
            return rejectOption(name, error);
        }
    }
    return applyFields(error);
}

void IterationsView::clearResult()
{
    m_result.reset();
    m_selected.reset();
    m_anchor.reset();
    m_groups.clear();
    m_groupBusy.clear();
    m_selection->clear();
    m_selectionError->clear();
    m_useRange->setEnabled(false);
}

void IterationsView::recompute()
{
    m_chart->setTitle(tr("Iterations"));
    if (showNothingToCompute(tr("executions"))) {
        m_result.reset();
        return;
    }
    const auto trace = m_trace;
    const auto request = m_options->request();
    m_computation->run<IterationResult>(
        [trace, request](const core::analysis::Progress&) {
            return core::analysis::findIterations(*trace, request);
        },
        [this](IterationResult result) {
            m_result = std::move(result);
            // More PEs than rows: one row per group, as the Overview groups them.
            m_groups = core::analysis::axisGroups(m_trace->metadata, m_result->pes);
            m_groupBusy = core::analysis::groupIterationBusy(*m_result, m_groups);
            if (m_selected && m_selected->second >= m_result->iterations.size())
                m_selected.reset();
            rebuildChart();
            showSelection();
            emit computed();
        });
}

void IterationsView::rebuildChart()
{
    if (!m_trace || !m_result)
        return;
    const auto& r = *m_result;
    if (r.iterations.empty() || r.pes.empty()) {
        m_chart->setFootnote({});
        m_chart->clearData(tr("Nothing in this range marks iterations: no user event named for "
                              "steps and no entry method run equally often on every PE "
                              "(parallax-cli iterations --every or --at sets them by hand)"));
        return;
    }
    const auto columns = r.iterations.size();
    const bool grouped = !m_groups.empty();
    const auto rows = grouped ? m_groups.size() : r.pes.size();
    const bool lateness = showsLateness();
    HeatMapData heat;
    heat.rows = rows;
    heat.columns = columns;
    heat.values.assign(rows * columns, 0.0);
    heat.rowTotals.assign(rows, 0.0);
    heat.columnTotals.assign(columns, 0.0);
    for (std::size_t c = 0; c < columns; ++c) {
        const auto& it = r.iterations[c];
        heat.columnTotals[c] = static_cast<double>(it.range.end - it.range.begin);
        heat.columnAxis.labels.push_back(QString::number(c));
        for (std::size_t row = 0; row < rows; ++row) {
            // A group: its busiest member, the one that holds the step back.
            const auto busy = static_cast<double>(
                grouped ? m_groupBusy[c * rows + row].maxBusyUs : r.busyOf(c, row));
            heat.values[row * columns + c]
                = lateness ? std::max(0.0, busy - it.medianBusyUs) : busy;
            heat.rowTotals[row] += busy;
        }
    }
    if (grouped) {
        for (const auto& group : m_groups)
            heat.rowAxis.labels.push_back(QString::fromStdString(group.name));
    } else {
        for (const auto pe : r.pes)
            heat.rowAxis.labels.push_back(tr("PE %1").arg(pe));
    }
    heat.rowAxis.title = grouped ? tr("PE group (its busiest member)") : tr("PE");
    heat.columnAxis.title = tr("Iteration");
    heat.rowTotalsTitle = grouped ? tr("max busy") : tr("busy");
    heat.columnTotalsTitle = tr("duration");
    heat.unit = BarUnit::Time;
    heat.legendTitle = lateness ? tr("above the median") : tr("busy");
    heat.scale = heatScaleFor(heat.values, lateness, false);
    const auto longest = static_cast<std::size_t>(
        std::max_element(heat.columnTotals.begin(), heat.columnTotals.end())
        - heat.columnTotals.begin());
    const auto busiest = static_cast<std::size_t>(
        std::max_element(heat.rowTotals.begin(), heat.rowTotals.end()) - heat.rowTotals.begin());
    heat.columnAxis.emphasized = { longest };
    heat.rowAxis.emphasized = { busiest };
    m_chart->setTitle(lateness ? tr("Iterations: time busy above the median PE")
                               : tr("Iterations: busy time per PE"),
        tr("%1 · %2 iterations %3 · the longest, %4, takes %5 · %6 the busiest")
            .arg(describeSelection(*m_trace, m_options->range(), m_options->pes()),
                QLocale().toString(static_cast<qlonglong>(columns)),
                iterationSourceText(r, *m_trace))
            .arg(longest)
            .arg(formatTime(heat.columnTotals[longest]),
                grouped ? QString::fromStdString(m_groups[busiest].name)
                        : tr("PE %1").arg(r.pes[busiest])));
    m_chart->setData(std::move(heat));
    showSelection();
}

void IterationsView::showContextMenu(QPoint globalPos, int row, int column)
{
    if (!m_result || column < 0) {
        showMenu(globalPos, m_options->pes(), m_options->range());
        return;
    }
    const auto iteration = static_cast<std::size_t>(column);
    const auto range = iterationRange(iteration);
    std::vector<core::PeId> pes;
    if (row >= 0)
        pes = rowPes(static_cast<std::size_t>(row));
    // The iteration's range for every other view ("Open <range> in ▸"), or as the time range of
    // them all; a selection of several iterations likewise.
    showMenu(globalPos, pes, range, [this, iteration](QMenu& menu) {
        menu.addAction(
            tr("Use iteration %1 as the time range").arg(iteration), this, [this, iteration]() {
                selectIterations(iteration, iteration);
                useSelectionAsTimeRange();
            });
        if (m_selected && m_selected->first != m_selected->second)
            menu.addAction(tr("Use iterations %1–%2 as the time range")
                               .arg(m_selected->first)
                               .arg(m_selected->second),
                this, [this]() { useSelectionAsTimeRange(); });
        menu.addSeparator();
    });
}

QString IterationsView::csv() const
{
    return m_result ? QString::fromStdString(core::analysis::iterationsCsv(*m_result)) : QString();
}

} // namespace parallax::views
