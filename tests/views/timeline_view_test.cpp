// TimelineView and its widget: rows for the PEs asked for, zoom and pan with wheel, keys and
// drags, clicking a block to see its message arrow (and loading a missing sender), rendering and
// CSV on sample and real runs.

#include "core/analysis/run_span.h"
#include "support/io_support.h"
#include "support/test_support.h"
#include "support/view_test_support.h"
#include "timeline_test_support.h"
#include "views/common/entry_palette.h"
#include "views/common/options_bar.h"
#include "views/timeline/timeline_view.h"

#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace parallax;
using namespace parallax::views;

namespace {

void wheel(QWidget* widget, QPoint at, int delta, Qt::KeyboardModifiers modifiers = {})
{
    QWheelEvent event(QPointF(at), QPointF(widget->mapToGlobal(at)), QPoint(), QPoint(0, delta),
        Qt::NoButton, modifiers, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(widget, &event);
}

int colourCount(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    return static_cast<int>(colours.size());
}

} // namespace

TEST_CASE("the timeline shows the first PEs until others are asked for, then adds them",
    "[views][timeline]")
{
    parallax::test::ShownTimeline shown(1200, 500);
    auto& view = shown.view;
    view.setTrace(test::sampleTrace("imbalance"));
    CHECK(view.loadedPes().size() == 12); // opened on its own: the first PEs
    const auto traced = core::analysis::tracedRunSpan(*test::sampleTrace("imbalance"));
    CHECK(view.window().begin == traced.begin); // the traced span, like every view
    CHECK(view.window().end == traced.end);

    view.setSelection({ 20'000, 32'000 }, { 3, 9 }); // e.g. from Extrema: replaces them
    CHECK(view.loadedPes() == std::vector<core::PeId> { 3, 9 });
    CHECK(view.window().begin == 20'000);
    CHECK(view.window().end == 32'000);
    view.addPes({ 9, 0, 400 }); // 9 is there already, 400 is not in the run
    CHECK(view.loadedPes() == std::vector<core::PeId> { 0, 3, 9 }); // rows stay in PE order
    CHECK(view.optionsBar()->pes() == std::vector<core::PeId> { 0, 3, 9 });
    view.setSelection({}, {}); // nothing asked: unchanged
    CHECK(view.loadedPes().size() == 3);

    // Each loaded PE has a row with blocks where it ran.
    auto* timeline = view.timeline();
    for (const auto pe : { 3, 9, 0 }) {
        INFO("PE " << pe);
        CHECK(timeline->rowRect(pe).isValid());
        const auto& p = view.timeline()->trace()->pes[static_cast<std::size_t>(pe)];
        const auto r = p.executionsOverlapping(25'000, 32'000);
        REQUIRE_FALSE(r.empty());
        const auto t = (p.executions.begin[r.first] + p.executions.end[r.first]) / 2;
        const QRect block = view.blockRectAt(pe, t);
        REQUIRE(block.isValid());
        CHECK(block.left() <= static_cast<int>(timeline->xOf(t)));
        CHECK(block.right() >= static_cast<int>(timeline->xOf(t)));
        CHECK(timeline->rowRect(pe).contains(block.center()));
    }

    // Typing PEs into the options bar replaces the rows.
    auto* peField = view.optionsBar()->findChild<QLineEdit*>(QStringLiteral("peList"));
    REQUIRE(peField != nullptr);
    peField->setText(QStringLiteral("5-6"));
    REQUIRE(view.optionsBar()->apply());
    CHECK(view.loadedPes() == std::vector<core::PeId> { 5, 6 });
    view.removePe(5);
    CHECK(view.loadedPes() == std::vector<core::PeId> { 6 });
}

TEST_CASE("wheel and keys zoom around the cursor, drags and arrows pan, F shows the whole run",
    "[views][timeline]")
{
    parallax::test::ShownTimeline shown(1200, 400);
    auto& view = shown.view;
    view.setTrace(test::sampleTrace("imbalance"));
    auto* w = view.timeline();
    w->setWindow({ 0, 100'000 });
    const auto& g = w->currentGeometry();
    const int y = w->rowRect(0).center().y();
    const int x = static_cast<int>(g.map.xOf(30'000));
    const auto before = w->timeAt(x);

    wheel(w, QPoint(x, y), 120); // one notch in
    CHECK(w->window().length() < 100'000);
    CHECK(std::abs(w->timeAt(x) - before) <= 100); // the time under the cursor stays
    const auto zoomed = w->window().length();
    wheel(w, QPoint(x, y), -120);
    CHECK(w->window().length() > zoomed);

    w->setWindow({ 0, 100'000 });
    w->setFocus();
    QTest::keyClick(w, Qt::Key_Plus);
    CHECK(w->window().length() == Approx(50'000).margin(2));
    QTest::keyClick(w, Qt::Key_Minus);
    CHECK(w->window().length() == Approx(100'000).margin(4));
    const auto b0 = w->window().begin;
    QTest::keyClick(w, Qt::Key_Right);
    CHECK(w->window().begin > b0);
    QTest::keyClick(w, Qt::Key_Left);
    CHECK(w->window().begin == Approx(b0).margin(2));
    QTest::keyClick(w, Qt::Key_End); // the end of the run at this zoom
    CHECK(w->window().end == w->runSpan().end);
    CHECK(w->window().length() == Approx(100'000).margin(4));
    QTest::keyClick(w, Qt::Key_Home); // its start
    CHECK(w->window().begin == 0);
    CHECK(w->window().length() == Approx(100'000).margin(4));
    QTest::keyClick(w, Qt::Key_F); // the whole traced run
    const auto traced = core::analysis::tracedRunSpan(*test::sampleTrace("imbalance"));
    CHECK(w->window().begin == traced.begin);
    CHECK(w->window().end == traced.end);

    // The window never leaves the run and never gets shorter than a few microseconds.
    w->setWindow({ -50'000, 10'000 });
    CHECK(w->window().begin == 0);
    for (int i = 0; i < 80; ++i)
        w->zoom(0.5, x);
    CHECK(w->window().length() == TimelineWidget::kMinimumWindow);

    // Plain drag pans; Shift+drag selects a range without panning.
    w->setWindow({ 0, 100'000 });
    const QPoint from(static_cast<int>(w->xOf(20'000)), y);
    const QPoint to(static_cast<int>(w->xOf(40'000)), y);
    QSignalSpy selected(w, &TimelineWidget::rangeSelected);
    QTest::mousePress(w, Qt::LeftButton, Qt::ShiftModifier, from);
    QTest::mouseMove(w, to);
    QTest::mouseRelease(w, Qt::LeftButton, Qt::ShiftModifier, to);
    REQUIRE(selected.count() == 1);
    const auto range = selected.at(0).at(0).value<core::TimeRange>();
    CHECK(range.begin == Approx(20'000).margin(200));
    CHECK(range.end == Approx(40'000).margin(200));
    CHECK(w->window().begin == 0);
    QTest::mousePress(w, Qt::LeftButton, {}, to);
    QTest::mouseMove(w, QPoint((from.x() + to.x()) / 2, y));
    QTest::mouseMove(w, from);
    QTest::mouseRelease(w, Qt::LeftButton, {}, from);
    CHECK(w->window().begin == Approx(20'000).margin(200)); // dragged left by 20 ms
    CHECK(view.optionsBar()->range().begin == w->window().begin);
}

TEST_CASE(
    "the zoom history goes back and forward, a wheel gesture being one step", "[views][timeline]")
{
    parallax::test::ShownTimeline shown(1200, 400);
    auto& view = shown.view;
    view.setTrace(test::sampleTrace("imbalance"));
    auto* w = view.timeline();
    auto* back = view.findChild<QToolButton*>(QStringLiteral("timelineBack"));
    auto* forward = view.findChild<QToolButton*>(QStringLiteral("timelineForward"));
    REQUIRE(back != nullptr);
    REQUIRE(forward != nullptr);
    CHECK_FALSE(w->canGoBack()); // a new run starts a new history
    CHECK_FALSE(back->isEnabled());

    const auto whole = w->window();
    w->setWindow({ 10'000, 50'000 });
    w->setWindow({ 20'000, 30'000 });
    CHECK(back->isEnabled());
    CHECK_FALSE(forward->isEnabled());

    // Several wheel notches in quick succession: one step back undoes them all.
    const int y = w->rowRect(0).center().y();
    const int x = static_cast<int>(w->xOf(25'000));
    for (int i = 0; i < 5; ++i)
        wheel(w, QPoint(x, y), 120);
    CHECK(w->window().length() < 10'000);
    w->setFocus();
    QTest::keyClick(w, Qt::Key_Left, Qt::AltModifier);
    CHECK(w->window().begin == 20'000);
    CHECK(w->window().end == 30'000);
    QTest::keyClick(w, Qt::Key_Backspace);
    CHECK(w->window().begin == 10'000);
    CHECK(w->window().end == 50'000);
    CHECK(forward->isEnabled());
    back->click();
    CHECK(w->window().begin == whole.begin);
    CHECK(w->window().end == whole.end);
    CHECK_FALSE(back->isEnabled());

    // Forward again, then a new step drops what lay ahead.
    QTest::keyClick(w, Qt::Key_Right, Qt::AltModifier);
    CHECK(w->window().begin == 10'000);
    forward->click();
    CHECK(w->window().begin == 20'000);
    back->click();
    w->zoom(0.5, x);
    CHECK_FALSE(w->canGoForward());
    w->back();
    CHECK(w->window().begin == 10'000);
    CHECK(w->window().end == 50'000);
}

TEST_CASE("a click on the ruler sets a reference mark and the ruler then counts from it",
    "[views][timeline]")
{
    parallax::test::ShownTimeline shown(1200, 400);
    auto& view = shown.view;
    view.setTrace(test::sampleTrace("imbalance"));
    auto* w = view.timeline();
    w->setWindow({ 20'000, 30'000 });
    const auto& g = w->currentGeometry();
    CHECK(g.axis.originName.isEmpty());
    const QPoint onRuler(static_cast<int>(w->xOf(24'000)), g.ruler.center().y());
    QSignalSpy changed(w, &TimelineWidget::referenceChanged);
    QTest::mouseClick(w, Qt::LeftButton, {}, onRuler);
    REQUIRE(w->referenceTime().has_value());
    CHECK(*w->referenceTime() == Approx(24'000).margin(10));
    CHECK(changed.count() == 1);
    CHECK(w->window().begin == 20'000); // a click, not a pan
    const auto& marked = w->currentGeometry();
    CHECK(marked.axis.originName == QStringLiteral("ref"));
    const bool zeroAtMark = std::any_of(marked.axis.ticks.begin(), marked.axis.ticks.end(),
        [&](const TimeTick& t) { return t.label == QStringLiteral("0"); });
    CHECK(zeroAtMark);
    // The exported picture shows the mark too (a red line through the rows).
    const QImage image = view.renderChart(QSize(1000, 400));
    const int markX = static_cast<int>(
        std::floor(w->geometryFor(QSize(1000, 400), true).map.xOf(*w->referenceTime())));
    bool red = false;
    for (int y = 0; y < image.height() && !red; ++y)
        for (int dx = -1; dx <= 1 && !red; ++dx) {
            const QColor c = image.pixelColor(markX + dx, y);
            red = c.red() > 150 && c.green() < 110 && c.blue() < 110;
        }
    CHECK(red);
    // Escape (with nothing selected) clears it.
    w->setFocus();
    QTest::keyClick(w, Qt::Key_Escape);
    CHECK_FALSE(w->referenceTime().has_value());
    CHECK(w->currentGeometry().axis.originName.isEmpty());
}

TEST_CASE("clicking a block selects it and draws the arrow from its sender, loading the sender "
          "on request",
    "[views][timeline][links]")
{
    parallax::test::ShownTimeline shown(1200, 500);
    auto& view = shown.view;
    // pipit-pingpong-v11 PE 1: "2 19 183 82012 10 0 160 ..." was created by PE 0 with event 10;
    // the execution lasts [82012, 82013).
    view.setTrace(parallax::test::loadOk(parallax::test::realLog("pipit-pingpong-v11")));
    view.setSelection({ 81'900, 82'100 }, { 1 });
    REQUIRE(view.loadedPes() == std::vector<core::PeId> { 1 });
    auto* w = view.timeline();
    const QRect block = view.blockRectAt(1, 82'012);
    REQUIRE(block.isValid());
    QSignalSpy selectedSignal(w, &TimelineWidget::blockSelected);
    QTest::mouseClick(w, Qt::LeftButton, {}, block.center());
    CHECK(selectedSignal.count() == 1);
    const auto selected = view.selectedBlock();
    REQUIRE(selected);
    CHECK(selected->pe == 1);
    const auto& trace = *w->trace();
    CHECK(trace.pes[1].executions.begin[selected->execution] == 82'012);
    const auto link = view.arrowSource();
    REQUIRE(link);
    CHECK(link->linked());
    CHECK_FALSE(link->weak());
    CHECK(link->senderPe == 0);
    CHECK(trace.pes[0].sends.eventId[*link->send] == 10);

    // The sender is not shown: a "Load PE 0" button appears; clicking it adds the row.
    CHECK(w->missingPathPes() == std::vector<core::PeId> { 0 });
    const QRect button = w->loadButtonRect();
    REQUIRE(button.isValid());
    CHECK(w->toolTipAt(button.center()).contains(QStringLiteral("sender")));
    QTest::mouseClick(w, Qt::LeftButton, {}, button.center());
    CHECK(view.loadedPes() == std::vector<core::PeId> { 0, 1 }); // in PE order
    CHECK(w->missingPathPes().empty());
    CHECK(w->loadButtonRect().isNull());
    CHECK(view.selectedBlock() == selected); // still selected, now with its arrow

    // The arrow is drawn: pixels along the line between the send and the begin change.
    const QImage with = view.renderChart(QSize(1000, 400));
    w->clearSelection();
    const QImage without = view.renderChart(QSize(1000, 400));
    CHECK(with != without);

    // The tooltip of the block names the entry, its sender and the latency.
    const QString tip = w->toolTipAt(view.blockRectAt(1, 82'012).center());
    CHECK(tip.contains(QStringLiteral("PE 1")));
    CHECK(tip.contains(QStringLiteral("sent by PE 0")));
    CHECK(tip.contains(QStringLiteral("latency")));
    CHECK(tip.contains(QStringLiteral("160 bytes")));

    // Escape or a click on empty space clears the selection.
    REQUIRE(w->selectAt(1, 82'012));
    REQUIRE(view.selectedBlock());
    QTest::keyClick(w, Qt::Key_Escape);
    CHECK_FALSE(view.selectedBlock());
}

TEST_CASE("a stale event id never gives a solid arrow in the view", "[views][timeline][links]")
{
    EntryPalette palette;
    TimelineView view(&palette);
    view.resize(1000, 300);
    view.setTrace(parallax::test::loadOk(parallax::test::realLog("pipit-hello1darray-v11")));
    view.setPes({ 0, 1 });
    auto* w = view.timeline();
    // PE 1's Hello() at 1864 carries event 7 of PE 0: the CkCheckpointMgr group creation.
    REQUIRE(w->selectAt(1, 1866));
    const auto& trace = *w->trace();
    CHECK(trace.metadata.entryName(trace.pes[1].executions.entry[view.selectedBlock()->execution])
        == "Hello()");
    const auto link = view.arrowSource();
    REQUIRE(link);
    CHECK((!link->linked() || link->weak()));
}

TEST_CASE("an SMP message path is drawn back through the comm thread", "[views][timeline][links]")
{
    EntryPalette palette;
    TimelineView view(&palette);
    view.resize(1200, 500);
    view.setTrace(parallax::test::loadOk(parallax::test::realLog("gen-feat-smp")));
    view.setPes({ 0 });
    view.setWindow({ 1'127'400, 1'127'600 });
    auto* w = view.timeline();
    REQUIRE(w->selectAt(0, 1'127'510));
    REQUIRE(w->messagePath().size() == 2);
    CHECK(w->missingPathPes() == std::vector<core::PeId> { 4, 3 });
    view.addPes(w->missingPathPes());
    CHECK(view.loadedPes() == std::vector<core::PeId> { 0, 3, 4 }); // in PE order
    CHECK(w->missingPathPes().empty());
}

TEST_CASE("the timeline renders a non-blank multi-colour picture and exports CSV like the CLI",
    "[views][timeline]")
{
    EntryPalette palette;
    TimelineView view(&palette);
    view.resize(1200, 600);
    const auto trace = parallax::test::loadOk(parallax::test::realLog("gen-leanmd-smp"));
    view.setTrace(trace);
    REQUIRE(view.loadedPes().size() == 6);
    const QImage whole = view.renderChart(QSize(1200, 500));
    CHECK(colourCount(whole) > 12);
    view.setWindow({ 2'987'000, 2'988'000 }); // about 1 ms: wide, readable blocks
    const QImage zoomed = view.renderChart(QSize(1200, 500));
    CHECK(colourCount(zoomed) > 8);
    CHECK(zoomed != whole);

    const auto csv = view.csv();
    const auto lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    REQUIRE(lines.size() > 6);
    CHECK(
        lines[0] == QStringLiteral("pe,begin_us,end_us,kind,entry,entry_name,source_pe,msg_bytes"));
    std::size_t expected = 0;
    for (const auto pe : view.loadedPes()) {
        const auto& p = trace->pes[static_cast<std::size_t>(pe)];
        expected += p.executionsOverlapping(2'987'000, 2'988'000).size()
            + p.idlesOverlapping(2'987'000, 2'988'000).size()
            + p.packsOverlapping(2'987'000, 2'988'000).size()
            + p.unpacksOverlapping(2'987'000, 2'988'000).size();
    }
    CHECK(static_cast<std::size_t>(lines.size()) == expected + 1);
    bool sawExec = false;
    core::TimeUs last = -1;
    core::PeId lastPe = -1;
    for (int i = 1; i < lines.size(); ++i) {
        const auto fields = lines[i].split(QLatin1Char(','));
        REQUIRE(fields.size() >= 8);
        const auto pe = fields[0].toInt();
        const auto begin = fields[1].toLongLong();
        if (pe == lastPe)
            CHECK(begin >= last); // time order within a PE
        lastPe = pe;
        last = begin;
        if (fields[3] == QStringLiteral("exec")) {
            sawExec = true;
            CHECK_FALSE(fields[5].isEmpty());
        } else {
            CHECK(fields[4].isEmpty());
        }
    }
    CHECK(sawExec);
}

TEST_CASE("rows by PE list: add, remove and collapse, a bad list refused with a reason",
    "[views][timeline]")
{
    parallax::test::ShownTimeline shown(1200, 500);
    auto& view = shown.view;
    view.setTrace(test::sampleTrace("imbalance"));
    view.setPes({ 0, 1 });
    QString error;
    CHECK(view.addPeList(QStringLiteral("4-10:2, 1"), &error));
    CHECK(view.loadedPes() == std::vector<core::PeId> { 0, 1, 4, 6, 8, 10 });
    CHECK(view.removePeList(QStringLiteral("0,6-8"), &error));
    CHECK(view.loadedPes() == std::vector<core::PeId> { 1, 4, 10 });
    CHECK_FALSE(view.addPeList(QStringLiteral("3-"), &error));
    CHECK_FALSE(error.isEmpty());
    error.clear();
    CHECK_FALSE(view.addPeList(QStringLiteral("500-600"), &error)); // not in this run
    CHECK_FALSE(error.isEmpty());
    CHECK(view.loadedPes().size() == 3);

    // Collapse two of the rows into one aggregated row, where the first of them was.
    auto* w = view.timeline();
    CHECK(view.collapsePeList(QStringLiteral("4,10"), &error));
    REQUIRE(w->groups().size() == 1);
    CHECK(w->groups()[0].pes == std::vector<core::PeId> { 4, 10 });
    const auto rows = w->rowSources();
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].pe == 1);
    CHECK(rows[1].members == std::vector<core::PeId> { 4, 10 });
    CHECK(w->rowRect(4).isNull()); // no row of its own
    const auto& g = w->currentGeometry();
    REQUIRE(g.rows.size() == 2);
    const auto& collapsed = g.rows[1];
    CHECK(collapsed.collapsed());
    CHECK_FALSE(collapsed.blocks.empty());
    CHECK(std::all_of(collapsed.blocks.begin(), collapsed.blocks.end(),
        [](const TimelineBlock& b) { return b.kind == TimelineBlockKind::Aggregate; }));
    const QPoint inBar(collapsed.blocks.front().left, collapsed.bar.bottom() - 1);
    CHECK(w->groupAt(inBar) == 0);
    CHECK(w->toolTipAt(inBar).contains(QStringLiteral("busy")));
    // A click on a collapsed row selects nothing and expands it in place: its row stays, its
    // PEs follow it; a click on its label collapses it again.
    // Copies: a click rebuilds the geometry `collapsed` refers to.
    const QRect groupBar = collapsed.bar;
    const QRect groupLabel = collapsed.label;
    QTest::mouseClick(w, Qt::LeftButton, {}, inBar);
    CHECK_FALSE(w->selectedBlock().has_value());
    REQUIRE(w->groups().size() == 1);
    CHECK(w->groups()[0].expanded);
    CHECK(w->rowSources().size() == 4);
    CHECK(w->rowRect(4).isValid());
    CHECK(w->currentGeometry().rows[1].bar == groupBar); // the group's row did not move
    QTest::mouseClick(w, Qt::LeftButton, {}, QPoint(groupLabel.center().x(), inBar.y()));
    CHECK_FALSE(w->groups()[0].expanded);
    CHECK(w->rowRect(4).isNull());
    w->ungroup(0);
    CHECK(w->groups().empty());
    CHECK(w->rowRect(4).isValid());
    CHECK(view.loadedPes() == std::vector<core::PeId> { 1, 4, 10 });

    // Reordering rows.
    view.movePe(10, -1);
    CHECK(view.loadedPes() == std::vector<core::PeId> { 1, 10, 4 });
    view.movePe(4, -99); // clamped: to the top
    CHECK(view.loadedPes() == std::vector<core::PeId> { 4, 1, 10 });
    view.movePe(4, 1);
    CHECK(view.loadedPes() == std::vector<core::PeId> { 1, 4, 10 });
    CHECK(w->rowRect(1).top() < w->rowRect(4).top());
}

TEST_CASE("rows stay in PE order unless the user moves them, and the header follows them",
    "[views][timeline]")
{
    parallax::test::ShownTimeline shown(1200, 500);
    auto& view = shown.view;
    view.setTrace(test::sampleTrace("imbalance"));
    view.setPes({ 2, 5 });
    view.addPes({ 3, 0 });
    CHECK(view.loadedPes() == std::vector<core::PeId> { 0, 2, 3, 5 });
    view.movePe(5, -3); // the user puts PE 5 on top: that order is kept
    CHECK(view.loadedPes() == std::vector<core::PeId> { 5, 0, 2, 3 });
    view.addPes({ 1 });
    CHECK(view.loadedPes() == std::vector<core::PeId> { 5, 0, 2, 3, 1 });

    // A change made on the drawing surface itself (sorting, "Load PE n") reaches the options
    // bar and the status line too.
    const auto* status = view.findChild<QLabel*>(QStringLiteral("timelineStatus"));
    REQUIRE(status != nullptr);
    view.timeline()->setPes({ 7, 4 });
    CHECK(view.optionsBar()->pes() == std::vector<core::PeId> { 4, 7 });
    CHECK(status->text().startsWith(QStringLiteral("2 rows")));
    view.timeline()->setPes({ 1, 2, 3 });
    CHECK(view.optionsBar()->pes() == std::vector<core::PeId> { 1, 2, 3 });
    CHECK(status->text().startsWith(QStringLiteral("3 rows")));
}

TEST_CASE("SMP: rows sorted by node, each node collapsed into one row and expanded again",
    "[views][timeline][real]")
{
    parallax::test::ShownTimeline shown(1200, 600);
    auto& view = shown.view;
    view.setTrace(parallax::test::loadOk(parallax::test::realLog("gen-leanmd-smp")));
    auto* w = view.timeline();
    view.setPes({ 0, 1, 2, 3, 4, 5 }); // SMPMODE 2 2: workers 0-3, comm threads 4 and 5
    w->sortByNode();
    CHECK(w->pes() == std::vector<core::PeId> { 0, 1, 4, 2, 3, 5 });
    const auto& g = w->currentGeometry();
    REQUIRE(g.rows.size() == 6);
    CHECK(g.rows[2].commThread);
    CHECK(g.rows[3].firstOfNode); // node 1 starts at PE 2
    CHECK(g.rows[3].node == 1);

    view.collapseNodes();
    REQUIRE(w->groups().size() == 2);
    const auto& collapsed = w->currentGeometry();
    REQUIRE(collapsed.rows.size() == 2);
    CHECK(collapsed.rows[0].groupLabel == QStringLiteral("node 0"));
    CHECK(collapsed.rows[0].members == std::vector<core::PeId> { 0, 1, 4 });
    CHECK(collapsed.rows[1].node == 1);
    CHECK(collapsed.rows[1].firstOfNode);
    CHECK(collapsed.rows[0].busyUs > 0);
    // The picture has the aggregated rows (and is not blank).
    const QImage image = view.renderChart(QSize(900, 300));
    CHECK(colourCount(image) > 8);
    w->expand(0);
    CHECK(w->groups().size() == 2);
    CHECK(w->rowSources().size() == 5); // node 0's row and PEs, node 1's row
    w->expandAll(); // ungroups all
    CHECK(w->rowSources().size() == 6);
}

TEST_CASE("hovering a bracket, a user event or a send tick names it", "[views][timeline]")
{
    parallax::test::ShownTimeline shown(1200, 400);
    auto& view = shown.view;
    const auto trace = test::sampleTrace("imbalance");
    view.setTrace(trace);
    view.setPes({ 0 });
    auto* w = view.timeline();
    const auto& p = trace->pes[0];
    REQUIRE_FALSE(p.userBrackets.empty());
    REQUIRE(p.sends.size() > 0);

    // A bracket, from a little before it begins.
    const auto& bracket = p.userBrackets.front();
    w->setWindow({ bracket.begin - 50, bracket.begin - 50 + 2'000 });
    const auto& g = w->currentGeometry();
    const auto* row = g.rowOfPe(0);
    REQUIRE(row != nullptr);
    REQUIRE_FALSE(row->brackets.empty());
    const QPoint onBracket(row->brackets.front().left + 1, row->eventStrip.top() + 2);
    const auto name = QString::fromStdString(trace->metadata.userEvents.at(bracket.id));
    INFO(w->toolTipAt(onBracket).toStdString());
    CHECK(w->toolTipAt(onBracket).contains(name.toHtmlEscaped()));

    // A send tick below the bar.
    w->setWindow({ p.sends.time[0] - 100, p.sends.time[0] + 900 });
    const auto* sendsRow = w->currentGeometry().rowOfPe(0);
    REQUIRE(sendsRow != nullptr);
    REQUIRE_FALSE(sendsRow->sends.empty());
    const QPoint onSend(sendsRow->sends.front().x, sendsRow->bar.bottom() + 2);
    const QString tip = w->toolTipAt(onSend);
    CHECK(tip.contains(QStringLiteral("message sent")));
    CHECK(tip.contains(QString::fromStdString(
        trace->metadata.entryName(p.sends.entry[sendsRow->sends.front().index]))
                           .toHtmlEscaped()));
}

TEST_CASE(
    "the visible timeline exports to SVG as vector shapes with its labels", "[views][timeline]")
{
    parallax::test::ShownTimeline shown(1200, 500);
    auto& view = shown.view;
    view.setTrace(test::sampleTrace("imbalance"));
    view.setPes({ 0, 3 });
    view.setWindow({ 20'000, 23'000 });
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("timeline.svg"));
    QString error;
    if (!TimelineView::svgAvailable()) {
        CHECK_FALSE(view.exportSvg(path, QSize(900, 300), &error));
        CHECK(error.contains(QStringLiteral("qt6-svg-dev")));
        return;
    }
    REQUIRE(view.exportSvg(path, QSize(900, 300), &error));
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(file.readAll());
    CHECK(svg.contains(QStringLiteral("<svg")));
    CHECK(svg.contains(QStringLiteral("viewBox=\"0 0 900 300\"")));
    CHECK(svg.contains(QStringLiteral("PE 3"))); // row labels are text
    CHECK(svg.contains(QStringLiteral("Timeline")));
    CHECK_FALSE(svg.contains(QStringLiteral("<image"))); // bars are shapes, not a bitmap
    CHECK(svg.count(QStringLiteral("<path")) + svg.count(QStringLiteral("<rect")) > 20);
    // A directory that does not exist: a clear error.
    CHECK_FALSE(view.exportSvg(dir.filePath(QStringLiteral("no/such/dir/t.svg")), {}, &error));
    CHECK_FALSE(error.isEmpty());
}

TEST_CASE(
    "the timeline opens on the traced span, not on the comm threads' tail", "[views][timeline]")
{
    // gen-leanmd-smp: the comm threads (PEs 4 and 5) record until 9.82 s, the workers' traced
    // span ends at the .projrc end time, about 7.94 s.
    parallax::test::ShownTimeline shown(1200, 400);
    const auto trace = parallax::test::loadOk(parallax::test::realLog("gen-leanmd-smp"));
    shown.view.setTrace(trace);
    auto* w = shown.view.timeline();
    const auto traced = core::analysis::tracedRunSpan(*trace);
    REQUIRE(traced.end < trace->endTime());
    CHECK(w->window().begin == traced.begin);
    CHECK(w->window().end == traced.end);
    // Zooming out still reaches the whole recorded run; F comes back to the traced span.
    w->setWindow({ 0, trace->endTime() });
    CHECK(w->window().end == trace->endTime());
    w->setFocus();
    QTest::keyClick(w, Qt::Key_F);
    CHECK(w->window().end == traced.end);
}
