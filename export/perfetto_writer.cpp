#include "perfetto_writer.h"

#include "core/analysis/overview.h"
#include "core/text_args.h"
#include "core/trace.h"
#include "export_plan.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace parallax::exporter {

using core::PeId;
using core::TimeUs;

namespace {

// Utilization counter samples per PE (the Overview's columns over the window).
constexpr std::int64_t kUtilizationColumns = 500;

// Buffered JSON text into a plain or a gzip file. Errors are sticky and reported by close().
class JsonOut {
public:
    JsonOut(const std::string& path, bool gzip)
    {
        if (gzip) {
            m_gz = gzopen(path.c_str(), "wb1");
            if (m_gz == nullptr)
                m_error = "cannot create " + path + ": " + std::strerror(errno);
        } else {
            m_file = std::fopen(path.c_str(), "wb");
            if (m_file == nullptr)
                m_error = "cannot create " + path + ": " + std::strerror(errno);
        }
        m_buffer.reserve(kChunk + 4096);
    }
    ~JsonOut()
    {
        std::string ignored;
        close(ignored);
    }
    JsonOut(const JsonOut&) = delete;
    JsonOut& operator=(const JsonOut&) = delete;

    [[nodiscard]] bool failed() const { return !m_error.empty(); }
    [[nodiscard]] std::uint64_t bytes() const { return m_bytes + m_buffer.size(); }

    JsonOut& raw(std::string_view text)
    {
        m_buffer.append(text);
        if (m_buffer.size() >= kChunk)
            flush();
        return *this;
    }
    // A JSON string: escaped, and any byte that is not valid UTF-8 replaced by U+FFFD.
    JsonOut& str(std::string_view text)
    {
        m_buffer.push_back('"');
        for (std::size_t i = 0; i < text.size(); ++i) {
            const auto c = static_cast<unsigned char>(text[i]);
            if (c == '"' || c == '\\') {
                m_buffer.push_back('\\');
                m_buffer.push_back(static_cast<char>(c));
            } else if (c < 0x20) {
                char esc[8];
                std::snprintf(esc, sizeof esc, "\\u%04x", c);
                m_buffer.append(esc);
            } else if (c < 0x80) {
                m_buffer.push_back(static_cast<char>(c));
            } else {
                const std::size_t length = utf8Length(text, i);
                if (length == 0) {
                    m_buffer.append("\\ufffd");
                } else {
                    m_buffer.append(text.substr(i, length));
                    i += length - 1;
                }
            }
        }
        m_buffer.push_back('"');
        return *this;
    }
    JsonOut& num(std::int64_t value)
    {
        char digits[24];
        const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
        m_buffer.append(digits, end);
        return *this;
    }
    JsonOut& num(double value)
    {
        char digits[32];
        std::snprintf(digits, sizeof digits, "%.17g", value);
        m_buffer.append(digits);
        return *this;
    }
    // A time in µs; `justBefore` writes 1 ns earlier (a flow start at its slice's end).
    JsonOut& time(TimeUs us, bool justBefore = false)
    {
        if (!justBefore)
            return num(us);
        num(us - 1);
        m_buffer.append(".999");
        return *this;
    }

    bool close(std::string& error)
    {
        if (m_file != nullptr || m_gz != nullptr)
            flush();
        if (m_file != nullptr && std::fclose(m_file) != 0 && m_error.empty())
            m_error = std::string("cannot write the JSON: ") + std::strerror(errno);
        if (m_gz != nullptr && gzclose(m_gz) != Z_OK && m_error.empty())
            m_error = "cannot write the compressed JSON (disk full?)";
        m_file = nullptr;
        m_gz = nullptr;
        error = m_error;
        return m_error.empty();
    }

private:
    static constexpr std::size_t kChunk = 1 << 20;

    // Length of the valid UTF-8 sequence starting at text[i], 0 when invalid.
    static std::size_t utf8Length(std::string_view text, std::size_t i)
    {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
        if (n == 0 || c > 0xF4 || i + n > text.size())
            return 0;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80)
                return 0;
        return n;
    }

