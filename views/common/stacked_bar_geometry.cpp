#include "views/common/stacked_bar_geometry.h"

#include "views/common/pixel_math.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <limits>

namespace parallax::views {

namespace {

using core::TimeUs;

// Enough decimals to tell ticks `step` apart: a step of 0.2 needs one, 0.05 two.
int decimalsFor(double step)
{
    if (!(step > 0.0) || step >= 1.0)
        return 0;
    return std::clamp(static_cast<int>(std::ceil(-std::log10(step) - 1e-9)), 0, 6);
}

QString number(double v, int decimals)
{
    if (std::abs(v) < 1e-12)
        v = 0.0; // no "-0"
    return QLocale().toString(v, 'f', decimals);
}

// Scale and suffix for a value of magnitude `top` in `unit`.
struct Prefix {
    double scale = 1.0;
    const char* suffix = "";
};

Prefix prefixFor(BarUnit unit, double top)
{
    const double a = std::abs(top);
    switch (unit) {
    case BarUnit::Percent:
        return { 1.0, " %" };
    case BarUnit::Time:
        if (a >= 1e6)
            return { 1e6, " s" };
        if (a >= 1e3)
            return { 1e3, " ms" };
        return { 1.0, " µs" };
    case BarUnit::Bytes:
        if (a >= 1e9)
            return { 1e9, " GB" };
        if (a >= 1e6)
            return { 1e6, " MB" };
        if (a >= 1e3)
            return { 1e3, " kB" };
        return { 1.0, " B" };
    case BarUnit::Count:
    case BarUnit::Messages:
        if (a >= 1e9)
            return { 1e9, " G" };
        if (a >= 1e6)
            return { 1e6, " M" };
        if (a >= 1e4)
            return { 1e3, " k" };
        return { 1.0, "" };
    }
    return {};
}

struct Slot {
    double left = 0.0;
    double right = 0.0;
    [[nodiscard]] double center() const { return (left + right) / 2.0; }
};

struct YScale {
    double maximum = 1.0; // the value at the top of the plot
    double step = 1.0; // linear: between ticks; log: the factor between ticks (10, 100, ...)
    bool log = false;
    double minimum = 0.0; // log: the value at the baseline

