#pragma once

#include "trace_types.h"

#include <string>
#include <vector>

namespace parallax::gen {

struct ChareType {
    std::string name;
    int ndims = -1; // 1..3 for chare arrays, -1 for singleton chares and groups
};

struct EntryMethod {
    std::string name; // as written in the .sts, e.g. "compute(int iter)"
    int chare = 0;
    int message = 0; // message type id, -1 for CkMessage* parameters
};

struct UserEventName {
    int id = 0;
    std::string name;
};

// Chare ids of the simulated program (order of the CHARE lines).
namespace chare {
inline constexpr int kDummyThread = 0;
inline constexpr int kDummyPack = 1;
inline constexpr int kDummyUnpack = 2;
inline constexpr int kSdag = 3;
inline constexpr int kReductionMgr = 4;
inline constexpr int kArray = 5;
inline constexpr int kMain = 6;
inline constexpr int kWorker = 7; // 1-D chare array
inline constexpr int kWorkerMgr = 8; // group
inline constexpr int kPatch = 9; // 3-D chare array
inline constexpr int kComputeMgr = 10; // group
inline constexpr int kCentralLb = 11; // group: the central load balancer, rooted on PE 0
} // namespace chare

// Entry method ids that the simulation executes by name. EPs 0..3 are the runtime's dummy
// EPs, as in every current Charm++ .sts; ids from kFirstMixEntry on are the "mix". The
// entries of the planted PE classes are declared in every run (as a real .sts declares
// every EP of the program) and executed only when their class is planted.
namespace entry {
inline constexpr EntryId kDummyThread = 0;
inline constexpr EntryId kDummyPack = 1;
inline constexpr EntryId kDummyUnpack = 2;
inline constexpr EntryId kSdagRts = 3;
inline constexpr EntryId kReductionMgrCtor = 4;
inline constexpr EntryId kRecvMsg = 5;
inline constexpr EntryId kContributeViaMessage = 6;
inline constexpr EntryId kArrayCtor = 7;
inline constexpr EntryId kArrayRecvBroadcast = 8;
inline constexpr EntryId kMainCtor = 9;
inline constexpr EntryId kInitDone = 10;
inline constexpr EntryId kIterationDone = 11;
inline constexpr EntryId kWorkerCtor = 12;
inline constexpr EntryId kCompute = 13;
inline constexpr EntryId kRecvGhost = 14;
inline constexpr EntryId kWorkerMigrateCtor = 15;
inline constexpr EntryId kWorkerMgrCtor = 16;
inline constexpr EntryId kStartStep = 17;
inline constexpr EntryId kMulticastUpdate = 18;
inline constexpr EntryId kFinish = 19;
inline constexpr EntryId kPatchCtor = 20;
inline constexpr EntryId kIntegrate = 21;
inline constexpr EntryId kPatchMigrateCtor = 22;
// PE 0's extra roles (--special-pe0): load-balancer statistics root and strategy, and a
// progress report of the Main chare.
inline constexpr EntryId kReceiveStats = 23;
inline constexpr EntryId kLoadBalance = 24;
inline constexpr EntryId kReportProgress = 25;
// Only the anomalous PEs (--anomalous) run it.
inline constexpr EntryId kRebuildPairlist = 26;
// The two mixes of --alternating-phases.
inline constexpr EntryId kComputeBonded = 27;
inline constexpr EntryId kComputeNonbonded = 28;
inline constexpr EntryId kFirstMixEntry = 29;
} // namespace entry

// User event and statistic ids (EVENT / STAT lines).
namespace user_event {
inline constexpr int kComputeKernel = 10; // BEGIN/END_USER_EVENT_PAIR in Worker::compute
inline constexpr int kStepSetup = 20; // USER_EVENT_PAIR in WorkerMgr::startStep
inline constexpr int kReductionClient = 21; // USER_EVENT_PAIR in Main::iterationDone
inline constexpr int kGhostReceived = 30; // USER_EVENT in some Worker::recvGhost
inline constexpr int kIterationStart = 40; // USER_EVENT in WorkerMgr::startStep
inline constexpr int kIterationStat = 7; // USER_STAT: iteration number
} // namespace user_event

// The .sts contents of the simulated program: chare types, entry methods (runtime ones,
// the application's, and a configurable NAMD-like mix of further ones), message types,
// user events and statistics.
class SymbolTable {
public:
    explicit SymbolTable(int totalEntries);

    const std::vector<ChareType>& chares() const { return m_chares; }
    const std::vector<EntryMethod>& entries() const { return m_entries; }
    const std::vector<int>& messageSizes() const { return m_messageSizes; }
    const std::vector<UserEventName>& userEvents() const { return m_userEvents; }
    const std::vector<UserEventName>& userStats() const { return m_userStats; }

    int entryCount() const { return static_cast<int>(m_entries.size()); }
    int chareOf(EntryId entry) const;
    // "Chare::method" without the parameter list, e.g. "Worker::compute".
    std::string shortName(EntryId entry) const;

private:
    std::vector<ChareType> m_chares;
    std::vector<EntryMethod> m_entries;
    std::vector<int> m_messageSizes;
    std::vector<UserEventName> m_userEvents;
    std::vector<UserEventName> m_userStats;
};

} // namespace parallax::gen
