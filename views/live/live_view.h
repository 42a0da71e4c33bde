#pragma once

#include "core/stream/utilization_stream.h"

#include <QWidget>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace parallax::views {

class EntryPalette;
class StackedBarChart;

// The Live Utilization view (docs/streaming.md): a running program's utilization as it streams
// in, or a recording. The upper chart scrolls over the last 10 s in 100 bars of 100 ms; the lower
// one shows one second at 1 ms (click a bar above to pick it, the newest by default). Entry
// methods are coloured as everywhere else, "Other" (the program's folded small entries) grey.
// A status line says where the stream comes from, how it goes and what last went wrong. When
// replaying, a slider and play/pause move the 10-s window through the recording.
// The view never touches a socket: the app polls off the GUI thread and hands it payloads.
class LiveUtilizationView : public QWidget {
    Q_OBJECT
public:
    explicit LiveUtilizationView(QWidget* parent = nullptr);

    // One reply payload, decoded here; a corrupt one is reported (status line, payloadRefused)
    // and the view keeps what it had.
    void appendPayload(std::span<const std::uint8_t> payload);
    // Many payloads (a recording), drawn once at the end.
    void appendPayloads(const std::vector<std::vector<std::uint8_t>>& payloads);
    // A whole stream decoded elsewhere (a recording read on a worker), drawn once. `refused`
    // payloads were refused while decoding it, the last for `refusal`. Entry names set before
    // are kept.
    void setStream(
        core::stream::UtilizationStream stream, std::size_t refused, const QString& refusal);
    // Keeps the 1-ms bins of only the newest `seconds` (a live session; 0: all, as for a
    // recording): older seconds keep their 100-ms bars, and the 1-ms chart says why it is empty.
    void setDetailSeconds(std::size_t seconds) { m_stream.setDetailSeconds(seconds); }
    // What the empty charts say before the first chunk ("Reading …", "Could not read …").
    void setWaitingText(const QString& text);
    // Entry names (index = entry id), from the program's .sts; "Entry N" without.
    void setEntryNames(std::vector<std::string> names);

    // The status line's parts: the source ("node1:7000", a file), the state ("connected",
    // "polling", "stopped"), chunks behind, where it records (empty: not recording).
    void setConnectionStatus(const QString& source, const QString& state, std::size_t behind,
        const QString& recordingTo);
    // The last problem (a failed poll, a refused chunk); shown until the next one.
    void setLastError(const QString& error);

    // Replay mode: the slider and play/pause scrub through the chunks received.
    void setReplay(bool replay);
    // The 10-s window ends with chunk `end` (exclusive); live, it follows the newest chunk.
    void showUpTo(std::size_t end);
    // The second shown at 1 ms.
    void selectSecond(std::size_t second);

    [[nodiscard]] const core::stream::UtilizationStream& stream() const { return m_stream; }
    [[nodiscard]] StackedBarChart* scrollChart() const { return m_scroll; }
    [[nodiscard]] StackedBarChart* detailChart() const { return m_detail; }
    [[nodiscard]] QString statusText() const;
    [[nodiscard]] QString lastError() const { return m_lastError; }
    [[nodiscard]] std::size_t windowEnd() const { return m_windowEnd; }
    [[nodiscard]] std::size_t selectedSecond() const { return m_second; }

signals:
    void chunkAdded(std::size_t chunks);
    void payloadRefused(const QString& error);

private:
    // Decodes and appends one payload without redrawing; true when a chunk was added.
    bool takePayload(std::span<const std::uint8_t> payload);
    void chunksAdded();
    void rebuildCharts();
    void updateStatus();
    void stepReplay();

    core::stream::UtilizationStream m_stream;
    EntryPalette* m_palette = nullptr;
    StackedBarChart* m_scroll = nullptr;
    StackedBarChart* m_detail = nullptr;
    QLabel* m_status = nullptr;
    QSlider* m_slider = nullptr;
    QToolButton* m_play = nullptr;
    QTimer* m_playTimer = nullptr;
    bool m_replay = false;
    bool m_followNewest = true;
    bool m_secondChosen = false;
    std::size_t m_windowEnd = 0;
    std::size_t m_second = 0;
    std::size_t m_refused = 0;
    QString m_source;
    QString m_state;
    std::size_t m_behind = 0;
    QString m_recordingTo;
    QString m_lastError;
    QString m_waitingText;
};

} // namespace parallax::views
