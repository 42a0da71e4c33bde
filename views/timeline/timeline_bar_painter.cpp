#include "views/timeline/timeline_bar_painter.h"

#include <QPaintEngine>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace parallax::views {

TimelineBarPainter::TimelineBarPainter(Colours colours, Mode mode)
    : m_colours(std::move(colours))
    , m_mode(mode)
{
    m_rgb.reserve(m_colours.activity.size());
    for (const auto& c : m_colours.activity) {
        m_rgb.push_back(qPremultiply(c.rgba()));
        const auto mix = [](int from, int to, double t) {
            return static_cast<int>(std::lround(from + (to - from) * t));
        };
        m_pale.push_back(
            qRgb(mix(c.red(), 255, 0.6), mix(c.green(), 255, 0.6), mix(c.blue(), 255, 0.6)));
        m_dark.push_back(
            qRgb(mix(c.red(), 0, 0.55), mix(c.green(), 0, 0.55), mix(c.blue(), 0, 0.55)));
    }
    m_byActivity.resize(m_colours.activity.size());
}

int TimelineBarPainter::idleInset(int barHeight)
{
    return std::max(1, barHeight / 5);
}

namespace {

// The idle band of a bar `h` pixels high: its first and last line (its edges; the same line
// when the bar is too thin for more).
struct IdleBand {
    int top;
    int bottom;
};

// TimelineBarPainter::shareHeight, here to be inlined into the per-column loops: std::lround
// done inline (the product is positive and small, its whole part and the fraction left exact).
inline int heightOfShare(float share, int barHeight)
{
    if (!(share > 0.0F))
        return 0;
    const double x = std::min(static_cast<double>(share) * barHeight, 1e9);
    auto rounded = static_cast<int>(x);
    if (x - static_cast<double>(rounded) >= 0.5)
        ++rounded;
    return std::clamp(rounded, 1, barHeight);
}

IdleBand idleBand(int h)
{
    const int inset = TimelineBarPainter::idleInset(h);
    return { std::min(inset, h - 1), std::clamp(h - 1 - inset, std::min(inset, h - 1), h - 1) };
}

} // namespace

void TimelineBarPainter::paintRow(QPainter& painter, const TimelineRow& row, int idleColumn)
{
    if (row.blocks.empty() || row.bar.width() <= 0 || row.bar.height() <= 0)
        return;
    const auto* engine = painter.paintEngine();
    const bool raster = m_mode == Mode::Auto
        ? engine != nullptr && engine->type() == QPaintEngine::Raster
        : m_mode == Mode::Raster;
    if (row.collapsed())
        paintAggregate(painter, row, raster);
    else if (raster)
        paintRaster(painter, row, idleColumn);
    else
        paintVector(painter, row, idleColumn);
}

