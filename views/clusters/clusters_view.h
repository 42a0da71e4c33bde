#pragma once

#include "core/analysis/clustering.h"
#include "views/common/bar_chart_view.h"

#include <memory>
#include <optional>
#include <vector>

class QLineEdit;
class QSpinBox;
class QTableWidget;

namespace parallax::views {

// The Clusters view: equivalence classes of PEs by k-means over their time per entry method in
// the chosen range (core/analysis/clustering.h, docs/clusters.md). The chart has one bar per
// non-empty cluster, its centroid's profile stacked by entry method in the run's palette
// (µs per PE), labelled with its size; the table below lists each cluster's size, exemplar and
// outliers; the sweep table next to it shows k, non-empty clusters and WCSS, the chosen k
// marked. k is a spin box whose lowest value is "auto". Clicking a bar or a cluster's row asks
// for the timelines of its exemplar and outliers; clicking the exemplar cell, the exemplar's
// alone; the outliers cell, the outliers'.
class ClustersView : public BarChartView {
    Q_OBJECT
public:
    explicit ClustersView(EntryPalette* palette, QWidget* parent = nullptr);

    // pe,cluster,role,distance, as `parallax-cli clusters`.
    [[nodiscard]] QString csv() const override;
    // "k" (a number or "auto"), "outliers" (a number; empty: the default).
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;
    [[nodiscard]] State saveState() const override;
    // The chart with the cluster and sweep tables below it, as the view shows them.
    [[nodiscard]] QImage renderChart(QSize size = {}) override;

    // The PEs a cluster stands for: its exemplar, then its outliers (farthest first).
    [[nodiscard]] std::vector<core::PeId> representativesOf(int cluster) const;

    // For tests and the app.
    [[nodiscard]] QSpinBox* kChoice() const { return m_k; }
    [[nodiscard]] QLineEdit* outliersField() const { return m_outliers; }
    [[nodiscard]] QTableWidget* clusterTable() const { return m_table; }
    [[nodiscard]] QTableWidget* sweepTable() const { return m_sweepTable; }
    [[nodiscard]] const std::optional<core::analysis::PeClustering>& clustering() const
    {
        return m_clustering;
    }
    // Table columns.
    enum Column { ClusterColumn, SizeColumn, ExemplarColumn, OutliersColumn, DistanceColumn };

private:
    void recompute() override;
    void clearResult() override;
    [[nodiscard]] BarPes pesOfBar(int category) const override;
    void showClustering(
        core::analysis::PeClustering clustering, core::analysis::ActivityColumns columns);
    void fillChart(const core::analysis::ActivityColumns& columns);
    void fillTables();
    void clearTables();
    void cellClicked(int row, int column);

    QSpinBox* m_k = nullptr;
    QLineEdit* m_outliers = nullptr;
    QTableWidget* m_table = nullptr;
    QTableWidget* m_sweepTable = nullptr;
    QWidget* m_below = nullptr;
    std::optional<core::analysis::PeClustering> m_clustering;
    // The feature vectors of the last result, and what they were computed for.
    struct FeatureKey {
        const core::Trace* trace = nullptr;
        core::TimeRange range;
        std::vector<core::PeId> pes;
        bool includeCommThreads = false;
        bool operator==(const FeatureKey& o) const
        {
            return trace == o.trace && range.begin == o.range.begin && range.end == o.range.end
                && pes == o.pes && includeCommThreads == o.includeCommThreads;
        }
    };
    FeatureKey m_featureKey;
    std::shared_ptr<const core::analysis::PeFeatures> m_features;
    std::vector<int> m_shownClusters; // bar / table row -> cluster id (non-empty clusters)
    core::TimeRange m_range; // of the shown result
};

} // namespace parallax::views
