// The colour helpers every chart shares (views/common/chart_style.h).

#include "views/common/chart_style.h"
#include "views/common/time_format.h"

#include <catch2/catch.hpp>

using namespace parallax::views;

TEST_CASE("faded mixes towards the background, withAlpha keeps the colour", "[views][style]")
{
    const QColor text(0x10, 0x20, 0x30);
    const QColor white(Qt::white);
    CHECK(faded(text, white, 0.0) == text);
    CHECK(faded(text, white, 1.0) == white);
    CHECK(faded(QColor(Qt::black), white, 0.5) == QColor(128, 128, 128)); // 127.5 rounds up
    const auto half = withAlpha(text, 100);
    CHECK(half.alpha() == 100);
    CHECK(half.rgb() == text.rgb());
}

TEST_CASE("the screen style follows the palette, dark themes included", "[views][style]")
{
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
    dark.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
    const auto s = screenChartStyle(dark, 0.4, 0.9, 0.975);
    CHECK(s.background == QColor(0x20, 0x20, 0x20));
    CHECK(s.text == QColor(0xe0, 0xe0, 0xe0));
    CHECK(s.muted == faded(s.text, s.background, 0.4));
    // Grid lines and row bands stay close to the background, on either theme.
    CHECK(s.grid.lightness() < s.muted.lightness());
    CHECK(s.rowBackground.lightness() < s.grid.lightness());
}

TEST_CASE("durations have one spelling in every view", "[views][style]")
{
    CHECK(durationText(250) == QString::fromStdString(parallax::core::formatDuration(250)));
    CHECK_FALSE(durationText(12'345).isEmpty());
}
