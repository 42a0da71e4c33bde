// Desktop conventions: the standard shortcuts, zooming any view with a time axis, finding an
// entry method's executions, and the window's geometry and tabs coming back after a restart.

#include "app/gui/main_window.h"
#include "app/gui/view_navigation.h"
#include "app/gui/view_workspace.h"
#include "gui/main_window_test_support.h"
#include "support/qt_wait.h"
#include "support/test_support.h"
#include "views/timeline/timeline_view.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>

#include <catch2/catch.hpp>

using namespace parallax;
using parallax::app::LoadOutcome;
using parallax::app::MainWindow;

namespace {

const std::filesystem::path kConventionSamples = PARALLAX_SAMPLE_DIR;

// The menu action (any top-level menu) bound to this standard key, or null.
QAction* actionForStandardKey(MainWindow& window, QKeySequence::StandardKey key)
{
    const auto wanted = QKeySequence::keyBindings(key);
    for (QAction* top : window.menuBar()->actions())
        if (top->menu() != nullptr)
            for (QAction* action : top->menu()->actions())
                if (!wanted.isEmpty() && action->shortcuts() == wanted)
                    return action;
    return nullptr;
}

QKeySequence fileMenuActionShortcut(MainWindow& window, const QString& text)
{
    auto* action = test::fileMenuAction(window, text);
    return action != nullptr ? action->shortcut() : QKeySequence();
}

// QSettings of this process in a temporary folder, for tests of what a restart keeps.
class ScopedSettingsFolder {
public:
    ScopedSettingsFolder()
    {
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
            QString::fromStdString(m_dir.path().string()));
    }
    ~ScopedSettingsFolder()
    {
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
            QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation));
    }
    ScopedSettingsFolder(const ScopedSettingsFolder&) = delete;
    ScopedSettingsFolder& operator=(const ScopedSettingsFolder&) = delete;

private:
    test::TempDir m_dir;
};

} // namespace

