#include "result_table.h"

#include "csv_export.h"

#include <cmath>

namespace parallax::core::analysis {

std::size_t ResultTable::addColumn(std::string key, CellKind kind)
{
    TableColumn column;
    column.key = std::move(key);
    column.kind = kind;
    columns.push_back(std::move(column));
    return columns.size() - 1;
}

int ResultTable::columnIndex(const std::string& key) const
{
    for (std::size_t c = 0; c < columns.size(); ++c)
        if (columns[c].key == key)
            return static_cast<int>(c);
    return -1;
}

void ResultTable::push(std::size_t column, double value)
{
    auto& c = columns[column];
    if (c.numeric())
        c.numbers.push_back(value);
    else
        c.texts.push_back(std::isnan(value) ? std::string() : formatCsvNumber(value));
}

void ResultTable::push(std::size_t column, std::string text)
{
    auto& c = columns[column];
    if (c.numeric())
        c.numbers.push_back(std::nan(""));
    else
        c.texts.push_back(std::move(text));
}

void ResultTable::pushEmpty(std::size_t column)
{
    push(column, std::nan(""));
}

void ResultTable::pushIf(std::size_t column, bool present, double value)
{
    push(column, present ? value : std::nan(""));
}

std::string ResultTable::cellText(std::size_t column, std::size_t row) const
{
    const auto& c = columns[column];
    if (!c.numeric())
        return row < c.texts.size() ? c.texts[row] : std::string();
    if (row >= c.numbers.size() || std::isnan(c.numbers[row]))
        return {};
    return formatCsvNumber(c.numbers[row]);
}

ResultTable ResultTable::subset(const std::vector<std::size_t>& rows) const
{
    ResultTable out;
    for (const auto& c : columns)
        out.addColumn(c.key, c.kind);
    for (const auto row : rows) {
        if (row >= rowCount())
            continue;
        for (std::size_t k = 0; k < columns.size(); ++k) {
            if (columns[k].numeric())
                out.columns[k].numbers.push_back(columns[k].numbers[row]);
            else
                out.columns[k].texts.push_back(columns[k].texts[row]);
        }
        if (!targets.empty())
            out.targets.push_back(targets[row]);
    }
    return out;
}

std::string resultTableCsv(const ResultTable& table)
{
    std::string out;
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
        if (c > 0)
            out += ',';
        out += csvField(table.columns[c].key);
    }
    out += '\n';
    const auto rows = table.rowCount();
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            if (c > 0)
                out += ',';
            out += csvField(table.cellText(c, r));
        }
        out += '\n';
    }
    return out;
}

} // namespace parallax::core::analysis
