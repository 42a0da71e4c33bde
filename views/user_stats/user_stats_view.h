#pragma once

#include "core/analysis/user_stats.h"
#include "views/common/line_chart_view.h"

#include <cstdint>
#include <optional>
#include <vector>

class QComboBox;

namespace parallax::views {

// User Stats: one user statistic (USER_STAT records) over time or per PE. Over time, per interval
// the aggregate of the selected PEs' samples (the line), the lowest and highest PE's own
// aggregate (the band) and, for a few PEs, each PE's line; per PE, each PE's aggregate over the
// range. Options: the stat, the aggregate (sum, mean, min, max, count, last), over time or per
// PE, and the interval. A click on a line or a PE opens its Timeline there.
class UserStatsView : public LineChartView {
    Q_OBJECT
public:
    explicit UserStatsView(EntryPalette* palette, QWidget* parent = nullptr);

    // The CSV of `parallax-cli user-stats` (--by time or --by pe, as shown) for every stat.
    [[nodiscard]] QString csv() const override;
    // "stat" (an id), "aggregate", "by" (time or pe), "interval", "bins".
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;

    [[nodiscard]] const std::optional<core::analysis::UserStats>& result() const
    {
        return m_result;
    }
    [[nodiscard]] QComboBox* statChoice() const { return m_stat; }
    [[nodiscard]] QComboBox* byChoice() const { return m_by; }

private:
    void recompute() override;
    void clearResult() override;
    void rebuildChart();
    void fillStats();
    // applyOptions("stat"): the ids in the logs now, when the worker has not read them yet.
    void readLogStats();
    [[nodiscard]] std::int32_t currentStat() const;
    [[nodiscard]] bool perPe() const;

    QComboBox* m_stat = nullptr;
    QComboBox* m_aggregate = nullptr;
    QComboBox* m_by = nullptr;
    std::optional<core::analysis::UserStats> m_result;
    QString m_message; // why there is no result
    // The stat ids in the run's logs: reading them touches every PE's log (slow on a big run
    // opened from its index), so the worker reads them with the first result. Until then the
    // choice lists the .sts's stats and its pick is provisional.
    std::optional<std::vector<std::int32_t>> m_logStats;
    bool m_provisionalStat = false;
};

} // namespace parallax::views
