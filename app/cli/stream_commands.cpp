#include "stream_commands.h"

#include "command_support.h"
#include "commands.h"
#include "core/analysis/csv_export.h"
#include "core/stream/utilization_stream.h"
#include "io/stream/ccs_server.h"
#include "io/stream/stream_poller.h"
#include "io/sts_reader.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <deque>
#include <mutex>
#include <ostream>
#include <poll.h>

namespace parallax::cli {

namespace {

const char* const kStreamHelp
    = "usage: parallax-cli stream HOST:PORT [--seconds N] [--record FILE] [--poll-ms MS]\n"
      "                            [--timeout-ms MS] [--sts FILE]\n"
      "       parallax-cli stream --replay FILE [--sts FILE]\n\n"
      "Polls a running Charm++ program traced with -tracemode utilization and started with\n"
      "++server ++server-port PORT (CCS handler \"CkPerfSumDetail compressed\"), or replays a\n"
      "recording, and writes CSV as the chunks come (one a second of program time):\n"
      "  second,begin_ms,entry,ep,utilization_percent\n"
      "one row per 100-ms point and entry method with work in it: `second` counts the chunks\n"
      "from 0, begin_ms is program time since the trace started, utilization_percent is the\n"
      "share of all PEs' time (0-100), ep 10000 is \"Other\" (small entries folded together).\n\n"
      "  --seconds N      stop after N seconds (chunks) of stream (default: until the program\n"
      "                   ends or Ctrl-C)\n"
      "  --record FILE    also record every chunk to FILE (written atomically when stopping)\n"
      "  --poll-ms MS     wait after an empty reply (default 900)\n"
      "  --timeout-ms MS  connect and reply timeout (default 5000)\n"
      "  --sts FILE       the program's .sts or .util.sts, for entry names (else \"Entry N\")\n"
      "  --replay FILE    read a recording instead of a program\n\n"
      "A corrupt chunk is reported on stderr and skipped. Exit codes: 0 done, 1 the program\n"
      "cannot be reached (or stopped answering) or the recording cannot be read, 2 bad "
      "arguments.\n";

const char* const kServeHelp
    = "usage: parallax-cli stream-serve [--port P] [--host H] [--pes N] [--seconds N]\n"
      "                                  [--interval-ms MS] [--from RECORDING|RUN]\n\n"
      "A stand-in for a Charm++ program streaming its utilization over CCS, to try `stream`\n"
      "and the app's live view without Charm++: it makes one chunk a second (a made-up\n"
      "profile, a recording's or a run's chunks) and answers \"CkPerfSumDetail compressed\" and\n"
      "ccs_getinfo as the program would. Prints \"serving on HOST:PORT\" once listening.\n\n"
      "  --port P         TCP port (default 0: any free port)\n"
      "  --host H         address to listen on (default 127.0.0.1)\n"
      "  --pes N          PEs the made-up program has (default 4)\n"
      "  --seconds N      stop once N chunks were fetched (default: until Ctrl-C)\n"
      "  --interval-ms MS program time between chunks (default 1000; less replays faster)\n"
      "  --from FILE|RUN  serve a recording's chunks, or those a traced run would have\n"
      "                   streamed (its time profile at 1 ms), instead of made-up ones\n";

// Set by SIGINT/SIGTERM while a stream command runs.
std::atomic<bool> g_streamInterrupted { false };
io::stream::CcsServer* g_servingServer = nullptr;

void onStreamSignal(int)
{
    g_streamInterrupted = true;
    if (g_servingServer != nullptr)
        g_servingServer->stop();
}

// Installs the handlers (no SA_RESTART: a wait returns early) and restores the old ones.
class StreamSignals {
public:
    StreamSignals()
    {
        g_streamInterrupted = false;
        struct sigaction action { };
        action.sa_handler = onStreamSignal;
        sigemptyset(&action.sa_mask);
        sigaction(SIGINT, &action, &m_oldInt);
        sigaction(SIGTERM, &action, &m_oldTerm);
    }
    ~StreamSignals()
    {
        sigaction(SIGINT, &m_oldInt, nullptr);
        sigaction(SIGTERM, &m_oldTerm, nullptr);
    }
    StreamSignals(const StreamSignals&) = delete;
    StreamSignals& operator=(const StreamSignals&) = delete;

private:
    struct sigaction m_oldInt { };
    struct sigaction m_oldTerm { };
};

// Waits `ms` unless a signal comes first.
void pauseFor(int ms)
{
    if (!g_streamInterrupted)
        ::poll(nullptr, 0, ms);
}

void writeChunkRows(
    const core::stream::UtilizationStream& stream, std::size_t chunk, std::ostream& out)
{
    for (const auto& point : stream.points(chunk, 1, 100))
        for (const auto& share : point.shares)
            out << chunk << ',' << point.beginMs << ','
                << core::analysis::csvField(stream.entryName(share.entry)) << ',' << share.entry
                << ',' << core::analysis::formatCsvNumber(share.percent) << '\n';
    out << std::flush;
}

// --sts FILE into the stream's names; false after printing the error.
bool loadEntryNames(
    const CommandLine& cl, core::stream::UtilizationStream& stream, std::ostream& err)
{
    const auto sts = cl.parser.value("sts");
    if (!sts)
        return true;
    core::ImportReport report;
    const auto read = io::readSts(*sts, report);
    if (!read.ok) {
        err << "parallax-cli stream: " << read.error << "\n";
        return false;
    }
    stream.setEntryNames(core::stream::streamEntryNames(read.metadata));
    return true;
}

// Appends a payload; prints its rows, or the reason it was refused.
void takePayload(core::stream::UtilizationStream& stream, std::span<const std::uint8_t> payload,
    const std::string& where, std::ostream& out, std::ostream& err)
{
    const auto outcome = stream.appendPayload(payload);
    if (outcome.kind == core::stream::PayloadKind::Chunk)
        writeChunkRows(stream, stream.chunkCount() - 1, out);
    else if (outcome.kind == core::stream::PayloadKind::Corrupt)
        err << "parallax-cli stream: " << where << ": chunk refused: " << outcome.error << "\n";
}

int replayStream(
    const CommandLine& cl, const std::string& path, std::ostream& out, std::ostream& err)
{
    core::stream::UtilizationStream stream;
    if (!loadEntryNames(cl, stream, err))
        return kExitFatal;
    const auto recording = io::stream::readStreamRecording(path);
    if (!recording.ok) {
        err << "parallax-cli stream: " << recording.error << "\n";
        return kExitFatal;
    }
    out << "second,begin_ms,entry,ep,utilization_percent\n";
    for (std::size_t k = 0; k < recording.replies.size(); ++k)
        takePayload(
            stream, recording.replies[k].payload, "record " + std::to_string(k + 1), out, err);
    if (!recording.cut.empty())
        err << "parallax-cli stream: warning: " << recording.cut << "\n";
    return kExitOk;
}

int pollStream(const CommandLine& cl, const io::stream::CcsEndpoint& endpoint, std::int64_t seconds,
    io::stream::StreamPollerOptions options, std::ostream& out, std::ostream& err)
{
    core::stream::UtilizationStream stream;
    if (!loadEntryNames(cl, stream, err))
        return kExitFatal;
    StreamSignals signals;
    io::stream::StreamPoller poller(endpoint, options);
    std::string error;
    if (!poller.connect(error)) {
        err << "parallax-cli stream: " << error << "\n";
        return kExitFatal;
    }
    err << "parallax-cli stream: connected to " << endpoint.text() << ": "
        << poller.machine().pesPerNode.size() << " nodes, " << poller.machine().pes() << " PEs\n";
    out << "second,begin_ms,entry,ep,utilization_percent\n" << std::flush;
    int failures = 0;
    int rc = kExitOk;
    while (!g_streamInterrupted
        && (seconds == 0 || static_cast<std::int64_t>(stream.chunkCount()) < seconds)) {
        const auto polled = poller.poll();
        if (polled.status != io::stream::CcsStatus::Reply) {
            // A program that ended refuses the next connection: the stream is over.
            if (polled.status == io::stream::CcsStatus::Refused && poller.chunksReceived() > 0
                && seconds == 0) {
                err << "parallax-cli stream: the program has ended (" << polled.error << ")\n";
                break;
            }
            err << "parallax-cli stream: " << polled.error << "\n";
            if (++failures >= 3) {
                rc = kExitFatal;
                break;
            }
            pauseFor(options.pollMs);
            continue;
        }
        failures = 0;
        if (!polled.error.empty())
            err << "parallax-cli stream: " << polled.error << "\n"; // the recording failed
        if (polled.empty) {
            pauseFor(options.pollMs);
            continue;
        }
        takePayload(stream, polled.payload, endpoint.text(), out, err);
    }
    if (!poller.finish(error)) {
        err << "parallax-cli stream: " << error << "\n";
        rc = kExitFatal;
    }
    return rc;
}

// Serves chunks as a program would: chunk k is ready k + 1 seconds after start; each request
// pops the oldest ready chunk.
class SimulatedProgram {
public:
    SimulatedProgram(std::uint32_t pes, std::vector<std::vector<std::uint8_t>> recorded,
        std::int64_t seconds, std::int64_t intervalMs, io::stream::CcsServer& server)
        : m_pes(pes)
        , m_recorded(std::move(recorded))
        , m_seconds(seconds)
        , m_intervalMs(intervalMs)
        , m_server(server)
        , m_start(std::chrono::steady_clock::now())
    { }

