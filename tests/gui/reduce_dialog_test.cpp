// File → Write Reduced Run… (app/gui/reduce_dialog.h) driven offscreen as a user would: choose,
// write a reduced run of a small sample run off the GUI thread, read the report, open the result;
// refusals shown in the dialog without writing anything; cancel leaves no half-written folder.

#include "app/gui/main_window.h"
#include "app/gui/reduce_dialog.h"
#include "gui/main_window_test_support.h"
#include "support/test_support.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QTextBrowser>

#include <catch2/catch.hpp>

#include <set>

using namespace parallax;
using parallax::app::LoadOutcome;
using parallax::app::MainWindow;
using parallax::app::ReduceDialog;

namespace {

namespace fs = std::filesystem;

// Opens the sample run and the dialog through File → Write Reduced Run….
ReduceDialog* openDialog(MainWindow& window, const fs::path& run)
{
    REQUIRE(test::openAndWait(window, run) == LoadOutcome::Loaded);
    auto* action = test::fileMenuAction(window, QStringLiteral("Write &Reduced Run…"));
    REQUIRE(action != nullptr);
    REQUIRE(action->isEnabled());
    action->trigger();
    auto* dialog = window.findChild<ReduceDialog*>();
    REQUIRE(dialog != nullptr);
    REQUIRE(dialog->isVisible());
    return dialog;
}

void choose(ReduceDialog* dialog, const QString& keep, const char* select, const fs::path& out)
{
    dialog->keepEdit()->setText(keep);
    dialog->selectCombo()->setCurrentIndex(
        dialog->selectCombo()->findData(QString::fromLatin1(select)));
    dialog->outputEdit()->setText(QString::fromStdString(out.string()));
}

std::set<std::string> namesIn(const fs::path& dir)
{
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir))
        names.insert(entry.path().filename().string());
    return names;
}

} // namespace

