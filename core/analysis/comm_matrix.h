#pragma once

#include "analysis_request.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parallax::core {
struct RunMetadata;
}

namespace parallax::core::analysis {

// Communication per Processor: how many messages (and bytes) each PE sent to each other PE.
//
// Correct mode: a message counts once, where it was delivered: an execution of a selected PE that
// received it (ReceiveFilter) and began in the range, its entry method among the request's. Its
// sender is the PE that created it: when the receive names an SMP comm thread, the relay is
// followed back through the comm thread's own records (findMessagePath) to the worker that sent
// it, so a message between nodes counts once, worker to worker, never also as worker → comm thread
// and comm thread → worker. Both ends must be among the selected PEs. Comm threads are ends only
// when the request includes them, and then their records count as written (relays included).
// Java compat: every BEGIN_PROCESSING of a selected PE in [begin, end] counts, from the PE its
// record names (comm threads included, no relay followed); a PE's totals are the reference tool's
// Communication per Processor: sent = its CREATION records (broadcasts and multicasts once per
// destination), received = its BEGIN_PROCESSING records, whoever sent them (externalOnly applies
// to the pairs only).

struct CommPair {
    PeId sender = kNoPe;
    PeId receiver = kNoPe;
    std::uint64_t messages = 0;
    std::uint64_t bytes = 0;
};

struct CommPeTotals {
    std::uint64_t messagesSent = 0;
    std::uint64_t bytesSent = 0;
    std::uint64_t messagesReceived = 0;
    std::uint64_t bytesReceived = 0;
};

struct CommMatrixOptions {
    // Only messages between PEs of different SMP nodes (without SMP: between different PEs).
    bool externalOnly = false;
};

struct CommMatrix {
    TimeRange range;
    Mode mode = Mode::Correct;
    bool externalOnly = false;
    std::vector<PeId> pes; // the PEs of both axes (sorted)
    std::vector<CommPair> pairs; // the non-zero pairs, sorted by (sender, receiver)
    // Per index of `pes`: in the correct mode the sums of `pairs` (sent = the PE's row, received =
    // its column); in Java compat the PE's own records (see above).
    std::vector<CommPeTotals> totals;
    std::vector<PeId> apart; // selected comm threads that are no end of any pair (relays)
    // Messages delivered to a PE of `pes` in the range that no pair holds, and why: the sender is
    // a PE not among `pes`; a comm thread handed the message over and its record of the relay was
    // not found (a missing comm-thread log, say); the record names no PE of the run (runtime
    // messages can carry any number there).
    std::uint64_t fromOtherPes = 0;
    std::uint64_t unresolvedRelays = 0;
    std::uint64_t invalidSenders = 0;

    // Index of a PE in `pes`, or nullopt.
    [[nodiscard]] std::optional<std::size_t> indexOf(PeId pe) const;
    // The PE that sent (received) the most messages, or bytes; the lowest PE on a tie; nullopt
    // when nothing was sent (received).
    [[nodiscard]] std::optional<std::size_t> heaviestSender(bool bytes) const;
    [[nodiscard]] std::optional<std::size_t> heaviestReceiver(bool bytes) const;
    [[nodiscard]] std::uint64_t totalMessages() const;
};

std::optional<CommMatrix> computeCommMatrix(const Trace& trace, const AnalysisRequest& request,
    const CommMatrixOptions& options = {}, const Progress& progress = {});

// The matrix summed over groups of PEs (an axis of items, each a list of PEs: single PEs, nodes,
// blocks): cell [i * axis.size() + j] holds what the PEs of item i sent to those of item j. A PE in
// no item is left out; a PE in several counts in the first. O(pairs + items²).
struct CommCells {
    std::size_t size = 0; // items per axis
    std::vector<double> messages;
    std::vector<double> bytes;
};
CommCells aggregateCommMatrix(const CommMatrix& matrix, const std::vector<std::vector<PeId>>& axis);

// The matrix's PEs by SMP node (RunMetadata::nodeOf), nodes in increasing order: the axis of
// the node × node matrix. `nodes` receives the node numbers.
std::vector<std::vector<PeId>> commNodeAxis(
    const CommMatrix& matrix, const RunMetadata& metadata, std::vector<int>* nodes = nullptr);

// src_pe,dst_pe,messages,bytes: one row per pair.
std::string commMatrixCsv(const CommMatrix* matrix);
// src_node,dst_node,messages,bytes: one row per non-zero pair of nodes.
std::string commNodeMatrixCsv(const CommMatrix* matrix, const RunMetadata& metadata);
// pe,msgs_sent,bytes_sent,msgs_recv,bytes_recv: one row per PE of the matrix.
std::string commPerPeCsv(const CommMatrix* matrix);

} // namespace parallax::core::analysis