    // Pixels above the baseline for a value, on a plot `height` pixels high.
    [[nodiscard]] double heightOf(double v, double height) const
    {
        double f = 0.0;
        if (!log)
            f = v / maximum;
        else if (v > minimum)
            f = std::log10(v / minimum) / std::log10(maximum / minimum);
        return std::clamp(f, 0.0, 1.0) * height;
    }
};

YScale yScaleFor(const StackedBarData& data, double dataMax, double dataMinPositive,
    double plotHeight, double spacing)
{
    const double maxTicks = std::max(2.0, std::floor(plotHeight / std::max(spacing, 1.0)));
    if (data.logScale && dataMax > 0.0) {
        // Decades from the one below the smallest bar to the one at or above the largest.
        YScale s;
        s.log = true;
        s.maximum = std::pow(10.0, std::ceil(std::log10(dataMax) - 1e-9));
        const double lowest = dataMinPositive > 0.0 ? dataMinPositive : dataMax;
        s.minimum = std::pow(10.0, std::floor(std::log10(lowest) + 1e-9));
        if (s.minimum >= lowest * (1.0 - 1e-9))
            s.minimum /= 10.0; // the smallest bar keeps some height
        s.minimum = std::min(s.minimum, s.maximum / 10.0);
        const double decades = std::round(std::log10(s.maximum / s.minimum));
        s.step = std::pow(10.0, std::ceil(decades / maxTicks));
        return s;
    }
    double top = dataMax;
    if (data.yMaximum && *data.yMaximum > 0)
        top = std::max(top, *data.yMaximum);
    if (!(top > 0))
        top = 1.0;
    double step = niceStep(top / maxTicks);
    const bool integral = data.unit == BarUnit::Count || data.unit == BarUnit::Messages
        || data.unit == BarUnit::Bytes;
    if (integral && top >= 1.0)
        step = std::max(step, 1.0);
    YScale s;
    s.step = step;
    if (data.yMaximum && dataMax <= *data.yMaximum * (1 + 1e-9)
        && std::abs(std::remainder(*data.yMaximum, step)) < step * 1e-6)
        s.maximum = *data.yMaximum;
    else
        s.maximum = std::ceil(top / step - 1e-9) * step;
    return s;
}

// Ticks with `position` holding the value (the caller maps it to pixels).
std::vector<BarTick> yTickLabels(const StackedBarData& data, const YScale& s)
{
    std::vector<BarTick> ticks;
    if (s.log) {
        for (double v = s.minimum; v <= s.maximum * (1 + 1e-9); v *= s.step)
            ticks.push_back({ v, formatAxisValue(v, data.unit, v, v) });
        return ticks;
    }
    const auto count = static_cast<long long>(std::floor(s.maximum / s.step + 1e-9));
    for (long long i = 0; i <= count; ++i) {
        const double v = static_cast<double>(i) * s.step;
        ticks.push_back({ v, formatAxisValue(v, data.unit, s.step, s.maximum) });
    }
    return ticks;
}

double widest(const std::vector<BarTick>& ticks, const std::function<double(const QString&)>& w)
{
    double m = 0.0;
    for (const auto& t : ticks)
        m = std::max(m, w(t.label));
    return m;
}

// Category slots in widget x (doubles), for a plot spanning [left, left + width).
std::vector<Slot> categorySlots(
    const StackedBarData& data, double left, double width, const BarLayout& layout)
{
    const auto n = data.categories.size();
    std::vector<Slot> positions(n);
    if (data.axis == BarAxis::Time) {
        const auto t0 = data.categories.front().span->begin;
        TimeUs t1 = t0 + 1;
        for (const auto& c : data.categories)
            t1 = std::max(t1, c.span->end);
        const double scale = width / static_cast<double>(t1 - t0);
        for (std::size_t i = 0; i < n; ++i) {
            const auto& span = *data.categories[i].span;
            positions[i] = { left + static_cast<double>(span.begin - t0) * scale,
                left + static_cast<double>(span.end - t0) * scale };
        }
        return positions;
    }
    std::size_t separators = 0;
    for (std::size_t i = 1; i < n; ++i)
        separators += data.categories[i].separatorBefore ? 1U : 0U;
    const double seps = static_cast<double>(separators);
    double slot = width / (static_cast<double>(n) + layout.separatorGap * seps);
    double gap = layout.separatorGap * slot;
    if (gap > layout.maxSeparatorGap) {
        gap = layout.maxSeparatorGap;
        slot = (width - gap * seps) / static_cast<double>(n);
    }
    double x = left;
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0 && data.categories[i].separatorBefore)
            x += gap;
        positions[i] = { x, x + slot };
        x += slot;
    }
    return positions;
}

} // namespace

double StackedBarData::total(std::size_t category) const
{
    double sum = 0.0;
    const auto s = series.size();
    for (std::size_t k = 0; k < s; ++k)
        sum += values[category * s + k];
    return sum;
}

std::vector<double> StackedBarData::seriesTotals() const
{
    std::vector<double> totals(series.size(), 0.0);
    const auto s = series.size();
    for (std::size_t c = 0; c < categories.size(); ++c)
        for (std::size_t k = 0; k < s; ++k)
            totals[k] += values[c * s + k];
    return totals;
}

bool StackedBarData::valid() const
{
    if (values.size() != categories.size() * series.size())
        return false;
    if (!secondary.empty() && secondary.size() != values.size())
        return false;
    if (axis == BarAxis::Time)
        for (const auto& c : categories)
            if (!c.span || c.span->empty())
                return false;
    return true;
}

