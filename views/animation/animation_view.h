#pragma once

#include "core/analysis/animation.h"
#include "core/run_metadata.h"
#include "views/common/heat_map_view.h"

#include <QString>

#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QTimer;
class QToolButton;

namespace parallax::views {

class FrameStrip;

// Where each PE sits in a frame of the Animation: one row per SMP node (its PEs side by side)
// when the run has a few nodes, else a grid in PE order about `aspect` times wider than high.
// cells[row * columns + column] is an index into `pes`, or -1 for an empty place.
struct PeGridLayout {
    std::size_t rows = 0;
    std::size_t columns = 0;
    std::vector<std::ptrdiff_t> cells;
    std::vector<QString> rowLabels; // "node 2", "PE 64"
    std::vector<QString> columnLabels; // "+0", "+1", ...
};
PeGridLayout peGridLayout(
    const std::vector<core::PeId>& pes, const core::RunMetadata& metadata, double aspect);

// The Animation: every PE's utilization in one time interval (a frame) as a grid of PEs
// coloured on the utilization ramp, played frame after frame (play/pause, step, speed in frames
// per second; Space and the arrow keys do the same). A strip of every frame's mean utilization
// shows where the run is busy and the frame shown; a click or drag on it goes to a frame. The view
// opens on the first frame in which the PEs are busy at all (start-up is often idle). Options:
// the number of frames or their interval. A click on a PE opens it in the Timeline at that frame.
// Exports: the frame shown (PNG, SVG), every frame as an animated PNG (writeAnimatedPng) or
// numbered PNGs.
class AnimationView : public HeatMapView {
    Q_OBJECT
public:
    explicit AnimationView(EntryPalette* palette, QWidget* parent = nullptr);
    ~AnimationView() override;

    // frame,begin_us,end_us,pe,utilization_pct as `parallax-cli animation`.
    [[nodiscard]] QString csv() const override;
    // "frames", "interval", "fps", "frame" (the frame shown, from 1).
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;
    [[nodiscard]] int frameCount() const override;
    [[nodiscard]] QImage renderFrame(int frame, QSize size) override;
    [[nodiscard]] int frameDelayMs() const override;

    // For tests and the app.
    [[nodiscard]] const std::optional<core::analysis::UtilizationFrames>& result() const
    {
        return m_result;
    }
    [[nodiscard]] int currentFrame() const { return m_frame; }
    void showFrame(int frame);
    void setPlaying(bool playing);
    [[nodiscard]] bool playing() const;
    [[nodiscard]] const PeGridLayout& layout() const { return m_layout; }
    [[nodiscard]] QWidget* frameStrip() const;

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void recompute() override;
    void clearResult() override;
    void updateControls();
    [[nodiscard]] core::TimeRange frameRange(int frame) const;
    [[nodiscard]] std::optional<core::PeId> peAt(std::size_t row, std::size_t column) const;

    QLineEdit* m_frames = nullptr;
    QLineEdit* m_interval = nullptr;
    QToolButton* m_play = nullptr;
    QToolButton* m_back = nullptr;
    QToolButton* m_forward = nullptr;
    FrameStrip* m_strip = nullptr;
    QComboBox* m_speed = nullptr;
    QLabel* m_position = nullptr;
    QTimer* m_timer = nullptr;
    std::optional<core::analysis::UtilizationFrames> m_result;
    PeGridLayout m_layout;
    int m_frame = 0;
};

} // namespace parallax::views
