// PE groups (core/analysis/pe_groups.h): nodes from the .sts SMP layout, blocks, signatures,
// assignments, named lists and their saved form, the --by parser, and the row cap of a PE axis.

#include "core/analysis/pe_groups.h"
#include "core/trace.h"
#include "group_test_run.h"
#include "io/run_loader.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <set>

using namespace parallax;
using namespace parallax::core;
using namespace parallax::core::analysis;

namespace {

std::vector<PeId> range(PeId first, PeId last)
{
    std::vector<PeId> pes(static_cast<std::size_t>(last - first + 1));
    std::iota(pes.begin(), pes.end(), first);
    return pes;
}

std::vector<std::vector<PeId>> membersOf(const std::vector<PeGroup>& groups)
{
    std::vector<std::vector<PeId>> out;
    for (const auto& g : groups)
        out.push_back(g.pes);
    return out;
}

TracePtr loadReal(const char* name, bool readLogs = true)
{
    io::LoadOptions options;
    options.threads = 2;
    options.readLogs = readLogs;
    auto result = io::loadRun(test::realLog(name).string(), options);
    INFO(result.error);
    REQUIRE(result.trace);
    return result.trace;
}

} // namespace

TEST_CASE("node groups put each comm thread with the node it serves and mark it", "[groups]")
{
    const auto trace = test::makeGroupRun();
    const auto groups = groupByNode(trace->metadata, range(0, 5));
    REQUIRE(groups.size() == 2);
    CHECK(groups[0].name == "node 0");
    CHECK(groups[0].pes == std::vector<PeId> { 0, 1, 4 });
    CHECK(groups[0].commThreads == std::vector<PeId> { 4 });
    CHECK(groups[0].isCommThread(4));
    CHECK_FALSE(groups[0].isCommThread(1));
    CHECK(groups[1].pes == std::vector<PeId> { 2, 3, 5 });
    CHECK(groups[1].commThreads == std::vector<PeId> { 5 });
    CHECK(groups[1].firstPe() == 2);
    CHECK(groups[1].lastPe() == 5);
}

TEST_CASE("node groups of a real SMP run follow its SMPMODE line", "[groups][real]")
{
    // gen-feat-smp: SMPMODE 2 2 with traced comm threads, PROCESSORS 6.
    const auto trace = loadReal("gen-feat-smp");
    REQUIRE(trace->metadata.smp);
    const auto groups = groupByNode(trace->metadata, trace->validPes());
    REQUIRE(groups.size() == 2);
    CHECK(groups[0].pes == std::vector<PeId> { 0, 1, 4 });
    CHECK(groups[0].commThreads == std::vector<PeId> { 4 });
    CHECK(groups[1].pes == std::vector<PeId> { 2, 3, 5 });
    CHECK(groups[1].commThreads == std::vector<PeId> { 5 });
}

TEST_CASE("without SMP every PE is its own node", "[groups]")
{
    RunMetadata m;
    m.processors = 3;
    const auto groups = groupByNode(m, { 0, 2 });
    REQUIRE(groups.size() == 2);
    CHECK(groups[1].name == "node 2");
    CHECK(groups[1].commThreads.empty());
}

TEST_CASE("blocks cover aligned runs of PE ids and only hold selected PEs", "[groups]")
{
    const auto groups = groupByBlock({ 1, 2, 3, 9, 17 }, 4);
    REQUIRE(groups.size() == 3);
    CHECK(groups[0].name == "PEs 0-3");
    CHECK(groups[0].pes == std::vector<PeId> { 1, 2, 3 });
    CHECK(groups[1].name == "PEs 8-11");
    CHECK(groups[1].pes == std::vector<PeId> { 9 });
    CHECK(groups[2].name == "PEs 16-19");
    CHECK(groupByBlock({ 5 }, 1).front().name == "PE 5");
}

