// The desktop app driven as a user would: open runs, fail on a bad one, keep working.

#include "app/gui/data_export_job.h"
#include "app/gui/export_dialog.h"
#include "app/gui/main_window.h"
#include "app/gui/memory_budget.h"
#include "app/gui/view_workspace.h"
#include "gui/main_window_test_support.h"
#include "gui/scoped_env.h"
#include "io/run_loader.h"
#include "support/qt_wait.h"
#include "support/test_support.h"
#include "views/common/entry_palette.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"
#include "views/common/view_factory.h"
#include "views/extrema/extrema_view.h"
#include "views/summary/run_summary_widget.h"
#include "views/timeline/timeline_view.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QDir>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenu>
#include <QPointer>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTimer>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

#include <catch2/catch.hpp>

#include <memory>

using namespace parallax;
using parallax::app::LoadOutcome;
using parallax::app::MainWindow;

namespace {

const std::filesystem::path kSamples = PARALLAX_SAMPLE_DIR;

} // namespace

TEST_CASE("opening a sample run shows its summary with the right numbers", "[gui]")
{
    MainWindow window(false);
    window.show();
    REQUIRE(test::openAndWait(window, kSamples / "imbalance") == LoadOutcome::Loaded);
    REQUIRE(window.trace());
    CHECK(window.trace()->metadata.processors == 12);
    CHECK(window.runSummary()
              ->fieldText(QStringLiteral("processors"))
              .startsWith(QStringLiteral("12")));
    CHECK(window.windowTitle().contains(QStringLiteral("imbalance")));
}

TEST_CASE(
    "a directory that is not a run gives a clear error and leaves the open run usable", "[gui]")
{
    MainWindow window(false);
    window.show();
    REQUIRE(test::openAndWait(window, kSamples / "grainsize") == LoadOutcome::Loaded);
    const auto before = window.trace();
    const auto notARun = parallax::test::sharedDir() / "real-logs" / "golden-java";
    REQUIRE(test::openAndWait(window, notARun) == LoadOutcome::Failed);
    REQUIRE(window.errorBox() != nullptr);
    CHECK(window.errorBox()->text().contains(QStringLiteral("golden-java")));
    CHECK(window.trace() == before); // the open run stays
    window.errorBox()->close();
    REQUIRE(test::openAndWait(window, kSamples / "imbalance") == LoadOutcome::Loaded);
    CHECK(window.trace() != before);
}

