#pragma once

// Waiting for the Overview in its tests: its grid is computed off the GUI thread.

#include "views/overview/overview_view.h"

#include <QTest>

#include <catch2/catch.hpp>

namespace parallax::test {

inline void waitForOverview(views::OverviewView& view)
{
    QTRY_VERIFY_WITH_TIMEOUT(view.overview().has_value() && !view.busy(), 30'000);
}

} // namespace parallax::test
