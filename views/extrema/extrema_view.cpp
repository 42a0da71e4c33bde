#include "views/extrema/extrema_view.h"

#include "core/analysis/csv_export.h"
#include "core/text_args.h"
#include "views/common/async_computation.h"
#include "views/common/not_traced_series.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

#include <QComboBox>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>

namespace parallax::views {

namespace {

using core::analysis::ExtremaCriterion;

constexpr int kCriteria = 8;
constexpr long long kMaxCount = 9'999;

} // namespace

QString ExtremaView::criterionLabel(ExtremaCriterion criterion)
{
    switch (criterion) {
    case ExtremaCriterion::LeastIdle:
        return tr("Least idle time");
    case ExtremaCriterion::MostIdle:
        return tr("Most idle time");
    case ExtremaCriterion::Overhead:
        return tr("Most overhead");
    case ExtremaCriterion::ActiveEntries:
        return tr("Most active entry methods");
    case ExtremaCriterion::GrainSize:
        return tr("Largest grain size");
    case ExtremaCriterion::MsgsSent:
        return tr("Most messages sent");
    case ExtremaCriterion::BytesSent:
        return tr("Most bytes sent");
    case ExtremaCriterion::Clustering:
        return tr("Outliers by clustering");
    }
    return {};
}

ExtremaView::ExtremaView(EntryPalette* palette, QWidget* parent)
    : BarChartView(ViewKind::Extrema, palette, parent)
{
    QStringList labels;
    for (int c = 0; c < kCriteria; ++c)
        labels << criterionLabel(static_cast<ExtremaCriterion>(c));
    m_criterion = m_options->addChoice(tr("&Criterion"), labels);
    m_criterion->setObjectName(QStringLiteral("criterion"));
    m_count = m_options->addField(
        tr("&Count"), {},
        [](const QString& text) { return countFieldError(text, 1, kMaxCount, tr("Count")); }, 4);
    m_count->setObjectName(QStringLiteral("count"));
    m_count->setPlaceholderText(tr("auto"));
    m_count->setToolTip(tr("Number of extreme PEs (empty: 10 % of the PEs, 20 above 256 PEs)"));
    m_clusters = m_options->addField(
        tr("C&lusters"), {},
        [](const QString& text) { return countFieldError(text, 1, kMaxCount, tr("Clusters")); }, 4);
    m_clusters->setObjectName(QStringLiteral("clusters"));
    m_clusters->setPlaceholderText(tr("auto"));
    m_clusters->setToolTip(tr("Number of clusters k for clustering (empty: √ of the PE count)"));
    m_clusters->setEnabled(false);

    m_addAll = new QPushButton(tr("&Add all to Timeline"), this);
    m_addAll->setObjectName(QStringLiteral("addAllToTimeline"));
    m_addAll->setToolTip(tr("Open the timeline of every extreme PE"));
    m_addAll->setEnabled(false);

    m_options->offerCommThreads(); // comm threads are ranked only when included
    m_chart->setObjectName(QStringLiteral("extremaChart"));
    m_chart->setHint(tr("Click a PE's bar to open its timeline"));
    addToolbarWidget(m_addAll);

    connect(m_criterion, &QComboBox::currentIndexChanged, this,
        [this]() { m_clusters->setEnabled(criterion() == ExtremaCriterion::Clustering); });
    connect(m_addAll, &QPushButton::clicked, this, [this]() {
        if (m_extrema && !m_extrema->extremes.empty())
            emit timelineRequested(m_extrema->extremes, m_range);
    });
    recompute();
}

ExtremaCriterion ExtremaView::criterion() const
{
    return static_cast<ExtremaCriterion>(std::clamp(m_criterion->currentIndex(), 0, kCriteria - 1));
}

bool ExtremaView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    for (const auto& [name, value] : options) {
        if (name == QStringLiteral("criterion")) {
            const auto c = core::analysis::parseExtremaCriterion(value.toStdString());
            if (!c) {
                if (error != nullptr)
                    *error = tr("unknown criterion '%1' (least-idle, most-idle, overhead, "
                                "active-entries, grain-size, msgs-sent, bytes-sent or clustering)")
                                 .arg(value);
                return false;
            }
            m_criterion->setCurrentIndex(static_cast<int>(*c));
        } else if (name == QStringLiteral("count")) {
            m_count->setText(value);
        } else if (name == QStringLiteral("clusters")) {
            m_clusters->setText(value);
        } else {
            return rejectOption(name, error);
        }
    }
    return applyFields(error);
}

void ExtremaView::clearResult()
{
    m_extrema.reset();
}

