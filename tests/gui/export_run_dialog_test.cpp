// File → Export Run As → OTF2… / Perfetto… (app/gui/export_run_dialog.h) driven offscreen: the
// current view's range and PEs offered, the export written off the GUI thread, refusals shown in
// the dialog, and a cancel that leaves either the whole file or nothing.

#include "app/gui/export_run_dialog.h"
#include "app/gui/main_window.h"
#include "app/gui/view_workspace.h"
#include "export/export_run.h"
#include "gui/main_window_test_support.h"
#include "support/test_support.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>

#include <catch2/catch.hpp>

using namespace parallax;
using parallax::app::ExportRunDialog;
using parallax::app::LoadOutcome;
using parallax::app::MainWindow;

namespace {

namespace fs = std::filesystem;

// File → Export Run As → `text` (null when there is none).
QAction* exportRunAction(MainWindow& window, const QString& text)
{
    auto* submenu = test::fileMenuAction(window, QStringLiteral("Export Run &As"));
    if (submenu == nullptr || submenu->menu() == nullptr)
        return nullptr;
    for (QAction* action : submenu->menu()->actions())
        if (action->text() == text)
            return action;
    return nullptr;
}

ExportRunDialog* openExportDialog(MainWindow& window, const QString& item)
{
    REQUIRE(test::openAndWait(window, test::realLog("gen-feat-smp")) == LoadOutcome::Loaded);
    auto* action = exportRunAction(window, item);
    REQUIRE(action != nullptr);
    REQUIRE(action->isEnabled());
    action->trigger();
    auto* dialog = window.findChild<ExportRunDialog*>();
    REQUIRE(dialog != nullptr);
    return dialog;
}

bool exportAndWait(ExportRunDialog& dialog)
{
    QSignalSpy done(&dialog, &ExportRunDialog::exportFinished);
    dialog.exportButton()->click();
    REQUIRE(done.wait(30'000));
    return done.takeFirst().at(0).toBool();
}

} // namespace

TEST_CASE("Export Run As Perfetto offers the current view's range and PEs and writes the file")
{
    test::TempDir tmp;
    MainWindow window(false);
    REQUIRE(test::openAndWait(window, test::realLog("gen-feat-smp")) == LoadOutcome::Loaded);
    // A view with a narrower range and two PEs, as an analyst leaves it.
    auto* view = window.workspace()->openView(views::ViewKind::UsageProfile);
    REQUIRE(view != nullptr);
    view->setSelection({ 1'100'000, 1'200'000 }, { 1, 2 });
    auto* action = exportRunAction(window, QStringLiteral("&Perfetto…"));
    REQUIRE(action != nullptr);
    action->trigger();
    auto* dialog = window.findChild<ExportRunDialog*>();
    REQUIRE(dialog != nullptr);
    CHECK(dialog->rangeCombo()->count() == 2);
    CHECK(dialog->rangeCombo()->currentText().startsWith(QStringLiteral("Current view")));
    CHECK(dialog->pesCombo()->currentText() == QStringLiteral("Current view's PEs (1-2)"));
    const auto request = dialog->request();
    CHECK(request.range.begin == 1'100'000);
    CHECK(request.range.end == 1'200'000);
    CHECK(request.pes == std::vector<core::PeId> { 1, 2 });
    CHECK(dialog->estimateLabel()->text().contains(QStringLiteral("on 2 PEs")));

    const auto out = tmp / "feat.json";
    dialog->outputEdit()->setText(QString::fromStdString(out.string()));
    REQUIRE(exportAndWait(*dialog));
    const auto text = test::readFile(out);
    CHECK(text.find("\"range_begin_us\":1100000") != std::string::npos);
    CHECK(text.find("\"cat\":\"entry\"") != std::string::npos);
    CHECK(text.find("\"pes\":\"1-2\"") != std::string::npos);
    CHECK(text.rfind("\n]}\n") == text.size() - 4);
    CHECK(dialog->statusLabel()->text().startsWith(QStringLiteral("Written to")));

    // The same target again: refused in the dialog until "Replace" is ticked.
    QSignalSpy done(dialog, &ExportRunDialog::exportFinished);
    dialog->exportButton()->click();
    CHECK(done.isEmpty());
    CHECK(dialog->statusLabel()->text().contains(QStringLiteral("already exists")));
    dialog->forceCheck()->setChecked(true);
    dialog->rangeCombo()->setCurrentIndex(0); // the whole run
    dialog->pesCombo()->setCurrentIndex(0);
    REQUIRE(exportAndWait(*dialog));
    CHECK(test::readFile(out).find("\"pes\":\"0-5\"") != std::string::npos);
}

TEST_CASE("Export Run As OTF2 writes the archive, and a cancel leaves all of it or nothing")
{
    if (!exporter::otf2Available())
        return; // a build without the OTF2 library has the item disabled
    test::TempDir tmp;
    MainWindow window(false);
    auto* dialog = openExportDialog(window, QStringLiteral("&OTF2…"));
    CHECK(dialog->rangeCombo()->count() == 1); // no view open: the whole run only
    const auto archive = tmp / "feat-otf2";
    dialog->outputEdit()->setText(QString::fromStdString(archive.string()));
    REQUIRE(exportAndWait(*dialog));
    CHECK(fs::is_regular_file(archive / "traces.otf2"));

    // Cancelled right after it started: the worker stops at its next check; whichever comes
    // first, the target is complete or absent and no temporary remains.
    const auto second = tmp / "second-otf2";
    dialog->outputEdit()->setText(QString::fromStdString(second.string()));
    QSignalSpy done(dialog, &ExportRunDialog::exportFinished);
    dialog->exportButton()->click();
    dialog->cancelExport();
    REQUIRE(done.wait(30'000));
    const bool ok = done.takeFirst().at(0).toBool();
    CHECK(fs::exists(second / "traces.otf2") == ok);
    CHECK((ok || !fs::exists(second)));
    for (const auto& entry : fs::directory_iterator(tmp.path()))
        CHECK(entry.path().filename().string().find(".partial-") == std::string::npos);
}
