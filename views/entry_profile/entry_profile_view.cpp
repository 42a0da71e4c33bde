#include "views/entry_profile/entry_profile_view.h"

#include "views/common/async_computation.h"
#include "views/common/options_bar.h"
#include "views/common/result_table_view.h"
#include "views/common/stacked_bar_chart.h"

#include <QLocale>
#include <QMenu>
#include <QPainter>
#include <QSplitter>

namespace parallax::views {

namespace {

TableColumns profileColumns()
{
    return {
        { "entry_name", EntryProfileView::tr("Entry method"), {} },
        { "chare", EntryProfileView::tr("Chare"), {} },
        { "executions", EntryProfileView::tr("Executions"),
            EntryProfileView::tr("Executions that began in the range") },
        { "total_us", EntryProfileView::tr("Total"),
            EntryProfileView::tr("Sum of their whole durations") },
        { "mean_us", EntryProfileView::tr("Mean"), {} },
        { "min_us", EntryProfileView::tr("Min"), {} },
        { "max_us", EntryProfileView::tr("Max"), {} },
        { "sd_us", EntryProfileView::tr("σ"),
            EntryProfileView::tr("Standard deviation of the durations (population)") },
        { "share_pct", EntryProfileView::tr("Share"),
            EntryProfileView::tr("Total time as a share of the PEs' time in the range") },
        { "entry", EntryProfileView::tr("Id"), EntryProfileView::tr("Entry method id") },
    };
}

// A bar's label: the method name without its parameters, at most 14 characters.
QString shortEntryLabel(const std::string& name)
{
    QString label = QString::fromStdString(name);
    if (const auto paren = label.indexOf(QLatin1Char('(')); paren > 0)
        label.truncate(paren);
    constexpr int kMaxLength = 14;
    if (label.size() > kMaxLength)
        label = label.left(kMaxLength - 1) + QStringLiteral("…");
    return label;
}

} // namespace

EntryProfileView::EntryProfileView(EntryPalette* palette, QWidget* parent)
    : TableAnalysisView(ViewKind::EntryProfile, palette, parent)
{
    m_options->offerCommThreads();
    m_chart = new StackedBarChart(palette, this);
    m_chart->setObjectName(QStringLiteral("entryProfileChart"));
    // The bars' shares of their sum: of the busy time, the reference tool's pie.
    m_chart->setLegendHeading(tr("Entry method · of the busy time"));
    m_table->model()->setRowToolTip([this](int row) {
        const auto target = m_table->model()->target(row);
        return target.valid()
            ? tr("Double-click: the longest execution, on PE %1, in the Timeline").arg(target.pe)
            : QString();
    });
    m_split = new QSplitter(Qt::Vertical, this);
    m_split->addWidget(m_chart);
    m_split->addWidget(m_table);
    m_split->setStretchFactor(0, 2);
    m_split->setStretchFactor(1, 3);
    setBody(m_split);
    connect(m_chart, &StackedBarChart::contextMenuRequested, this,
        [this](QPoint globalPos, int) { showContextMenu(globalPos, -1, m_table); });
    recompute();
}

bool EntryProfileView::modelRow(int tableRow)
{
    if (!m_profile || tableRow < 0 || static_cast<std::size_t>(tableRow) >= m_profile->rows.size())
        return false;
    emit modelEntryRequested(m_profile->rows[static_cast<std::size_t>(tableRow)].entry,
        m_options->range(), m_options->pes());
    return true;
}

void EntryProfileView::addRowActions(QMenu& menu, int tableRow)
{
    if (!m_profile || tableRow < 0 || static_cast<std::size_t>(tableRow) >= m_profile->rows.size())
        return;
    menu.addAction(tr("Model this entry…"), this, [this, tableRow]() { modelRow(tableRow); });
    menu.addSeparator();
}

void EntryProfileView::clearResult()
{
    m_profile.reset();
    m_chart->clearData(tr("No run loaded"));
}

void EntryProfileView::recompute()
{
    computeAndShow<core::analysis::EntryProfile>(tr("Entry Method Profile"),
        core::analysis::computeEntryProfile,
        [this](core::analysis::EntryProfile profile) { show(std::move(profile)); });
}

void EntryProfileView::show(core::analysis::EntryProfile profile)
{
    m_profile = std::move(profile);
    const auto& p = *m_profile;
    QString subtitle = describe(p.range, p.pes, p.apart);
    if (p.fromSummaries)
        subtitle = tr("From the summary files (the whole run; no min or σ) · %1")
                       .arg(describe(p.range, p.pes, p.apart));
    else
        subtitle += tr(" · %1 busy (%2 % of the PEs' time)")
                        .arg(formatTime(p.busyUs))
                        .arg(QLocale().toString(
                            p.peTimeUs > 0 ? p.busyUs * 100.0 / p.peTimeUs : 0.0, 'f', 1));
    setHeading(tr("Entry Method Profile"), subtitle);
    if (!p.error.empty()) {
        m_chart->clearData(QString::fromStdString(p.error));
        showMessage(QString::fromStdString(p.error));
        return;
    }
    m_table->setEmptyMessage(tr("No entry method began in this range on these PEs"));
    m_table->setTable(core::analysis::entryProfileTable(p, m_trace->metadata), profileColumns());
    fillChart();
}

void EntryProfileView::fillChart()
{
    const auto& p = *m_profile;
    m_chart->setTitle(tr("Time per entry method"),
        tr("share of the PEs' time in the range; the %1 heaviest, then the rest").arg(kBars));
    if (p.rows.empty()) {
        m_chart->clearData(tr("No entry method began in this range on these PEs"));
        return;
    }
    const auto columns = core::analysis::resolve(*m_trace, {}).columns;
    const auto shown = std::min(p.rows.size(), kBars);
    std::vector<double> totals(static_cast<std::size_t>(columns.count()), 0.0);
    for (std::size_t i = 0; i < shown; ++i)
        totals[static_cast<std::size_t>(p.rows[i].entry)] = p.rows[i].sharePct;
    StackedBarData bars;
    bars.series = activitySeries(m_trace->metadata, columns, totals);
    bars.unit = BarUnit::Percent;
    bars.yTitle = tr("% of the PEs' time");
    bars.xTitle = tr("Entry method (total time above the bar)");
    double restShare = 0;
    double restUs = 0;
    for (std::size_t i = shown; i < p.rows.size(); ++i) {
        restShare += p.rows[i].sharePct;
        restUs += p.rows[i].totalUs;
    }
    if (shown < p.rows.size()) {
        StackedBarSeries rest;
        rest.activity = columns.overhead();
        rest.name
            = tr("%n other entry method(s)", nullptr, static_cast<int>(p.rows.size() - shown));
        rest.color = QColor(150, 150, 150).rgb();
        bars.series.push_back(rest);
    }
    const auto seriesCount = bars.series.size();
    const auto barCount = shown + (shown < p.rows.size() ? 1 : 0);
    bars.values.assign(barCount * seriesCount, 0.0);
    const QLocale locale;
    for (std::size_t i = 0; i < shown; ++i) {
        const auto& row = p.rows[i];
        StackedBarCategory category;
        category.label = shortEntryLabel(m_trace->metadata.entryName(row.entry));
        category.title = activityName(m_trace->metadata, columns, row.entry, true);
        category.note = tr("%1 executions · mean %2 · max %3")
                            .arg(locale.toString(static_cast<qulonglong>(row.executions)),
                                formatTime(row.meanUs), formatTime(row.maxUs));
        bars.categories.push_back(category);
        bars.valueLabels.push_back(formatTime(row.totalUs));
        for (std::size_t s = 0; s < seriesCount; ++s)
            if (bars.series[s].entry == row.entry)
                bars.values[i * seriesCount + s] = row.sharePct;
    }
    if (barCount > shown) {
        StackedBarCategory category;
        category.label = tr("the rest");
        category.title = bars.series.back().name;
        bars.categories.push_back(category);
        bars.valueLabels.push_back(formatTime(restUs));
        bars.values[shown * seriesCount + seriesCount - 1] = restShare;
    }
    m_chart->setData(std::move(bars), columns);
}

void EntryProfileView::paintBody(QPainter& painter, const QRect& rect) const
{
    const int chartHeight = rect.height() * 2 / 5;
    painter.drawImage(rect.topLeft(), m_chart->renderImage(QSize(rect.width(), chartHeight)));
    m_table->paint(painter,
        QRect(rect.left(), rect.top() + chartHeight + 6, rect.width(),
            rect.height() - chartHeight - 6));
}

} // namespace parallax::views