TEST_CASE("the standard shortcuts open, save, close, quit, find and zoom", "[conventions]")
{
    MainWindow window(false);
    for (const auto key : { QKeySequence::Open, QKeySequence::Save, QKeySequence::Close,
             QKeySequence::Find, QKeySequence::FindNext, QKeySequence::FindPrevious,
             QKeySequence::ZoomIn, QKeySequence::ZoomOut }) {
        INFO("standard key " << static_cast<int>(key));
        REQUIRE_FALSE(QKeySequence::keyBindings(key).isEmpty());
        CHECK(actionForStandardKey(window, key) != nullptr);
    }
    // Where the platform binds none: the usual keys.
    CHECK(fileMenuActionShortcut(window, QStringLiteral("Save Session &As…"))
        == QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    CHECK(fileMenuActionShortcut(window, QStringLiteral("&Quit"))
        == QKeySequence(Qt::CTRL | Qt::Key_Q));
    // No two actions share a shortcut (an ambiguous shortcut fires neither).
    QSet<QString> seen;
    for (QAction* top : window.menuBar()->actions())
        for (QAction* action : top->menu()->actions())
            for (const auto& shortcut : action->shortcuts()) {
                INFO(shortcut.toString().toStdString());
                CHECK_FALSE(seen.contains(shortcut.toString()));
                seen.insert(shortcut.toString());
            }
}

TEST_CASE("zoom in, out and whole run act on the current view's time axis", "[conventions]")
{
    MainWindow window(false);
    window.resize(1200, 800);
    window.show();
    REQUIRE(test::openAndWait(window, kConventionSamples / "imbalance") == LoadOutcome::Loaded);
    auto* nav = window.navigation();
    auto* timeline = qobject_cast<views::TimelineView*>(
        window.workspace()->openView(views::ViewKind::Timeline));
    REQUIRE(timeline != nullptr);
    timeline->setWindow({ 40'000, 60'000 });
    REQUIRE(nav->zoomInAction()->isEnabled());
    nav->zoomInAction()->trigger();
    CHECK(timeline->window().begin == 45'000);
    CHECK(timeline->window().end == 55'000);
    nav->zoomOutAction()->trigger();
    nav->zoomOutAction()->trigger();
    CHECK(timeline->window().begin == 30'000);
    CHECK(timeline->window().end == 70'000);
    nav->wholeRunAction()->trigger();
    CHECK(timeline->window().length() > 100'000);

    auto* profile = window.workspace()->openView(views::ViewKind::TimeProfile);
    REQUIRE(profile->timeAxisRange());
    const auto before = *profile->timeAxisRange();
    nav->zoomInAction()->trigger();
    CHECK(std::abs(profile->timeAxisRange()->length() - before.length() / 2) <= 1);

    // A view without a time axis: nothing to zoom.
    window.workspace()->openView(views::ViewKind::Histogram);
    CHECK_FALSE(nav->zoomInAction()->isEnabled());
    CHECK_FALSE(nav->zoomBy(0.5));
}

TEST_CASE("find walks an entry method's executions on the Timeline's rows", "[conventions]")
{
    MainWindow window(false);
    window.resize(1200, 800);
    window.show();
    REQUIRE(test::openAndWait(window, kConventionSamples / "imbalance") == LoadOutcome::Loaded);
    auto* nav = window.navigation();
    constexpr core::EntryId kCompute = 13; // Worker::compute(int iter)
    REQUIRE(nav->findEntry(kCompute));
    auto* timeline
        = qobject_cast<views::TimelineView*>(window.workspace()->view(views::ViewKind::Timeline));
    REQUIRE(timeline != nullptr);
    CHECK(window.workspace()->currentView() == timeline);
    const auto executionOf = [&](const views::TimelineSelection& s) {
        const auto& ex = window.trace()->pes[static_cast<std::size_t>(s.pe)].executions;
        return std::pair { ex.begin[s.execution],
            static_cast<core::EntryId>(ex.entry[s.execution]) };
    };
    REQUIRE(timeline->selectedBlock());
    const auto first = *timeline->selectedBlock();
    CHECK(executionOf(first).second == kCompute);
    REQUIRE(timeline->timeline()->highlight());
    CHECK(timeline->timeline()->highlight()->entry == kCompute);

    nav->findNextAction()->trigger();
    const auto second = *timeline->selectedBlock();
    CHECK(executionOf(second).second == kCompute);
    CHECK(executionOf(second).first >= executionOf(first).first);
    CHECK_FALSE(second == first);
    // The selected execution is in view.
    CHECK(timeline->window().overlaps(executionOf(second).first, executionOf(second).first + 1));
    nav->findPreviousAction()->trigger();
    CHECK(*timeline->selectedBlock() == first);
}

TEST_CASE("the window's geometry and its views come back after a restart", "[conventions]")
{
    ScopedSettingsFolder settings;
    QRect geometry;
    {
        MainWindow window(true);
        window.show();
        window.setGeometry(60, 70, 1000, 700);
        geometry = window.geometry();
        REQUIRE(test::openAndWait(window, kConventionSamples / "imbalance") == LoadOutcome::Loaded);
        window.workspace()->openView(views::ViewKind::Histogram);
        window.workspace()->openView(views::ViewKind::Timeline);
        window.workspace()->openView(views::ViewKind::Histogram); // current
        window.close();
    }
    MainWindow window(true);
    window.show();
    CHECK(window.size() == geometry.size());
    REQUIRE(test::openAndWait(window, kConventionSamples / "grainsize") == LoadOutcome::Loaded);
    const auto opened = window.workspace()->openViews();
    REQUIRE(opened.size() == 2);
    CHECK(opened[0]->kind() == views::ViewKind::Histogram);
    CHECK(opened[1]->kind() == views::ViewKind::Timeline);
    REQUIRE(window.workspace()->currentView() != nullptr);
    CHECK(window.workspace()->currentView()->kind() == views::ViewKind::Histogram);
}
