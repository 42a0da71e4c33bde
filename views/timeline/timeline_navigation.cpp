// TimelineWidget's navigation: the visible window kept inside the run, zoom around a point,
// panning, and the back/forward history of windows (a gesture recorded once).

#include "views/timeline/timeline_widget.h"
#include "views/timeline/timeline_widget_internal.h"

#include <algorithm>
#include <cmath>

namespace parallax::views {

using namespace timeline_internal;

core::TimeRange TimelineWidget::runSpan() const
{
    if (!m_trace)
        return { 0, 1 };
    return { 0, std::max<core::TimeUs>(m_trace->endTime(), kMinimumWindow) };
}

void TimelineWidget::setWindow(core::TimeRange window)
{
    applyWindow(window, History::Record);
}

void TimelineWidget::applyWindow(core::TimeRange window, History history)
{
    if (m_trace) {
        const auto span = runSpan();
        const auto length = std::clamp<core::TimeUs>(
            window.length(), kMinimumWindow, std::max(span.length(), kMinimumWindow));
        const auto begin = std::clamp<core::TimeUs>(
            window.begin, span.begin, std::max(span.begin, span.end - length));
        window = { begin, begin + length };
    } else if (window.length() < kMinimumWindow) {
        window.end = window.begin + kMinimumWindow;
    }
    if (window.begin == m_window.begin && window.end == m_window.end)
        return;
    bool recorded = false;
    if (history != History::Skip) {
        const bool continuing = history == History::Gesture && m_gestureClock.isValid()
            && m_gestureClock.elapsed() < kGesturePauseMs;
        if (!continuing) {
            m_back.push_back(m_window);
            if (m_back.size() > kHistoryLimit)
                m_back.erase(m_back.begin());
            m_forward.clear();
            recorded = true;
        }
        if (history == History::Gesture)
            m_gestureClock.restart();
        else
            m_gestureClock.invalidate();
    }
    m_window = window;
    invalidate();
    emit windowChanged(m_window);
    if (recorded)
        emit historyChanged();
}

void TimelineWidget::stepHistory(
    std::vector<core::TimeRange>& from, std::vector<core::TimeRange>& to)
{
    if (from.empty())
        return;
    const auto target = from.back();
    from.pop_back();
    to.push_back(m_window);
    m_gestureClock.invalidate();
    applyWindow(target, History::Skip);
    emit historyChanged();
}

void TimelineWidget::back()
{
    stepHistory(m_back, m_forward);
}

void TimelineWidget::forward()
{
    stepHistory(m_forward, m_back);
}

void TimelineWidget::goToStart()
{
    const auto length = m_window.length();
    setWindow({ runSpan().begin, runSpan().begin + length });
}

void TimelineWidget::goToEnd()
{
    const auto length = m_window.length();
    setWindow({ runSpan().end - length, runSpan().end });
}

void TimelineWidget::setReferenceTime(std::optional<core::TimeUs> time)
{
    if (time == m_reference)
        return;
    m_reference = time;
    invalidate();
    emit referenceChanged();
}

void TimelineWidget::fit()
{
    // The traced span (first BEGIN_COMPUTATION to the run's end), like every other view's
    // default range: comm-thread tails and start-up stay reachable by zooming out or panning.
    // setWindow() keeps the window inside runSpan().
    setWindow(m_trace && m_tracedSpan.length() >= kMinimumWindow ? m_tracedSpan : runSpan());
}

void TimelineWidget::zoom(double factor, double anchorX)
{
    zoomAt(factor, anchorX, History::Record);
}

void TimelineWidget::zoomAt(double factor, double anchorX, History history)
{
    const auto& g = currentGeometry();
    const double x = std::clamp(anchorX, g.map.left, g.map.left + g.map.width);
    const double t = static_cast<double>(g.map.timeAt(x));
    const double b = t - (t - static_cast<double>(m_window.begin)) * factor;
    const double e = t + (static_cast<double>(m_window.end) - t) * factor;
    core::TimeRange next { static_cast<core::TimeUs>(std::floor(b)),
        static_cast<core::TimeUs>(std::ceil(e)) };
    if (factor < 1.0 && next.length() < kMinimumWindow) {
        // Already at the finest zoom: keep the anchor where it is.
        const auto anchor = static_cast<core::TimeUs>(std::llround(t));
        const double share = (x - g.map.left) / std::max(g.map.width, 1.0);
        const auto begin = anchor
            - static_cast<core::TimeUs>(std::llround(share * static_cast<double>(kMinimumWindow)));
        next = { begin, begin + kMinimumWindow };
    }
    applyWindow(next, history);
}

void TimelineWidget::panBy(double dx, History history)
{
    const auto& g = currentGeometry();
    const auto shift = static_cast<core::TimeUs>(std::llround(dx * g.map.usPerPixel()));
    applyWindow({ m_window.begin + shift, m_window.end + shift }, history);
}

} // namespace parallax::views