    void flush()
    {
        if (m_buffer.empty() || failed()) {
            m_bytes += m_buffer.size();
            m_buffer.clear();
            return;
        }
        if (m_file != nullptr
            && std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_file) != m_buffer.size())
            m_error = std::string("cannot write the JSON: ") + std::strerror(errno);
        if (m_gz != nullptr
            && gzwrite(m_gz, m_buffer.data(), static_cast<unsigned>(m_buffer.size()))
                != static_cast<int>(m_buffer.size()))
            m_error = "cannot write the compressed JSON (disk full?)";
        m_bytes += m_buffer.size();
        m_buffer.clear();
    }

    std::FILE* m_file = nullptr;
    gzFile m_gz = nullptr;
    std::string m_buffer;
    std::uint64_t m_bytes = 0;
    std::string m_error;
};

// Process ids are nodes + 1 and thread ids PEs + 1 (0 is the idle task in Perfetto's model).
std::int64_t pidOf(int node)
{
    return static_cast<std::int64_t>(node) + 1;
}
std::int64_t tidOf(PeId pe)
{
    return static_cast<std::int64_t>(pe) + 1;
}

class PerfettoWriter {
public:
    PerfettoWriter(const core::Trace& trace, const ExportPlan& plan, JsonOut& out)
        : m_trace(trace)
        , m_plan(plan)
        , m_out(out)
    { }

    void header()
    {
        const auto& m = m_trace.metadata;
        m_out.raw("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"exporter\":\"Parallax\",\"run\":")
            .str(m_trace.files.baseName)
            .raw(",\"machine\":")
            .str(m.machine)
            .raw(",\"command_line\":")
            .str(m.commandLine)
            .raw(",\"charm_version\":")
            .str(m.charmVersion)
            .raw(",\"log_version\":")
            .num(m.version)
            .raw(",\"range_begin_us\":")
            .num(m_plan.range.begin)
            .raw(",\"range_end_us\":")
            .num(m_plan.range.end);
        std::vector<PeId> pes;
        for (const auto& p : m_plan.pes)
            pes.push_back(p.pe);
        m_out.raw(",\"pes\":").str(core::formatPeList(pes)).raw("},\"traceEvents\":[\n");
        for (const auto node : m_plan.nodes) {
            event("M", "process_name", pidOf(node));
            m_out.raw(",\"args\":{\"name\":")
                .str((m.smp ? "Node " : "Process ") + std::to_string(node))
                .raw("}}");
            event("M", "process_sort_index", pidOf(node));
            m_out.raw(",\"args\":{\"sort_index\":").num(std::int64_t { node }).raw("}}");
        }
        for (const auto& p : m_plan.pes) {
            thread("M", "thread_name", p);
            m_out.raw(",\"args\":{\"name\":")
                .str("PE " + std::to_string(p.pe) + (p.commThread ? " (comm thread)" : ""))
                .raw("}}");
            thread("M", "thread_sort_index", p);
            m_out.raw(",\"args\":{\"sort_index\":").num(std::int64_t { p.pe }).raw("}}");
        }
    }