void ExtremaView::recompute()
{
    m_chart->setTitle(tr("Extrema: %1").arg(criterionLabel(criterion()).toLower()));
    if (!m_trace) {
        m_computation->cancel();
        m_extrema.reset();
        m_addAll->setEnabled(false);
        m_chart->clearData(tr("No run loaded"));
        return;
    }
    if (!m_trace->hasLogs()
        && (criterion() == ExtremaCriterion::MsgsSent
            || criterion() == ExtremaCriterion::BytesSent)) {
        // Sends are only in the event logs: say so rather than rank PEs by zeros.
        m_computation->cancel();
        m_extrema.reset();
        m_addAll->setEnabled(false);
        m_chart->clearData(tr("This run has summaries only: messages and bytes sent are in the "
                              "event logs (.log files), which this run does not have"));
        emit computed();
        return;
    }
    auto request = m_options->request();
    core::analysis::ExtremaOptions options;
    options.criterion = criterion();
    options.count = countFieldValue(m_count->text(), 0);
    options.clusters = countFieldValue(m_clusters->text(), 0);
    const auto trace = m_trace;
    m_computation->run<std::optional<core::analysis::Extrema>>(
        [trace, request, options](const core::analysis::Progress& progress) {
            return core::analysis::computeExtrema(*trace, request, options, progress);
        },
        [this, range = request.range](std::optional<core::analysis::Extrema> extrema) {
            m_range = range;
            if (extrema) {
                showExtrema(std::move(*extrema));
            } else {
                m_extrema.reset();
                m_addAll->setEnabled(false);
                m_chart->clearData(tr("This run has neither logs nor summaries to analyse"));
            }
            emit computed();
        });
}

QString ExtremaView::scoreText(double score, ScoreText form) const
{
    const bool bar = form == ScoreText::OnBar;
    switch (m_extrema ? m_extrema->criterion : criterion()) {
    case ExtremaCriterion::LeastIdle:
    case ExtremaCriterion::MostIdle:
        return tr("%1 idle").arg(formatBarValue(score, BarUnit::Percent));
    case ExtremaCriterion::Overhead:
        return (bar ? tr("%1 ovh") : tr("%1 overhead"))
            .arg(formatBarValue(score, BarUnit::Percent));
    case ExtremaCriterion::ActiveEntries:
        return (bar ? tr("%1 EPs") : tr("%1 entry methods ran"))
            .arg(formatBarValue(score, BarUnit::Count));
    case ExtremaCriterion::GrainSize:
        return bar ? formatTime(score) : tr("%1 per execution on average").arg(formatTime(score));
    case ExtremaCriterion::MsgsSent:
        return (bar ? tr("%1 msgs") : tr("%1 messages sent"))
            .arg(formatBarValue(score, BarUnit::Messages));
    case ExtremaCriterion::BytesSent:
        return bar ? formatBarValue(score, BarUnit::Bytes)
                   : tr("%1 sent").arg(formatBarValue(score, BarUnit::Bytes));
    case ExtremaCriterion::Clustering:
        return bar
            ? tr("d %1").arg(QLocale().toString(score, 'g', 3))
            : tr("distance %1 from its cluster's centre").arg(QLocale().toString(score, 'g', 4));
    }
    return {};
}