void TimelineBarPainter::paintRaster(QPainter& painter, const TimelineRow& row, int idleColumn)
{
    const QRect& bar = row.bar;
    const int x0 = std::max(row.blocks.front().left, bar.left());
    const int x1 = std::min(row.blocks.back().right, bar.left() + bar.width());
    if (x1 <= x0)
        return;
    const auto span = static_cast<std::size_t>(x1 - x0);
    m_outer.assign(span, 0);
    m_edge.assign(span, 0);
    m_inner.assign(span, 0);
    const int h = bar.height();
    m_fill.assign(span, h);
    bool partial = false;
    const QRgb idle = qPremultiply(m_colours.idle.rgba());
    const QRgb edge = qPremultiply(m_colours.idleEdge.rgba());
    const auto columns = static_cast<int>(m_rgb.size());
    for (const auto& b : row.blocks) {
        const int l = std::max(b.left, x0) - x0;
        const int r = std::min(b.right, x1) - x0;
        if (r <= l)
            continue;
        if (b.activity == idleColumn) {
            std::fill(m_edge.begin() + l, m_edge.begin() + r, edge);
            std::fill(m_inner.begin() + l, m_inner.begin() + r, idle);
        } else if (b.activity >= 0 && b.activity < columns) {
            const QRgb c = m_rgb[static_cast<std::size_t>(b.activity)];
            std::fill(m_outer.begin() + l, m_outer.begin() + r, c);
            std::fill(m_edge.begin() + l, m_edge.begin() + r, c);
            std::fill(m_inner.begin() + l, m_inner.begin() + r, c);
            if (b.kind == TimelineBlockKind::Merged) {
                const int fill = blockHeight(b, h);
                std::fill(m_fill.begin() + l, m_fill.begin() + r, fill);
                partial = partial || fill < h;
            }
        }
    }
    if (m_image.width() < static_cast<int>(span) || m_image.height() != h)
        m_image = QImage(std::max(static_cast<int>(span), m_image.width()), h,
            QImage::Format_ARGB32_Premultiplied);
    const auto band = idleBand(h);
    for (int y = 0; y < h; ++y) {
        const auto& line = y == band.top || y == band.bottom ? m_edge
            : (y > band.top && y < band.bottom)              ? m_inner
                                                             : m_outer;
        std::memcpy(m_image.scanLine(y), line.data(), span * sizeof(QRgb));
    }
    // Merged pixels of executions are only as high as the share of time they were busy.
    if (partial)
        for (std::size_t x = 0; x < span; ++x)
            for (int y = 0; y < h - m_fill[x]; ++y)
                reinterpret_cast<QRgb*>(m_image.scanLine(y))[x] = 0;
    painter.drawImage(QRect(x0, bar.top(), static_cast<int>(span), h), m_image,
        QRect(0, 0, static_cast<int>(span), h));
}

int TimelineBarPainter::blockHeight(const TimelineBlock& block, int barHeight)
{
    if (block.kind != TimelineBlockKind::Merged && block.kind != TimelineBlockKind::Aggregate)
        return barHeight;
    return aggregateHeight(block, barHeight);
}

int TimelineBarPainter::aggregateHeight(const TimelineBlock& block, int barHeight)
{
    return heightOfShare(block.utilization, barHeight);
}

int TimelineBarPainter::shareHeight(float share, int barHeight)
{
    return heightOfShare(share, barHeight);
}

TimelineBarPainter::SpreadHeights TimelineBarPainter::spreadHeights(
    const TimelineBlock& block, const TimelineSpread& spread, int barHeight)
{
    // The coarse spread of a far zoom can miss the mean by a rounding: keep low <= mean <= high.
    const float mean = block.utilization;
    const int m = heightOfShare(mean, barHeight);
    return { std::min(heightOfShare(std::min(spread.low, mean), barHeight), m), m,
        std::max(heightOfShare(std::max(spread.high, mean), barHeight), m) };
}

void TimelineBarPainter::paintAggregateColumns(const TimelineRow& row, int x0, int x1)
{
    const int h = row.bar.height();
    const auto columns = static_cast<int>(m_rgb.size());
    const int span = x1 - x0;
    for (int y = 0; y < h; ++y)
        std::memset(m_image.scanLine(y), 0, static_cast<std::size_t>(span) * sizeof(QRgb));
    const bool set = row.spread.size() == row.blocks.size();
    m_lines.resize(static_cast<std::size_t>(h));
    for (int y = 0; y < h; ++y)
        m_lines[static_cast<std::size_t>(y)] = reinterpret_cast<QRgb*>(m_image.scanLine(y));
    for (std::size_t i = 0; i < row.blocks.size(); ++i) {
        const auto& b = row.blocks[i];
        if (b.activity < 0 || b.activity >= columns)
            continue;
        const auto a = static_cast<std::size_t>(b.activity);
        const auto column = [&](int from, int to, QRgb c) {
            for (int x = std::max(b.left, x0); x < std::min(b.right, x1); ++x)
                for (int y = h - to; y < h - from; ++y)
                    m_lines[static_cast<std::size_t>(y)][x - x0] = c;
        };
        if (!set) {
            column(0, aggregateHeight(b, h), m_rgb[a]);
            continue;
        }
        const auto s = spreadHeights(b, row.spread[i], h);
        column(0, s.low, m_rgb[a]);
        column(s.low, s.high, m_pale[a]);
        if (s.mean > 0)
            column(s.mean - 1, s.mean, m_dark[a]);
    }
}

