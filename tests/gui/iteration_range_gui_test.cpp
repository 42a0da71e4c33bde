// Iterations as the time range of every view: a range of iterations chosen in View → Iterations
// is what the other views open with, and the open views with a time axis move to it. The Entry
// Profile's "Model this entry…" opens the Entry Model on that entry.

#include "app/gui/main_window.h"
#include "app/gui/view_workspace.h"
#include "gui/main_window_test_support.h"
#include "support/test_support.h"
#include "views/entry_profile/entry_profile_view.h"
#include "views/iterations/iterations_view.h"
#include "views/model/model_view.h"

#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <catch2/catch.hpp>

using namespace parallax;

TEST_CASE("iterations 5-9 chosen in Iterations become the range other views open with", "[gui]")
{
    app::MainWindow window(false);
    window.resize(1400, 900);
    window.show();
    REQUIRE(test::openAndWait(window, test::sampleRun("imbalance")) == app::LoadOutcome::Loaded);
    auto* workspace = window.workspace();
    // A view with a time axis already open.
    auto* profile = workspace->openView(views::ViewKind::TimeProfile);
    REQUIRE(profile != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(!profile->busy(), 20'000);
    auto* iterations
        = qobject_cast<views::IterationsView*>(workspace->openView(views::ViewKind::Iterations));
    REQUIRE(iterations != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(!iterations->busy() && iterations->result(), 20'000);
    REQUIRE(iterations->result()->iterations.size() == 23);

    iterations->selectIterations(5, 9);
    const core::TimeRange range { iterations->iterationRange(5).begin,
        iterations->iterationRange(9).end };
    CHECK(iterations->selectedRange().begin == range.begin);
    CHECK(iterations->selectedRange().end == range.end);
    auto* use = iterations->findChild<QPushButton*>(QStringLiteral("useAsTimeRange"));
    REQUIRE(use != nullptr);
    REQUIRE(use->isEnabled());
    QTest::mouseClick(use, Qt::LeftButton);
    CHECK(workspace->openingRange().begin == range.begin);
    CHECK(workspace->openingRange().end == range.end);

    // The open time-axis view moved to it; a view opened now starts with it.
    REQUIRE(profile->timeAxisRange());
    CHECK(profile->timeAxisRange()->begin == range.begin);
    CHECK(profile->timeAxisRange()->end == range.end);
    auto* histogram = workspace->openView(views::ViewKind::Histogram);
    REQUIRE(histogram != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(!histogram->busy(), 20'000);
    CHECK(histogram->saveState().at(QStringLiteral("range")) == views::stateRangeText(range));

    // Another run forgets it.
    REQUIRE(test::openAndWait(window, test::sampleRun("imbalance")) == app::LoadOutcome::Loaded);
    CHECK(workspace->openingRange().empty());
}

TEST_CASE("Entry Profile → Model this entry… opens the Entry Model of that entry", "[gui]")
{
    app::MainWindow window(false);
    window.resize(1400, 900);
    window.show();
    REQUIRE(test::openAndWait(window, test::sampleRun("imbalance")) == app::LoadOutcome::Loaded);
    auto* workspace = window.workspace();
    auto* profile = qobject_cast<views::EntryProfileView*>(
        workspace->openView(views::ViewKind::EntryProfile));
    REQUIRE(profile != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(!profile->busy() && profile->profile(), 20'000);
    REQUIRE(profile->profile()->rows.size() > 1);
    // The second row: not the entry the Entry Model would open on by itself.
    const auto entry = profile->profile()->rows[1].entry;
    REQUIRE(profile->modelRow(1));
    auto* model = qobject_cast<views::EntryModelView*>(workspace->currentView());
    REQUIRE(model != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(!model->busy() && model->result(), 20'000);
    CHECK(model->entry() == entry);
    CHECK(model->result()->entry == entry);
    CHECK_FALSE(profile->modelRow(-1));
}