TEST_CASE("the automatic block size is the smallest power of two within the row cap", "[groups]")
{
    CHECK(autoBlockSize(200) == 1);
    CHECK(autoBlockSize(201) == 2);
    CHECK(autoBlockSize(2048) == 16); // 128 blocks
    CHECK(autoBlockSize(16384) == 128); // 128 blocks
    CHECK(autoBlockSize(100'000) == 512); // 196 blocks
    CHECK(autoBlockSize(0) == 1);
}

TEST_CASE("signatures split PEs by the set of entry methods they executed", "[groups]")
{
    const auto trace = test::makeGroupRun();
    const auto s = computeSignatures(*trace, test::wholeGroupRun());
    REQUIRE(s);
    CHECK(s->pes == range(0, 5));
    // Numbered by first PE: {a, b} (PE 0), {a} (PEs 1-3), {b} (the comm threads).
    CHECK(s->ofPe == std::vector<std::uint32_t> { 0, 1, 1, 1, 2, 2 });
    REQUIRE(s->sets.size() == 3);
    CHECK(s->sets[0] == std::vector<EntryId> { 0, 1 });
    CHECK(s->sets[1] == std::vector<EntryId> { 0 });
    CHECK(s->sets[2] == std::vector<EntryId> { 1 });

    const auto groups = groupBySignature(trace->metadata, *s);
    REQUIRE(membersOf(groups) == std::vector<std::vector<PeId>> { { 0 }, { 1, 2, 3 }, { 4, 5 } });
    CHECK(groups[0].name == "signature 1");
    CHECK(groups[2].commThreads == std::vector<PeId> { 4, 5 });
    CHECK(groups[0].signature == std::vector<EntryId> { 0, 1 });
}

TEST_CASE("a signature counts executions in the range only, and only requested entries", "[groups]")
{
    const auto trace = test::makeGroupRun();
    auto request = test::wholeGroupRun();
    request.range = { 45, 100 }; // PE 0's b [40, 50) overlaps; a [0, 40) does not
    auto s = computeSignatures(*trace, request);
    REQUIRE(s);
    CHECK(s->sets[s->ofPe[0]] == std::vector<EntryId> { 1 });
    CHECK(s->sets[s->ofPe[1]].empty()); // PE 1 only idles after 20

    request = test::wholeGroupRun();
    request.entries = { 0 };
    s = computeSignatures(*trace, request);
    REQUIRE(s);
    CHECK(s->ofPe[0] == s->ofPe[1]); // b does not count: PE 0 looks like the others
}

TEST_CASE(
    "signature groups of a real run set PE 0, which runs the main chare, apart", "[groups][real]")
{
    const auto trace = loadReal("gen-feat-smp");
    AnalysisRequest request;
    request.threads = 2;
    const auto groups = groupBySignature(*trace, request);
    REQUIRE(groups);
    REQUIRE(groups->size() >= 2);
    CHECK(groups->front().pes == std::vector<PeId> { 0 });
    // PE 0 executed entry methods that the group of PE 1 did not.
    const auto withPe1 = std::find_if(groups->begin(), groups->end(),
        [](const PeGroup& g) { return std::binary_search(g.pes.begin(), g.pes.end(), 1); });
    REQUIRE(withPe1 != groups->end());
    const auto& zero = groups->front().signature;
    const auto& one = withPe1->signature;
    CHECK_FALSE(std::includes(one.begin(), one.end(), zero.begin(), zero.end()));
    // Every PE is in exactly one group.
    std::set<PeId> seen;
    for (const auto& g : *groups)
        for (const auto pe : g.pes)
            CHECK(seen.insert(pe).second);
    CHECK(seen.size() == trace->validPes().size());
}

TEST_CASE("signatures of a run opened from its summaries come from the .sumd call counts",
    "[groups][real]")
{
    const auto trace = loadReal("gen-feat-smp", false);
    REQUIRE_FALSE(trace->hasLogs());
    AnalysisRequest request;
    request.threads = 2;
    const auto s = computeSignatures(*trace, request);
    REQUIRE(s);
    CHECK(s->pes == trace->validPes());
    // Worker PEs executed something; PE 0 stands apart as with the logs.
    CHECK_FALSE(s->sets[s->ofPe[0]].empty());
    CHECK(s->ofPe[0] != s->ofPe[1]);
}

TEST_CASE("an assignment makes one group per value, in value order, skipping negatives", "[groups]")
{
    const auto groups = groupByAssignment({ 0, 1, 2, 3, 4 }, { 2, 0, 2, -1, 0 });
    REQUIRE(membersOf(groups) == std::vector<std::vector<PeId>> { { 1, 4 }, { 0, 2 } });
    CHECK(groups[0].name == "cluster 0");
    CHECK(groups[1].name == "cluster 2");
    const auto named = groupByAssignment(
        { 7, 8 }, { 1, 1 }, [](int c) { return "class " + std::to_string(c + 1); });
    CHECK(named.front().name == "class 2");
}

TEST_CASE("named PE lists are read and written in the 'name: list' form", "[groups]")
{
    const std::string text = "# saved groups\n"
                             "hot: 0-3, 32\n"
                             "\n"
                             "  cold : 4-10:2\n"
                             "empty:\n";
    std::string error;
    const auto lists = parsePeLists(text, &error);
    INFO(error);
    REQUIRE(lists);
    REQUIRE(lists->size() == 3);
    CHECK((*lists)[0] == NamedPeList { "hot", { 0, 1, 2, 3, 32 } });
    CHECK((*lists)[1] == NamedPeList { "cold", { 4, 6, 8, 10 } });
    CHECK((*lists)[2].second.empty());
    CHECK(formatPeLists(*lists) == "hot: 0-3,32\ncold: 4,6,8,10\nempty: \n");
    CHECK(parsePeLists(formatPeLists(*lists)) == lists);

    const auto groups = groupByLists({ { "mix", { 5, 1, 5 } } });
    CHECK(groups.front().pes == std::vector<PeId> { 1, 5 });
    // A name cannot hold ':' in the saved form.
    CHECK(formatPeLists({ { "a:b", { 1 } } }) == "a_b: 1\n");
}

TEST_CASE("malformed PE lists name the line and what is wrong", "[groups]")
{
    std::string error;
    CHECK_FALSE(parsePeLists("ok: 1\nno colon here\n", &error));
    CHECK(error == "line 2: expected 'name: PE list', found 'no colon here'");
    CHECK_FALSE(parsePeLists(": 1-2\n", &error));
    CHECK(error == "line 1: the list has no name");
    CHECK_FALSE(parsePeLists("a: 1\na: 2\n", &error));
    CHECK(error == "line 2: the name 'a' is used twice");
    CHECK_FALSE(parsePeLists("a: 3-x\n", &error));
    CHECK(error.rfind("line 1: a: ", 0) == 0);
}

TEST_CASE("the --by parser takes node, block:N, signature, cluster and list:FILE", "[groups]")
{
    std::string error;
    CHECK(parseGroupBy("node")->kind == GroupKind::Node);
    CHECK(parseGroupBy("signature")->kind == GroupKind::Signature);
    CHECK(parseGroupBy("cluster")->kind == GroupKind::Cluster);
    const auto block = parseGroupBy("block:64");
    REQUIRE(block);
    CHECK(block->kind == GroupKind::Block);
    CHECK(block->blockSize == 64);
    CHECK(groupByName(*block) == "block:64");
    CHECK(parseGroupBy("block")->blockSize == 0); // automatic
    CHECK_FALSE(parseGroupBy("block:0", &error));
    CHECK(error == "block size '0' is not a whole number of PEs from 1 to 100000000");
    CHECK_FALSE(parseGroupBy("block:x", &error));
    CHECK_FALSE(parseGroupBy("block:-4", &error));
    CHECK_FALSE(parseGroupBy("nodes", &error));
    CHECK(error
        == "unknown grouping 'nodes' (expected node, block:N, signature, cluster or list:FILE)");
    const auto list = parseGroupBy("list:my groups.txt");
    REQUIRE(list);
    CHECK(list->kind == GroupKind::List);
    CHECK(list->listFile == "my groups.txt");
    CHECK(groupByName(*list) == "list:my groups.txt");
    CHECK_FALSE(parseGroupBy("list:", &error));
}

TEST_CASE(
    "the row cap gathers consecutive groups under parents, keeping them as children", "[groups]")
{
    // 300 single-PE nodes: gathered 2 by 2 into 150 parents.
    std::vector<PeGroup> nodes;
    for (PeId pe = 0; pe < 300; ++pe)
        nodes.push_back({ "node " + std::to_string(pe), { pe }, {}, {}, {} });
    const auto capped = capRows(nodes, 200);
    REQUIRE(capped.size() == 150);
    CHECK(capped[0].name == "PEs 0-1");
    CHECK(capped[0].pes == std::vector<PeId> { 0, 1 });
    REQUIRE(capped[0].children.size() == 2);
    CHECK(capped[0].children[1].name == "node 1");
    CHECK(capRows(nodes, 300).size() == 300);
}

TEST_CASE("a PE axis is grouped only above the cap: by node when SMP, else by blocks", "[groups]")
{
    RunMetadata plain;
    plain.processors = 16384;
    CHECK(axisGroups(plain, range(0, 199)).empty());
    const auto blocks = axisGroups(plain, range(0, 16383));
    CHECK(blocks.size() == 128);
    CHECK(blocks.front().pes.size() == 128);
    // An unaligned selection still fits.
    CHECK(axisGroups(plain, range(1000, 1400)).size() <= kMaxAxisRows);

    RunMetadata smp;
    smp.smp = true;
    smp.nodeSize = 8;
    smp.numNodes = 256;
    smp.commThreadsPerNode = 1;
    smp.processors = 8 * 256 + 256;
    const auto nodes = axisGroups(smp, range(0, smp.processors - 1));
    REQUIRE(nodes.size() == 256 / 2); // 256 nodes gathered two by two
    REQUIRE(nodes[0].children.size() == 2);
    CHECK(nodes[0].children[0].name == "node 0");
    CHECK(nodes[0].children[0].commThreads == std::vector<PeId> { 2048 });
    CHECK(nodes[0].commThreads == std::vector<PeId> { 2048, 2049 });
}
