#include "views/common/heat_map_view.h"

#include "views/common/async_computation.h"
#include "views/common/chart_style.h"
#include "views/common/heat_map_chart.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

#include <QHBoxLayout>
#include <QMenu>
#include <QProgressBar>
#include <QVBoxLayout>

namespace parallax::views {

HeatMapView::HeatMapView(ViewKind kind, EntryPalette* palette, QWidget* parent)
    : AnalysisView(kind, palette, parent)
{
    m_options = new OptionsBar(this);
    m_chart = new HeatMapChart(this);
    m_chart->setFocusPolicy(Qt::StrongFocus);
    setFocusProxy(m_chart);
    m_computation = new AsyncComputation(this);
    const auto top
        = layOutOptionsRow(this, m_options, makeBusyIndicator(m_computation, nullptr, this));
    m_toolbar = top.row;
    top.layout->addWidget(m_chart, 1);
    connect(m_computation, &AsyncComputation::busyChanged, m_chart, &HeatMapChart::setBusy);
    connect(m_options, &OptionsBar::applied, this, [this]() {
        recompute();
        if (rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes()))
            emit selectionChanged(m_options->range(), m_options->pes());
    });
}

void HeatMapView::setTrace(core::TracePtr trace)
{
    m_trace = std::move(trace);
    m_options->setTrace(m_trace);
    rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
    clearResult();
    recompute();
}

void HeatMapView::setSelection(core::TimeRange range, std::vector<core::PeId> pes)
{
    m_options->setSelection(range, pes);
    rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
    recompute();
}

bool HeatMapView::busy() const
{
    return m_computation->busy();
}

QImage HeatMapView::renderChart(QSize size)
{
    return m_chart->renderImage(m_chart->exportSize(size));
}

bool HeatMapView::canExportSvg() const
{
    return svgExportAvailable();
}

bool HeatMapView::exportSvg(const QString& path, QSize size, QString* error)
{
    return m_chart->exportSvg(path, m_chart->exportSize(size), error);
}

void HeatMapView::addControlRow(QWidget* row)
{
    auto* layout = qobject_cast<QVBoxLayout*>(this->layout());
    layout->insertWidget(layout->indexOf(m_chart), row);
}

void HeatMapView::addToolbarWidget(QWidget* widget)
{
    m_toolbar->insertWidget(m_toolbar->count() - 1, widget); // before the busy indicator
}

bool HeatMapView::applyFields(QString* error)
{
    return m_options->applyOrExplain(error);
}

bool HeatMapView::showNothingToCompute(const QString& records)
{
    const QString why = !m_trace ? tr("No run loaded")
        : records.isEmpty()      ? QString()
                                 : missingLogsText(records);
    if (why.isEmpty())
        return false;
    m_computation->cancel();
    m_chart->clearData(why);
    return true;
}

void HeatMapView::showMenu(QPoint globalPos, const std::vector<core::PeId>& pes,
    core::TimeRange range, const std::function<void(QMenu&)>& extra)
{
    QMenu menu(this);
    if (extra)
        extra(menu);
    addOpenTimelineAction(menu, *this, pes, range);
    addOpenRangeMenu(menu, *this, m_options->range(), m_options->pes());
    addExportActions(menu, *this);
    menu.exec(globalPos);
}

void HeatMapView::zoomTo(core::TimeRange range)
{
    if (range.empty())
        return;
    m_options->setRange(range);
    recompute();
    if (rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes()))
        emit selectionChanged(m_options->range(), m_options->pes());
}

QString HeatMapView::missingLogsText(const QString& records) const
{
    if (!m_trace || m_trace->hasLogs())
        return {};
    if (m_trace->logsOnDemand())
        return tr("This run was opened from its summary files (its logs need more memory than "
                  "the memory budget), so it has no %1")
            .arg(records);
    return tr("This run has summary files only, no logs, so it has no %1").arg(records);
}

} // namespace parallax::views
