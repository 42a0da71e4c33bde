#pragma once

#include "core/analysis/user_events.h"
#include "views/common/table_analysis_view.h"

#include <memory>

class QLineEdit;

namespace parallax::views {

class AsyncComputation;
struct UserEventsShown; // a computed summary and its tables

// User Events: instant and bracketed user events per event id, for all the PEs together and per
// PE (count; for brackets total, min, mean and max duration), above the list of occurrences of
// the selected row (all of them when none is selected). A double-click on an occurrence opens
// the Timeline there; on a count row, at its first occurrence. The options bar takes event ids.
class UserEventsView : public TableAnalysisView {
    Q_OBJECT
public:
    explicit UserEventsView(EntryPalette* palette, QWidget* parent = nullptr);

    [[nodiscard]] ResultTableView* occurrences() const { return m_occurrences; }
    [[nodiscard]] QLineEdit* eventsField() const { return m_events; }
    [[nodiscard]] const core::analysis::UserEventSummary* summary() const
    {
        return m_summary.get();
    }
    // Also while the occurrences of a selected row are listed (on a worker).
    [[nodiscard]] bool busy() const override;

protected:
    void recompute() override;
    void clearResult() override;
    // "events": an id list.
    bool applyViewOption(const QString& name, const QString& value, QString* error) override;

private:
    void show(UserEventsShown shown);
    // The occurrences of the count row `row` of the main table (-1: all).
    void showDetail(int row) override;

    QLineEdit* m_events = nullptr;
    ResultTableView* m_occurrences = nullptr;
    AsyncComputation* m_detailComputation = nullptr;
    std::shared_ptr<const core::analysis::UserEventSummary> m_summary;
};

} // namespace parallax::views