double niceStep(double minimum)
{
    if (!(minimum > 0.0) || !std::isfinite(minimum))
        return 1.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(minimum)));
    for (const double m : { 1.0, 2.0, 5.0, 10.0 })
        if (m * magnitude >= minimum * (1.0 - 1e-12))
            return m * magnitude;
    return 10.0 * magnitude;
}

QString formatAxisValue(double value, BarUnit unit, double step, double top)
{
    if (std::abs(value) < step * 1e-9)
        return unit == BarUnit::Percent ? QStringLiteral("0 %") : QStringLiteral("0");
    const auto p = prefixFor(unit, top);
    return number(value / p.scale, decimalsFor(step / p.scale)) + QString::fromUtf8(p.suffix);
}

QString formatTime(double us)
{
    const double a = std::abs(us);
    if (a < 1e3)
        return number(us, a >= 100 || us == std::floor(us) ? 0 : 1) + QStringLiteral(" µs");
    if (a < 1e6)
        return QLocale().toString(us / 1e3, 'g', 4) + QStringLiteral(" ms");
    return QLocale().toString(us / 1e6, 'g', 5) + QStringLiteral(" s");
}

QString formatBarValue(double value, BarUnit unit)
{
    const QLocale locale;
    switch (unit) {
    case BarUnit::Percent:
        return number(value, std::abs(value) >= 10 ? 1 : 2) + QStringLiteral(" %");
    case BarUnit::Time:
        return formatTime(value);
    case BarUnit::Count:
    case BarUnit::Messages:
        if (value == std::floor(value) && std::abs(value) < 1e15)
            return locale.toString(static_cast<qlonglong>(value));
        return number(value, std::abs(value) >= 100 ? 1 : 2);
    case BarUnit::Bytes: {
        const auto p = prefixFor(unit, value);
        if (p.scale == 1.0)
            return number(value, value == std::floor(value) ? 0 : 1) + QStringLiteral(" B");
        return locale.toString(value / p.scale, 'g', 4) + QString::fromUtf8(p.suffix);
    }
    }
    return {};
}

QString formatTimeSpan(core::TimeRange span)
{
    return (span.begin == 0 ? QStringLiteral("0") : formatTime(static_cast<double>(span.begin)))
        + QStringLiteral(" – ") + formatTime(static_cast<double>(span.end));
}

