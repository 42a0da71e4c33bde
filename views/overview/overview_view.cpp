#include "views/overview/overview_view.h"

#include "core/analysis/csv_export.h"
#include "core/analysis/run_span.h"
#include "core/text_args.h"
#include "views/common/entry_palette.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

// After the other project headers (see time_profile_view.cpp: a GCC 12 false positive).
#include "views/common/async_computation.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QProgressBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace parallax::views {

OverviewView::OverviewView(EntryPalette* palette, QWidget* parent)
    : AnalysisView(ViewKind::Overview, palette, parent)
{
    m_options = new OptionsBar(this);
    m_options->offerCommThreads();
    m_columns = m_options->addField(
        tr("&Columns"), QStringLiteral("1000"),
        [](const QString& text) { return countFieldError(text, 1, kMaxColumns, tr("Columns")); },
        6);
    m_columns->setObjectName(QStringLiteral("columns"));
    m_columns->setToolTip(tr("Number of time columns over the range"));
    m_coloring
        = m_options->addChoice(tr("Colour &by"), { tr("Dominant activity"), tr("Utilization") });
    m_coloring->setObjectName(QStringLiteral("coloring"));
    m_chart = new OverviewChart(palette, this);
    setFocusProxy(m_chart); // keys go to the chart, not to the options bar
    m_computation = new AsyncComputation(this);
    auto* top = new QHBoxLayout();
    top->setContentsMargins(0, 0, 6, 0);
    top->addWidget(m_options, 1);
    top->addWidget(makeBusyIndicator(m_computation, nullptr, this));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    layout->addWidget(m_chart, 1);

    connect(m_options, &OptionsBar::applied, this, [this]() {
        // Choosing a colouring also applies the bar: recompute and report only real changes.
        const bool changed
            = rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
        m_chart->setCommThreadsMuted(!m_options->includeCommThreads());
        if (!changed && m_overview
            && m_overview->grid.count == countFieldValue(m_columns->text(), 1000))
            return;
        m_chart->setSelectedRange(std::nullopt);
        recompute();
        if (changed)
            emit selectionChanged(m_options->range(), m_options->pes());
    });
    connect(m_coloring, &QComboBox::currentIndexChanged, this, [this](int index) {
        setColoring(
            index == 1 ? OverviewColoring::Utilization : OverviewColoring::DominantActivity);
    });
    connect(m_computation, &AsyncComputation::busyChanged, m_chart, &OverviewChart::setBusy);
    connect(m_chart, &OverviewChart::rowClicked, this,
        [this](core::PeId pe) { emit timelineRequested({ pe }, currentRange()); });
    connect(m_chart, &OverviewChart::rangeSelected, this, [this](core::TimeRange range, QPoint at) {
        emit selectionChanged(range, m_options->pes());
        showRangeMenu(range, at);
    });
    connect(m_chart, &OverviewChart::contextMenuRequested, this, &OverviewView::showContextMenu);
}

void OverviewView::setTrace(core::TracePtr trace)
{
    m_trace = std::move(trace);
    m_overview.reset();
    m_zoomHistory.clear();
    m_options->setTrace(m_trace);
    rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
    m_chart->setSelectedRange(std::nullopt);
    m_chart->setData(m_trace, nullptr, coloring());
    recompute();
}

void OverviewView::setSelection(core::TimeRange range, std::vector<core::PeId> pes)
{
    if (range.empty() && m_trace)
        range = core::analysis::tracedRunSpan(*m_trace);
    m_options->setRange(range);
    m_options->setPes(pes);
    rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
    m_chart->setSelectedRange(std::nullopt);
    recompute();
}

bool OverviewView::busy() const
{
    return m_computation->busy();
}

OverviewColoring OverviewView::coloring() const
{
    return m_coloring->currentIndex() == 1 ? OverviewColoring::Utilization
                                           : OverviewColoring::DominantActivity;
}

void OverviewView::setColoring(OverviewColoring coloring)
{
    {
        const QSignalBlocker block(m_coloring);
        m_coloring->setCurrentIndex(coloring == OverviewColoring::Utilization ? 1 : 0);
    }
    m_chart->setData(m_trace, m_overview ? &*m_overview : nullptr, coloring);
}

std::optional<core::TimeRange> OverviewView::selectedRange() const
{
    return m_chart->selectedRange();
}

core::TimeRange OverviewView::currentRange() const
{
    return m_chart->selectedRange().value_or(m_options->range());
}

void OverviewView::zoomTo(core::TimeRange range)
{
    if (range.empty())
        return;
    m_zoomHistory.push_back(m_options->range());
    m_options->setRange(range);
    m_chart->setSelectedRange(std::nullopt);
    recompute();
    rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
    emit selectionChanged(m_options->range(), m_options->pes());
}