void TimelineBarPainter::paintAggregate(QPainter& painter, const TimelineRow& row, bool raster)
{
    const QRect& bar = row.bar;
    const int h = bar.height();
    const auto columns = static_cast<int>(m_rgb.size());
    if (raster) {
        const int x0 = std::max(row.blocks.front().left, bar.left());
        const int x1 = std::min(row.blocks.back().right, bar.left() + bar.width());
        if (x1 <= x0)
            return;
        const int span = x1 - x0;
        if (m_image.width() < span || m_image.height() != h)
            m_image
                = QImage(std::max(span, m_image.width()), h, QImage::Format_ARGB32_Premultiplied);
        const bool set = row.spread.size() == row.blocks.size();
        // Per pixel column its heights (solid up to low, pale up to high, the mean's line) and
        // colours, then the image written line by line (transparent above the bar).
        auto& c = m_columns;
        const auto n = static_cast<std::size_t>(span);
        c.low.assign(n, 0);
        c.high.assign(n, 0);
        c.meanLine.assign(n, -1);
        c.solid.assign(n, 0);
        c.pale.assign(n, 0);
        c.dark.assign(n, 0);
        int previousRight = std::numeric_limits<int>::min();
        int tallest = 0;
        for (std::size_t i = 0; i < row.blocks.size(); ++i) {
            const auto& b = row.blocks[i];
            if (b.activity < 0 || b.activity >= columns)
                continue;
            if (b.left < previousRight) {
                // Blocks sharing a column (not what a group row holds): drawn one over another.
                paintAggregateColumns(row, x0, x1);
                painter.drawImage(QRect(x0, bar.top(), span, h), m_image, QRect(0, 0, span, h));
                return;
            }
            previousRight = std::max(previousRight, b.right);
            const auto a = static_cast<std::size_t>(b.activity);
            const auto heights = set ? spreadHeights(b, row.spread[i], h)
                                     : SpreadHeights { aggregateHeight(b, h), 0, 0 };
            for (int x = std::max(b.left, x0); x < std::min(b.right, x1); ++x) {
                const auto k = static_cast<std::size_t>(x - x0);
                c.low[k] = heights.low;
                c.high[k] = set ? heights.high : heights.low;
                c.meanLine[k] = heights.mean - 1;
                c.solid[k] = m_rgb[a];
                c.pale[k] = set ? m_pale[a] : 0;
                c.dark[k] = set ? m_dark[a] : 0;
            }
            tallest = std::max(tallest, set ? heights.high : heights.low);
        }
        for (int y = 0; y < h; ++y) {
            auto* line = reinterpret_cast<QRgb*>(m_image.scanLine(y));
            const int d = h - 1 - y; // pixels above the bar's bottom line
            if (d >= tallest) {
                std::memset(line, 0, n * sizeof(QRgb));
                continue;
            }
            // Every value read first, then selects only: the compiler vectorizes the loop.
            const int* low = c.low.data();
            const int* high = c.high.data();
            const int* meanLine = c.meanLine.data();
            const QRgb* solid = c.solid.data();
            const QRgb* pale = c.pale.data();
            const QRgb* dark = c.dark.data();
            if (!set) {
                for (std::size_t x = 0; x < n; ++x) {
                    const int l = low[x];
                    const QRgb s = solid[x];
                    line[x] = d < l ? s : 0U;
                }
                continue;
            }
            for (std::size_t x = 0; x < n; ++x) {
                const int l = low[x];
                const int hi = high[x];
                const int m = meanLine[x];
                const QRgb s = solid[x];
                const QRgb p = pale[x];
                const QRgb k = dark[x];
                const QRgb under = d < l ? s : p;
                const QRgb v = d < hi ? under : 0U;
                line[x] = d == m ? k : v;
            }
        }
        painter.drawImage(QRect(x0, bar.top(), span, h), m_image, QRect(0, 0, span, h));
        return;
    }
    // Vector devices: one rectangle per block and part, grouped by colour.
    const bool set = row.spread.size() == row.blocks.size();
    const std::size_t kinds = set ? 3 : 1;
    for (auto& v : m_byActivity)
        v.clear();
    m_byActivity.resize(kinds * m_colours.activity.size());
    const auto rect = [&](const TimelineBlock& b, std::size_t kind, int from, int to) {
        if (to > from)
            m_byActivity[kind * m_colours.activity.size() + static_cast<std::size_t>(b.activity)]
                .emplace_back(b.left, bar.top() + h - to, b.right - b.left, to - from);
    };
    for (std::size_t i = 0; i < row.blocks.size(); ++i) {
        const auto& b = row.blocks[i];
        if (b.activity < 0 || b.activity >= columns)
            continue;
        if (!set) {
            rect(b, 0, 0, aggregateHeight(b, h));
            continue;
        }
        const auto s = spreadHeights(b, row.spread[i], h);
        rect(b, 1, s.low, s.high);
        rect(b, 0, 0, s.low);
        if (s.mean > 0)
            rect(b, 2, s.mean - 1, s.mean);
    }
    painter.save();
    painter.setPen(Qt::NoPen);
    // Pale bands first, then the solid parts, then the mean marks over them.
    for (const std::size_t kind : { std::size_t { 1 }, std::size_t { 0 }, std::size_t { 2 } }) {
        if (kind >= kinds)
            continue;
        for (std::size_t a = 0; a < m_colours.activity.size(); ++a) {
            const auto& rects = m_byActivity[kind * m_colours.activity.size() + a];
            if (rects.empty())
                continue;
            painter.setBrush(kind == 0 ? m_colours.activity[a]
                    : kind == 1        ? QColor(m_pale[a])
                                       : QColor(m_dark[a]));
            painter.drawRects(rects.data(), static_cast<int>(rects.size()));
        }
    }
    painter.restore();
}

