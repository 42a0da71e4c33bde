#include "views/iterations/iterations_view.h"

#include "core/trace.h"
#include "views/common/async_computation.h"
#include "views/common/heat_map_chart.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

#include <QComboBox>
#include <QLocale>
#include <QMenu>

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

    m_chart->setObjectName(QStringLiteral("iterationsChart"));
    m_chart->setHint(tr("click a cell: that PE in the Timeline · an iteration's label: the "
                        "iteration · right click: open it in any view"));
    m_chart->setCellToolTip([this](HeatMapCell cell) {
        if (!m_result)
            return QString();
        const auto& it = m_result->iterations.at(cell.column);
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
        return tr("PE %1: busy %2 over these iterations")
            .arg(m_result->pes.at(row))
            .arg(formatTime(m_chart->data().rowTotals.at(row)));
    });
    connect(m_chart, &HeatMapChart::cellClicked, this, [this](int row, int column) {
        if (m_result && row >= 0 && column >= 0)
            emit timelineRequested({ m_result->pes.at(static_cast<std::size_t>(row)) },
                iterationRange(static_cast<std::size_t>(column)));
    });
    connect(m_chart, &HeatMapChart::columnLabelClicked, this, [this](int column) {
        if (m_result && column >= 0)
            emit timelineRequested(
                m_options->pes(), iterationRange(static_cast<std::size_t>(column)));
    });
    connect(m_chart, &HeatMapChart::rowLabelClicked, this, [this](int row) {
        if (m_result && row >= 0)
            emit timelineRequested(
                { m_result->pes.at(static_cast<std::size_t>(row)) }, m_options->range());
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
            rebuildChart();
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
    const auto rows = r.pes.size();
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
            const auto busy = static_cast<double>(r.busyOf(c, row));
            heat.values[row * columns + c]
                = lateness ? std::max(0.0, busy - it.medianBusyUs) : busy;
            heat.rowTotals[row] += busy;
        }
    }
    for (const auto pe : r.pes)
        heat.rowAxis.labels.push_back(tr("PE %1").arg(pe));
    heat.rowAxis.title = tr("PE");
    heat.columnAxis.title = tr("Iteration");
    heat.rowTotalsTitle = tr("busy");
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
        tr("%1 · %2 iterations %3 · the longest, %4, takes %5 · PE %6 the busiest")
            .arg(describeSelection(*m_trace, m_options->range(), m_options->pes()),
                QLocale().toString(static_cast<qlonglong>(columns)),
                iterationSourceText(r, *m_trace))
            .arg(longest)
            .arg(formatTime(heat.columnTotals[longest]))
            .arg(r.pes[busiest]));
    m_chart->setFootnote({});
    m_chart->setData(std::move(heat));
}

void IterationsView::showContextMenu(QPoint globalPos, int row, int column)
{
    if (!m_result || column < 0) {
        showMenu(globalPos, m_options->pes(), m_options->range());
        return;
    }
    const auto range = iterationRange(static_cast<std::size_t>(column));
    std::vector<core::PeId> pes;
    if (row >= 0)
        pes.push_back(m_result->pes.at(static_cast<std::size_t>(row)));
    // The iteration's range for every other view ("Open <range> in ▸").
    showMenu(globalPos, pes, range);
}

QString IterationsView::csv() const
{
    return m_result ? QString::fromStdString(core::analysis::iterationsCsv(*m_result)) : QString();
}

} // namespace parallax::views