bool OverviewView::zoomOut()
{
    if (m_zoomHistory.empty())
        return false;
    m_options->setRange(m_zoomHistory.back());
    m_zoomHistory.pop_back();
    m_chart->setSelectedRange(std::nullopt);
    recompute();
    rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
    emit selectionChanged(m_options->range(), m_options->pes());
    return true;
}

void OverviewView::showRangeMenu(core::TimeRange range, QPoint globalPos)
{
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addAction(tr("Zoom to %1 (%2)")
                        .arg(formatTimeSpan(range),
                            QString::fromStdString(core::formatDuration(range.length()))),
        this, [this, range]() { zoomTo(range); });
    menu->addSeparator();
    addOpenRangeMenu(*menu, *this, range, m_options->pes());
    menu->addSeparator();
    menu->addAction(
        tr("Clear the selection"), this, [this]() { m_chart->setSelectedRange(std::nullopt); });
    menu->popup(globalPos);
}

void OverviewView::showContextMenu(QPoint globalPos, std::optional<core::PeId> pe)
{
    if (!m_trace)
        return;
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    const auto range = currentRange();
    if (pe)
        menu->addAction(tr("Open PE %1 in the timeline").arg(*pe), this,
            [this, pe = *pe, range]() { emit timelineRequested({ pe }, range); });
    if (const auto selected = m_chart->selectedRange()) {
        menu->addAction(tr("Zoom to the selection"), this, [this, r = *selected]() { zoomTo(r); });
        menu->addAction(
            tr("Clear the selection"), this, [this]() { m_chart->setSelectedRange(std::nullopt); });
    }
    QAction* back = menu->addAction(tr("Zoom out"), this, [this]() { zoomOut(); });
    back->setEnabled(!m_zoomHistory.empty());
    menu->addAction(tr("Show the whole traced run"), this,
        [this]() { zoomTo(core::analysis::tracedRunSpan(*m_trace)); });
    menu->addSeparator();
    addOpenRangeMenu(*menu, *this, range, m_options->pes());
    addExportActions(*menu, *this);
    menu->popup(globalPos);
}

void OverviewView::recompute()
{
    if (!m_trace) {
        m_computation->cancel();
        m_overview.reset();
        m_chart->setData(m_trace, nullptr, coloring());
        m_chart->setSubtitle({});
        return;
    }
    auto request = m_options->request();
    m_chart->setCommThreadsMuted(!request.includeCommThreads);
    core::analysis::OverviewOptions options;
    options.columns = countFieldValue(m_columns->text(), 1000);
    auto trace = m_trace;
    m_computation->run<std::optional<core::analysis::Overview>>(
        [trace, request, options](const core::analysis::Progress& progress) {
            return core::analysis::computeOverview(*trace, request, options, progress);
        },
        [this](std::optional<core::analysis::Overview> result) {
            m_overview = std::move(result);
            if (m_overview) {
                const auto& grid = m_overview->grid;
                m_chart->setSubtitle(
                    describeSelection(*m_trace, m_options->range(), m_options->pes())
                    + tr(" · %1 columns of %2")
                          .arg(QLocale().toString(static_cast<qlonglong>(grid.count)),
                              formatTime(static_cast<double>(grid.size))));
            }
            m_chart->setData(m_trace, m_overview ? &*m_overview : nullptr, coloring());
            emit computed();
        });
}

QImage OverviewView::renderChart(QSize size)
{
    if (size.isEmpty())
        size = m_chart->isVisible() ? m_chart->size() : QSize(1200, 700);
    return m_chart->renderImage(size);
}

QString OverviewView::csv() const
{
    return QString::fromStdString(core::analysis::overviewCsv(m_overview ? &*m_overview : nullptr));
}

bool OverviewView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    for (const auto& [name, value] : options) {
        if (name == QStringLiteral("columns")) {
            m_columns->setText(value);
        } else if (name == QStringLiteral("coloring") || name == QStringLiteral("color")) {
            if (value == QStringLiteral("utilization"))
                setColoring(OverviewColoring::Utilization);
            else if (value == QStringLiteral("activity"))
                setColoring(OverviewColoring::DominantActivity);
            else {
                if (error != nullptr)
                    *error = tr("--%1: '%2' is not activity or utilization").arg(name, value);
                return false;
            }
        } else {
            if (error != nullptr)
                *error = tr("the %1 view has no option --%2").arg(viewKey(kind()), name);
            return false;
        }
    }
    if (!m_options->apply()) {
        if (error != nullptr)
            *error = m_options->errorText();
        return false;
    }
    return true;
}

} // namespace parallax::views
