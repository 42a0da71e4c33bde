// Iterations as the time range of every view: a range of iterations chosen in View → Iterations
// is what the other views open with, and the open views with a time axis move to it. The Entry
// Profile's "Model this entry…" opens the Entry Model on that entry.

#include "app/gui/main_window.h"
#include "app/gui/view_workspace.h"
#include "gui/main_window_test_support.h"
#include "support/test_support.h"
#include "views/common/options_bar.h"
#include "views/entry_profile/entry_profile_view.h"
#include "views/iterations/iterations_view.h"
#include "views/model/model_view.h"

#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

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

namespace {

// The shared options bar of an open view, after the run's iterations are known.
views::OptionsBar* iterationsReadyBar(app::MainWindow& window, views::AnalysisView* view)
{
    REQUIRE(view != nullptr);
    if (!window.workspace()->runIterations()) {
        QSignalSpy found(window.workspace(), &app::ViewWorkspace::runIterationsFound);
        REQUIRE(found.wait(20'000));
    }
    auto* bar = view->findChild<views::OptionsBar*>();
    REQUIRE(bar != nullptr);
    return bar;
}

} // namespace

TEST_CASE("the options bar's Iterations… chooser sets the range to iterations 5-9", "[gui]")
{
    app::MainWindow window(false);
    window.resize(1400, 900);
    window.show();
    REQUIRE(test::openAndWait(window, test::sampleRun("imbalance")) == app::LoadOutcome::Loaded);
    auto* usage = window.workspace()->openView(views::ViewKind::UsageProfile);
    auto* bar = iterationsReadyBar(window, usage);
    QTRY_VERIFY_WITH_TIMEOUT(!usage->busy(), 20'000);
    // The 23 iterations of `parallax-cli iterations sample-logs/imbalance` (0..22).
    REQUIRE(window.workspace()->runIterations()->size() == 23);
    auto* button = bar->findChild<QToolButton*>(QStringLiteral("iterationsButton"));
    auto* field = bar->findChild<QLineEdit*>(QStringLiteral("iterationsField"));
    auto* menu = bar->findChild<QMenu*>(QStringLiteral("iterationsMenu"));
    REQUIRE(button != nullptr);
    REQUIRE(field != nullptr);
    REQUIRE(menu != nullptr);
    REQUIRE(button->isEnabled());
    CHECK(button->toolTip().contains(QStringLiteral("0–22")));

    // Typed into the chooser: iterations 5..9 run from 31170 µs (5's begin) to 59765 µs (9's end).
    QTest::mouseClick(button, Qt::LeftButton);
    REQUIRE(menu->isVisible());
    QSignalSpy computed(usage, &views::AnalysisView::computed);
    QTest::keyClicks(field, QStringLiteral("5-9"));
    QTest::keyClick(field, Qt::Key_Return);
    CHECK(bar->range().begin == 31170);
    CHECK(bar->range().end == 59765);
    CHECK(bar->errorText().isEmpty());
    CHECK_FALSE(menu->isVisible());
    REQUIRE(computed.wait(20'000));
    CHECK(usage->saveState().at(QStringLiteral("range")) == QStringLiteral("31170:59765"));
    // Iterations count from 0, as in the Iterations view and the CLI: "0" is the first.
    REQUIRE(bar->applyIterations(QStringLiteral("0")));
    CHECK(bar->range().begin == 2978);
    CHECK(bar->range().end == 8468);
    REQUIRE(bar->applyIterations(QStringLiteral("5–9")));

    // Bad input: refused with a message, the range as it was.
    const std::pair<const char*, const char*> bad[] = {
        { "9-5", "9-5 ends before it begins" },
        { "23", "the run has iterations 0–22, not 23" },
        { "20-30", "the run has iterations 0–22, not 30" },
        { "five", "'five' is not an iteration" },
        { "", "is not an iteration" },
    };
    for (const auto& [text, message] : bad) {
        INFO(text);
        CHECK_FALSE(bar->applyIterations(QString::fromUtf8(text)));
        CHECK(bar->errorText().contains(QString::fromUtf8(message)));
        CHECK(bar->errorText().contains(QStringLiteral("nothing applied")));
        CHECK(bar->range().begin == 31170);
        CHECK(bar->range().end == 59765);
    }
    // A bad field elsewhere keeps the range too.
    auto* pes = bar->findChild<QLineEdit*>(QStringLiteral("peList"));
    REQUIRE(pes != nullptr);
    pes->setText(QStringLiteral("99"));
    CHECK_FALSE(bar->applyIterations(QStringLiteral("0")));
    CHECK(bar->range().begin == 31170);
    CHECK(bar->findChild<QLineEdit*>(QStringLiteral("rangeBegin"))->text()
        == QStringLiteral("31.170ms"));

    // A view opened now offers them at once; the Iterations view's field takes the same syntax.
    auto* histogram = window.workspace()->openView(views::ViewKind::Histogram);
    REQUIRE(histogram != nullptr);
    CHECK(histogram->findChild<QToolButton*>(QStringLiteral("iterationsButton"))->isEnabled());
    using Range = std::pair<std::size_t, std::size_t>;
    CHECK(views::IterationsView::parseIterationRange(QStringLiteral("5-9"), 23) == Range { 5, 9 });
}

TEST_CASE("without iterations the options bar's Iterations… chooser is disabled", "[gui]")
{
    app::MainWindow window(false);
    window.show();
    REQUIRE(
        test::openAndWait(window, test::dataDir() / "runs" / "tiny") == app::LoadOutcome::Loaded);
    auto* bar
        = iterationsReadyBar(window, window.workspace()->openView(views::ViewKind::Histogram));
    CHECK(window.workspace()->runIterations()->empty());
    auto* button = bar->findChild<QToolButton*>(QStringLiteral("iterationsButton"));
    REQUIRE(button != nullptr);
    CHECK_FALSE(button->isEnabled());
    CHECK(button->toolTip().contains(QStringLiteral("none were found in this run")));
    const auto before = bar->range();
    CHECK_FALSE(bar->applyIterations(QStringLiteral("0")));
    CHECK(bar->errorText().contains(QStringLiteral("the run has no iterations")));
    CHECK(bar->range().begin == before.begin);
    CHECK(bar->range().end == before.end);
}
