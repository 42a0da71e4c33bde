// Golden tests (STYLE.md, Testing): small hand-written runs are loaded and everything the store
// holds is dumped as text and compared with expected-store.txt next to the run. To regenerate
// after an intended change, run the test with PARALLAX_UPDATE_GOLDEN=1 and review the diff.

#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <sstream>

using namespace parallax;
using namespace parallax::test;

namespace {

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string dumpTrace(const core::Trace& t)
{
    std::ostringstream out;
    const auto& m = t.metadata;
    out << "version " << num(m.version) << "\nprocessors " << m.processors << "\nentries "
        << m.entries.size() << "\nbegin " << t.beginTime() << "\nend " << t.endTime() << "\nevents "
        << t.eventCount() << "\n";
    for (std::size_t k = 0; k < core::kIssueKinds; ++k) {
        const auto issue = static_cast<core::Issue>(k);
        if (t.report.count(issue) > 0)
            out << "issue " << core::issueKey(issue) << " " << t.report.count(issue) << "\n";
    }
    for (const auto& e : t.report.examples())
        out << "example " << core::issueKey(e.issue) << " " << e.file << ":" << e.line << "\n";
    for (const auto& p : t.pes) {
        out << "pe " << p.pe << " log " << p.hasLog << " records " << p.recordCount
            << " computation " << p.beginComputation << ".." << p.endComputation << " times "
            << p.firstTime << ".." << p.lastTime << "\n";
        const auto& x = p.executions;
        for (std::size_t i = 0; i < x.size(); ++i) {
            out << "  exec " << x.begin[i] << ".." << x.end[i] << " entry " << x.entry[i] << " src "
                << x.sourcePe[i] << " bytes " << x.msgBytes[i] << " ev " << x.eventId[i] << " obj";
            const auto& o = p.objects[x.object[i]];
            for (std::size_t k = 0; k < o.length; ++k)
                out << (k == 0 ? " " : ",") << o.values[k];
            out << " cpu " << x.cpuBegin[i] << "+" << x.cpuDuration[i] << " flags "
                << static_cast<int>(x.flags[i]) << "\n";
        }
        const std::pair<const char*, const core::IntervalColumns*> sets[] = { { "idle", &p.idles },
            { "pack", &p.packs }, { "unpack", &p.unpacks }, { "flush", &p.flushes } };
        for (const auto& [name, c] : sets)
            for (std::size_t i = 0; i < c->size(); ++i)
                out << "  " << name << " " << c->begin[i] << ".." << c->end[i] << "\n";
        const auto& s = p.sends;
        for (std::size_t i = 0; i < s.size(); ++i) {
            out << "  send " << s.time[i] << " entry " << s.entry[i] << " kind "
                << static_cast<int>(s.kind[i]) << " mtype " << static_cast<int>(s.messageType[i])
                << " bytes " << s.msgBytes[i] << " ev " << s.eventId[i] << " to "
                << s.destinationCount[i];
            for (auto pe : p.multicastDestinations(i))
                out << " " << pe;
            out << " sendT " << s.sendDuration[i] << "\n";
        }
        for (const auto& e : p.userEvents)
            out << "  user_event " << e.time << " id " << e.id << " ev " << e.eventId << "\n";
        for (const auto& b : p.userBrackets)
            out << "  bracket " << b.begin << ".." << b.end << " id " << b.id << " nested "
                << b.nestedId << " kind " << static_cast<int>(b.kind) << "\n";
        for (const auto& n : p.notes)
            out << "  note " << n.begin << ".." << n.end << " id " << n.id << " '" << n.text
                << "'\n";
        for (const auto& st : p.stats)
            out << "  stat " << st.time << " id " << st.statId << " " << num(st.value) << "\n";
        for (const auto& mem : p.memory)
            out << "  memory " << mem.time << " " << mem.bytes << "\n";
        for (const auto& u : p.userSupplied)
            out << "  supplied " << u.time << " " << u.value << "\n";
        for (const auto& g : p.traceGaps)
            out << "  gap " << g.begin << ".." << g.end << " open " << g.openEntry << " resumed "
                << g.resumedEnd << "\n";
        for (const auto& ph : p.phaseEnds)
            out << "  phase_end " << ph.time << " " << ph.phase << "\n";
    }
    return out.str();
}

void checkGolden(const fs::path& run)
{
    const auto trace = loadOk(run);
    const auto actual = dumpTrace(*trace);
    const auto expectedPath = run / "expected-store.txt";
    const char* update = std::getenv("PARALLAX_UPDATE_GOLDEN");
    if (update != nullptr && std::string(update) == "1") {
        writeFile(expectedPath, actual);
        WARN("regenerated " << expectedPath.string() << "; review the diff");
        return;
    }
    INFO("golden file " << expectedPath.string()
                        << " (regenerate with PARALLAX_UPDATE_GOLDEN=1 and review the diff)");
    REQUIRE(fs::exists(expectedPath));
    const auto expected = splitLines(readFile(expectedPath));
    const auto lines = splitLines(actual);
    for (std::size_t i = 0; i < std::max(expected.size(), lines.size()); ++i) {
        INFO("line " << i + 1);
        REQUIRE((i < lines.size() ? lines[i] : "<missing>")
            == (i < expected.size() ? expected[i] : "<missing>"));
    }
}

} // namespace

TEST_CASE("golden store dump of the tiny run")
{
    checkGolden(dataDir() / "runs" / "tiny");
}

TEST_CASE("golden store dump of the truncated-log broken run")
{
    checkGolden(brokenCase("truncated-log"));
}

TEST_CASE("golden store dump of the garbage-log broken run")
{
    checkGolden(brokenCase("garbage-log"));
}

TEST_CASE("golden store dump of a run whose values do not fit the narrow columns")
{
    checkGolden(dataDir() / "runs" / "wide-values");
}
