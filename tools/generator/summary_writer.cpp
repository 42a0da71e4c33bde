#include "summary_writer.h"

#include "output_file.h"
#include "text_buffer.h"

namespace parallax::gen {

namespace {

constexpr std::string_view kSummaryVersion = "7.1";

// Run-length encoder of the summary files: a value followed by "+n" stands for n equal
// values. Values are written "%4d" (.sum) or " %d" (.sumd), like the Charm++ writer.
class RunLengthLine {
public:
    enum class Style { Padded4, Spaced };

    RunLengthLine(TextBuffer& text, Style style)
        : m_text(text)
        , m_style(style)
    { }

    void add(std::int64_t value, std::int64_t repeat = 1)
    {
        if (repeat <= 0) {
            return;
        }
        if (m_count > 0 && value == m_value) {
            m_count += repeat;
            return;
        }
        emit();
        m_value = value;
        m_count = repeat;
    }

    void finish() { emit(); }

private:
    void emit()
    {
        if (m_count == 0) {
            return;
        }
        if (m_style == Style::Padded4) {
            m_text.appendPadded4(m_value);
        } else {
            m_text.appendField(m_value);
        }
        if (m_count > 1) {
            m_text.append('+');
            m_text.appendInt(m_count);
        }
        m_count = 0;
    }

    TextBuffer& m_text;
    Style m_style;
    std::int64_t m_value = 0;
    std::int64_t m_count = 0;
};

double binSizeSeconds(const SummaryAccumulator& summary)
{
    return static_cast<double>(summary.binSize()) / 1.0e6;
}

// One value per entry method, each followed by a space ("%ld ").
template <typename Field>
void appendPerEntry(
    TextBuffer& text, std::string_view label, const SummaryAccumulator& summary, Field field)
{
    text.append(label);
    for (EntryId entry = 0; entry < summary.entryCount(); ++entry) {
        text.appendInt(field(summary.totals(entry)));
        text.append(' ');
    }
    text.append('\n');
}

// The per-bin percentage the summary module prints: (int)(time * 100 / binSize).
void appendPercentages(TextBuffer& text, const std::vector<std::int64_t>& times, TimeUs binSize)
{
    RunLengthLine line(text, RunLengthLine::Style::Padded4);
    for (const std::int64_t time : times) {
        line.add(time * 100 / binSize);
    }
    line.finish();
}

// Writes the EP-major matrix of one quantity, expanding the sparse cells with zero runs.
template <typename Field>
void appendMatrix(
    TextBuffer& text, std::string_view label, const SummaryAccumulator& summary, Field field)
{
    text.append(label);
    RunLengthLine line(text, RunLengthLine::Style::Spaced);
    for (EntryId entry = 0; entry < summary.entryCount(); ++entry) {
        std::int64_t nextBin = 0;
        for (const SummaryAccumulator::BinCell& cell : summary.cells(entry)) {
            line.add(0, cell.bin - nextBin);
            line.add(field(cell));
            nextBin = cell.bin + 1;
        }
        line.add(0, summary.binCount() - nextBin);
    }
    line.finish();
    text.append('\n');
}

} // namespace

std::optional<std::string> writeSumFile(const std::string& path, const SummaryAccumulator& summary,
    PeId pe, PeId numPes, TextBuffer& text)
{
    text.clear();
    text.append("ver:");
    text.append(kSummaryVersion);
    text.append(' ');
    text.appendInt(pe);
    text.append('/');
    text.appendInt(numPes);
    text.append(" count:");
    text.appendInt(summary.binCount());
    text.append(" ep:");
    text.appendInt(summary.entryCount());
    text.append(" interval:");
    text.appendScientific(binSizeSeconds(summary));
    text.append(" phases:0\n");

    appendPercentages(text, summary.busyTime(), summary.binSize());
    text.append('\n');
    using Totals = SummaryAccumulator::EntryTotals;
    appendPerEntry(text, "EPExeTime: ", summary, [](const Totals& totals) { return totals.time; });
    appendPerEntry(
        text, "EPCallTime: ", summary, [](const Totals& totals) { return totals.calls; });
    appendPerEntry(
        text, "MaxEPTime: ", summary, [](const Totals& totals) { return totals.maxTime; });
    text.append("NumMarks: 0 \n");
    text.append("IdlePercent: ");
    appendPercentages(text, summary.idleTime(), summary.binSize());
    text.append('\n');
    return writeWholeFile(path, text.view());
}

std::optional<std::string> writeSumDetailFile(const std::string& path,
    const SummaryAccumulator& summary, PeId pe, PeId numPes, TextBuffer& text)
{
    text.clear();
    text.append("ver:");
    text.append(kSummaryVersion);
    text.append(" cpu:");
    text.appendInt(pe);
    text.append('/');
    text.appendInt(numPes);
    text.append(" numIntervals:");
    text.appendInt(summary.binCount());
    text.append(" numEPs:");
    text.appendInt(summary.entryCount());
    text.append(" intervalSize:");
    text.appendScientific(binSizeSeconds(summary));
    text.append('\n');
    using Cell = SummaryAccumulator::BinCell;
    appendMatrix(
        text, "ExeTimePerEPperInterval", summary, [](const Cell& cell) { return cell.time; });
    appendMatrix(
        text, "EPCallTimePerInterval", summary, [](const Cell& cell) { return cell.calls; });
    return writeWholeFile(path, text.view());
}

} // namespace parallax::gen
