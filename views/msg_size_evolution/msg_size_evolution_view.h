#pragma once

#include "core/analysis/msg_size_evolution.h"
#include "views/common/entry_chooser.h"
#include "views/common/heat_map_view.h"

#include <optional>
#include <vector>

class QComboBox;
class QLineEdit;
class QPushButton;

namespace parallax::views {

// Message Size Evolution: how many messages of each size were sent (or received) in each time
// interval, as a time × size heat map (largest sizes at the top) with the messages per interval
// above it and per size at its right (core::analysis::computeMsgSizeEvolution). Options: sent or
// received; sizes in powers of two (the "Size bin" field empty) or in bins of so many bytes;
// "Interval" or "Bins" as in the Time Profile; "Entries…" counts only the messages of the entry
// methods chosen (listed by their message count). Dragging along the time axis zooms; a click
// on a cell opens its interval in the Timeline.
class MsgSizeEvolutionView : public HeatMapView {
    Q_OBJECT
public:
    explicit MsgSizeEvolutionView(EntryPalette* palette, QWidget* parent = nullptr);

    // interval,begin_us,end_us,size_lo,size_hi,messages,bytes as `parallax-cli msg-size-evolution`.
    [[nodiscard]] QString csv() const override;
    // "event" (send, receive), "sizes" (log, linear), "size-bin" (bytes), "interval", "bins",
    // "entries" (an entry id list).
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;

    // For tests and the app.
    [[nodiscard]] const std::optional<core::analysis::MsgSizeEvolution>& result() const
    {
        return m_result;
    }
    [[nodiscard]] const std::vector<core::EntryId>& entries() const
    {
        return m_entriesButton->entries();
    }
    // Counts only these entry methods' messages (empty: all) and recomputes.
    void setEntries(std::vector<core::EntryId> entries);
    // "256 B–512 B", "1 KiB–2 KiB", "≥ 5,000 B": the label of size bin `bin` of a result.
    [[nodiscard]] static QString sizeBinLabel(
        const core::analysis::MsgSizeEvolution& evolution, std::size_t bin);

private:
    void recompute() override;
    void clearResult() override;
    void rebuildChart();
    void chooseEntries();
    [[nodiscard]] std::size_t binOfRow(std::size_t row) const;
    [[nodiscard]] core::TimeRange intervalRange(std::size_t column) const;
    void showContextMenu(QPoint globalPos, int row, int column);

    QComboBox* m_event = nullptr;
    QLineEdit* m_sizeBin = nullptr;
    QLineEdit* m_interval = nullptr;
    QLineEdit* m_bins = nullptr;
    EntriesButton* m_entriesButton = nullptr; // the entry methods counted; empty = all
    std::optional<core::analysis::MsgSizeEvolution> m_result;
};

} // namespace parallax::views
