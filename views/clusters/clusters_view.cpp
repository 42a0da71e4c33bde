#include "views/clusters/clusters_view.h"

#include "core/analysis/csv_export.h"
#include "core/text_args.h"
#include "views/clusters/cluster_rows.h"
#include "views/common/async_computation.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QLocale>
#include <QPainter>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace parallax::views {

namespace {

using core::analysis::ClusterRole;
using core::analysis::PeClustering;

constexpr int kMaxK = 999;
constexpr long long kMaxOutliers = 1'000'000;
// Outlier PEs named in a table cell; the tooltip lists them all.
constexpr std::size_t kOutliersShown = 8;

struct ClustersResult {
    std::shared_ptr<const core::analysis::PeFeatures> features;
    std::optional<PeClustering> clustering;
    core::analysis::ActivityColumns columns;
};

QTableWidgetItem* cell(const QString& text, const QString& tooltip = {})
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    if (!tooltip.isEmpty())
        item->setToolTip(tooltip);
    return item;
}

QTableWidget* makeTable(const QStringList& headers, QWidget* parent)
{
    auto* table = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->setVisible(false);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

} // namespace

ClustersView::ClustersView(EntryPalette* palette, QWidget* parent)
    : BarChartView(ViewKind::Clusters, palette, parent)
{
    m_k = new QSpinBox(this);
    m_k->setObjectName(QStringLiteral("k"));
    m_k->setRange(0, kMaxK);
    m_k->setSpecialValueText(tr("auto"));
    m_k->setPrefix(tr("k = "));
    m_k->setKeyboardTracking(false);
    m_k->setToolTip(tr("Number of clusters. auto: the elbow of the within-cluster sum of "
                       "squares over k = 2..20 (see the sweep table)"));
    m_outliers = m_options->addField(
        tr("&Outliers"), {},
        [](const QString& text) { return countFieldError(text, 0, kMaxOutliers, tr("Outliers")); },
        5);
    m_outliers->setObjectName(QStringLiteral("outliers"));
    m_outliers->setPlaceholderText(tr("auto"));
    m_outliers->setToolTip(tr("Outlier PEs in all, shared among the clusters by size (empty: 5 % "
                              "of the PEs, rounded up, minus the exemplars)"));
    m_options->offerCommThreads();
    // The spin box with its label, right of the options bar.
    auto* kBox = new QWidget(this);
    auto* kLayout = new QHBoxLayout(kBox);
    kLayout->setContentsMargins(6, 0, 6, 0);
    auto* kLabel = new QLabel(tr("&Clusters"), kBox);
    kLabel->setBuddy(m_k);
    kLayout->addWidget(kLabel);
    kLayout->addWidget(m_k);
    addToolbarWidget(kBox);
    m_chart->setObjectName(QStringLiteral("clustersChart"));
    m_chart->setHint(tr("Click a cluster to open its exemplar's and outliers' timelines"));

    m_table = makeTable({ tr("Cluster"), tr("PEs"), tr("Exemplar"), tr("Outliers (farthest first)"),
                            tr("Mean distance") },
        this);
    m_table->setObjectName(QStringLiteral("clusterTable"));
    m_table->setToolTip(tr("Click a row for the exemplar's and outliers' timelines, the exemplar "
                           "or the outliers for theirs alone"));
    m_sweepTable = makeTable({ tr("k"), tr("Non-empty"), tr("WCSS (µs²)"), tr("Chosen") }, this);
    m_sweepTable->setObjectName(QStringLiteral("sweepTable"));
    m_sweepTable->setToolTip(tr("k-means for each k: clusters that kept members, and the "
                                "within-cluster sum of squares"));

    // The chart above, the tables below.
    m_below = new QWidget(this);
    auto* belowLayout = new QHBoxLayout(m_below);
    belowLayout->setContentsMargins(4, 4, 4, 4);
    belowLayout->addWidget(m_table, 3);
    belowLayout->addWidget(m_sweepTable, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    layout()->removeWidget(m_chart);
    split->addWidget(m_chart);
    split->addWidget(m_below);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    qobject_cast<QVBoxLayout*>(layout())->addWidget(split, 1);

    connect(m_k, &QSpinBox::valueChanged, this, [this]() { recompute(); });
    connect(m_table, &QTableWidget::cellClicked, this,
        [this](int row, int column) { cellClicked(row, column); });
    recompute();
}

bool ClustersView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    for (const auto& [name, value] : options) {
        if (name == QStringLiteral("k")) {
            bool ok = false;
            const int k = value == QStringLiteral("auto") ? 0 : value.toInt(&ok);
            if (value != QStringLiteral("auto") && (!ok || k < 1 || k > kMaxK)) {
                if (error != nullptr)
                    *error = tr("--k needs 'auto' or a number from 1 to %1").arg(kMaxK);
                return false;
            }
            const QSignalBlocker block(m_k);
            m_k->setValue(k);
        } else if (name == QStringLiteral("outliers")) {
            m_outliers->setText(value);
        } else {
            return rejectOption(name, error);
        }
    }
    return applyFields(error);
}

