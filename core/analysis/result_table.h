#pragma once

#include "core/types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace parallax::core {
struct RunMetadata;
}

namespace parallax::core::analysis {

// A result shown as a table: the common shape of the table tools (entry profile, call table,
// user events, log listing, noise). The CLI prints it with resultTableCsv(); the views show it
// in a sortable table and export the very same CSV. Columns are stored whole (one vector per
// column), so a table of a few hundred thousand log records stays compact.

// How a column reads. Numeric kinds hold doubles (NaN = an empty cell, written as an empty CSV
// field); the views format them by kind (durations with units, thousands separators, %).
enum class CellKind : std::uint8_t {
    Text,
    Integer, // counts and ids
    Number, // any other quantity
    TimeUs, // a point in time, µs
    DurationUs, // a length of time, µs
    Percent,
    Bytes,
};

struct TableColumn {
    std::string key; // CSV header and the CLI's name: "total_us", "entry_name"
    CellKind kind = CellKind::Text;
    std::vector<double> numbers; // numeric kinds
    std::vector<std::string> texts; // Text

    [[nodiscard]] bool numeric() const { return kind != CellKind::Text; }
    [[nodiscard]] std::size_t size() const { return numeric() ? numbers.size() : texts.size(); }
};

// Where a row points in the run, for "open the Timeline there": a PE and a time span (an
// execution, an event). pe == kNoPe: nowhere.
struct RowTarget {
    PeId pe = kNoPe;
    TimeUs begin = 0;
    TimeUs end = 0;
    [[nodiscard]] bool valid() const { return pe != kNoPe; }
};

struct ResultTable {
    std::vector<TableColumn> columns;
    // One per row, or empty when rows point nowhere.
    std::vector<RowTarget> targets;

    // Appends a column and returns its index.
    std::size_t addColumn(std::string key, CellKind kind);
    [[nodiscard]] std::size_t rowCount() const
    {
        return columns.empty() ? 0 : columns.front().size();
    }
    // Index of the column with this key, or -1.
    [[nodiscard]] int columnIndex(const std::string& key) const;

    // Row building: one push per column, in column order. A number pushed into a Text column
    // is written as text, a text into a numeric column as an empty cell.
    void push(std::size_t column, double value);
    void push(std::size_t column, std::string text);
    void pushEmpty(std::size_t column);
    // `value`, or an empty cell when it is not `present`.
    void pushIf(std::size_t column, bool present, double value);

    // The text of a cell as the CSV writes it.
    [[nodiscard]] std::string cellText(std::size_t column, std::size_t row) const;
    // The rows `rows` (in that order) as a new table: the views' "copy selected rows".
    [[nodiscard]] ResultTable subset(const std::vector<std::size_t>& rows) const;
};

// A header row of the column keys, then one row per table row.
std::string resultTableCsv(const ResultTable& table);

} // namespace parallax::core::analysis
