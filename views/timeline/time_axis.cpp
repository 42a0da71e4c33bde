// The Timeline's time axis: time <-> x (TimeMapping), the ruler's ticks (buildTimeAxis) and
// the time labels of axis and read-outs. Declared in timeline_geometry.h.

#include "views/timeline/timeline_geometry.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace parallax::views {

namespace {

// std::llround(v), inline: timeAt runs twice per pixel column of every row a frame builds, and
// the library call showed in its profile. The whole part of |v| converts exactly, and so does
// the fraction left; beyond 4e18 (or NaN) the library decides.
core::TimeUs roundedTime(double v)
{
    const double a = std::abs(v);
    if (!(a < 4e18))
        return static_cast<core::TimeUs>(std::llround(v));
    auto r = static_cast<core::TimeUs>(a);
    if (a - static_cast<double>(r) >= 0.5)
        ++r;
    return v < 0 ? -r : r;
}

} // namespace

double TimeMapping::xOf(core::TimeUs time) const
{
    const auto length = static_cast<double>(std::max<core::TimeUs>(window.length(), 1));
    return left + static_cast<double>(time - window.begin) * width / length;
}

core::TimeUs TimeMapping::timeAt(double x) const
{
    const auto length = static_cast<double>(std::max<core::TimeUs>(window.length(), 1));
    return window.begin + roundedTime((x - left) * length / std::max(width, 1e-9));
}

double TimeMapping::usPerPixel() const
{
    return static_cast<double>(std::max<core::TimeUs>(window.length(), 1)) / std::max(width, 1e-9);
}

namespace {

double niceTimeStep(double minimum)
{
    if (!(minimum > 1.0))
        return 1.0; // µs resolution: never finer than 1 µs
    const double magnitude = std::pow(10.0, std::floor(std::log10(minimum)));
    for (const double f : { 1.0, 2.0, 5.0, 10.0 })
        if (magnitude * f >= minimum * (1.0 - 1e-12))
            return magnitude * f;
    return magnitude * 10.0;
}

struct AxisUnit {
    double scale; // µs per unit
    const char* suffix;
};

AxisUnit unitForStep(double step)
{
    if (step >= 100'000.0)
        return { 1e6, " s" };
    if (step >= 100.0)
        return { 1e3, " ms" };
    return { 1.0, " µs" };
}

int decimalsFor(double step, double scale)
{
    const double inUnit = step / scale;
    if (inUnit >= 1.0)
        return 0;
    return std::clamp(static_cast<int>(std::ceil(-std::log10(inUnit) - 1e-9)), 0, 6);
}

} // namespace

QString formatAxisTime(double us, double step)
{
    const auto unit = unitForStep(step);
    const int decimals = decimalsFor(step, unit.scale);
    const double value = us / unit.scale;
    if (std::abs(value) < 0.5 * std::pow(10.0, -decimals))
        return QStringLiteral("0");
    return QLocale().toString(value, 'f', decimals) + QString::fromUtf8(unit.suffix);
}

QString formatPreciseTime(core::TimeUs us)
{
    const QLocale locale;
    const auto a = us < 0 ? -us : us;
    if (a >= 1'000'000)
        return locale.toString(static_cast<double>(us) / 1e6, 'f', 6) + QStringLiteral(" s");
    if (a >= 1'000)
        return locale.toString(static_cast<double>(us) / 1e3, 'f', 3) + QStringLiteral(" ms");
    return locale.toString(static_cast<qlonglong>(us)) + QStringLiteral(" µs");
}

TimeAxis buildTimeAxis(
    const TimeMapping& map, double minSpacing, std::optional<core::TimeUs> reference)
{
    TimeAxis axis;
    if (map.width <= 1.0 || map.window.empty())
        return axis;
    axis.step = niceTimeStep(minSpacing * map.usPerPixel());
    const double begin = static_cast<double>(map.window.begin);
    const double end = static_cast<double>(map.window.end);
    if (reference) {
        // Ticks at the reference plus whole steps, labelled by their distance from it.
        const auto ref = static_cast<double>(*reference);
        axis.origin = formatPreciseTime(*reference);
        axis.originName = QObject::tr("ref");
        const double firstStep = std::ceil((begin - ref) / axis.step);
        for (double k = firstStep; ref + k * axis.step <= end + 1e-6; k += 1.0) {
            const double t = ref + k * axis.step;
            TimeTick tick;
            tick.x = map.xOf(static_cast<core::TimeUs>(std::llround(t)));
            const double offset = k * axis.step;
            if (k == 0.0)
                tick.label = QStringLiteral("0");
            else
                tick.label = (offset > 0 ? QStringLiteral("+") : QStringLiteral("−"))
                    + formatAxisTime(std::abs(offset), axis.step);
            axis.ticks.push_back(std::move(tick));
            if (axis.ticks.size() > 10'000)
                break;
        }
        return axis;
    }
    const double first = std::ceil(begin / axis.step) * axis.step;
    // Absolute labels need about log10(end / unit) integer digits plus the decimals; beyond six
    // digits they stop being readable and become offsets from the first tick.
    const auto unit = unitForStep(axis.step);
    const double magnitude = std::max(std::abs(end), std::abs(begin)) / unit.scale;
    const int integerDigits
        = magnitude >= 1.0 ? static_cast<int>(std::floor(std::log10(magnitude))) + 1 : 1;
    const bool offsets = integerDigits + decimalsFor(axis.step, unit.scale) > 6;
    if (offsets) {
        // The origin with enough precision to place the offsets (the step's decimals).
        const auto originUnit = unitForStep(std::max(first, 1.0) >= 1e6 ? 1e6 : 1e3);
        const int originDecimals = std::clamp(
            static_cast<int>(std::ceil(std::log10(originUnit.scale / axis.step) - 1e-9)), 0, 6);
        axis.origin = QLocale().toString(first / originUnit.scale, 'f', originDecimals)
            + QString::fromUtf8(originUnit.suffix);
        axis.originName = QStringLiteral("t₀");
    }
    for (double t = first; t <= end + 1e-6; t += axis.step) {
        TimeTick tick;
        tick.x = map.xOf(static_cast<core::TimeUs>(std::llround(t)));
        if (offsets)
            tick.label = t == first ? QStringLiteral("t₀")
                                    : QStringLiteral("+") + formatAxisTime(t - first, axis.step);
        else
            tick.label = formatAxisTime(t, axis.step);
        axis.ticks.push_back(std::move(tick));
        if (axis.ticks.size() > 10'000)
            break;
    }
    return axis;
}

} // namespace parallax::views
