// RunMetadata: entry/chare lookups, object-id lengths and the SMP node layout.

#include "core/run_metadata.h"

#include <catch2/catch.hpp>

using namespace parallax;

namespace {
core::RunMetadata withChares()
{
    core::RunMetadata m;
    m.chares = { { "Group", -1 }, { "Line", 1 }, { "Grid", 3 }, { "Space", 6 }, { "Old", 0 } };
    m.entries = { { "g()", 0, -1 }, { "l()", 1, -1 }, { "c()", 2, -1 }, { "s()", 3, -1 },
        { "o()", 4, -1 }, { "orphan()", 17, -1 } };
    return m;
}
} // namespace

TEST_CASE("object id length follows the chare's array dimensions")
{
    const auto m = withChares();
    CHECK(m.objectIdLength(0) == 4); // group: raw 4-int CmiObjId
    CHECK(m.objectIdLength(1) == 1);
    CHECK(m.objectIdLength(2) == 3);
    CHECK(m.objectIdLength(3) == 6);
    CHECK(m.objectIdLength(4) == 4); // ndims 0 (.sts before 9.0)
    CHECK(m.objectIdLength(5) == 4); // chare id not in the table
    CHECK(m.objectIdLength(99) == 4); // entry id not in the table
    CHECK(m.objectIdLength(-1) == 4);
}

TEST_CASE("entry and chare names of unknown ids are a question mark")
{
    const auto m = withChares();
    CHECK(m.entryName(2) == "c()");
    CHECK(m.chareNameOfEntry(2) == "Grid");
    CHECK(m.entryName(42) == "?");
    CHECK(m.entryName(-3) == "?");
    CHECK(m.chareNameOfEntry(5) == "?");
}

TEST_CASE("SMP layout with comm threads maps comm-thread pseudo-PEs to their nodes")
{
    core::RunMetadata m;
    m.processors = 6;
    m.smp = true;
    m.nodeSize = 2;
    m.numNodes = 2;
    m.commThreadsPerNode = 1;
    CHECK(m.workerPes() == 4);
    CHECK(m.nodeOf(0) == 0);
    CHECK(m.nodeOf(1) == 0);
    CHECK(m.nodeOf(3) == 1);
    CHECK(m.nodeOf(4) == 0);
    CHECK(m.nodeOf(5) == 1);
    CHECK_FALSE(m.isCommThread(3));
    CHECK(m.isCommThread(4));
    CHECK(m.isCommThread(5));
    CHECK_FALSE(m.isCommThread(6));
}

TEST_CASE("without SMP every PE is its own node")
{
    core::RunMetadata m;
    m.processors = 4;
    m.numNodes = 4;
    CHECK(m.workerPes() == 4);
    CHECK(m.nodeOf(3) == 3);
    CHECK_FALSE(m.isCommThread(3));
}