    void pe(std::size_t index, ExportCounts& counts)
    {
        const auto& e = m_plan.pes[index];
        const auto& p = m_trace.pes[static_cast<std::size_t>(e.pe)];
        const auto& ex = p.executions;
        const auto& meta = m_trace.metadata;
        const auto pack = m_plan.region(RegionKind::Pack);
        const auto unpack = m_plan.region(RegionKind::Unpack);
        for (const auto& a : peActivities(m_trace, m_plan, index)) {
            if (a.isExecution()) {
                const auto& region = m_plan.regions[a.region];
                slice("entry", region.name, e, a);
                m_out.raw(",\"args\":{\"chare\":")
                    .str(region.chare)
                    .raw(",\"entry\":")
                    .str(region.kind == RegionKind::Entry ? region.method
                                                          : meta.entryName(ex.entry[a.execution]))
                    .raw(",\"entry_id\":")
                    .num(std::int64_t { ex.entry[a.execution] });
                if (const auto object = objectIndexText(m_trace, e.pe, a.execution);
                    !object.empty())
                    m_out.raw(",\"object\":").str(object);
                m_out.raw(",\"msg_bytes\":").num(std::int64_t { ex.msgBytes[a.execution] });
                if (ex.sourcePe[a.execution] >= 0)
                    m_out.raw(",\"source_pe\":").num(std::int64_t { ex.sourcePe[a.execution] });
                m_out.raw("}}");
                ++counts.executions;
            } else if (a.region == pack || a.region == unpack) {
                slice(a.region == pack ? "pack" : "unpack", m_plan.regions[a.region].name, e, a);
                m_out.raw("}");
            }
        }
        // Flows: the start on the sender's slice (kept inside it), the end bound to the
        // execution the message started.
        for (const auto m : e.outgoing) {
            const auto& msg = m_plan.messages[m];
            bool justBefore = false;
            const auto ts = insideExecution(e.pe, msg.sendExecution, msg.sendTime, justBefore);
            thread("s", "message", e);
            m_out.raw(",\"cat\":\"message\",\"id\":").num(static_cast<std::int64_t>(m) + 1);
            m_out.raw(",\"ts\":").time(ts, justBefore).raw("}");
        }
        for (auto m = e.firstIncoming; m < e.lastIncoming; ++m) {
            const auto& msg = m_plan.messages[m];
            thread("f", "message", e);
            m_out.raw(",\"cat\":\"message\",\"bp\":\"e\",\"id\":")
                .num(static_cast<std::int64_t>(m) + 1)
                .raw(",\"ts\":")
                .num(msg.receiveTime)
                .raw(",\"args\":{\"msg_bytes\":")
                .num(std::int64_t { msg.bytes })
                .raw(",\"sender_pe\":")
                .num(std::int64_t { msg.senderPe })
                .raw(",\"comm_thread_relays\":")
                .num(std::int64_t { msg.relays })
                .raw("}}");
            ++counts.messages;
        }
        for (const auto s : e.unmatchedSends) {
            const auto made = p.sends.execution[s];
            const auto owner = made == core::kNoExecution || (made & core::kSendAfterExecution) != 0
                ? Activity::kNotAnExecution
                : made;
            bool justBefore = false;
            const auto ts = insideExecution(e.pe, owner, p.sends.time[s], justBefore);
            thread("i", "send (unmatched)", e);
            m_out.raw(",\"cat\":\"send\",\"s\":\"t\",\"ts\":")
                .time(ts, justBefore)
                .raw(",\"args\":{\"entry\":")
                .str(meta.entryName(p.sends.entry[s]))
                .raw(",\"msg_bytes\":")
                .num(std::int64_t { p.sends.msgBytes[s] })
                .raw("}}");
            ++counts.unmatchedSends;
        }
        marks(index, counts);
        samples(index, counts);
    }

    void utilization(const core::analysis::Overview& o, ExportCounts& counts)
    {
        for (std::size_t k = 0; k < o.pes.size(); ++k) {
            const int index = m_plan.indexOf(o.pes[k]);
            if (index < 0)
                continue;
            const auto& e = m_plan.pes[static_cast<std::size_t>(index)];
            const auto name = "PE " + std::to_string(e.pe) + " utilization";
            for (std::int64_t c = 0; c < o.grid.count; ++c) {
                counter(name, e, o.grid.begin(c), "%", o.utilization[o.index(k, c)]);
                ++counts.samples;
            }
        }
    }

    void footer() { m_out.raw("\n]}\n"); }

private:
    void event(const char* ph, std::string_view name, std::int64_t pid)
    {
        m_out.raw(m_first ? "{\"ph\":\"" : ",\n{\"ph\":\"")
            .raw(ph)
            .raw("\",\"name\":")
            .str(name)
            .raw(",\"pid\":")
            .num(pid);
        m_first = false;
    }
    void thread(const char* ph, std::string_view name, const ExportedPe& e)
    {
        event(ph, name, pidOf(e.node));
        m_out.raw(",\"tid\":").num(tidOf(e.pe));
    }
    void slice(const char* cat, std::string_view name, const ExportedPe& e, const Activity& a)
    {
        thread("X", name, e);
        m_out.raw(",\"cat\":\"")
            .raw(cat)
            .raw("\",\"ts\":")
            .num(a.begin)
            .raw(",\"dur\":")
            .num(a.end - a.begin);
    }
    void counter(
        const std::string& name, const ExportedPe& e, TimeUs ts, std::string_view key, double value)
    {
        event("C", name, pidOf(e.node));
        m_out.raw(",\"tid\":").num(tidOf(e.pe)).raw(",\"ts\":").num(ts).raw(",\"args\":{");
        m_out.str(key).raw(":").num(value).raw("}}");
    }