void ExtremaView::showExtrema(core::analysis::Extrema extrema)
{
    m_extrema = std::move(extrema);
    const auto& x = *m_extrema;
    const QString title = tr("Extrema: %1").arg(criterionLabel(x.criterion).toLower());
    QString subtitle = (x.extremes.size() == 1 ? tr("1 extreme PE")
                                               : tr("%1 extreme PEs").arg(x.extremes.size()))
        + tr(" among ") + describeSelection(*m_trace, m_range, x.pes);
    if (x.criterion == ExtremaCriterion::Clustering && x.error.empty())
        subtitle += tr(" · %1 non-empty clusters").arg(x.clusterCount);
    if (!x.apart.empty()) // comm threads: no idle records, relays; the options bar includes them
        subtitle += tr(" · comm threads (PE %1) not ranked")
                        .arg(QString::fromStdString(core::formatPeList(x.apart)));
    m_chart->setTitle(title, subtitle);
    m_addAll->setEnabled(!x.extremes.empty());
    m_addAll->setText(x.extremes.empty() ? tr("&Add all to Timeline")
                                         : tr("&Add all %1 to Timeline").arg(x.extremes.size()));
    if (!x.error.empty()) {
        m_chart->clearData(QString::fromStdString(x.error));
        return;
    }
    if (x.pes.empty()) {
        m_chart->clearData(tr("None of the selected PEs has data"));
        return;
    }
    const auto width = static_cast<std::size_t>(x.columns.count());
    StackedBarData chartData;
    chartData.series = activitySeries(m_trace->metadata, x.columns, x.average);
    chartData.unit = BarUnit::Percent;
    chartData.yMaximum = 100.0;
    chartData.yTitle = tr("% of the time range");
    chartData.xTitle = tr("Averages  |  extreme PEs (most extreme on the right)");
    chartData.legendReference = 0; // shares of the average over all PEs
    const auto outliers = x.extremes.size();
    const auto others = x.pes.size() - std::min(x.pes.size(), outliers);
    const std::vector<double>* groups[] = { &x.average, &x.nonOutliers, &x.outliers };
    const QString groupLabels[] = { tr("avg"), tr("non-outliers"), tr("outliers") };
    const QString groupTitles[]
        = { x.apart.empty() ? tr("Average of all %1 PEs").arg(x.pes.size())
                            : tr("Average of all %1 worker PEs").arg(x.pes.size()),
              tr("Average of the %1 non-outliers").arg(others),
              tr("Average of the %1 outliers").arg(outliers) };
    // The ranked value is drawn above every bar: the mean score of each group, then each PE's.
    double groupScore[kAveragedColumns] = { 0.0, 0.0, 0.0 };
    std::size_t groupSize[kAveragedColumns] = { 0, 0, 0 };
    for (std::size_t k = 0; k < x.pes.size() && k < x.scores.size(); ++k) {
        const bool extreme
            = std::find(x.extremes.begin(), x.extremes.end(), x.pes[k]) != x.extremes.end();
        for (const int g : { 0, extreme ? 2 : 1 }) {
            groupScore[g] += x.scores[k];
            ++groupSize[g];
        }
    }
    for (int g = 0; g < kAveragedColumns; ++g) {
        StackedBarCategory c;
        c.label = groupLabels[g];
        c.title = groupTitles[g];
        if (g == kAveragedColumns - 1 && outliers > 0)
            c.note = tr("Click to open their timelines");
        const auto n = groupSize[g];
        if (n > 0)
            c.note = tr("Mean score: %1").arg(scoreText(groupScore[g] / static_cast<double>(n)))
                + (c.note.isEmpty() ? QString() : QStringLiteral("\n") + c.note);
        chartData.valueLabels.push_back(n > 0
                ? scoreText(groupScore[g] / static_cast<double>(n), ScoreText::OnBar)
                : QString());
        chartData.categories.push_back(c);
    }
    // Most extreme rightmost.
    for (std::size_t k = outliers; k-- > 0;) {
        const auto pe = x.extremes[k];
        StackedBarCategory c;
        c.label = tr("PE %1").arg(pe);
        c.title = tr("PE %1 · rank %2 of %3").arg(pe).arg(k + 1).arg(outliers);
        c.note = tr("Score: %1\nClick to open its timeline").arg(scoreText(x.extremeScores[k]));
        c.separatorBefore = k + 1 == outliers;
        chartData.valueLabels.push_back(scoreText(x.extremeScores[k], ScoreText::OnBar));
        chartData.categories.push_back(std::move(c));
    }
    const auto series = chartData.series.size();
    chartData.values.assign(chartData.categories.size() * series, 0.0);
    auto fill = [&](std::size_t category, const double* vector) {
        for (std::size_t s = 0; s < series; ++s)
            chartData.values[category * series + s]
                = vector[static_cast<std::size_t>(chartData.series[s].activity)];
    };
    for (std::size_t g = 0; g < kAveragedColumns; ++g)
        if (groups[g]->size() == width)
            fill(g, groups[g]->data());
    for (std::size_t k = 0; k < outliers; ++k) {
        const auto it = std::find(x.pes.begin(), x.pes.end(), x.extremes[k]);
        if (it == x.pes.end())
            continue;
        const auto position = static_cast<std::size_t>(it - x.pes.begin());
        fill(kAveragedColumns + (outliers - 1 - k), x.vectors.data() + position * width);
    }
    addNotTracedSeries(chartData); // a bar never stops short unlabelled
    m_chart->setData(std::move(chartData), x.columns);
}

std::vector<core::PeId> ExtremaView::extremePes() const
{
    return m_extrema ? m_extrema->extremes : std::vector<core::PeId> {};
}

QRect ExtremaView::barRectForPe(core::PeId pe) const
{
    if (!m_extrema || !m_chart->hasData())
        return {};
    const auto& extremes = m_extrema->extremes;
    const auto it = std::find(extremes.begin(), extremes.end(), pe);
    if (it == extremes.end())
        return {};
    const auto rank = static_cast<std::size_t>(it - extremes.begin());
    const auto category = kAveragedColumns + (extremes.size() - 1 - rank);
    const QRect r = m_chart->barRect(category);
    return r.isNull() ? QRect() : r.translated(m_chart->mapTo(this, QPoint(0, 0)));
}

BarChartView::BarPes ExtremaView::pesOfBar(int category) const
{
    if (!m_extrema || category < 0)
        return {};
    const auto& extremes = m_extrema->extremes;
    if (category == 2) // the outliers' average
        return { extremes, m_range };
    if (category < kAveragedColumns)
        return {};
    const auto index = static_cast<std::size_t>(category - kAveragedColumns);
    if (index >= extremes.size())
        return {};
    return { { extremes[extremes.size() - 1 - index] }, m_range }; // most extreme rightmost
}

QString ExtremaView::csv() const
{
    return QString::fromStdString(core::analysis::extremaCsv(m_extrema ? &*m_extrema : nullptr));
}

AnalysisView::State ExtremaView::saveState() const
{
    auto state = BarChartView::saveState();
    state[QStringLiteral("criterion")] = QString::fromUtf8(core::analysis::extremaCriterionName(
        static_cast<core::analysis::ExtremaCriterion>(m_criterion->currentIndex())));
    state[QStringLiteral("count")] = m_count->text();
    state[QStringLiteral("clusters")] = m_clusters->text();
    return state;
}

} // namespace parallax::views