void ClustersView::clearResult()
{
    if (m_featureKey.trace != m_trace.get()) {
        m_features.reset();
        m_featureKey = {};
    }
    m_clustering.reset();
    m_shownClusters.clear();
    clearTables();
}

void ClustersView::clearTables()
{
    m_table->setRowCount(0);
    m_sweepTable->setRowCount(0);
}

void ClustersView::recompute()
{
    m_chart->setTitle(tr("Clusters"));
    if (!m_trace) {
        m_computation->cancel();
        clearResult();
        m_chart->clearData(tr("No run loaded"));
        return;
    }
    const auto request = m_options->request();
    core::analysis::ClusterOptions options;
    options.k = m_k->value();
    options.outliers = countFieldValue(m_outliers->text(), -1);
    options.sweep = true; // the sweep table is shown for a given k too
    const auto trace = m_trace;
    // The feature vectors depend on the run, the range and the PEs only: trying another k or
    // number of outliers reuses them.
    FeatureKey key { trace.get(), request.range, request.pes, request.includeCommThreads };
    auto cached = key == m_featureKey ? m_features : nullptr;
    m_computation->run<ClustersResult>(
        [trace, request, options, cached](const core::analysis::Progress& progress) {
            ClustersResult result;
            result.columns = core::analysis::resolve(*trace, request).columns;
            result.features = cached;
            if (!result.features) {
                auto computed = core::analysis::computePeFeatures(*trace, request, progress);
                if (!computed)
                    return result;
                result.features
                    = std::make_shared<const core::analysis::PeFeatures>(std::move(*computed));
            }
            auto chosen = options;
            // The sweep reaches a given k, so that its row is in the table.
            if (chosen.k > 0)
                chosen.sweepMax = std::max(chosen.sweepMax, chosen.k);
            result.clustering = core::analysis::clusterFeatures(
                *result.features, chosen, request.threads, progress);
            return result;
        },
        [this, range = request.range, key = std::move(key)](ClustersResult result) {
            m_range = range;
            if (result.features) {
                m_featureKey = key;
                m_features = result.features;
            }
            if (!result.clustering) {
                clearResult();
                m_chart->clearData(tr("The clustering was cancelled"));
            } else if (!result.clustering->error.empty()) {
                clearResult();
                m_chart->clearData(
                    tr("Cannot cluster: %1").arg(QString::fromStdString(result.clustering->error)));
            } else {
                showClustering(std::move(*result.clustering), std::move(result.columns));
            }
            emit computed();
        });
}

std::vector<core::PeId> ClustersView::representativesOf(int cluster) const
{
    std::vector<core::PeId> pes;
    if (!m_clustering)
        return pes;
    const auto& c = *m_clustering;
    std::vector<std::size_t> outliers;
    for (std::size_t i = 0; i < c.cluster.size(); ++i) {
        if (c.cluster[i] != cluster)
            continue;
        if (c.role[i] == ClusterRole::Exemplar)
            pes.push_back(c.features.pes[i]);
        else if (c.role[i] == ClusterRole::Outlier)
            outliers.push_back(i);
    }
    std::stable_sort(outliers.begin(), outliers.end(),
        [&](std::size_t a, std::size_t b) { return c.distance[a] > c.distance[b]; });
    for (auto i : outliers)
        pes.push_back(c.features.pes[i]);
    return pes;
}

BarChartView::BarPes ClustersView::pesOfBar(int category) const
{
    if (category < 0 || static_cast<std::size_t>(category) >= m_shownClusters.size())
        return {};
    return { representativesOf(m_shownClusters[static_cast<std::size_t>(category)]), m_range };
}