StackedBarGeometry buildStackedBars(const StackedBarData& data, QSize size, const BarLayout& layout)
{
    StackedBarGeometry g;
    g.yTitle = data.yTitle;
    g.xTitle = data.xTitle;
    const auto textWidth = [&layout](const QString& s) {
        return layout.widthOf(s);
    };
    const auto n = data.categories.size();
    const auto seriesCount = data.series.size();
    if (n == 0 || seriesCount == 0 || !data.valid())
        return g;

    const double line = layout.lineHeight;
    const double top = layout.plotTop();
    const double bottom = layout.plotBottom(size.height());
    const double plotHeight = bottom - top;
    if (plotHeight < 2.0 * line)
        return g;

    // The raw maximum gives the first y scale (and the room for its labels); the columns' own
    // maximum (lower where categories are averaged) gives the final one.
    double rawMax = 0.0;
    double rawMin = 0.0; // smallest positive total
    for (std::size_t c = 0; c < n; ++c) {
        const double t = data.total(c);
        rawMax = std::max(rawMax, t);
        if (t > 0.0 && (rawMin == 0.0 || t < rawMin))
            rawMin = t;
    }
    auto leftMarginFor = [&](const std::vector<BarTick>& ticks) {
        return layout.plotLeft(widest(ticks, textWidth));
    };
    YScale scale = yScaleFor(data, rawMax, rawMin, plotHeight, layout.minYTickSpacing);
    double left = leftMarginFor(yTickLabels(data, scale));
    // Half a label of room on the right for the last x label.
    const double rightMargin = std::ceil(layout.margins.right() + line);

    const int plotTop = toPixel(top);
    const int plotHeightPx = toPixel(plotHeight);
    const int baseline = plotTop + plotHeightPx; // the row just below the plot

    for (int pass = 0; pass < 2; ++pass) {
        g.columns.clear();
        g.segments.clear();
        const double width = std::floor(static_cast<double>(size.width()) - left - rightMargin);
        if (width < 2.0 * line)
            return StackedBarGeometry {};
        const int plotLeft = toPixel(left);
        const int plotWidth = toPixel(width);
        g.plot = QRect(plotLeft, plotTop, plotWidth, plotHeightPx);
        const auto positions = categorySlots(data, static_cast<double>(plotLeft), width, layout);
        double slotWidth = width / static_cast<double>(n);
        if (data.axis == BarAxis::Categorical)
            slotWidth = positions.front().right - positions.front().left;
        const bool dense = slotWidth < layout.minBarPixels;
        g.merged = false;

        // Columns: one per category, or one per pixel column holding the categories whose
        // centre falls in it (a pixel column without one shows its neighbour on the left).
        std::vector<double> values(seriesCount);
        std::vector<std::pair<BarColumn, std::vector<double>>> built;
        auto addColumn
            = [&](std::size_t first, std::size_t last, QRect slot, int barLeft, int barRight) {
                  BarColumn col;
                  col.firstCategory = first;
                  col.lastCategory = last;
                  col.slot = slot;
                  std::fill(values.begin(), values.end(), 0.0);
                  for (std::size_t c = first; c < last; ++c)
                      for (std::size_t s = 0; s < seriesCount; ++s)
                          values[s] += data.values[c * seriesCount + s];
                  const double count = static_cast<double>(last - first);
                  double total = 0.0;
                  for (auto& v : values) {
                      v /= count;
                      total += v;
                  }
                  col.total = total;
                  col.bar = QRect(barLeft, baseline, std::max(1, barRight - barLeft), 0);
                  built.emplace_back(col, values);
              };
        if (!dense) {
            for (std::size_t i = 0; i < n; ++i) {
                const int l = toPixel(positions[i].left);
                const int r = std::max(l + 1, toPixel(positions[i].right));
                int bl = l;
                int br = r;
                if (data.contiguous) {
                    if (r - l >= 5)
                        br = r - 1;
                } else {
                    const double w = std::min(slotWidth * layout.barFill, layout.maxBarWidth);
                    bl = toPixel(positions[i].center() - w / 2.0);
                    br = bl + std::max(1, toPixel(w));
                }
                addColumn(i, i + 1, QRect(l, plotTop, r - l, plotHeightPx), bl, br);
            }
        } else {
            g.merged = true;
            std::size_t i = 0;
            while (i < n) {
                const auto pixel = static_cast<int>(std::floor(positions[i].center()));
                std::size_t j = i + 1;
                while (j < n && static_cast<int>(std::floor(positions[j].center())) == pixel)
                    ++j;
                const int next = j < n ? static_cast<int>(std::floor(positions[j].center()))
                                       : std::numeric_limits<int>::max();
                // Adjacent categories (intervals, bins) leave no pixel column empty.
                const bool adjacent = j < n && positions[j].left - positions[j - 1].right < 1.0;
                const int right = adjacent ? std::max(pixel + 1, next)
                                           : std::max(pixel + 1, toPixel(positions[j - 1].right));
                addColumn(i, j, QRect(pixel, plotTop, right - pixel, plotHeightPx), pixel, right);
                i = j;
            }
        }

        double columnMax = 0.0;
        double columnMin = 0.0;
        for (const auto& [col, v] : built) {
            columnMax = std::max(columnMax, col.total);
            // On a log axis the lowest boundary drawn is a bar's first segment, not its total.
            double lowest = col.total;
            if (data.logScale)
                for (const double value : v)
                    if (value > 0.0) {
                        lowest = value;
                        break;
                    }
            if (lowest > 0.0 && (columnMin == 0.0 || lowest < columnMin))
                columnMin = lowest;
        }
        const YScale finalScale
            = yScaleFor(data, columnMax, columnMin, plotHeight, layout.minYTickSpacing);
        const double finalLeft = leftMarginFor(yTickLabels(data, finalScale));
        if (finalLeft > left && pass == 0) {
            left = finalLeft; // wider labels than estimated: lay out again
            built.clear();
            continue;
        }
        scale = finalScale;

        // Stacks: cumulative values rounded to whole pixels, so segments share edges. On a log
        // axis too the boundaries are the linear cumulative sums mapped to the axis, so the top
        // of a stack reads as its total and each boundary as the sum below it.
        const auto h = static_cast<double>(plotHeightPx);
        auto yOf = [&](double cumulative) {
            return baseline - toPixel(std::clamp(scale.heightOf(cumulative, h), 0.0, h));
        };
        g.seriesRects.assign(seriesCount, {});
        g.columns.reserve(built.size());
        for (auto& [col, v] : built) {
            col.firstSegment = g.segments.size();
            double cumulative = 0.0;
            int previous = baseline;
            for (std::size_t s = 0; s < seriesCount; ++s) {
                if (!(v[s] > 0.0))
                    continue;
                cumulative += v[s];
                const int y = yOf(cumulative);
                if (y >= previous)
                    continue;
                const QRect rect(col.bar.left(), y, col.bar.width(), previous - y);
                g.segments.push_back({ s, rect, v[s] });
                g.seriesRects[s].push_back(rect);
                previous = y;
            }
            col.lastSegment = g.segments.size();
            col.bar = QRect(col.bar.left(), previous, col.bar.width(), baseline - previous);
            g.columns.push_back(col);
            if (col.categoryCount() == 1 && col.firstCategory < data.spreads.size()
                && data.spreads[col.firstCategory]) {
                const auto& spread = *data.spreads[col.firstCategory];
                BarSpreadMark mark;
                mark.category = col.firstCategory;
                mark.x = col.bar.left() + col.bar.width() / 2;
                const int whiskerTop = yOf(spread.high);
                mark.whisker = QRect(mark.x, whiskerTop, 0, yOf(spread.low) - whiskerTop);
                mark.capWidth = std::max(3, col.bar.width() / 2);
                const int bandTop = yOf(spread.bandHigh);
                // The band is half the bar wide, centred, like the box of a box plot.
                const int bandWidth = std::max(3, col.bar.width() / 2);
                mark.band = QRect(mark.x - bandWidth / 2, bandTop, bandWidth,
                    std::max(1, yOf(spread.bandLow) - bandTop));
                g.spreads.push_back(mark);
            }
        }
        break;
    }
    g.yMaximum = scale.maximum;
    g.yStep = scale.step;
    g.yLog = scale.log;
    g.yMinimum = scale.log ? scale.minimum : 0.0;

    // Y ticks.
    for (auto tick : yTickLabels(data, scale)) {
        tick.position = static_cast<double>(baseline)
            - scale.heightOf(tick.position, static_cast<double>(plotHeightPx));
        g.yTicks.push_back(tick);
    }
    g.placeLabels(line, layout.tickLength, layout.margins.left());

    const double plotLeft = g.plot.left();
    const double plotRight = plotLeft + g.plot.width();
    const auto positions = categorySlots(data, plotLeft, g.plot.width(), layout);
    // Separators, halfway through the gap before the category.
    for (std::size_t i = 1; i < n; ++i)
        if (data.categories[i].separatorBefore && data.axis == BarAxis::Categorical)
            g.separators.push_back(toPixel((positions[i - 1].right + positions[i].left) / 2.0));

    // X ticks.
    auto placeLabels = [&](std::vector<BarTick> candidates, const std::vector<bool>& pinned) {
        // Left to right; a label overlapping the previous one is dropped, unless it is pinned,
        // then the previous one goes (when that one is not pinned too).
        std::vector<std::pair<double, double>> extents; // of the kept labels
        std::vector<bool> keptPinned;
        for (std::size_t k = 0; k < candidates.size(); ++k) {
            const double w = textWidth(candidates[k].label);
            double l = candidates[k].position - w / 2.0;
            const double lowest = layout.margins.left();
            l = std::clamp(
                l, lowest, std::max(lowest, static_cast<double>(size.width()) - w - 1.0));
            const double r = l + w;
            while (!extents.empty() && l < extents.back().second + layout.labelGap) {
                if (pinned[k] && !keptPinned.back()) {
                    extents.pop_back();
                    keptPinned.pop_back();
                    g.xTicks.pop_back();
                    continue;
                }
                break;
            }
            if (!extents.empty() && l < extents.back().second + layout.labelGap)
                continue;
            extents.emplace_back(l, r);
            keptPinned.push_back(pinned[k]);
            g.xTicks.push_back(candidates[k]);
        }
    };
    if (data.axis == BarAxis::Time) {
        TimeUs t0 = data.categories.front().span->begin;
        TimeUs t1 = t0 + 1;
        for (const auto& c : data.categories)
            t1 = std::max(t1, c.span->end);
        g.timeSpan = { t0, t1 };
        const double duration = static_cast<double>(t1 - t0);
        double labelWidth = textWidth(QStringLiteral("0,000.0")) + layout.labelGap;
        double stepUs = 1.0;
        struct TimeUnitChoice {
            double us;
            const char* name;
        } unit { 1.0, "µs" };
        for (int attempt = 0; attempt < 8; ++attempt) {
            const double maxTicks = std::max(1.0, std::floor(g.plot.width() / labelWidth));
            stepUs = std::max(1.0, niceStep(duration / maxTicks));
            unit = stepUs >= 1e5 ? TimeUnitChoice { 1e6, "s" }
                : stepUs >= 100  ? TimeUnitChoice { 1e3, "ms" }
                                 : TimeUnitChoice { 1.0, "µs" };
            const int decimals = decimalsFor(stepUs / unit.us);
            const double widestLabel
                = std::max(textWidth(number(static_cast<double>(t0) / unit.us, decimals)),
                    textWidth(number(static_cast<double>(t1) / unit.us, decimals)));
            if (widestLabel + layout.labelGap <= labelWidth)
                break;
            labelWidth = widestLabel + layout.labelGap;
        }
        const int decimals = decimalsFor(stepUs / unit.us);
        std::vector<BarTick> candidates;
        const double first = std::ceil(static_cast<double>(t0) / stepUs - 1e-9) * stepUs;
        for (double t = first; t <= static_cast<double>(t1) + 1e-6; t += stepUs) {
            const double x = plotLeft + (t - static_cast<double>(t0)) / duration * g.plot.width();
            if (x < plotLeft - 0.5 || x > plotRight + 0.5)
                continue;
            candidates.push_back({ x, number(t / unit.us, decimals) });
        }
        const std::vector<bool> pinned(candidates.size(), false);
        placeLabels(std::move(candidates), pinned);
        g.xTitle = data.xTitle.isEmpty()
            ? QString::fromUtf8(unit.name)
            : data.xTitle + QStringLiteral(" (%1)").arg(QString::fromUtf8(unit.name));
    } else {
        // Categorical: every k-th label within each group (groups start at separators), k a
        // nice stride wide enough for the longest label; group starts are pinned.
        std::size_t longest = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (data.categories[i].label.size() > data.categories[longest].label.size())
                longest = i;
        const double slotWidth = positions.front().right - positions.front().left;
        const double need = textWidth(data.categories[longest].label) + layout.labelGap;
        std::size_t stride = 1;
        while (static_cast<double>(stride) * slotWidth < need && stride < n)
            stride = static_cast<std::size_t>(niceStep(static_cast<double>(stride) + 0.5));
        // Bins with values: labels at multiples of a nice value step of at least `stride` bins.
        double valueStep = 0.0;
        if (data.edgeLabels && n >= 2 && data.categories[0].value && data.categories[1].value) {
            const double binWidth = *data.categories[1].value - *data.categories[0].value;
            if (binWidth > 0.0)
                valueStep = niceStep(static_cast<double>(stride) * binWidth * (1.0 - 1e-9));
        }
        auto onStep = [valueStep](const StackedBarCategory& c) {
            if (!c.value)
                return false;
            const double k = *c.value / valueStep;
            return std::abs(k - std::round(k)) < 1e-6;
        };
        std::vector<BarTick> candidates;
        std::vector<bool> pinned;
        std::size_t indexInGroup = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const bool groupStart = i == 0 || data.categories[i].separatorBefore;
            if (groupStart)
                indexInGroup = 0;
            const bool wanted = valueStep > 0.0 ? groupStart || onStep(data.categories[i])
                                                : indexInGroup % stride == 0;
            if (wanted && !data.categories[i].label.isEmpty()) {
                const bool atEdge = data.edgeLabels && !(i > 0 && groupStart);
                candidates.push_back({ atEdge ? positions[i].left : positions[i].center(),
                    data.categories[i].label });
                pinned.push_back(groupStart && (i > 0 || valueStep <= 0.0));
            }
            ++indexInGroup;
        }
        placeLabels(std::move(candidates), pinned);
    }
    return g;
}

