#pragma once

#include "core/analysis/log_listing.h"
#include "views/common/table_analysis_view.h"

#include <optional>

class QComboBox;
class QSpinBox;

namespace parallax::views {

// Log Files: one PE's log record by record (core/analysis/log_listing.h), with the line number
// in the file, the time, the record type and the entry method, chare and user event by name.
// The PE is chosen in the spin box (setSelection() takes the first of its PEs), the records by
// the range of the options bar and by kind in the Records box; the table's search field finds
// text in them. A double-click opens the Timeline at the record. The log is read by the reader
// the app hands over (setDefaultReader(): io reads files, views do not), that PE's file only.
class LogView : public TableAnalysisView {
    Q_OBJECT
public:
    explicit LogView(EntryPalette* palette, QWidget* parent = nullptr);

    void setReader(core::analysis::LogListingReader reader);
    // The reader every LogView starts with: the app sets io's once at start-up.
    static void setDefaultReader(core::analysis::LogListingReader reader);
    void setSelection(core::TimeRange range, std::vector<core::PeId> pes) override;
    void setTrace(core::TracePtr trace) override;

    [[nodiscard]] QSpinBox* peChoice() const { return m_pe; }
    [[nodiscard]] QComboBox* recordsChoice() const { return m_records; }
    [[nodiscard]] const std::optional<core::analysis::LogListing>& listing() const
    {
        return m_listing;
    }
    // Records listed at most; beyond, the heading says to narrow the range.
    static constexpr std::size_t kMaxRecords = 500'000;

    // The record kinds of the Records box and their record types (empty: all).
    struct RecordKind {
        QString name;
        std::vector<core::RecordType> types;
    };
    static const std::vector<RecordKind>& recordKinds();

protected:
    void recompute() override;
    void clearResult() override;
    // "records": a kind of recordKinds() by its position or its name's first word ("all",
    // "executions", "messages", "user", "idle", "pack", "markers").
    bool applyViewOption(const QString& name, const QString& value, QString* error) override;

private:
    void show(core::analysis::LogListing listing);

    core::analysis::LogListingReader m_reader;
    QSpinBox* m_pe = nullptr;
    QComboBox* m_records = nullptr;
    std::optional<core::analysis::LogListing> m_listing;
};

} // namespace parallax::views
