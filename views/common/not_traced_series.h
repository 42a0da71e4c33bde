#pragma once

#include "views/common/stacked_bar_geometry.h"

#include <QColor>
#include <QCoreApplication>

#include <algorithm>
#include <vector>

namespace parallax::views {

// The colour of time a PE was not traced (before its BEGIN_COMPUTATION, after its
// END_COMPUTATION, in a tracing gap): a neutral sand, unlike idle's light grey.
inline QColor notTracedColor()
{
    return QColor(0xd8, 0xcd, 0xb8);
}

// Adds a "Not traced" series on top of percentage bars whose segments sum to less than 100 %,
// so that a bar never stops short unlabelled: the rest of the bar is the time the PE (or the
// PEs of an interval) was not traced. Nothing is added when every bar is full (to 0.05 %).
// Series keep their order; `activity` of the new series is -1 and its colour is fixed.
inline void addNotTracedSeries(StackedBarData& data)
{
    const std::size_t series = data.series.size();
    const std::size_t categories = data.categories.size();
    if (series == 0 || data.values.size() != series * categories)
        return;
    std::vector<double> rest(categories, 0.0);
    bool any = false;
    for (std::size_t c = 0; c < categories; ++c) {
        double sum = 0.0;
        for (std::size_t s = 0; s < series; ++s)
            sum += data.values[c * series + s];
        rest[c] = sum > 0.0 && 100.0 - sum >= 0.05 ? 100.0 - sum : 0.0;
        any = any || rest[c] > 0.0;
    }
    if (!any)
        return;
    const bool secondary = data.secondary.size() == data.values.size();
    std::vector<double> values(categories * (series + 1), 0.0);
    std::vector<double> seconds(secondary ? values.size() : 0, 0.0);
    for (std::size_t c = 0; c < categories; ++c) {
        const auto from = static_cast<std::ptrdiff_t>(c * series);
        const auto to = static_cast<std::ptrdiff_t>(c * (series + 1));
        std::copy_n(data.values.begin() + from, series, values.begin() + to);
        values[c * (series + 1) + series] = rest[c];
        if (!secondary)
            continue;
        // The secondary value (e.g. processor time) in proportion, as for the other series.
        std::copy_n(data.secondary.begin() + from, series, seconds.begin() + to);
        for (std::size_t s = 0; s < series; ++s)
            if (data.values[c * series + s] > 0.0) {
                seconds[c * (series + 1) + series]
                    = rest[c] * data.secondary[c * series + s] / data.values[c * series + s];
                break;
            }
    }
    data.values = std::move(values);
    data.secondary = secondary ? std::move(seconds) : std::vector<double> {};
    StackedBarSeries s;
    s.name = QCoreApplication::translate("NotTraced", "Not traced");
    s.fullName = QCoreApplication::translate("NotTraced",
        "Not traced (before BEGIN_COMPUTATION, after END_COMPUTATION or in a tracing gap)");
    s.color = notTracedColor().rgb();
    data.series.push_back(std::move(s));
}

} // namespace parallax::views