    // `time` moved inside the (clipped) execution `owner`, so that a viewer binds a flow or an
    // instant to it; a time at or past its end goes 1 ns before the end.
    TimeUs insideExecution(PeId pe, std::uint32_t owner, TimeUs time, bool& justBefore) const
    {
        justBefore = false;
        time = std::clamp(time, m_plan.range.begin, m_plan.range.end);
        const auto& ex = m_trace.pes[static_cast<std::size_t>(pe)].executions;
        if (owner == Activity::kNotAnExecution || owner >= ex.size())
            return time;
        const auto b = std::clamp(ex.begin[owner], m_plan.range.begin, m_plan.range.end);
        const auto e = std::clamp(ex.end[owner], m_plan.range.begin, m_plan.range.end);
        time = std::clamp(time, b, std::max(b, e));
        justBefore = time == e && e > b;
        return time;
    }

    void marks(std::size_t index, ExportCounts& counts)
    {
        const auto& e = m_plan.pes[index];
        const auto asyncId = "pe" + std::to_string(e.pe);
        for (const auto& m : peMarks(m_trace, m_plan, index)) {
            ++counts.userEvents;
            switch (m.kind) {
            case Mark::Kind::UserEvent:
                thread("i", m.name, e);
                m_out.raw(",\"cat\":\"user event\",\"s\":\"t\",\"ts\":").num(m.begin).raw("}");
                break;
            case Mark::Kind::Bracket:
                for (const auto& [ph, ts] :
                    { std::pair { "b", m.begin }, std::pair { "e", m.end } }) {
                    thread(ph, m.name, e);
                    m_out.raw(",\"cat\":\"user event\",\"id\":")
                        .str(asyncId)
                        .raw(",\"ts\":")
                        .num(ts)
                        .raw("}");
                }
                break;
            case Mark::Kind::Note:
                thread("i", m.name, e);
                m_out.raw(",\"cat\":\"note\",\"s\":\"t\",\"ts\":")
                    .num(m.begin)
                    .raw(",\"args\":{\"text\":")
                    .str(m.text)
                    .raw(",\"end_us\":")
                    .num(m.end)
                    .raw("}}");
                break;
            }
        }
    }

    void samples(std::size_t index, ExportCounts& counts)
    {
        const auto& e = m_plan.pes[index];
        const auto prefix = "PE " + std::to_string(e.pe) + " ";
        for (const auto& s : peSamples(m_trace, m_plan, index)) {
            if (s.kind == Sample::Kind::Stat)
                counter(prefix + s.name, e, s.time, "value", s.value);
            else
                counter(prefix + s.name, e, s.time,
                    s.kind == Sample::Kind::Memory ? "bytes" : "value",
                    static_cast<double>(s.integer));
            ++counts.samples;
        }
    }

    const core::Trace& m_trace;
    const ExportPlan& m_plan;
    JsonOut& m_out;
    bool m_first = true;
};

} // namespace

ExportResult writePerfetto(const core::Trace& trace, const ExportPlan& plan,
    const std::string& path, bool gzip, const core::analysis::Progress& progress)
{
    ExportResult result;
    JsonOut out(path, gzip);
    if (out.failed()) {
        out.close(result.error);
        return result;
    }
    PerfettoWriter writer(trace, plan, out);
    writer.header();
    const double total = static_cast<double>(plan.pes.size() + 1);
    for (std::size_t i = 0; i < plan.pes.size(); ++i) {
        if (progress.isCancelled() || out.failed())
            break;
        writer.pe(i, result.counts);
        if (progress.report)
            progress.report(static_cast<double>(i + 1) / total);
    }
    if (!progress.isCancelled() && !out.failed()) {
        core::analysis::AnalysisRequest request;
        request.range = plan.range;
        for (const auto& p : plan.pes)
            request.pes.push_back(p.pe);
        request.includeCommThreads = true;
        core::analysis::OverviewOptions columns;
        columns.columns = std::clamp<std::int64_t>(plan.range.length(), 1, kUtilizationColumns);
        core::analysis::Progress cancelOnly;
        cancelOnly.cancelled = progress.cancelled;
        if (const auto overview
            = core::analysis::computeOverview(trace, request, columns, cancelOnly))
            writer.utilization(*overview, result.counts);
    }
    writer.footer();
    result.uncompressedBytes = out.bytes();
    result.counts.pes = plan.pes.size();
    const bool written = out.close(result.error);
    if (progress.isCancelled()) {
        result.cancelled = true;
        result.error = "cancelled";
        return result;
    }
    result.ok = written;
    return result;
}

} // namespace parallax::exporter
