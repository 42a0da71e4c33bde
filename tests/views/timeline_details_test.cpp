// The details of a selected execution (pure, on real and hand-made traces), the side panel
// in the view, highlighting an entry, and tracing the arrows back several message hops.

#include "core/text_args.h"
#include "support/io_support.h"
#include "support/test_support.h"
#include "timeline_test_support.h"
#include "views/common/entry_palette.h"
#include "views/timeline/timeline_details.h"
#include "views/timeline/timeline_details_panel.h"
#include "views/timeline/timeline_view.h"

#include <QCheckBox>
#include <QSpinBox>
#include <QTest>

#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

using namespace parallax;
using namespace parallax::views;

namespace {

QString field(const ExecutionDetails& d, const QString& label)
{
    for (const auto& f : d.fields)
        if (f.label == label)
            return f.value;
    return {};
}

} // namespace

TEST_CASE("the details of an execution: entry, times, sender, latency and size",
    "[views][timeline][real]")
{
    // pipit-pingpong-v11 PE 1: "2 19 183 82012 10 0 160 ..." was created by PE 0 with event 10.
    const auto trace = parallax::test::loadOk(parallax::test::realLog("pipit-pingpong-v11"));
    const auto& p = trace->pes[1];
    const auto range = p.executionsOverlapping(82'012, 82'013);
    REQUIRE_FALSE(range.empty());
    const auto d = describeExecution(*trace, 1, range.first);
    CHECK(d.title
        == QString::fromStdString(trace->metadata.entryName(p.executions.entry[range.first])));
    CHECK(field(d, QStringLiteral("Entry")) == d.title);
    CHECK(field(d, QStringLiteral("PE")) == QStringLiteral("1"));
    CHECK(field(d, QStringLiteral("Begin")) == formatPreciseTime(82'012));
    CHECK(field(d, QStringLiteral("Source PE")) == QStringLiteral("0"));
    CHECK(field(d, QStringLiteral("Message size")) == QStringLiteral("160 bytes"));
    CHECK(field(d, QStringLiteral("Sent")).startsWith(QStringLiteral("by PE 0 at")));
    CHECK_FALSE(field(d, QStringLiteral("Latency from send")).isEmpty());
    // Nothing there: no details, no crash.
    CHECK(describeExecution(*trace, 1, p.executions.size()).title.isEmpty());
    CHECK(describeExecution(*trace, -1, 0).title.isEmpty());
    CHECK(describeExecution(*trace, 99, 0).title.isEmpty());
}

TEST_CASE("PAPI counters show their change over the execution", "[views][timeline]")
{
    auto trace = std::make_shared<core::Trace>();
    auto& meta = trace->metadata;
    meta.version = 11.0;
    meta.processors = 1;
    meta.chares.push_back({ "Main", -1 });
    meta.entries.push_back({ "run", 0, -1 });
    meta.papiEvents = { "PAPI_TOT_INS", "PAPI_L1_DCM" };
    trace->pes.resize(1);
    auto& pe = trace->pes[0];
    pe.hasLog = true;
    auto& x = pe.executions;
    x.begin = { 10 };
    x.end = { 30 };
    x.entry = { 0 };
    x.sourcePe = { -1 };
    x.msgBytes = { 0 };
    x.eventId = { -1 };
    x.object = { 0 };
    x.cpuBegin = { 5 };
    x.cpuDuration = { 18 };
    x.flags = { 0 };
    x.papi = { 100, 5, 1100, 7 };
    const auto d = describeExecution(*trace, 0, 0);
    CHECK(field(d, QStringLiteral("PAPI_TOT_INS")).remove(QLatin1Char(','))
        == QStringLiteral("1000"));
    CHECK(field(d, QStringLiteral("PAPI_L1_DCM")) == QStringLiteral("2"));
    CHECK(field(d, QStringLiteral("Duration")) == QString::fromStdString(core::formatDuration(20)));
    CHECK(field(d, QStringLiteral("CPU time")) == QString::fromStdString(core::formatDuration(18)));
    CHECK(field(d, QStringLiteral("Source PE")).isEmpty()); // none recorded
}

TEST_CASE("selecting a block opens the details panel, highlighting keeps its entry in colour",
    "[views][timeline][real]")
{
    parallax::test::ShownTimeline shown(1300, 500);
    auto& view = shown.view;
    view.setTrace(parallax::test::loadOk(parallax::test::realLog("pipit-pingpong-v11")));
    view.setSelection({ 81'900, 82'100 }, { 1, 0 });
    auto* w = view.timeline();
    auto* panel = view.detailsPanel();
    REQUIRE(panel != nullptr);
    CHECK_FALSE(panel->isVisible());
    REQUIRE(w->selectAt(1, 82'012));
    CHECK(panel->isVisible());
    CHECK(panel->text().contains(QStringLiteral("Latency from send")));
    CHECK(panel->text().contains(QStringLiteral("Arrows back: PE 1 ← PE 0")));

    const auto selected = *view.selectedBlock();
    const int entry = w->trace()->pes[1].executions.entry[selected.execution];
    const QImage before = view.renderChart(QSize(900, 300));
    panel->highlightEntry()->setChecked(true);
    REQUIRE(w->highlight().has_value());
    CHECK(w->highlight()->entry == entry);
    const auto& g = w->currentGeometry();
    const auto* row = g.rowOfPe(1);
    REQUIRE(row != nullptr);
    std::size_t on = 0;
    std::size_t off = 0;
    for (const auto& b : row->blocks)
        (w->isHighlighted(*row, b) ? on : off) += 1;
    CHECK(on > 0);
    CHECK(off > 0);
    CHECK(view.renderChart(QSize(900, 300)) != before);

    // Escape clears the selection, the panel and the highlight.
    w->setFocus();
    QTest::keyClick(w, Qt::Key_Escape);
    CHECK_FALSE(panel->isVisible());
    CHECK_FALSE(w->highlight().has_value());
}

TEST_CASE("the arrows trace back several message hops, each from the execution that sent it",
    "[views][timeline][real]")
{
    const auto trace = parallax::test::loadOk(parallax::test::realLog("pipit-pingpong-v11"));
    // A late execution of PE 1 in the ping-pong: its message came from PE 0, whose sending
    // execution was started by a message from PE 1, and so on.
    const auto& p = trace->pes[1];
    // (Some sends happen between executions: their chain ends there, so look for a long one.)
    std::optional<std::size_t> start;
    std::vector<MessageLink> path;
    for (auto k = p.executions.size(); k-- > 0 && !start;) {
        auto candidate = findMessagePath(*trace, 1, k, 20, 4);
        if (candidate.size() >= 3) {
            start = k;
            path = std::move(candidate);
        }
    }
    REQUIRE(start);
    CHECK(findMessagePath(*trace, 1, *start).size() == 1); // one hop by default
    CHECK(path.size() <= 4);
    for (std::size_t i = 1; i < path.size(); ++i) {
        INFO("hop " << i);
        REQUIRE(path[i - 1].linked());
        CHECK(path[i].pe == path[i - 1].senderPe);
        // The execution of hop i sent the message of hop i-1.
        const auto& sender = trace->pes[static_cast<std::size_t>(path[i].pe)];
        const auto sendTime = sender.sends.time[*path[i - 1].send];
        CHECK(sender.executions.begin[path[i].execution] <= sendTime);
        CHECK(sender.executions.end[path[i].execution] >= sendTime);
    }

    // In the view: the spin box sets the hops, and the path's PEs are offered for loading.
    parallax::test::ShownTimeline shown(1300, 500);
    auto& view = shown.view;
    view.setTrace(trace);
    view.setPes({ 1 });
    REQUIRE(view.timeline()->selectExecution(1, *start));
    view.detailsPanel()->backTraceHops()->setValue(4);
    CHECK(view.timeline()->backTraceHops() == 4);
    CHECK(view.timeline()->messagePath().size() == path.size());
    CHECK(view.timeline()->missingPathPes() == std::vector<core::PeId> { 0 });
}

TEST_CASE("forward arrows: the executions a block's messages started on the shown PEs",
    "[views][timeline][real]")
{
    const auto trace = parallax::test::loadOk(parallax::test::realLog("pipit-pingpong-v11"));
    // A PE 1 execution whose message was sent during an execution of PE 0.
    const auto& p1 = trace->pes[1];
    std::optional<std::pair<std::size_t, std::size_t>> pair; // (receiver, sender execution)
    for (auto k = p1.executions.size(); k-- > 0 && !pair;) {
        const auto link = findMessageSource(*trace, 1, k);
        if (!link.linked() || link.senderPe != 0)
            continue;
        const auto sender = trace->pes[0].sends.execution[*link.send];
        if (sender != core::kNoExecution && (sender & core::kSendAfterExecution) == 0)
            pair = std::make_pair(k, static_cast<std::size_t>(sender));
    }
    REQUIRE(pair);
    const auto targets = findMessageTargets(*trace, 0, pair->second, { 0, 1 });
    const bool found = std::any_of(targets.begin(), targets.end(),
        [&](const MessageLink& l) { return l.pe == 1 && l.execution == pair->first; });
    CHECK(found);
    for (const auto& t : targets) {
        CHECK(t.senderPe == 0);
        CHECK(t.linked());
    }
    // Only the PEs asked for are searched.
    const auto none = findMessageTargets(*trace, 0, pair->second, { 0 });
    CHECK(std::none_of(none.begin(), none.end(), [](const MessageLink& l) { return l.pe == 1; }));
    CHECK(findMessageTargets(*trace, 0, trace->pes[0].executions.size(), { 1 }).empty());

    // In the view the selected execution gets them as arrows, and the panel names them.
    parallax::test::ShownTimeline shown(1300, 500);
    auto& view = shown.view;
    view.setTrace(trace);
    view.setPes({ 0, 1 });
    REQUIRE(view.timeline()->selectExecution(0, pair->second));
    CHECK(view.timeline()->forwardLinks().size() == targets.size());
    CHECK(view.detailsPanel()->text().contains(QStringLiteral("on PE 1")));
}
