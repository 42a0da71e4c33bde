#include "comm_matrix.h"

#include "communication.h"
#include "core/trace.h"
#include "csv_export.h"
#include "message_links.h"

#include <algorithm>
#include <unordered_map>

namespace parallax::core::analysis {

namespace {

struct MessageCounts {
    std::uint64_t messages = 0;
    std::uint64_t bytes = 0;
};

// What one receiving PE's log says.
struct ReceiverCounts {
    std::vector<CommPair> pairs; // this PE as receiver, sorted by sender
    CommPeTotals ownTotals; // Java compat: the PE's CREATION and BEGIN_PROCESSING records
    std::uint64_t fromOtherPes = 0;
    std::uint64_t unresolvedRelays = 0;
    std::uint64_t invalidSenders = 0;
};

// The PE that created the message execution `j` of `pe` received, when its record names a comm
// thread that relayed it: the sender the relay leads back to (kNoPe when the relay's records were
// not found).
PeId relayedSender(const Trace& trace, PeId pe, std::size_t j)
{
    const auto path = findMessagePath(trace, pe, j);
    const PeId origin = path.back().senderPe;
    return trace.metadata.isCommThread(origin) ? kNoPe : origin;
}

ReceiverCounts countReceiver(const Trace& trace, const ResolvedRequest& r, PeId self,
    const std::vector<bool>& isEnd, bool externalOnly)
{
    ReceiverCounts out;
    const auto& meta = trace.metadata;
    const auto& pe = trace.pes[static_cast<std::size_t>(self)];
    const bool java = r.mode == Mode::JavaCompat;
    // Java reads [begin, end], the correct mode [begin, end).
    const TimeUs last = java ? r.range.end : r.range.end - 1;
    auto selected = [&](int entry) {
        return entry >= 0 && static_cast<std::size_t>(entry) < r.entrySelected.size()
            && r.entrySelected[static_cast<std::size_t>(entry)];
    };
    auto isEndPe = [&](PeId p) {
        return p >= 0 && static_cast<std::size_t>(p) < isEnd.size()
            && isEnd[static_cast<std::size_t>(p)];
    };
    std::unordered_map<PeId, MessageCounts> bySender;
    const auto& ex = pe.executions;
    const auto first = static_cast<std::size_t>(
        std::lower_bound(ex.begin.begin(), ex.begin.end(), r.range.begin) - ex.begin.begin());
    ReceiveFilter receives(ex, r.mode);
    for (std::size_t j = first; j < ex.size() && ex.begin[j] <= last; ++j) {
        if (!receives.isReceive(j) || !selected(ex.entry[j]))
            continue;
        if (java) {
            ++out.ownTotals.messagesReceived;
            out.ownTotals.bytesReceived += static_cast<std::uint64_t>(std::max(ex.msgBytes[j], 0));
        }
        PeId sender = ex.sourcePe[j];
        if (sender < 0)
            continue; // no sender recorded
        if (static_cast<std::size_t>(sender) >= trace.pes.size()) {
            ++out.invalidSenders; // runtime messages may carry any number here
            continue;
        }
        // A relay by a comm thread that is no end of the matrix: the worker that sent it.
        if (meta.isCommThread(sender) && sender != self && !isEndPe(sender)) {
            sender = relayedSender(trace, self, j);
            if (sender == kNoPe) {
                ++out.unresolvedRelays;
                continue;
            }
        }
        if (externalOnly && (sender == self || meta.nodeOf(sender) == meta.nodeOf(self)))
            continue;
        if (!isEndPe(sender)) {
            ++out.fromOtherPes;
            continue;
        }
        auto& c = bySender[sender];
        ++c.messages;
        c.bytes += static_cast<std::uint64_t>(std::max(ex.msgBytes[j], 0));
    }
    out.pairs.reserve(bySender.size());
    for (const auto& [sender, c] : bySender)
        out.pairs.push_back(CommPair { sender, self, c.messages, c.bytes });
    std::sort(out.pairs.begin(), out.pairs.end(),
        [](const CommPair& a, const CommPair& b) { return a.sender < b.sender; });
    if (java) {
        const auto& s = pe.sends;
        const auto range = pe.sendsIn(r.range.begin, r.range.end + 1);
        for (auto k = range.first; k < range.last; ++k) {
            if (!selected(s.entry[k]))
                continue;
            const auto n = s.kind[k] == SendKind::PointToPoint
                ? std::uint64_t { 1 }
                : static_cast<std::uint64_t>(std::max(s.destinationCount[k], 0));
            out.ownTotals.messagesSent += n;
            out.ownTotals.bytesSent += n * static_cast<std::uint64_t>(std::max(s.msgBytes[k], 0));
        }
    }
    return out;
}

std::optional<std::size_t> heaviest(
    const std::vector<CommPeTotals>& totals, std::uint64_t CommPeTotals::*field)
{
    std::optional<std::size_t> best;
    for (std::size_t k = 0; k < totals.size(); ++k)
        if (totals[k].*field > 0 && (!best || totals[k].*field > totals[*best].*field))
            best = k;
    return best;
}

} // namespace

std::optional<std::size_t> CommMatrix::indexOf(PeId pe) const
{
    const auto it = std::lower_bound(pes.begin(), pes.end(), pe);
    if (it == pes.end() || *it != pe)
        return std::nullopt;
    return static_cast<std::size_t>(it - pes.begin());
}

std::optional<std::size_t> CommMatrix::heaviestSender(bool bytes) const
{
    return heaviest(totals, bytes ? &CommPeTotals::bytesSent : &CommPeTotals::messagesSent);
}

std::optional<std::size_t> CommMatrix::heaviestReceiver(bool bytes) const
{
    return heaviest(totals, bytes ? &CommPeTotals::bytesReceived : &CommPeTotals::messagesReceived);
}

std::uint64_t CommMatrix::totalMessages() const
{
    std::uint64_t sum = 0;
    for (const auto& p : pairs)
        sum += p.messages;
    return sum;
}

std::optional<CommMatrix> computeCommMatrix(const Trace& trace, const AnalysisRequest& request,
    const CommMatrixOptions& options, const Progress& progress)
{
    const auto r = resolve(trace, request);
    CommMatrix m;
    m.range = r.range;
    m.mode = r.mode;
    m.externalOnly = options.externalOnly;
    m.apart = r.apart;
    std::vector<bool> isEnd(trace.pes.size(), false);
    for (std::size_t k = 0; k < r.pes.size(); ++k)
        if (r.isAggregated(k)) {
            m.pes.push_back(r.pes[k]);
            isEnd[static_cast<std::size_t>(r.pes[k])] = true;
        }
    m.totals.assign(m.pes.size(), {});
    if (!trace.hasLogs())
        return m;
    std::vector<ReceiverCounts> perReceiver(m.pes.size());
    const bool ok = parallelFor(m.pes.size(), r.threads, progress, [&](std::size_t k) {
        perReceiver[k] = countReceiver(trace, r, m.pes[k], isEnd, options.externalOnly);
    });
    if (!ok)
        return std::nullopt;
    for (std::size_t k = 0; k < perReceiver.size(); ++k) {
        auto& counts = perReceiver[k];
        m.fromOtherPes += counts.fromOtherPes;
        m.unresolvedRelays += counts.unresolvedRelays;
        m.invalidSenders += counts.invalidSenders;
        m.pairs.insert(m.pairs.end(), counts.pairs.begin(), counts.pairs.end());
        if (r.mode == Mode::JavaCompat)
            m.totals[k] = counts.ownTotals;
        counts = {};
    }
    std::sort(m.pairs.begin(), m.pairs.end(), [](const CommPair& a, const CommPair& b) {
        return a.sender != b.sender ? a.sender < b.sender : a.receiver < b.receiver;
    });
    if (r.mode != Mode::JavaCompat)
        for (const auto& p : m.pairs) {
            auto& sender = m.totals[*m.indexOf(p.sender)];
            sender.messagesSent += p.messages;
            sender.bytesSent += p.bytes;
            auto& receiver = m.totals[*m.indexOf(p.receiver)];
            receiver.messagesReceived += p.messages;
            receiver.bytesReceived += p.bytes;
        }
    return m;
}

CommCells aggregateCommMatrix(const CommMatrix& matrix, const std::vector<std::vector<PeId>>& axis)
{
    CommCells cells;
    cells.size = axis.size();
    cells.messages.assign(cells.size * cells.size, 0.0);
    cells.bytes.assign(cells.size * cells.size, 0.0);
    PeId maxPe = -1;
    for (const auto& item : axis)
        for (const auto pe : item)
            maxPe = std::max(maxPe, pe);
    std::vector<std::int64_t> itemOf(static_cast<std::size_t>(maxPe + 1), -1);
    for (std::size_t i = axis.size(); i-- > 0;)
        for (const auto pe : axis[i])
            if (pe >= 0)
                itemOf[static_cast<std::size_t>(pe)] = static_cast<std::int64_t>(i);
    auto item = [&](PeId pe) -> std::int64_t {
        return pe >= 0 && pe <= maxPe ? itemOf[static_cast<std::size_t>(pe)] : -1;
    };
    for (const auto& p : matrix.pairs) {
        const auto i = item(p.sender);
        const auto j = item(p.receiver);
        if (i < 0 || j < 0)
            continue;
        const auto cell = static_cast<std::size_t>(i) * cells.size + static_cast<std::size_t>(j);
        cells.messages[cell] += static_cast<double>(p.messages);
        cells.bytes[cell] += static_cast<double>(p.bytes);
    }
    return cells;
}

std::vector<std::vector<PeId>> commNodeAxis(
    const CommMatrix& matrix, const RunMetadata& metadata, std::vector<int>* nodes)
{
    std::vector<int> order;
    for (const auto pe : matrix.pes)
        order.push_back(metadata.nodeOf(pe));
    std::sort(order.begin(), order.end());
    order.erase(std::unique(order.begin(), order.end()), order.end());
    std::vector<std::vector<PeId>> axis(order.size());
    for (const auto pe : matrix.pes) {
        const auto it = std::lower_bound(order.begin(), order.end(), metadata.nodeOf(pe));
        axis[static_cast<std::size_t>(it - order.begin())].push_back(pe);
    }
    if (nodes != nullptr)
        *nodes = std::move(order);
    return axis;
}

std::string commMatrixCsv(const CommMatrix* matrix)
{
    std::string out = "src_pe,dst_pe,messages,bytes\n";
    if (matrix == nullptr)
        return out;
    for (const auto& p : matrix->pairs)
        out += std::to_string(p.sender) + "," + std::to_string(p.receiver) + ","
            + std::to_string(p.messages) + "," + std::to_string(p.bytes) + "\n";
    return out;
}

std::string commNodeMatrixCsv(const CommMatrix* matrix, const RunMetadata& metadata)
{
    std::string out = "src_node,dst_node,messages,bytes\n";
    if (matrix == nullptr)
        return out;
    std::vector<int> nodes;
    const auto axis = commNodeAxis(*matrix, metadata, &nodes);
    const auto cells = aggregateCommMatrix(*matrix, axis);
    for (std::size_t i = 0; i < cells.size; ++i)
        for (std::size_t j = 0; j < cells.size; ++j) {
            const auto c = i * cells.size + j;
            if (cells.messages[c] > 0)
                out += std::to_string(nodes[i]) + "," + std::to_string(nodes[j]) + ","
                    + formatCsvNumber(cells.messages[c]) + "," + formatCsvNumber(cells.bytes[c])
                    + "\n";
        }
    return out;
}

std::string commPerPeCsv(const CommMatrix* matrix)
{
    std::string out = "pe,msgs_sent,bytes_sent,msgs_recv,bytes_recv\n";
    if (matrix == nullptr)
        return out;
    for (std::size_t k = 0; k < matrix->pes.size(); ++k) {
        const auto& t = matrix->totals[k];
        out += std::to_string(matrix->pes[k]) + "," + std::to_string(t.messagesSent) + ","
            + std::to_string(t.bytesSent) + "," + std::to_string(t.messagesReceived) + ","
            + std::to_string(t.bytesReceived) + "\n";
    }
    return out;
}

} // namespace parallax::core::analysis