    io::stream::CcsAnswer answer(const io::stream::CcsRequest& request)
    {
        using io::stream::CcsAnswer;
        if (request.handler == io::stream::kGetInfoHandler)
            return CcsAnswer::reply(io::stream::encodeMachineInfo({ { m_pes } }));
        if (request.handler != io::stream::kUtilizationHandler)
            return CcsAnswer::reply({});
        if (request.pe < 0 || static_cast<std::uint32_t>(request.pe) >= m_pes)
            return CcsAnswer::closeSilently();
        const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - m_start)
                                 .count();
        auto ready = static_cast<std::uint64_t>(elapsed / m_intervalMs);
        if (!m_recorded.empty())
            ready = std::min<std::uint64_t>(ready, m_recorded.size());
        if (m_seconds > 0)
            ready = std::min<std::uint64_t>(ready, static_cast<std::uint64_t>(m_seconds));
        if (m_sent >= ready)
            return CcsAnswer::reply(core::stream::encodeEmptyUtilizationPayload());
        const auto k = m_sent++;
        if ((m_seconds > 0 && m_sent == static_cast<std::uint64_t>(m_seconds))
            || (!m_recorded.empty() && m_sent == m_recorded.size()))
            m_server.stop(); // after this reply is written
        if (!m_recorded.empty())
            return CcsAnswer::reply(m_recorded[k]);
        return CcsAnswer::reply(core::stream::encodeUtilizationPayload(
            core::stream::syntheticUtilizationChunk(k, m_pes)));
    }

private:
    std::uint32_t m_pes;
    std::vector<std::vector<std::uint8_t>> m_recorded;
    std::int64_t m_seconds;
    std::int64_t m_intervalMs;
    io::stream::CcsServer& m_server;
    std::chrono::steady_clock::time_point m_start;
    std::uint64_t m_sent = 0;
};

// --from: a recording's payloads, or the chunks a traced run would have streamed (and its PE
// count). Returns 0 or the exit code after a message.
int loadServedChunks(const std::string& from, std::vector<std::vector<std::uint8_t>>& payloads,
    std::int64_t& pes, std::ostream& err)
{
    if (io::stream::isStreamRecording(from)) {
        auto recording = io::stream::readStreamRecording(from);
        if (!recording.ok) {
            err << "parallax-cli stream-serve: " << recording.error << "\n";
            return kExitFatal;
        }
        if (!recording.cut.empty())
            err << "parallax-cli stream-serve: warning: " << recording.cut << "\n";
        for (auto& reply : recording.replies)
            payloads.push_back(std::move(reply.payload));
        return kExitOk;
    }
    CommandLine run;
    run.run = from;
    int rc = kExitOk;
    const auto trace = load(run, err, rc);
    if (!trace)
        return rc;
    core::analysis::TimeProfileOptions options;
    options.intervalSize = 1000; // 1 ms, the module's bin
    const auto profile = core::analysis::computeTimeProfile(*trace, {}, options);
    if (!profile)
        return kExitFatal;
    for (const auto& chunk : core::stream::chunksFromTimeProfile(*profile))
        payloads.push_back(core::stream::encodeUtilizationPayload(chunk));
    pes = static_cast<std::int64_t>(profile->peCount);
    return kExitOk;
}

} // namespace