TEST_CASE("Write Reduced Run writes a small run off the GUI thread, shows the report and opens it",
    "[gui][reduce]")
{
    MainWindow window(false);
    window.show();
    auto* dialog = openDialog(window, test::sampleRun("grainsize"));
    // The defaults are the CLI's: 5 %, clusters with automatic k, seed 1, outside the run.
    CHECK(dialog->keepEdit()->text() == QStringLiteral("5%"));
    CHECK(dialog->selectCombo()->currentData().toString() == QStringLiteral("clusters"));
    CHECK(dialog->kSpin()->text() == QStringLiteral("auto"));
    CHECK(dialog->seedSpin()->value() == 1);
    CHECK_FALSE(dialog->outputEdit()->text().startsWith(
        QString::fromStdString(test::sampleRun("grainsize").string())));
    test::TempDir tmp;
    const auto out = tmp / "reduced";
    choose(dialog, QStringLiteral("25%"), "random", out);
    QSignalSpy finished(dialog, &ReduceDialog::writingFinished);
    QTest::mouseClick(dialog->writeButton(), Qt::LeftButton);
    CHECK(dialog->isRunning());
    CHECK_FALSE(dialog->writeButton()->isEnabled());
    REQUIRE(finished.wait(60'000));
    INFO(finished.at(0).at(1).toString().toStdString());
    REQUIRE(finished.at(0).at(0).toBool());
    CHECK_FALSE(dialog->isRunning());

    // 2 of 8 logs, all summaries, the report files.
    std::size_t logs = 0;
    std::size_t sums = 0;
    for (const auto& name : namesIn(out)) {
        logs += test::endsWith(name, ".log") ? 1U : 0U;
        sums += test::endsWith(name, ".sum") ? 1U : 0U;
    }
    CHECK(logs == 2);
    CHECK(sums == 8);
    CHECK(fs::exists(out / "REDUCTION.md"));
    CHECK(fs::exists(out / "reduction.json"));
    CHECK(namesIn(tmp.path()) == std::set<std::string> { "reduced" });
    REQUIRE(dialog->reportView()->isVisible());
    CHECK(
        dialog->reportView()->toPlainText().contains(QStringLiteral("Histogram proportionality")));
    CHECK(dialog->statusLabel()->text().contains(QStringLiteral("reduced")));

    // Open Reduced Run loads it in the window.
    auto* open = dialog->findChild<QPushButton*>();
    for (auto* button : dialog->findChildren<QPushButton*>())
        if (button->text() == QStringLiteral("&Open Reduced Run"))
            open = button;
    REQUIRE(open != nullptr);
    REQUIRE(open->isVisible());
    QSignalSpy loaded(&window, &MainWindow::loadFinished);
    QTest::mouseClick(open, Qt::LeftButton);
    REQUIRE(loaded.wait(60'000));
    REQUIRE(window.trace());
    CHECK(window.trace()->validPes().size() == 2);
    CHECK(window.trace()->files.directory == out.string());
}

TEST_CASE("Write Reduced Run tells bad choices in the dialog and writes nothing", "[gui][reduce]")
{
    MainWindow window(false);
    window.show();
    test::TempDir tmp;
    const auto run = tmp / "run";
    test::copyFiles(test::sampleRun("grainsize"), run);
    auto* dialog = openDialog(window, run);
    QSignalSpy finished(dialog, &ReduceDialog::writingFinished);

    choose(dialog, QStringLiteral("0%"), "random", tmp / "out");
    QTest::mouseClick(dialog->writeButton(), Qt::LeftButton);
    CHECK_FALSE(dialog->isRunning());
    CHECK(dialog->statusLabel()->text().contains(QStringLiteral("above 0%")));

    choose(dialog, QStringLiteral("2"), "random", run / "inside");
    QTest::mouseClick(dialog->writeButton(), Qt::LeftButton);
    CHECK_FALSE(dialog->isRunning());
    CHECK(dialog->statusLabel()->text().contains(QStringLiteral("inside the run directory")));

    fs::create_directories(tmp / "full");
    test::writeFile(tmp / "full" / "mine.txt", "mine");
    choose(dialog, QStringLiteral("2"), "random", tmp / "full");
    QTest::mouseClick(dialog->writeButton(), Qt::LeftButton);
    CHECK_FALSE(dialog->isRunning());
    CHECK(dialog->statusLabel()->text().contains(QStringLiteral("Replace")));

    CHECK(finished.isEmpty());
    CHECK(namesIn(tmp.path()) == std::set<std::string> { "run", "full" });
    CHECK(namesIn(tmp / "full") == std::set<std::string> { "mine.txt" });
    CHECK_FALSE(fs::exists(run / "inside"));

    // Refusals that need the run (here: PEs to keep beyond those with logs) come back from the
    // worker as a message.
    choose(dialog, QStringLiteral("9"), "random", tmp / "out");
    QTest::mouseClick(dialog->writeButton(), Qt::LeftButton);
    REQUIRE(finished.wait(60'000));
    CHECK_FALSE(finished.at(0).at(0).toBool());
    CHECK(dialog->statusLabel()->text().contains(QStringLiteral("8 PEs")));
    CHECK_FALSE(fs::exists(tmp / "out"));
}

TEST_CASE("cancelling Write Reduced Run leaves either nothing or the whole run", "[gui][reduce]")
{
    MainWindow window(false);
    window.show();
    auto* dialog = openDialog(window, test::sampleRun("imbalance"));
    test::TempDir tmp;
    const auto out = tmp / "reduced";
    choose(dialog, QStringLiteral("50%"), "random", out);
    QSignalSpy finished(dialog, &ReduceDialog::writingFinished);
    QTest::mouseClick(dialog->writeButton(), Qt::LeftButton);
    QTest::keyClick(dialog, Qt::Key_Escape); // Esc while writing cancels, the dialog stays
    CHECK(dialog->isVisible());
    REQUIRE(finished.wait(60'000));
    if (finished.at(0).at(0).toBool()) {
        // The worker had finished before it heard the cancel: the run is complete.
        CHECK(fs::exists(out / "REDUCTION.md"));
    } else {
        CHECK(finished.at(0).at(1).toString() == QStringLiteral("cancelled"));
        CHECK(dialog->statusLabel()->text().contains(QStringLiteral("nothing was written")));
        CHECK_FALSE(fs::exists(out));
    }
    // Never a temporary folder left next to OUT.
    for (const auto& name : namesIn(tmp.path()))
        CHECK(name == "reduced");
}
