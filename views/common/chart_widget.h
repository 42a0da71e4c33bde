#pragma once

#include "core/types.h"
#include "views/common/chart_style.h"

#include <QImage>
#include <QWidget>

#include <functional>
#include <optional>
#include <utility>

class QTimer;

namespace parallax::views {

// What the chart widgets (stacked bars, lines) share around their data: a title line with a
// subtitle and an on-screen hint, the message shown instead of an empty plot, a "Computing…"
// state that shows only after a short delay (quick updates do not flicker), a drag along the
// x axis that selects a time range, and the export of the very same picture (renderImage(),
// paintExport()) in the fixed export colours. A chart paints in one place, paintChart(), for the
// screen (with its hover, drag and busy overlays) and for export alike.
class ChartWidget : public QWidget {
    Q_OBJECT
public:
    void setTitle(const QString& title, const QString& subtitle = {});
    [[nodiscard]] QString title() const { return m_title; }
    [[nodiscard]] QString subtitle() const { return m_subtitle; }
    // The message shown instead of the plot when there is no data.
    [[nodiscard]] QString message() const { return m_message; }
    // The legend's heading.
    void setLegendHeading(const QString& heading);
    // A short usage hint shown on screen at the right of the title ("drag to zoom").
    void setHint(const QString& hint);
    // While busy, the chart says "Computing…" (over the old data, if any) after a short delay.
    void setBusy(bool busy);

    // The chart on a white background at `size`, as an image or into any painter (SVG).
    [[nodiscard]] QImage renderImage(QSize size) const;
    // The size a view exports the chart at: `size`, or when it is empty the widget's size while
    // shown, else 1200 x 700.
    [[nodiscard]] QSize exportSize(QSize size) const;
    void paintExport(QPainter& painter, QSize size) const;

    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

signals:
    // A drag along a time axis selected this range.
    void rangeSelected(core::TimeRange range);

protected:
    explicit ChartWidget(QWidget* parent = nullptr);

    // The chart at `size` in `style`: on screen (paintEvent) with the overlays, else for export
    // (paintExport, with the widget's font set on the painter).
    virtual void paintChart(
        QPainter& painter, QSize size, const ChartStyle& style, bool onScreen) const = 0;

    // Drops what was laid out for the data and the hover state, then repaints.
    virtual void invalidate();
    // Forgets what the mouse points at (the chart's hover state): on invalidate() and when the
    // mouse leaves the widget (which also hides the tooltip).
    virtual void clearHover() { }
    [[nodiscard]] ChartStyle screenStyle() const;
    [[nodiscard]] static ChartStyle exportStyle();

    // The background and the title line (the hint only on screen and with data); when there is
    // no plot to draw, the message that stands for it. False when the plot is empty (then
    // nothing more is to be painted).
    bool paintBackdrop(QPainter& painter, QSize size, QRectF titleBox, const ChartStyle& style,
        bool onScreen, bool hasData, bool plotEmpty) const;
    // The drag in progress over `plot` (on screen), labelled with `timeAt` of its edges, and the
    // "Computing…" veil while busy.
    void paintDragAndBusy(QPainter& painter, QRect plot,
        const std::function<core::TimeUs(int)>& timeAt, const ChartStyle& style, int width,
        bool hasData) const;

    // Shows `tip` at the cursor (hides the tooltip when empty), with a cross cursor over a plot
    // that a drag can zoom.
    void showPlotTip(QPoint globalPos, const QString& tip, bool zoomable);

    // A drag along x: a left press starts it (mousePressEvent), followDrag() on every move (true
    // while a drag is under way, which then owns the move), releaseClick() on the release: a drag
    // emits rangeSelected() with `timeAt` its edges (clamped to the plot; not when the range is
    // empty) and returns nullopt; a click returns its press point; the release of another button
    // goes to QWidget. (`timeAt` may be empty for a chart that allows no drag.)
    bool followDrag(QPoint pos, Qt::MouseButtons buttons, QRect plot, bool allowed);
    std::optional<QPoint> releaseClick(
        QMouseEvent* event, QRect plot, const std::function<core::TimeUs(int)>& timeAt);
    [[nodiscard]] bool dragging() const { return m_dragging; }

    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

    QString m_title;
    QString m_subtitle;
    QString m_hint;
    QString m_legendHeading;
    QString m_message;
    bool m_busy = false;

private:
    bool m_showBusy = false; // set a moment after m_busy, so quick updates do not flicker
    QTimer* m_busyDelay = nullptr;
    std::optional<QPoint> m_pressPos;
    bool m_dragging = false;
    int m_dragX = 0;
};

// A ChartWidget that shows one `Data` laid out as a `Frame` (everything drawn at one size; it has
// a `size` member): setData() and clearData() replace what is shown, the frame for the widget's
// size is built on demand and kept until invalidate() (new data, a resize, a font or style
// change), and paintChart() paints that frame, or one built for another size (an export). A chart
// states only what differs: how to build and paint a frame, what makes it have data, and the
// hover state it drops (clearHover()).
template <typename Data, typename Frame> class FramedChart : public ChartWidget {
public:
    void setData(Data data)
    {
        m_data = std::move(data);
        m_message.clear();
        invalidate();
    }
    // No data: the message ("No run loaded", "No executions in this range") is shown instead.
    void clearData(const QString& message)
    {
        m_data = {};
        m_message = message;
        invalidate();
    }
    [[nodiscard]] const Data& data() const { return m_data; }

protected:
    using ChartWidget::ChartWidget;

    [[nodiscard]] virtual Frame buildFrame(QSize size) const = 0;
    virtual void paintFrame(
        QPainter& painter, const Frame& frame, const ChartStyle& style, bool onScreen) const = 0;

    // The frame for the widget's size.
    [[nodiscard]] const Frame& frame() const
    {
        if (!m_frame || m_frame->size != size())
            m_frame = buildFrame(size());
        return *m_frame;
    }
    void paintChart(
        QPainter& painter, QSize size, const ChartStyle& style, bool onScreen) const override
    {
        if (size == this->size())
            paintFrame(painter, frame(), style, onScreen);
        else
            paintFrame(painter, buildFrame(size), style, onScreen);
    }
    void invalidate() override
    {
        m_frame.reset();
        ChartWidget::invalidate();
    }

    Data m_data;

private:
    mutable std::optional<Frame> m_frame;
};

} // namespace parallax::views