TEST_CASE("a newer open replaces a pending one", "[gui]")
{
    MainWindow window(false);
    window.show();
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openRun(QString::fromStdString(
        (parallax::test::sharedDir() / "real-logs" / "gen-leanmd-smp").string()));
    window.openRun(QString::fromStdString((kSamples / "heavy-sender").string()));
    REQUIRE(finished.wait(60'000));
    QTest::qWait(200);
    REQUIRE(window.trace());
    CHECK(window.trace()->files.baseName == "heavy");
    CHECK_FALSE(window.isLoading());
}

TEST_CASE(
    "options bar parsing accepts times with units and PE lists, and rejects the rest", "[gui]")
{
    QString error;
    CHECK(views::OptionsBar::parseTimeField(QStringLiteral("12ms"), &error) == 12'000);
    CHECK(views::OptionsBar::parseTimeField(QStringLiteral("3.5s"), &error) == 3'500'000);
    CHECK(views::OptionsBar::parseTimeField(QStringLiteral("250"), &error) == 250);
    CHECK_FALSE(views::OptionsBar::parseTimeField(QStringLiteral("abc"), &error));
    CHECK_FALSE(error.isEmpty());
    CHECK_FALSE(views::OptionsBar::parseTimeField(QStringLiteral("5 parsecs"), &error));
    const auto pes = views::OptionsBar::parsePeField(QStringLiteral("0-3,5,7-11:2"), 12, &error);
    REQUIRE(pes);
    CHECK(*pes == std::vector<core::PeId> { 0, 1, 2, 3, 5, 7, 9, 11 });
    CHECK(views::OptionsBar::parsePeField(QString(), 12, &error)->empty()); // empty = all
    CHECK_FALSE(views::OptionsBar::parsePeField(QStringLiteral("3-1"), 12, &error));
    CHECK_FALSE(views::OptionsBar::parsePeField(
        QStringLiteral("0-12"), 12, &error)); // PE 12 does not exist
    CHECK(error.contains(QStringLiteral("12")));
}

TEST_CASE(
    "the options bar shows bad input next to the fields and keeps the last good values", "[gui]")
{
    MainWindow window(false);
    REQUIRE(test::openAndWait(window, kSamples / "imbalance") == LoadOutcome::Loaded);
    views::OptionsBar bar;
    bar.setTrace(window.trace());
    bar.show();
    const auto good = bar.range();
    auto* begin = bar.findChild<QLineEdit*>(QStringLiteral("rangeBegin"));
    REQUIRE(begin != nullptr);
    begin->setText(QStringLiteral("ten"));
    CHECK_FALSE(bar.apply());
    CHECK(bar.errorText().startsWith(QStringLiteral("From")));
    CHECK(bar.range().begin == good.begin);
    begin->setText(QStringLiteral("10ms"));
    QSignalSpy applied(&bar, &views::OptionsBar::applied);
    CHECK(bar.apply());
    CHECK(applied.count() == 1);
    CHECK(bar.range().begin == 10'000);
    CHECK(bar.errorText().isEmpty());
}

TEST_CASE("an entry's colour is the same everywhere and a user's choice follows the entry's name",
    "[gui]")
{
    views::EntryPalette palette;
    palette.setEntryNames({ QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c") });
    const QColor original = palette.entryColor(1);
    CHECK(original != palette.entryColor(0));
    palette.setEntryColor(1, Qt::magenta);
    CHECK(palette.entryColor(1) == QColor(Qt::magenta));
    // Another run where the same entry has another id keeps the user's colour.
    palette.setEntryNames({ QStringLiteral("b"), QStringLiteral("z") });
    CHECK(palette.entryColor(0) == QColor(Qt::magenta));
    palette.resetEntryColor(0);
    CHECK(palette.entryColor(0) != QColor(Qt::magenta));
}

TEST_CASE("Extrema -> click the most extreme PE's bar -> the Timeline shows that PE", "[gui]")
{
    MainWindow window(false);
    window.resize(1400, 900);
    window.show();
    REQUIRE(test::openAndWait(window, kSamples / "imbalance") == LoadOutcome::Loaded);
    auto* view = window.workspace()->openView(views::ViewKind::Extrema);
    REQUIRE(view != nullptr);
    auto* extrema = qobject_cast<views::ExtremaView*>(view);
    REQUIRE(extrema != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(!extrema->busy() && !extrema->extremePes().empty(), 20'000);
    const auto top = extrema->extremePes().front();
    CHECK((top == 3 || top == 9)); // the planted overloaded PEs
    QSignalSpy requested(view, &views::AnalysisView::timelineRequested);
    const QRect bar = extrema->barRectForPe(top);
    REQUIRE(bar.isValid());
    QTest::mouseClick(
        extrema->chart(), Qt::LeftButton, {}, extrema->chart()->mapFrom(extrema, bar.center()));
    REQUIRE(requested.count() == 1);
    CHECK(
        requested.at(0).at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { top });
    // The workspace answers by opening the Timeline (when this build has it) with that PE.
    if (auto* timeline = window.workspace()->view(views::ViewKind::Timeline)) {
        CHECK(window.workspace()->currentWidget() == timeline);
        CHECK(timeline->csv().contains(QStringLiteral("\n%1,").arg(top)));
    }
}

TEST_CASE("every view renders a real chart and its data for a sample run", "[gui]")
{
    MainWindow window(false);
    window.resize(1400, 900);
    window.show();
    REQUIRE(test::openAndWait(window, kSamples / "imbalance") == LoadOutcome::Loaded);
    for (const auto kind : views::kAllViewKinds) {
        INFO(views::viewKey(kind).toStdString());
        auto* view = window.workspace()->openView(kind);
        if (view == nullptr)
            continue; // not in this build yet
        QTRY_VERIFY_WITH_TIMEOUT(!view->busy(), 20'000);
        const QImage image = view->renderChart(QSize(1000, 600));
        REQUIRE_FALSE(image.isNull());
        // The sample runs carry no PAPI values; Compare waits for a second run.
        if (kind == views::ViewKind::Counters || kind == views::ViewKind::Compare)
            continue;
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3)
                colours.insert(image.pixel(x, y));
        CHECK(colours.size() > 8); // not blank, not a single colour
        const auto csv = view->csv();
        CHECK(csv.count(QLatin1Char('\n')) > 2); // a header and data rows
    }
}

TEST_CASE("a view destroyed while it computes neither crashes nor delivers its result", "[gui]")
{
    MainWindow window(false);
    REQUIRE(test::openAndWait(window, parallax::test::sharedDir() / "real-logs" / "gen-leanmd-smp")
        == LoadOutcome::Loaded);
    views::EntryPalette palette;
    for (const auto kind : views::kAllViewKinds) {
        INFO(views::viewKey(kind).toStdString());
        // A control view of the same kind computes the same thing and is kept: its result
        // arriving proves that results of this computation are delivered within the wait below.
        std::unique_ptr<views::AnalysisView> control(views::createView(kind, &palette));
        REQUIRE(control != nullptr);
        views::AnalysisView* doomed = views::createView(kind, &palette);
        REQUIRE(doomed != nullptr);
        const QPointer<QObject> watch(doomed);
        int controlDelivered = 0;
        int doomedDelivered = 0;
        QObject receiver;
        QObject::connect(control.get(), &views::AnalysisView::computed, &receiver,
            [&controlDelivered] { ++controlDelivered; });
        QObject::connect(doomed, &views::AnalysisView::computed, &receiver,
            [&doomedDelivered] { ++doomedDelivered; });
        control->show();
        doomed->show();
        control->setTrace(window.trace());
        doomed->setTrace(window.trace()); // starts a computation on the pool
        // The premise: the computation is still under way (no event was processed since it
        // started, so its result cannot have been delivered yet). The Timeline of a run held
        // in memory has nothing to compute in the background, nor Compare without a second run.
        const bool computes = kind != views::ViewKind::Timeline && kind != views::ViewKind::Compare;
        if (computes)
            REQUIRE(doomed->busy());
        delete doomed; // while it runs
        REQUIRE(watch.isNull());
        parallax::test::waitUntil([&] { return !control->busy(); });
        QThreadPool::globalInstance()->waitForDone();
        // Results posted by the workers before waitForDone returned arrive here; the deleted
        // view's must be dropped (in the sanitizer build a delivery to it is a use after free).
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        CHECK(doomedDelivered == 0);
        if (computes)
            CHECK(controlDelivered == 1);
    }
}

namespace {

// Right-clicks `target` at its centre and returns the texts of the context menu that opens,
// triggering the action whose text is `choose` (if any) before the menu closes.
// The views of sample-logs/imbalance in a workspace of their own, shown.
struct ImbalanceWorkspace {
    ImbalanceWorkspace()
    {
        auto loaded = io::loadRun((kSamples / "imbalance").string());
        REQUIRE(loaded.trace);
        workspace.resize(1400, 900);
        workspace.show();
        workspace.setTrace(loaded.trace);
    }
    views::EntryPalette palette;
    app::ViewWorkspace workspace { new QWidget, &palette };
};

QStringList rightClickAndChoose(QWidget* target, const QString& choose, QPoint at = {})
{
    QStringList texts;
    bool seen = false;
    QTimer::singleShot(50, [&]() {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        if (menu == nullptr)
            return;
        seen = true;
        QAction* chosen = nullptr;
        for (QAction* action : menu->actions()) {
            texts << action->text();
            if (action->text() == choose)
                chosen = action;
        }
        menu->close();
        if (chosen != nullptr)
            chosen->trigger();
    });
    if (at.isNull())
        at = target->rect().center();
    QContextMenuEvent event(QContextMenuEvent::Mouse, at, target->mapToGlobal(at));
    QApplication::sendEvent(target, &event);
    for (int waited = 0; !seen && waited < 5'000; waited += 10)
        QTest::qWait(10);
    REQUIRE(seen);
    return texts;
}

} // namespace

TEST_CASE("a view's own context menu exports that view", "[gui]")
{
    // The workspace alone: the main window would answer with a (modal) file dialog.
    ImbalanceWorkspace w;
    auto& workspace = w.workspace;
    for (const auto kind :
        { views::ViewKind::UsageProfile, views::ViewKind::TimeProfile, views::ViewKind::Histogram,
            views::ViewKind::Communication, views::ViewKind::Extrema, views::ViewKind::Overview }) {
        INFO(views::viewKey(kind).toStdString());
        auto* view = workspace.openView(kind);
        REQUIRE(view != nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(!view->busy(), 20'000);
        QWidget* chart = nullptr;
        for (auto* child : view->findChildren<QWidget*>())
            if (child->metaObject()->className() == QByteArray("parallax::views::StackedBarChart")
                || child->metaObject()->className() == QByteArray("parallax::views::OverviewChart"))
                chart = child;
        REQUIRE(chart != nullptr);
        // Another tab is current when the request comes (the export must be of this view).
        workspace.setCurrentIndex(0);
        QSignalSpy chartExport(&workspace, &app::ViewWorkspace::exportChartRequested);
        QSignalSpy dataExport(&workspace, &app::ViewWorkspace::exportDataRequested);
        const auto texts = rightClickAndChoose(chart, QStringLiteral("Export Data as CSV…"));
        CHECK(texts.contains(QStringLiteral("Export Chart as PNG…")));
        CHECK(dataExport.count() == 1);
        CHECK(chartExport.count() == 0);
        CHECK(workspace.currentView() == view);
    }
}

TEST_CASE("right-click an extreme PE's bar -> Open PE n in the Timeline", "[gui]")
{
    ImbalanceWorkspace w;
    auto& workspace = w.workspace;
    auto* extrema = qobject_cast<views::ExtremaView*>(workspace.openView(views::ViewKind::Extrema));
    REQUIRE(extrema != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(!extrema->busy() && !extrema->extremePes().empty(), 20'000);
    const auto top = extrema->extremePes().front();
    const QRect bar = extrema->barRectForPe(top);
    REQUIRE(bar.isValid());
    const auto texts = rightClickAndChoose(extrema->chart(),
        QStringLiteral("Open PE %1 in the Timeline").arg(top),
        extrema->chart()->mapFrom(extrema, bar.center()));
    CHECK(texts.contains(QStringLiteral("Export Chart as PNG…")));
    auto* timeline = workspace.view(views::ViewKind::Timeline);
    REQUIRE(timeline != nullptr);
    CHECK(workspace.currentView() == timeline);
    QTRY_VERIFY_WITH_TIMEOUT(!timeline->busy(), 20'000);
    CHECK(timeline->csv().contains(QStringLiteral("\n%1,").arg(top)));
}

TEST_CASE(
    "a damaged run opens, shows its import report with file:line, and every view works", "[gui]")
{
    MainWindow window(false);
    window.resize(1400, 900);
    window.show();
    REQUIRE(test::openAndWait(window, parallax::test::brokenCase("absurd-numbers"))
        == LoadOutcome::Loaded);
    // The report opens by itself (it has warnings) and names the file and the line.
    REQUIRE(window.importReportDock() != nullptr);
    CHECK(window.importReportDock()->isVisible());
    const auto* tree = window.importReportDock()->findChild<QTreeWidget*>();
    REQUIRE(tree != nullptr);
    QStringList lines;
    for (QTreeWidgetItemIterator it(const_cast<QTreeWidget*>(tree)); *it != nullptr; ++it)
        lines << (*it)->text(0) + QLatin1Char(' ') + (*it)->text(1);
    CHECK(lines.join(QLatin1Char('\n')).contains(QStringLiteral("run.0.log:4")));
    // Closed, it can be reopened from the View menu (Ctrl+I).
    window.importReportDock()->close();
    window.showImportReport();
    CHECK(window.importReportDock()->isVisible());
    for (const auto kind : views::kAllViewKinds) {
        INFO(views::viewKey(kind).toStdString());
        auto* view = window.workspace()->openView(kind);
        REQUIRE(view != nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(!view->busy(), 20'000);
        CHECK_FALSE(view->renderChart(QSize(800, 500)).isNull());
    }
}

TEST_CASE("cancelling a load keeps the open run and the window usable", "[gui]")
{
    MainWindow window(false);
    window.show();
    REQUIRE(test::openAndWait(window, kSamples / "imbalance") == LoadOutcome::Loaded);
    const auto before = window.trace();
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openRun(QString::fromStdString(
        (parallax::test::sharedDir() / "real-logs" / "gen-leanmd-smp").string()));
    CHECK(window.isLoading());
    window.cancelLoad();
    REQUIRE(finished.count() == 1);
    CHECK(finished.takeFirst().at(0).value<LoadOutcome>() == LoadOutcome::Cancelled);
    CHECK_FALSE(window.isLoading());
    CHECK(window.trace() == before);
    QTest::qWait(300); // the cancelled worker winds down; nothing of it may arrive
    CHECK(window.trace() == before);
    CHECK(finished.isEmpty());
    REQUIRE(test::openAndWait(window, kSamples / "grainsize") == LoadOutcome::Loaded);
    CHECK(window.trace()->files.baseName == "grainsize");
}

TEST_CASE("over the memory budget: the summary says so, Extrema finds the PEs, the click loads "
          "its timeline from the log",
    "[gui]")
{
    MainWindow window(false);
    window.resize(1400, 900);
    window.show();
    {
        // No index of the run yet: with one it would be mapped, which the budget allows.
        QTemporaryDir noIndex;
        const test::ScopedEnv cacheDir("PARALLAX_CACHE_DIR", noIndex.path().toStdString());
        const test::ScopedEnv budget("PARALLAX_MEMORY_BUDGET", "64K");
        REQUIRE(test::openAndWait(window, kSamples / "imbalance") == LoadOutcome::Loaded);
    }
    REQUIRE(window.trace()->logsOnDemand());
    CHECK(window.runSummary()->isFieldVisible(QStringLiteral("notice")));
    CHECK(window.runSummary()
              ->fieldText(QStringLiteral("notice"))
              .contains(QStringLiteral("memory budget")));
    auto* extrema
        = qobject_cast<views::ExtremaView*>(window.workspace()->openView(views::ViewKind::Extrema));
    REQUIRE(extrema != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(!extrema->busy() && !extrema->extremePes().empty(), 20'000);
    const auto top = extrema->extremePes().front();
    CHECK((top == 3 || top == 9)); // found from the .sum files alone
    const QRect bar = extrema->barRectForPe(top);
    REQUIRE(bar.isValid());
    QTest::mouseClick(
        extrema->chart(), Qt::LeftButton, {}, extrema->chart()->mapFrom(extrema, bar.center()));
    auto* timeline = window.workspace()->view(views::ViewKind::Timeline);
    REQUIRE(timeline != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(!timeline->busy(), 20'000);
    CHECK(timeline->csv().contains(QStringLiteral("\n%1,").arg(top)));
}

TEST_CASE("the window's first open writes the index cache and the next open says it used it",
    "[gui][index_cache]")
{
    QTemporaryDir cache;
    REQUIRE(cache.isValid());
    const test::ScopedEnv cacheDir("PARALLAX_CACHE_DIR", cache.path().toStdString());
    MainWindow window(false);
    window.show();
    REQUIRE(test::openAndWait(window, kSamples / "grainsize") == LoadOutcome::Loaded);
    // The window drops the load job at once; the cache is written after that, on the worker.
    QThreadPool::globalInstance()->waitForDone();
    CHECK(QDir(cache.path()).entryList({ QStringLiteral("*.pxindex") }).size() == 1);
    REQUIRE(test::openAndWait(window, kSamples / "grainsize") == LoadOutcome::Loaded);
    CHECK(window.statusBar()->currentMessage().contains(QStringLiteral("from the index cache")));
}

TEST_CASE("a run opened through an index the user named says that index, not the cache",
    "[gui][index_cache]")
{
    // parallax RUN --index DIR: an index written by parallax-index on a cluster, or any index
    // directory. The status line names it, so it is not taken for the cache.
    QTemporaryDir cache;
    REQUIRE(cache.isValid());
    const test::ScopedEnv cacheDir("PARALLAX_CACHE_DIR", cache.path().toStdString());
    {
        MainWindow writer(false);
        REQUIRE(test::openAndWait(writer, kSamples / "grainsize") == LoadOutcome::Loaded);
        QThreadPool::globalInstance()->waitForDone();
    }
    const auto indexes = QDir(cache.path()).entryList({ QStringLiteral("*.pxindex") });
    REQUIRE(indexes.size() == 1);
    const QString index = cache.filePath(indexes.front());
    MainWindow window(false);
    window.show();
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openRunWithIndex(QString::fromStdString((kSamples / "grainsize").string()), index);
    REQUIRE(finished.wait(60'000));
    REQUIRE(finished.takeFirst().at(0).value<LoadOutcome>() == LoadOutcome::Loaded);
    const QString message = window.statusBar()->currentMessage();
    INFO(message.toStdString());
    CHECK(message.contains(QStringLiteral("from the index ") + QDir::toNativeSeparators(index)));
    CHECK_FALSE(message.contains(QStringLiteral("index cache")));
}

TEST_CASE("the memory budget setting takes sizes, rejects the rest, and yields to the environment",
    "[gui]")
{
    QString error;
    REQUIRE(app::setMemoryBudgetSetting(QStringLiteral("3G"), &error));
    const test::ScopedEnv budget("PARALLAX_MEMORY_BUDGET", std::nullopt);
    CHECK(app::memoryBudget() == std::uint64_t { 3 } << 30);
    CHECK(std::string(app::memoryBudgetSource()) == "setting");
    CHECK_FALSE(app::setMemoryBudgetSetting(QStringLiteral("lots"), &error));
    CHECK_FALSE(error.isEmpty());
    CHECK(app::memoryBudget() == std::uint64_t { 3 } << 30); // the bad text changed nothing
    budget.set("512M");
    CHECK(app::memoryBudget() == std::uint64_t { 512 } << 20);
    CHECK(std::string(app::memoryBudgetSource()) == "environment");
    budget.set(std::nullopt);
    REQUIRE(app::setMemoryBudgetSetting(QString(), &error)); // back to the default
    CHECK(std::string(app::memoryBudgetSource()) == "default");
    CHECK(app::memoryBudget() > std::uint64_t { 64 } << 20); // half of this machine's memory
}

TEST_CASE("an opened view has its chart focused, not a field of its options bar", "[gui]")
{
    ImbalanceWorkspace w;
    for (const auto kind : views::kAllViewKinds) {
        INFO(views::viewKey(kind).toStdString());
        auto* view = w.workspace.openView(kind);
        REQUIRE(view != nullptr);
        QCoreApplication::processEvents();
        REQUIRE(view->focusWidget() != nullptr);
        CHECK(qobject_cast<QLineEdit*>(view->focusWidget()) == nullptr);
        CHECK(view->focusWidget() == view->focusProxy());
    }
}

TEST_CASE("export dialogs start in the last export folder, never in the run's directory", "[gui]")
{
    QSettings settings;
    const QVariant saved = settings.value(QLatin1String(app::kExportDirectoryKey));
    settings.remove(QLatin1String(app::kExportDirectoryKey));

    // An open run (its directory is the most recent run) does not make exports start there.
    MainWindow window(false);
    REQUIRE(test::openAndWait(window, kSamples / "imbalance") == LoadOutcome::Loaded);
    const QString runDir
        = QDir(QString::fromStdString((kSamples / "imbalance").string())).absolutePath();
    CHECK(QDir(app::exportStartDirectory()).absolutePath() != runDir);

    QTemporaryDir first;
    QTemporaryDir second;
    REQUIRE((first.isValid() && second.isValid()));
    app::rememberExportDirectory(first.filePath(QStringLiteral("imbalance-usage.png")));
    CHECK(app::exportStartDirectory() == first.path());
    CHECK(app::suggestedExportPath(QStringLiteral("imbalance-extrema.csv"))
        == first.filePath(QStringLiteral("imbalance-extrema.csv")));
    app::rememberExportDirectory(second.filePath(QStringLiteral("x.csv")));
    CHECK(app::exportStartDirectory() == second.path());

    // A remembered folder that is gone falls back to Documents or home, not the run.
    const QString gone = second.path();
    second.remove();
    CHECK(app::exportStartDirectory() != gone);
    CHECK(QDir(app::exportStartDirectory()).absolutePath() != runDir);

    if (saved.isValid())
        settings.setValue(QLatin1String(app::kExportDirectoryKey), saved);
    else
        settings.remove(QLatin1String(app::kExportDirectoryKey));
}

TEST_CASE("File → Compare With… opens a second run next to the first", "[gui][compare]")
{
    MainWindow window(false);
    window.resize(1200, 800);
    window.show();
    const auto series = parallax::test::dataDir() / "runs" / "series";
    REQUIRE(test::openAndWait(window, series) == LoadOutcome::Loaded);
    window.compareWith(QString::fromStdString((series / "series.sts").string()));
    QPointer<views::AnalysisView> compare;
    QTRY_VERIFY_WITH_TIMEOUT(
        (compare = window.workspace()->view(views::ViewKind::Compare)) != nullptr, 30'000);
    QTRY_VERIFY_WITH_TIMEOUT(
        !compare->busy() && compare->csv().count(QLatin1Char('\n')) == 4, 30'000);
    CHECK(window.workspace()->currentWidget() == compare);
    // The run against itself: every change is 0.
    CHECK(compare->csv().contains(QStringLiteral("\nWorker::compute(int n),1200,1200,0,1\n")));
    // A run that cannot be opened changes nothing.
    window.compareWith(QStringLiteral("/nonexistent/run.sts"));
    QTRY_VERIFY_WITH_TIMEOUT(
        window.statusBar()->currentMessage().contains(QStringLiteral("Could not open")), 30'000);
    for (auto* box : window.findChildren<QMessageBox*>())
        box->close();
    CHECK(compare->csv().count(QLatin1Char('\n')) == 4);
}

TEST_CASE("File → Export Data writes the Timeline's CSV on a worker, atomically, and can be "
          "cancelled",
    "[gui]")
{
    MainWindow window(false);
    window.resize(1200, 800);
    window.show();
    REQUIRE(test::openAndWait(window, kSamples / "imbalance") == LoadOutcome::Loaded);
    auto* timeline = qobject_cast<views::TimelineView*>(
        window.workspace()->openView(views::ViewKind::Timeline));
    REQUIRE(timeline != nullptr);
    REQUIRE(timeline->addPeList(QStringLiteral("0-11")));
    const auto span = timeline->window();
    timeline->setWindow({ span.begin + span.length() / 4, span.end - span.length() / 4 });
    REQUIRE(timeline->csvWriter()); // big views export off the GUI thread
    const QString expected = timeline->csv();
    REQUIRE(expected.count(QLatin1Char('\n')) > 100);
    QTemporaryDir dir;

    SECTION("the file holds exactly the view's CSV")
    {
        const QString path = dir.filePath(QStringLiteral("timeline.csv"));
        auto* job = window.exportDataTo(path);
        REQUIRE(job != nullptr);
        QSignalSpy finished(job, &app::DataExportJob::finished);
        REQUIRE(finished.wait(30'000));
        CHECK(finished.at(0).at(0).toString() == path);
        CHECK(finished.at(0).at(1).toBool());
        QFile file(path);
        REQUIRE(file.open(QIODevice::ReadOnly));
        CHECK(QString::fromUtf8(file.readAll()) == expected);
        CHECK(window.statusBar()->currentMessage() == QStringLiteral("Saved %1").arg(path));
    }
    SECTION("cancelled, nothing is written")
    {
        const QString path = dir.filePath(QStringLiteral("timeline.csv"));
        auto* job = window.exportDataTo(path);
        REQUIRE(job != nullptr);
        QSignalSpy finished(job, &app::DataExportJob::finished);
        job->cancel();
        REQUIRE(finished.wait(30'000));
        CHECK_FALSE(finished.at(0).at(1).toBool());
        CHECK(finished.at(0).at(2).toString().isEmpty()); // cancelled, not failed
        CHECK(QDir(dir.path()).isEmpty()); // no file, no temporary left behind
    }
    SECTION("a folder that does not exist is an error, not a file")
    {
        const QString path = dir.filePath(QStringLiteral("missing/timeline.csv"));
        auto* job = app::DataExportJob::start(*timeline, path, &window);
        QSignalSpy finished(job, &app::DataExportJob::finished);
        REQUIRE(finished.wait(30'000));
        CHECK_FALSE(finished.at(0).at(1).toBool());
        CHECK(finished.at(0).at(2).toString().contains(path));
    }
    SECTION("the Overview (a writer over a copy of its result) and a small view (its csv())")
    {
        for (const auto kind : { views::ViewKind::Overview, views::ViewKind::Extrema }) {
            auto* view = window.workspace()->openView(kind);
            REQUIRE(view != nullptr);
            QTRY_VERIFY_WITH_TIMEOUT(!view->busy(), 20'000);
            CHECK(static_cast<bool>(view->csvWriter()) == (kind == views::ViewKind::Overview));
            const QString path = dir.filePath(views::viewKey(kind) + QStringLiteral(".csv"));
            auto* job = window.exportDataTo(path);
            QSignalSpy finished(job, &app::DataExportJob::finished);
            REQUIRE(finished.wait(30'000));
            CHECK(finished.at(0).at(1).toBool());
            QFile file(path);
            REQUIRE(file.open(QIODevice::ReadOnly));
            CHECK(QString::fromUtf8(file.readAll()) == view->csv());
        }
    }
}