std::optional<BarHit> hitTestBars(const StackedBarGeometry& g, double x, double y)
{
    if (g.columns.empty() || y < g.plot.top() || y >= g.plot.top() + g.plot.height())
        return std::nullopt;
    const auto px = static_cast<int>(std::floor(x));
    const auto py = static_cast<int>(std::floor(y));
    // First column whose slot ends after px.
    const auto it = std::partition_point(g.columns.begin(), g.columns.end(),
        [px](const BarColumn& c) { return c.slot.left() + c.slot.width() <= px; });
    if (it == g.columns.end() || px < it->slot.left())
        return std::nullopt;
    BarHit hit;
    hit.column = static_cast<std::size_t>(it - g.columns.begin());
    const auto count = it->categoryCount();
    const double fraction = (x - it->slot.left()) / std::max(1, it->slot.width());
    hit.category = it->firstCategory
        + std::min(count - 1,
            static_cast<std::size_t>(std::max(0.0, fraction) * static_cast<double>(count)));
    if (px >= it->bar.left() && px < it->bar.left() + it->bar.width())
        for (std::size_t s = it->firstSegment; s < it->lastSegment; ++s) {
            const auto& r = g.segments[s].rect;
            if (py >= r.top() && py < r.top() + r.height()) {
                hit.series = g.segments[s].series;
                hit.segment = s;
                break;
            }
        }
    return hit;
}

std::optional<std::size_t> columnOfCategory(const StackedBarGeometry& g, std::size_t category)
{
    const auto it = std::partition_point(g.columns.begin(), g.columns.end(),
        [category](const BarColumn& c) { return c.lastCategory <= category; });
    if (it == g.columns.end() || category < it->firstCategory)
        return std::nullopt;
    return static_cast<std::size_t>(it - g.columns.begin());
}

core::TimeUs timeAtX(const ChartAxes& g, double x)
{
    if (g.plot.width() <= 0)
        return g.timeSpan.begin;
    const double f = std::clamp((x - g.plot.left()) / g.plot.width(), 0.0, 1.0);
    return g.timeSpan.begin
        + static_cast<core::TimeUs>(std::llround(f * static_cast<double>(g.timeSpan.length())));
}

double xOfTime(const ChartAxes& g, core::TimeUs time)
{
    const auto length = std::max<core::TimeUs>(g.timeSpan.length(), 1);
    return g.plot.left()
        + static_cast<double>(time - g.timeSpan.begin) / static_cast<double>(length)
        * g.plot.width();
}

} // namespace parallax::views