void ClustersView::cellClicked(int row, int column)
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_shownClusters.size())
        return;
    const auto all = representativesOf(m_shownClusters[static_cast<std::size_t>(row)]);
    if (all.empty())
        return;
    // The exemplar comes first, then the outliers.
    std::vector<core::PeId> pes;
    if (column == ExemplarColumn)
        pes.push_back(all.front());
    else if (column == OutliersColumn && all.size() > 1)
        pes.assign(all.begin() + 1, all.end());
    else
        pes = all;
    emit timelineRequested(pes, m_range);
}

void ClustersView::showClustering(PeClustering clustering, core::analysis::ActivityColumns columns)
{
    m_clustering = std::move(clustering);
    m_shownClusters.clear();
    for (int j = 0; j < m_clustering->k; ++j)
        if (m_clustering->sizes[static_cast<std::size_t>(j)] > 0)
            m_shownClusters.push_back(j);
    fillChart(columns);
    fillTables();
}

void ClustersView::fillChart(const core::analysis::ActivityColumns& columns)
{
    const auto& c = *m_clustering;
    const auto& f = c.features;
    const auto dims = f.dims.size();
    QString subtitle = describeSelection(*m_trace, f.range, f.pes);
    subtitle += tr(" · k = %1%2, %3 non-empty")
                    .arg(c.k)
                    .arg(m_k->value() == 0 ? tr(" (auto)") : QString())
                    .arg(c.nonEmpty);
    if (!f.apart.empty())
        subtitle += tr(" · comm threads apart");
    if (c.sweepSample > 0 && c.sweepSample < f.pes.size())
        subtitle += tr(" · sweep on %1 of the PEs")
                        .arg(QLocale().toString(static_cast<qulonglong>(c.sweepSample)));
    m_chart->setTitle(tr("Clusters of PEs by time per entry method"), subtitle);
    if (dims == 0) {
        m_chart->clearData(tr("No entry method ran on these PEs in this range"));
        return;
    }
    // The legend ranks entry methods by their time over all clustered PEs.
    std::vector<double> totals(static_cast<std::size_t>(columns.count()), 0.0);
    std::vector<int> dimOfColumn(static_cast<std::size_t>(columns.count()), -1);
    for (std::size_t d = 0; d < dims; ++d) {
        const auto column = static_cast<std::size_t>(f.dims[d]);
        dimOfColumn[column] = static_cast<int>(d);
        for (int j = 0; j < c.k; ++j)
            totals[column] += c.centroids[static_cast<std::size_t>(j) * dims + d]
                * c.sizes[static_cast<std::size_t>(j)];
    }
    StackedBarData chartData;
    chartData.series = activitySeries(m_trace->metadata, columns, totals);
    chartData.unit = BarUnit::Time;
    chartData.yTitle = tr("time per PE (cluster mean)");
    chartData.xTitle = tr("Cluster (its size above the bar)");
    for (const int j : m_shownClusters) {
        const auto members = c.sizes[static_cast<std::size_t>(j)];
        const auto pes = representativesOf(j);
        StackedBarCategory category;
        category.label = tr("C%1").arg(j);
        const QString count
            = members == 1 ? tr("1 PE") : tr("%1 PEs").arg(QLocale().toString(members));
        category.title = tr("Cluster %1: %2").arg(j).arg(count);
        QString note = tr("Exemplar: PE %1").arg(pes.empty() ? -1 : pes.front());
        if (pes.size() > 1) {
            std::vector<core::PeId> outliers(pes.begin() + 1, pes.end());
            std::sort(outliers.begin(), outliers.end());
            note += tr("\nOutliers: PE %1")
                        .arg(QString::fromStdString(core::formatPeList(outliers)));
        }
        note += tr("\nClick to open their timelines");
        category.note = note;
        chartData.categories.push_back(std::move(category));
        chartData.valueLabels.push_back(count);
    }
    const auto series = chartData.series.size();
    chartData.values.assign(chartData.categories.size() * series, 0.0);
    for (std::size_t b = 0; b < m_shownClusters.size(); ++b)
        for (std::size_t s = 0; s < series; ++s) {
            const int d = dimOfColumn[static_cast<std::size_t>(chartData.series[s].activity)];
            if (d >= 0)
                chartData.values[b * series + s]
                    = c.centroids[static_cast<std::size_t>(m_shownClusters[b]) * dims
                        + static_cast<std::size_t>(d)];
        }
    m_chart->setData(std::move(chartData), columns);
}

