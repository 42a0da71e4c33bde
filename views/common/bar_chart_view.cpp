#include "views/common/bar_chart_view.h"

#include "core/analysis/interval_grid.h"
#include "core/analysis/run_span.h"
#include "views/common/async_computation.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

#include <QHBoxLayout>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QVBoxLayout>

namespace parallax::views {

BarChartView::BarChartView(ViewKind kind, EntryPalette* palette, QWidget* parent)
    : AnalysisView(kind, palette, parent)
{
    m_options = new OptionsBar(this);
    m_chart = new StackedBarChart(palette, this);
    // Focus goes to the chart, not to the first field of the options bar (a caret there would
    // take the keys the analyst meant for the chart).
    m_chart->setFocusPolicy(Qt::StrongFocus);
    setFocusProxy(m_chart);
    m_computation = new AsyncComputation(this);
    const auto top
        = layOutOptionsRow(this, m_options, makeBusyIndicator(m_computation, m_chart, this));
    m_toolbar = top.row;
    top.layout->addWidget(m_chart, 1);
    connect(m_chart, &StackedBarChart::contextMenuRequested, this,
        [this](QPoint globalPos, int category) { showContextMenu(globalPos, category); });
    connect(m_chart, &StackedBarChart::categoryClicked, this, [this](int category) {
        if (const auto bar = pesOfBar(category); !bar.pes.empty())
            emit timelineRequested(bar.pes, bar.range);
    });
    connect(m_options, &OptionsBar::applied, this, [this]() {
        recompute();
        if (rememberShown())
            emit selectionChanged(m_options->range(), m_options->pes());
    });
}

BarChartView::BarPes BarChartView::pesOfBar(int /*category*/) const
{
    return {};
}

BarChartView::BarPes BarChartView::peOfNumberedBar(int category) const
{
    const auto& bars = m_chart->data();
    if (category < 0 || static_cast<std::size_t>(category) >= bars.categories.size())
        return {};
    bool ok = false;
    const int pe = bars.categories[static_cast<std::size_t>(category)].label.toInt(&ok);
    if (!ok)
        return {};
    return { { pe }, m_options->range() };
}

void BarChartView::showContextMenu(QPoint globalPos, int category)
{
    QMenu menu(this);
    const auto bar = pesOfBar(category);
    addOpenTimelineAction(menu, *this, bar.pes, bar.range);
    addExportActions(menu, *this);
    menu.exec(globalPos);
}

void BarChartView::showTimeAxisMenu(QPoint globalPos, std::optional<core::TimeRange> interval)
{
    if (!m_trace)
        return;
    QMenu menu(this);
    if (interval)
        menu.addAction(tr("Zoom to %1").arg(formatTimeSpan(*interval)), this,
            [this, range = *interval]() { zoomTo(range); });
    QAction* back = menu.addAction(tr("Zoom out"), this, [this]() { zoomOut(); });
    back->setEnabled(canZoomOut());
    menu.addAction(tr("Show the whole traced run"), this,
        [this]() { zoomTo(core::analysis::tracedRunSpan(*m_trace)); });
    menu.addSeparator();
    addOpenRangeMenu(menu, *this, m_options->range(), m_options->pes());
    addExportActions(menu, *this);
    menu.exec(globalPos);
}

void BarChartView::addIntervalFields(long long defaultBins)
{
    const auto fields = m_options->addIntervalFields(
        tr("&Bins"), QStringLiteral("bins"), tr("Number of intervals"), defaultBins, kMaxIntervals);
    m_interval = fields.interval;
    m_bins = fields.count;
}

core::TimeUs BarChartView::intervalSize() const
{
    if (m_interval == nullptr || m_interval->text().trimmed().isEmpty())
        return 0;
    return OptionsBar::parseTimeField(m_interval->text().trimmed(), nullptr).value_or(0);
}

std::int64_t BarChartView::intervalBins() const
{
    if (m_bins == nullptr || intervalSize() > 0)
        return 0;
    return countFieldValue(m_bins->text(), 0); // 0: the analysis's own default
}

bool BarChartView::intervalsComputable()
{
    QString message;
    if (!m_trace) {
        message = tr("No run loaded");
    } else {
        const auto grid
            = core::analysis::gridForRange(m_options->range(), intervalSize(), intervalBins());
        if (grid.count <= kMaxIntervals)
            return true;
        message = tooManyIntervalsText(grid.size, grid.count);
    }
    m_computation->cancel();
    clearResult();
    m_chart->clearData(message);
    return false;
}

bool BarChartView::applyIntervalOption(const QString& name, const QString& value)
{
    if (name == QStringLiteral("interval") && m_interval != nullptr) {
        m_interval->setText(value);
        return true;
    }
    if (name == QStringLiteral("bins") && m_bins != nullptr) {
        m_bins->setText(value);
        return true;
    }
    return false;
}

void BarChartView::addToolbarWidget(QWidget* widget)
{
    m_toolbar->insertWidget(m_toolbar->count() - 1, widget); // before the busy indicator
}

bool BarChartView::rememberShown()
{
    return rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
}

void BarChartView::setTrace(core::TracePtr trace)
{
    m_trace = std::move(trace);
    m_options->setTrace(m_trace);
    rememberShown();
    clearResult();
    m_zoomHistory.clear();
    recompute();
}

void BarChartView::setSelection(core::TimeRange range, std::vector<core::PeId> pes)
{
    m_options->setSelection(range, pes);
    rememberShown();
    recompute();
}

bool BarChartView::busy() const
{
    return m_computation->busy();
}

QImage BarChartView::renderChart(QSize size)
{
    return m_chart->renderImage(m_chart->exportSize(size));
}

void BarChartView::zoomTo(core::TimeRange range)
{
    if (range.empty())
        return;
    m_zoomHistory.push_back(m_options->range());
    m_options->setRange(range);
    afterZoom();
}

bool BarChartView::zoomOut()
{
    if (m_zoomHistory.empty())
        return false;
    m_options->setRange(m_zoomHistory.back());
    m_zoomHistory.pop_back();
    afterZoom();
    return true;
}

void BarChartView::afterZoom()
{
    recompute();
    rememberShown();
    emit selectionChanged(m_options->range(), m_options->pes());
}

AnalysisView::State BarChartView::saveState() const
{
    State state;
    saveSelectionState(state, m_options->range(), m_options->pes());
    if (m_options->includeCommThreads())
        state[QStringLiteral("include-comm-threads")] = QStringLiteral("on");
    return state;
}

bool BarChartView::restoreState(const State& state, QString* problems)
{
    State rest = state;
    m_options->setIncludeCommThreads(rest.erase(QStringLiteral("include-comm-threads")) > 0);
    return AnalysisView::restoreState(rest, problems);
}

bool BarChartView::applyFields(QString* error)
{
    return m_options->applyOrExplain(error);
}

QString logsOnlyMessage(const core::Trace& trace, const QString& what)
{
    return trace.logsOnDemand()
        ? BarChartView::tr("This run was opened from its summary files (memory budget), and only "
                           "its logs hold %1")
              .arg(what)
        : BarChartView::tr("This run has no logs, and only logs hold %1").arg(what);
}

} // namespace parallax::views