int runStream(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    CommandLine cl;
    cl.parser
        = ArgParser({ "seconds", "record", "poll-ms", "timeout-ms", "sts", "replay" }, { "help" });
    if (!cl.parser.parse(args))
        return usageError(err, "stream", cl.parser.error());
    if (cl.parser.flag("help")) {
        out << kStreamHelp;
        return kExitOk;
    }
    const auto& positionals = cl.parser.positionals();
    if (const auto replay = cl.parser.value("replay")) {
        if (!positionals.empty())
            return usageError(err, "stream", "--replay reads a recording: no HOST:PORT with it");
        for (const char* option : { "seconds", "record", "poll-ms", "timeout-ms" })
            if (cl.parser.value(option))
                return usageError(
                    err, "stream", std::string("--") + option + " does not apply to --replay");
        return replayStream(cl, *replay, out, err);
    }
    if (positionals.empty())
        return usageError(err, "stream", "missing HOST:PORT (or --replay FILE)");
    if (positionals.size() > 1)
        return usageError(err, "stream", "unexpected argument '" + positionals[1] + "'");
    std::string error;
    const auto endpoint = io::stream::parseCcsEndpoint(positionals[0], error);
    if (!endpoint)
        return usageError(err, "stream", error);
    std::int64_t seconds = 0;
    std::int64_t pollMs = 900;
    std::int64_t timeoutMs = 5000;
    if (const int rc = readIntOption("stream", cl, "seconds", 1, 1'000'000'000, seconds, err);
        rc != kExitOk)
        return rc;
    if (const int rc = readIntOption("stream", cl, "poll-ms", 1, 3'600'000, pollMs, err);
        rc != kExitOk)
        return rc;
    if (const int rc = readIntOption("stream", cl, "timeout-ms", 1, 3'600'000, timeoutMs, err);
        rc != kExitOk)
        return rc;
    io::stream::StreamPollerOptions options;
    options.pollMs = static_cast<int>(pollMs);
    options.client.connectTimeoutMs = static_cast<int>(timeoutMs);
    options.client.replyTimeoutMs = static_cast<int>(timeoutMs);
    options.recordPath = cl.parser.value("record").value_or("");
    return pollStream(cl, *endpoint, seconds, options, out, err);
}

int runStreamServe(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    CommandLine cl;
    cl.parser = ArgParser({ "port", "host", "pes", "seconds", "from", "interval-ms" }, { "help" });
    if (!cl.parser.parse(args))
        return usageError(err, "stream-serve", cl.parser.error());
    if (cl.parser.flag("help")) {
        out << kServeHelp;
        return kExitOk;
    }
    if (!cl.parser.positionals().empty())
        return usageError(
            err, "stream-serve", "unexpected argument '" + cl.parser.positionals()[0] + "'");
    std::int64_t port = 0;
    std::int64_t pes = 4;
    std::int64_t seconds = 0;
    std::int64_t intervalMs = 1000;
    if (const int rc
        = readIntOption("stream-serve", cl, "interval-ms", 1, 3'600'000, intervalMs, err);
        rc != kExitOk)
        return rc;
    if (const int rc = readIntOption("stream-serve", cl, "port", 0, 65535, port, err);
        rc != kExitOk)
        return rc;
    if (const int rc = readIntOption("stream-serve", cl, "pes", 1, 1'000'000, pes, err);
        rc != kExitOk)
        return rc;
    if (const int rc = readIntOption("stream-serve", cl, "seconds", 1, 1'000'000'000, seconds, err);
        rc != kExitOk)
        return rc;
    std::vector<std::vector<std::uint8_t>> recorded;
    if (const auto from = cl.parser.value("from")) {
        if (const int rc = loadServedChunks(*from, recorded, pes, err); rc != kExitOk)
            return rc;
        if (recorded.empty()) {
            err << "parallax-cli stream-serve: " << *from << " holds no chunk\n";
            return kExitFatal;
        }
    }
    const std::string host = cl.parser.value("host").value_or("127.0.0.1");
    io::stream::CcsServer server;
    std::string error;
    if (!server.listen(host, static_cast<std::uint16_t>(port), error)) {
        err << "parallax-cli stream-serve: " << error << "\n";
        return kExitFatal;
    }
    SimulatedProgram program(
        static_cast<std::uint32_t>(pes), std::move(recorded), seconds, intervalMs, server);
    StreamSignals signals;
    g_servingServer = &server;
    out << "serving on " << host << ":" << server.port() << "\n" << std::flush;
    server.run(
        [&program](const io::stream::CcsRequest& request) { return program.answer(request); });
    g_servingServer = nullptr;
    return kExitOk;
}

} // namespace parallax::cli