void ClustersView::fillTables()
{
    const auto& c = *m_clustering;
    const auto rows = clusterRows(c);
    m_table->setRowCount(static_cast<int>(rows.size()));
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const auto& row = rows[k];
        const auto r = static_cast<int>(k);
        m_table->setItem(r, ClusterColumn, cell(tr("C%1").arg(row.cluster)));
        m_table->setItem(r, SizeColumn, cell(QLocale().toString(row.size)));
        m_table->setItem(r, ExemplarColumn,
            cell(tr("PE %1").arg(row.exemplar),
                tr("PE %1 is the member nearest the cluster's centre (%2 away).\nClick to open "
                   "its timeline.")
                    .arg(row.exemplar)
                    .arg(formatTime(row.exemplarDistance))));
        QStringList all;
        for (const auto& [pe, distance] : row.outliers)
            all << tr("PE %1: %2 from the centre").arg(pe).arg(formatTime(distance));
        m_table->setItem(r, OutliersColumn,
            cell(outliersText(row, kOutliersShown),
                row.outliers.empty()
                    ? tr("No outliers were allotted to this cluster")
                    : all.join(QLatin1Char('\n')) + tr("\nClick to open the outliers' timelines")));
        m_table->setItem(r, DistanceColumn,
            cell(formatTime(row.meanDistance),
                tr("Mean Euclidean distance of the members to the centre (µs over all entry "
                   "methods)")));
    }
    m_table->resizeColumnsToContents();

    m_sweepTable->setRowCount(static_cast<int>(c.sweep.size()));
    for (std::size_t row = 0; row < c.sweep.size(); ++row) {
        const auto& s = c.sweep[row];
        const auto r = static_cast<int>(row);
        m_sweepTable->setItem(r, 0, cell(QString::number(s.k)));
        m_sweepTable->setItem(r, 1, cell(QString::number(s.nonEmpty)));
        m_sweepTable->setItem(r, 2, cell(QLocale().toString(s.wcss, 'g', 4)));
        m_sweepTable->setItem(r, 3, cell(s.chosen ? tr("✓") : QString()));
        if (s.chosen)
            for (int col = 0; col < 4; ++col) {
                auto font = m_sweepTable->item(r, col)->font();
                font.setBold(true);
                m_sweepTable->item(r, col)->setFont(font);
            }
    }
    if (c.sweepSample > 0 && c.sweepSample < c.features.pes.size())
        m_sweepTable->setToolTip(tr("The sweep ran on %1 of the %2 PEs (evenly spaced); the "
                                    "chosen k on all of them")
                                     .arg(c.sweepSample)
                                     .arg(c.features.pes.size()));
    m_sweepTable->resizeColumnsToContents();
}

QString ClustersView::csv() const
{
    QString out = QStringLiteral("pe,cluster,role,distance\n");
    if (!m_clustering)
        return out;
    const auto& c = *m_clustering;
    for (std::size_t i = 0; i < c.features.pes.size(); ++i)
        out += QStringLiteral("%1,%2,%3,%4\n")
                   .arg(c.features.pes[i])
                   .arg(c.cluster[i])
                   .arg(QString::fromLatin1(core::analysis::clusterRoleName(c.role[i])))
                   .arg(c.distance[i], 0, 'f', 3);
    return out;
}

QImage ClustersView::renderChart(QSize size)
{
    if (size.isEmpty())
        size = isVisible() ? QSize(width(), m_chart->height() + m_below->height())
                           : QSize(1600, 900);
    if (!m_clustering)
        return m_chart->renderImage(size);
    // The chart above, the cluster and sweep tables below it as text.
    const int tablesHeight = std::clamp(size.height() / 3, 100, 400);
    const QSize chartSize(size.width(), std::max(size.height() - tablesHeight, 100));
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.drawImage(0, 0, m_chart->renderImage(chartSize));
    painter.setPen(QColor(40, 40, 40));
    paintClusterTables(painter,
        QRect(8, chartSize.height() + 4, size.width() - 16, size.height() - chartSize.height() - 8),
        clusterRows(*m_clustering), *m_clustering);
    painter.end();
    return image;
}

AnalysisView::State ClustersView::saveState() const
{
    auto state = BarChartView::saveState();
    state[QStringLiteral("k")]
        = m_k->value() == 0 ? QStringLiteral("auto") : QString::number(m_k->value());
    state[QStringLiteral("outliers")] = m_outliers->text();
    return state;
}

} // namespace parallax::views
