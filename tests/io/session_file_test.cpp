// Session files (io/session_file.h): the JSON round trip, damaged and newer files refused with
// a message saying why, atomic writes, the run found again after a move, and the fingerprint
// that tells a moved run from a changed one.

#include "io/session_file.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

using namespace parallax;
using namespace parallax::test;

namespace {

io::Session sessionFixture()
{
    io::Session s;
    s.runPath = "/data/runs/imbalance";
    s.fingerprint = io::RunFingerprint { "imbalance", 12, 40, 12, 12345, 678, "0123456789abcdef" };
    s.views.push_back({ "usage", { { "range", "1000:2000" }, { "pes", "0-3,9" } } });
    s.views.push_back(
        { "timeline", { { "rows", "3,9,0" }, { "group.0.label", "node \"1\"; a=b" } } });
    s.currentView = "timeline";
    s.entryColors = { { "Worker::compute(int, double)", "#ff8800" }, { "Main\\done", "#000000" } };
    s.bookmarks.push_back(
        { 1500, 3, io::Bookmark::Execution { 1490, 13 }, "slow one\n\tsee PE 9" });
    s.bookmarks.push_back({ 2500, 9, std::nullopt, "µs — ünïcode" });
    return s;
}

std::string sessionErrorOf(std::string_view text)
{
    const auto result = io::parseSession(text);
    CHECK_FALSE(result.session);
    return result.error;
}

} // namespace

TEST_CASE("a session survives the JSON round trip unchanged")
{
    const auto saved = sessionFixture();
    const auto json = io::sessionToJson(saved);
    CHECK(json.find("\"format\": \"parallax-session\"") != std::string::npos);
    CHECK(json.find("\"version\": 1") != std::string::npos);
    const auto read = io::parseSession(json);
    REQUIRE(read.session);
    const auto& s = *read.session;
    CHECK(s.runPath == saved.runPath);
    CHECK(s.fingerprint == saved.fingerprint);
    REQUIRE(s.views.size() == 2);
    CHECK(s.views[0].view == "usage");
    CHECK(s.views[0].state == saved.views[0].state);
    CHECK(s.views[1].state == saved.views[1].state);
    CHECK(s.currentView == "timeline");
    CHECK(s.entryColors == saved.entryColors);
    CHECK(s.bookmarks == saved.bookmarks);
}

TEST_CASE("damaged session files are refused with a message that says what is wrong")
{
    struct Case {
        std::string text;
        std::string message;
    };
    const std::vector<Case> cases {
        { "", "not valid JSON" },
        { "{\"format\": \"parallax-session\", \"version\": 1, \"run\": {\"path\": \"/x\"",
            "not valid JSON" },
        { "\x89PNG\r\n\x1a\n", "not valid JSON" },
        { "[1, 2, 3]", "no \"format\": \"parallax-session\"" },
        { "{\"format\": \"something-else\", \"version\": 1}", "not a Parallax session" },
        { "{\"format\": \"parallax-session\", \"run\": {\"path\": \"/x\"}}", "version is missing" },
        { "{\"format\": \"parallax-session\", \"version\": 1.5, \"run\": {\"path\": \"/x\"}}",
            "version is not a whole number" },
        { "{\"format\": \"parallax-session\", \"version\": \"1\", \"run\": {\"path\": \"/x\"}}",
            "version is not a number" },
        { "{\"format\": \"parallax-session\", \"version\": 1}", "run is missing" },
        { "{\"format\": \"parallax-session\", \"version\": 1, \"run\": {}}",
            "run.path is missing" },
        { "{\"format\": \"parallax-session\", \"version\": 1, \"run\": {\"path\": \"/x\"}, "
          "\"views\": {}}",
            "views is not a list" },
        { "{\"format\": \"parallax-session\", \"version\": 1, \"run\": {\"path\": \"/x\"}, "
          "\"views\": [{\"view\": \"usage\", \"state\": {\"bins\": 5}}]}",
            "views[0].state.bins is not a string" },
        { "{\"format\": \"parallax-session\", \"version\": 1, \"run\": {\"path\": \"/x\"}, "
          "\"bookmarks\": [{\"time_us\": 5, \"pe\": -2}]}",
            "bookmarks[0].pe is not a whole number" },
        { "{\"format\": \"parallax-session\", \"version\": 1, \"run\": {\"path\": \"/x\"}, "
          "\"bookmarks\": [{\"pe\": 2}]}",
            "bookmarks[0].time_us is missing" },
    };
    for (const auto& c : cases) {
        INFO(c.text);
        const auto error = sessionErrorOf(c.text);
        CHECK_THAT(error, Catch::Matchers::Contains(c.message));
    }
}

