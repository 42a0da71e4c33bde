#include "views/common/line_chart_view.h"

#include "core/analysis/interval_grid.h"
#include "views/common/async_computation.h"
#include "views/common/chart_frame.h"
#include "views/common/line_chart.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

#include <QBoxLayout>
#include <QComboBox>
#include <QSplitter>
#include <QStackedWidget>

#include <algorithm>

namespace parallax::views {

LineChartView::LineChartView(ViewKind kind, EntryPalette* palette, QWidget* parent)
    : BarChartView(kind, palette, parent)
{
    m_lines = new LineChart(this);
    m_lines->setFocusPolicy(Qt::StrongFocus);
    m_stack = new QStackedWidget(this);
    delete layout()->replaceWidget(m_chart, m_stack);
    m_stack->addWidget(m_lines);
    m_stack->addWidget(m_chart);
    m_stack->setCurrentWidget(m_lines);
    setFocusProxy(m_lines);
    connect(m_computation, &AsyncComputation::busyChanged, m_lines, &LineChart::setBusy);
    connect(m_lines, &LineChart::rangeSelected, this, &BarChartView::zoomTo);
    connect(m_lines, &LineChart::positionClicked, this, [this](int index, int series) {
        if (const auto at = pesAtPosition(index, series); !at.pes.empty())
            emit timelineRequested(at.pes, at.range);
    });
    connect(m_lines, &LineChart::contextMenuRequested, this,
        [this](QPoint globalPos, int index) { showTimeAxisMenu(globalPos, positionRange(index)); });
}

void LineChartView::addAboveChart(QWidget* widget)
{
    auto* box = qobject_cast<QBoxLayout*>(layout());
    const int at = box != nullptr
        ? box->indexOf(m_stack->parentWidget() == this ? m_stack : m_stack->parentWidget())
        : -1;
    if (box != nullptr && at >= 0)
        box->insertWidget(at, widget);
}

void LineChartView::addBelowChart(QWidget* widget)
{
    auto* splitter = new QSplitter(Qt::Vertical, this);
    delete layout()->replaceWidget(m_stack, splitter);
    splitter->addWidget(m_stack);
    splitter->addWidget(widget);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);
}

bool LineChartView::showingLines() const
{
    return m_stack->currentWidget() == m_lines;
}

void LineChartView::showLines(bool lines)
{
    m_stack->setCurrentWidget(lines ? static_cast<QWidget*>(m_lines) : m_chart);
    setFocusProxy(m_stack->currentWidget());
}

std::optional<core::TimeRange> LineChartView::positionRange(int index) const
{
    const auto& shown = m_lines->data();
    if (shown.axis != LineAxis::Time || index < 0
        || static_cast<std::size_t>(index) >= shown.spans.size())
        return std::nullopt;
    return shown.spans[static_cast<std::size_t>(index)];
}

BarChartView::BarPes LineChartView::pesAtPosition(int index, int series) const
{
    const auto& shown = m_lines->data();
    if (index < 0 || static_cast<std::size_t>(index) >= shown.size())
        return {};
    const auto i = static_cast<std::size_t>(index);
    BarPes at;
    at.range = positionRange(index).value_or(m_options->range());
    if (series >= 0 && static_cast<std::size_t>(series) < shown.series.size()
        && shown.series[static_cast<std::size_t>(series)].pe != core::kNoPe) {
        at.pes = { shown.series[static_cast<std::size_t>(series)].pe };
        return at;
    }
    if (!shown.pes.empty()) {
        at.pes = { shown.pes[i] };
        return at;
    }
    for (const auto& band : shown.bands)
        for (const auto* pes : { &band.lowPe, &band.highPe })
            if (i < pes->size() && (*pes)[i] != core::kNoPe)
                at.pes.push_back((*pes)[i]);
    std::sort(at.pes.begin(), at.pes.end());
    at.pes.erase(std::unique(at.pes.begin(), at.pes.end()), at.pes.end());
    return at;
}

bool LineChartView::applyByOption(QComboBox* by, const QString& value, QString* error)
{
    if (value != QStringLiteral("time") && value != QStringLiteral("pe")) {
        if (error != nullptr)
            *error = tr("--by takes time or pe, got '%1'").arg(value);
        return false;
    }
    by->setCurrentIndex(value == QStringLiteral("pe") ? 1 : 0);
    return true;
}

bool LineChartView::rejectTooManyIntervals(core::TimeRange range)
{
    const auto grid = core::analysis::gridForRange(range, intervalSize(), intervalBins());
    if (grid.count <= kMaxIntervals)
        return false;
    m_computation->cancel();
    m_lines->clearData(tooManyIntervalsText(grid.size, grid.count));
    return true;
}

QImage LineChartView::renderChart(QSize size)
{
    if (!showingLines())
        return BarChartView::renderChart(size);
    return m_lines->renderImage(m_lines->exportSize(size));
}

bool LineChartView::canExportSvg() const
{
    return svgExportAvailable();
}

bool LineChartView::exportSvg(const QString& path, QSize size, QString* error)
{
    QWidget* shown = m_stack->currentWidget();
    if (size.isEmpty())
        size = shown->isVisible() ? shown->size() : QSize(1200, 700);
    const bool lines = showingLines();
    return writeChartSvg(
        path, size, lines ? m_lines->title() : m_chart->title(),
        [this, lines, size](QPainter& painter) {
            if (lines)
                m_lines->paintExport(painter, size);
            else
                m_chart->paintExport(painter, size);
        },
        error);
}

} // namespace parallax::views
