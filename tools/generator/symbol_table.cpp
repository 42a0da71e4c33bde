#include "symbol_table.h"

#include <array>
#include <string_view>

namespace parallax::gen {

namespace {

// Message type ids (MESSAGE lines).
constexpr int kDummyThreadMsg = 0;
constexpr int kDummyPackMsg = 1;
constexpr int kDummyUnpackMsg = 2;
constexpr int kSdagMsg = 3;
constexpr int kReductionMsg = 4;
constexpr int kMarshallMsg = 5;
constexpr int kArgMsg = 6;
constexpr int kGhostMsg = 7;
constexpr int kUpdateMsg = 8;
constexpr int kForceMsg = 9;

constexpr std::array<std::string_view, 20> kVerbs = { "compute", "update", "recv", "send",
    "exchange", "integrate", "reduce", "accumulate", "apply", "start", "finish", "balance",
    "migrate", "flush", "prepare", "check", "record", "gather", "scatter", "sync" };
constexpr std::array<std::string_view, 16> kNouns
    = { "Forces", "Positions", "Ghosts", "Boundary", "Energy", "Stats", "Params", "Coords", "Pairs",
          "Grid", "Charges", "Velocities", "Fluxes", "Halo", "Tiles", "Atoms" };
// Chares that own the mix entry methods, in turn.
constexpr std::array<int, 4> kMixChares
    = { chare::kWorker, chare::kPatch, chare::kWorkerMgr, chare::kComputeMgr };

} // namespace

SymbolTable::SymbolTable(int totalEntries, PlantedEntrySet planted)
{
    m_chares = {
        { "dummy_thread_chare", -1 },
        { "dummy_pack_chare", -1 },
        { "dummy_unpack_chare", -1 },
        { "SDAG", -1 },
        { "CkReductionMgr", -1 },
        { "CkArray", -1 },
        { "Main", -1 },
        { "Worker", 1 },
        { "WorkerMgr", -1 },
        { "Patch", 3 },
        { "ComputeMgr", -1 },
    };
    m_entries = {
        { "dummy_thread_ep", chare::kDummyThread, kDummyThreadMsg },
        { "dummy_pack_ep", chare::kDummyPack, kDummyPackMsg },
        { "dummy_unpack_ep", chare::kDummyUnpack, kDummyUnpackMsg },
        { "SDAG_RTS", chare::kSdag, kSdagMsg },
        { "CkReductionMgr()", chare::kReductionMgr, 0 },
        { "RecvMsg(CkReductionMsg* impl_msg)", chare::kReductionMgr, kReductionMsg },
        { "contributeViaMessage(CkReductionMsg* impl_msg)", chare::kReductionMgr, kReductionMsg },
        { "CkArray(const CkArrayOptions &opts, const CkMarshalledMessage &ctorMsg)", chare::kArray,
            kMarshallMsg },
        { "recvBroadcast(CkMessage* impl_msg)", chare::kArray, -1 },
        { "Main(CkArgMsg* impl_msg)", chare::kMain, kArgMsg },
        { "initDone(CkReductionMsg* impl_msg)", chare::kMain, kReductionMsg },
        { "iterationDone(CkReductionMsg* impl_msg)", chare::kMain, kReductionMsg },
        { "Worker()", chare::kWorker, 0 },
        { "compute(int iter)", chare::kWorker, kMarshallMsg },
        { "recvGhost(GhostMsg* impl_msg)", chare::kWorker, kGhostMsg },
        { "Worker(CkMigrateMessage* impl_msg)", chare::kWorker, 0 },
        { "WorkerMgr()", chare::kWorkerMgr, 0 },
        { "startStep(int iter)", chare::kWorkerMgr, kMarshallMsg },
        { "multicastUpdate(UpdateMsg* impl_msg)", chare::kWorkerMgr, kUpdateMsg },
        { "finish()", chare::kWorkerMgr, 0 },
        { "Patch()", chare::kPatch, 0 },
        { "integrate(int step)", chare::kPatch, kMarshallMsg },
        { "Patch(CkMigrateMessage* impl_msg)", chare::kPatch, 0 },
    };

    m_planted.fill(-1);
    const auto declare = [this](PlantedEntry which, EntryMethod method) {
        m_planted[static_cast<std::size_t>(which)] = static_cast<EntryId>(m_entries.size());
        m_entries.push_back(std::move(method));
    };
    if (planted.pe0Roles) {
        m_chares.push_back({ "CentralLB", -1 });
        declare(PlantedEntry::ReceiveStats,
            { "ReceiveStats(CkMarshalledCLBStatsMessage &&msg)", chare::kCentralLb, kMarshallMsg });
        declare(PlantedEntry::LoadBalance, { "LoadBalance()", chare::kCentralLb, 0 });
        declare(PlantedEntry::ReportProgress,
            { "reportProgress(int iter)", chare::kMain, kMarshallMsg });
    }
    if (planted.anomalous) {
        declare(PlantedEntry::RebuildPairlist,
            { "rebuildPairlist(int step)", chare::kPatch, kMarshallMsg });
    }
    if (planted.phases) {
        declare(PlantedEntry::ComputeBonded,
            { "computeBonded(int step)", chare::kPatch, kMarshallMsg });
        declare(PlantedEntry::ComputeNonbonded,
            { "computeNonbonded(int step)", chare::kPatch, kMarshallMsg });
    }
    m_firstMixEntry = static_cast<EntryId>(m_entries.size());

    // The mix: verb x noun names with one of three parameter lists, owned in turn by the
    // Worker and Patch arrays and the WorkerMgr and ComputeMgr groups.
    const int mixCount = totalEntries - static_cast<int>(m_entries.size());
    for (int index = 0; index < mixCount; ++index) {
        const auto verb = kVerbs[static_cast<std::size_t>(index) % kVerbs.size()];
        const auto noun = kNouns[(static_cast<std::size_t>(index) / kVerbs.size()) % kNouns.size()];
        std::string name(verb);
        name += noun;
        const auto round = static_cast<std::size_t>(index) / (kVerbs.size() * kNouns.size());
        if (round > 0) {
            name += std::to_string(round + 1);
        }
        int message = kMarshallMsg;
        switch (index % 3) {
        case 0:
            name += "(int step)";
            break;
        case 1:
            name += "(const double *values, int n)";
            break;
        default:
            name += "(ForceMsg* impl_msg)";
            message = kForceMsg;
            break;
        }
        const int owner = kMixChares[static_cast<std::size_t>(index) % kMixChares.size()];
        m_entries.push_back({ std::move(name), owner, message });
    }

    m_messageSizes = { 0, 0, 0, 0, 136, 8, 16, 48, 32, 24 };
    m_userEvents = {
        { user_event::kComputeKernel, "Compute kernel" },
        { user_event::kStepSetup, "Step setup" },
        { user_event::kReductionClient, "Reduction client" },
        { user_event::kGhostReceived, "Ghost received" },
        { user_event::kIterationStart, "Iteration start" },
    };
    m_userStats = { { user_event::kIterationStat, "Iteration number" } };
}

SymbolTable::SymbolTable(
    std::vector<ChareType> chares, std::vector<EntryMethod> entries, std::vector<int> messageSizes)
    : m_chares(std::move(chares))
    , m_entries(std::move(entries))
    , m_messageSizes(std::move(messageSizes))
{
    m_planted.fill(-1);
    m_firstMixEntry = static_cast<EntryId>(m_entries.size());
}

int SymbolTable::chareOf(EntryId entry) const
{
    return m_entries[static_cast<std::size_t>(entry)].chare;
}

std::string SymbolTable::shortName(EntryId entry) const
{
    const EntryMethod& method = m_entries[static_cast<std::size_t>(entry)];
    std::string name = m_chares[static_cast<std::size_t>(method.chare)].name;
    name += "::";
    name += method.name.substr(0, method.name.find('('));
    return name;
}

} // namespace parallax::gen