void TimelineBarPainter::paintVector(QPainter& painter, const TimelineRow& row, int idleColumn)
{
    for (auto& v : m_byActivity)
        v.clear();
    m_idleRects.clear();
    const auto band = idleBand(row.bar.height());
    for (const auto& b : row.blocks) {
        if (b.activity == idleColumn)
            m_idleRects.emplace_back(
                b.left, row.bar.top() + band.top, b.right - b.left, band.bottom - band.top + 1);
        else if (b.activity >= 0
            && static_cast<std::size_t>(b.activity) < m_colours.activity.size()) {
            const int height = blockHeight(b, row.bar.height());
            m_byActivity[static_cast<std::size_t>(b.activity)].emplace_back(
                b.left, row.bar.top() + row.bar.height() - height, b.right - b.left, height);
        }
    }
    painter.save();
    painter.setPen(Qt::NoPen);
    if (!m_idleRects.empty()) {
        painter.setBrush(m_colours.idle);
        painter.drawRects(m_idleRects.data(), static_cast<int>(m_idleRects.size()));
        // Thin darker edges top and bottom so idle reads as "waiting", not as a block.
        painter.setBrush(m_colours.idleEdge);
        for (const auto& r : m_idleRects) {
            painter.drawRect(QRect(r.left(), r.top(), r.width(), 1));
            painter.drawRect(QRect(r.left(), r.bottom(), r.width(), 1));
        }
    }
    for (std::size_t a = 0; a < m_colours.activity.size(); ++a) {
        const auto& rects = m_byActivity[a];
        if (rects.empty())
            continue;
        painter.setBrush(m_colours.activity[a]);
        painter.drawRects(rects.data(), static_cast<int>(rects.size()));
    }
    painter.restore();
}

} // namespace parallax::views