TEST_CASE("a session of a newer format version is refused: update Parallax")
{
    auto json = io::sessionToJson(sessionFixture());
    json.replace(json.find("\"version\": 1"), 12, "\"version\": 7");
    const auto error = sessionErrorOf(json);
    CHECK_THAT(error, Catch::Matchers::Contains("newer Parallax (session format 7"));
    CHECK_THAT(error, Catch::Matchers::Contains("update Parallax"));
}

TEST_CASE("reading a session names the file in its error")
{
    TempDir dir;
    writeFile(dir / "broken.parallax", "{\"format\": \"parallax-session\"");
    const auto read = io::readSession((dir / "broken.parallax").string());
    CHECK_FALSE(read.session);
    CHECK_THAT(read.error, Catch::Matchers::StartsWith((dir / "broken.parallax").string() + ": "));
    const auto missing = io::readSession((dir / "none.parallax").string());
    CHECK_THAT(missing.error, Catch::Matchers::Contains("cannot be read"));
}

TEST_CASE("sessions are written atomically and replace the previous file whole")
{
    TempDir dir;
    const auto path = (dir / "s.parallax").string();
    auto session = sessionFixture();
    std::string error;
    REQUIRE(io::writeSession(path, session, &error));
    session.bookmarks.clear();
    REQUIRE(io::writeSession(path, session, &error));
    const auto read = io::readSession(path);
    REQUIRE(read.session);
    CHECK(read.session->bookmarks.empty());
    // Nothing but the session itself is left in the folder.
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path()))
        ++files;
    CHECK(files == 1);

    // A folder that cannot exist: a clear error, and the old file untouched.
    writeFile(dir / "plain-file", "x");
    CHECK_FALSE(io::writeSession((dir / "plain-file" / "s.parallax").string(), session, &error));
    CHECK_THAT(error, Catch::Matchers::Contains("could not write"));
    CHECK(io::readSession(path).session);
}

TEST_CASE("a run moved together with its session is found beside it")
{
    TempDir dir;
    fs::create_directories(dir / "before/runs/r");
    fs::create_directories(dir / "before/sessions");
    writeFile(dir / "before/runs/r/r.sts", "x");
    io::Session session;
    session.runPath = (dir / "before/runs/r").string();
    std::string error;
    REQUIRE(io::writeSession((dir / "before/sessions/s.parallax").string(), session, &error));
    const auto read = io::readSession((dir / "before/sessions/s.parallax").string());
    REQUIRE(read.session);
    CHECK(read.session->runRelativePath == "../runs/r");
    auto found = io::locateSessionRun(*read.session, (dir / "before/sessions/s.parallax").string());
    CHECK(found.path == session.runPath);
    CHECK_FALSE(found.moved);

    fs::rename(dir / "before", dir / "after");
    const auto moved = io::readSession((dir / "after/sessions/s.parallax").string());
    REQUIRE(moved.session);
    found = io::locateSessionRun(*moved.session, (dir / "after/sessions/s.parallax").string());
    CHECK(found.path == (dir / "after/runs/r").string());
    CHECK(found.moved);

    fs::remove_all(dir / "after/runs");
    found = io::locateSessionRun(*moved.session, (dir / "after/sessions/s.parallax").string());
    CHECK(found.path.empty());
}

TEST_CASE("a copied run keeps its fingerprint and a changed one does not")
{
    TempDir dir;
    copyFiles(sampleRun("imbalance"), dir / "copy");
    const auto original = io::fingerprintOf(*loadOk(sampleRun("imbalance")));
    CHECK(original.name == "imbalance");
    CHECK(original.pes == 12);
    CHECK(original.logs == 12);
    CHECK(original.stsHash.size() == 16);
    const auto copy = io::fingerprintOf(*loadOk(dir / "copy"));
    CHECK(copy == original);
    CHECK(io::fingerprintDifferences(original, copy).empty());

    // One PE's log gone and the symbol table edited: both are said.
    fs::remove(dir / "copy/imbalance.11.log.gz");
    auto sts = readFile(dir / "copy/imbalance.sts");
    sts += "\n";
    writeFile(dir / "copy/imbalance.sts", sts);
    const auto changed = io::fingerprintOf(*loadOk(dir / "copy"));
    const auto differences = io::fingerprintDifferences(original, changed);
    REQUIRE(differences.size() == 3);
    CHECK(differences[0] == "11 logs, was 12");
    CHECK_THAT(differences[1],
        Catch::Matchers::EndsWith("bytes of logs, was " + std::to_string(original.logBytes)));
    CHECK(differences[2] == "another symbol table (.sts)");
}
