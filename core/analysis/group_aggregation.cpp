#include "group_aggregation.h"

#include "csv_export.h"
#include "usage_profile.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

namespace parallax::core::analysis {

namespace {

// One row to compute: members as indices into the usage profile.
struct Job {
    std::string name;
    std::vector<std::size_t> members; // sorted by PE
    bool commThreads = false;
    std::vector<EntryId> signature;
    bool signatureSplit = false;
};

class Aggregator {
public:
    explicit Aggregator(const UsageProfile& usage)
        : m_usage(usage)
        , m_width(static_cast<std::size_t>(usage.columns.count()))
        , m_toUs(static_cast<double>(std::max<TimeUs>(usage.range.length(), 1)) / 100.0)
    { }

    [[nodiscard]] double us(std::size_t k, std::size_t c) const
    {
        return m_usage.percent[k * m_width + c] * m_toUs;
    }

    // Entry-method time of one PE: how busy it is (the KEY ranking).
    [[nodiscard]] double busy(std::size_t k) const
    {
        double total = 0;
        for (int c = 0; c < m_usage.columns.entryCount; ++c)
            total += us(k, static_cast<std::size_t>(c));
        return total;
    }

    [[nodiscard]] GroupValues ownValues(ValueRole role, std::size_t k) const
    {
        GroupValues v;
        v.role = role;
        v.pe = m_usage.pes[k];
        v.peCount = 1;
        v.us.resize(m_width);
        for (std::size_t c = 0; c < m_width; ++c)
            v.us[c] = us(k, c);
        return v;
    }

    void sum(const std::vector<std::size_t>& members, std::vector<GroupValues>& out) const
    {
        GroupValues total = blank(ValueRole::Sum, members.size());
        for (const auto k : members)
            for (std::size_t c = 0; c < m_width; ++c)
                total.us[c] += us(k, c);
        GroupValues mean = total;
        mean.role = ValueRole::Mean;
        for (auto& v : mean.us)
            v /= static_cast<double>(members.size());
        out.push_back(std::move(total));
        out.push_back(std::move(mean));
    }

    void set(const std::vector<std::size_t>& members, std::vector<GroupValues>& out) const
    {
        const auto n = static_cast<double>(members.size());
        GroupValues lo = blank(ValueRole::Min, members.size());
        GroupValues hi = blank(ValueRole::Max, members.size());
        GroupValues mean = blank(ValueRole::Mean, members.size());
        GroupValues sd = blank(ValueRole::Sd, members.size());
        std::fill(lo.us.begin(), lo.us.end(), std::numeric_limits<double>::infinity());
        std::fill(hi.us.begin(), hi.us.end(), -std::numeric_limits<double>::infinity());
        for (const auto k : members)
            for (std::size_t c = 0; c < m_width; ++c) {
                const double v = us(k, c);
                lo.us[c] = std::min(lo.us[c], v);
                hi.us[c] = std::max(hi.us[c], v);
                mean.us[c] += v;
            }
        for (auto& v : mean.us)
            v /= n;
        // Two passes: the σ of values far from 0 keeps its precision.
        for (const auto k : members)
            for (std::size_t c = 0; c < m_width; ++c) {
                const double d = us(k, c) - mean.us[c];
                sd.us[c] += d * d;
            }
        for (auto& v : sd.us)
            v = std::sqrt(v / n);
        out.push_back(std::move(lo));
        out.push_back(std::move(hi));
        out.push_back(std::move(mean));
        out.push_back(std::move(sd));
    }

    // The first member stays; the others are ranked by entry-method time (ties: lower PE).
    void key(const std::vector<std::size_t>& members, std::vector<GroupValues>& out) const
    {
        out.push_back(ownValues(ValueRole::First, members.front()));
        if (members.size() == 1)
            return;
        std::vector<std::pair<double, std::size_t>> ranked;
        ranked.reserve(members.size() - 1);
        for (std::size_t i = 1; i < members.size(); ++i)
            ranked.emplace_back(busy(members[i]), members[i]);
        const auto slowest = std::min_element(ranked.begin(), ranked.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
        const auto slow = slowest->second;
        out.push_back(ownValues(ValueRole::Slowest, slow));
        ranked.erase(slowest);
        if (ranked.empty())
            return;
        const auto fastest = std::min_element(ranked.begin(), ranked.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
        out.push_back(ownValues(ValueRole::Fastest, fastest->second));
        ranked.erase(fastest);
        if (ranked.empty())
            return;
        GroupValues rest = blank(ValueRole::Rest, ranked.size());
        for (const auto& [busyUs, k] : ranked)
            for (std::size_t c = 0; c < m_width; ++c)
                rest.us[c] += us(k, c);
        for (auto& v : rest.us)
            v /= static_cast<double>(ranked.size());
        out.push_back(std::move(rest));
    }

    [[nodiscard]] BusySpread spread(const std::vector<std::size_t>& members) const
    {
        BusySpread b;
        std::vector<double> busyUs;
        busyUs.reserve(members.size());
        for (const auto k : members)
            busyUs.push_back(busy(k));
        for (std::size_t i = 0; i < members.size(); ++i) {
            const double v = busyUs[i];
            if (b.minPe == kNoPe || v < b.minUs) {
                b.minUs = v;
                b.minPe = m_usage.pes[members[i]];
            }
            if (b.maxPe == kNoPe || v > b.maxUs) {
                b.maxUs = v;
                b.maxPe = m_usage.pes[members[i]];
            }
            b.meanUs += v;
        }
        b.meanUs /= static_cast<double>(std::max<std::size_t>(members.size(), 1));
        for (const double v : busyUs)
            b.sdUs += (v - b.meanUs) * (v - b.meanUs);
        b.sdUs = std::sqrt(b.sdUs / static_cast<double>(std::max<std::size_t>(members.size(), 1)));
        return b;
    }

private:
    [[nodiscard]] GroupValues blank(ValueRole role, std::size_t count) const
    {
        GroupValues v;
        v.role = role;
        v.peCount = count;
        v.us.assign(m_width, 0.0);
        return v;
    }

    const UsageProfile& m_usage;
    std::size_t m_width;
    double m_toUs;
};

} // namespace

std::optional<AggregationMode> parseAggregationMode(std::string_view text, std::string* error)
{
    for (const auto mode : { AggregationMode::Sum, AggregationMode::Set, AggregationMode::Key,
             AggregationMode::Signature })
        if (text == aggregationModeName(mode))
            return mode;
    if (error != nullptr)
        *error = "unknown mode '" + std::string(text) + "' (expected sum, set, key or signature)";
    return std::nullopt;
}

std::string_view aggregationModeName(AggregationMode mode)
{
    switch (mode) {
    case AggregationMode::Sum:
        return "sum";
    case AggregationMode::Set:
        return "set";
    case AggregationMode::Key:
        return "key";
    case AggregationMode::Signature:
        return "signature";
    }
    return "sum";
}

std::string_view valueRoleName(ValueRole role)
{
    static constexpr std::string_view names[]
        = { "sum", "min", "max", "mean", "sd", "first", "slowest", "fastest", "rest" };
    return names[static_cast<std::size_t>(role)];
}

double GroupValues::percent(int column, TimeUs rangeLength) const
{
    if (column < 0 || static_cast<std::size_t>(column) >= us.size() || rangeLength <= 0)
        return 0.0;
    double v = us[static_cast<std::size_t>(column)];
    if (role == ValueRole::Sum && peCount > 0)
        v /= static_cast<double>(peCount);
    return v * 100.0 / static_cast<double>(rangeLength);
}

const GroupValues* GroupAggregate::find(ValueRole role) const
{
    for (const auto& v : values)
        if (v.role == role)
            return &v;
    return nullptr;
}

GroupAggregation aggregateGroups(const UsageProfile& usage, const std::vector<PeGroup>& groups,
    AggregationMode mode, const PeSignatures* signatures, unsigned threads)
{
    GroupAggregation result;
    result.mode = mode;
    result.range = usage.range;
    result.columns = usage.columns;
    if (usage.pes.empty())
        return result;

    // PE id -> profile index, and which profile PEs are kept apart (O(PEs)).
    const auto maxPe = static_cast<std::size_t>(
        std::max<PeId>(*std::max_element(usage.pes.begin(), usage.pes.end()), 0));
    constexpr std::size_t kAbsent = std::numeric_limits<std::size_t>::max();
    std::vector<std::size_t> indexOf(maxPe + 1, kAbsent);
    for (std::size_t k = 0; k < usage.pes.size(); ++k)
        if (usage.pes[k] >= 0)
            indexOf[static_cast<std::size_t>(usage.pes[k])] = k;
    std::vector<bool> apart(usage.pes.size(), false);
    for (const auto pe : usage.apart)
        if (pe >= 0 && static_cast<std::size_t>(pe) <= maxPe
            && indexOf[static_cast<std::size_t>(pe)] != kAbsent)
            apart[indexOf[static_cast<std::size_t>(pe)]] = true;
    // The signature of each profile index (signatures may cover other PEs than the profile).
    std::vector<std::uint32_t> signatureOf;
    const bool split = mode == AggregationMode::Signature && signatures != nullptr;
    if (split) {
        signatureOf.assign(usage.pes.size(), 0);
        for (std::size_t s = 0; s < signatures->pes.size() && s < signatures->ofPe.size(); ++s) {
            const auto pe = signatures->pes[s];
            if (pe >= 0 && static_cast<std::size_t>(pe) <= maxPe
                && indexOf[static_cast<std::size_t>(pe)] != kAbsent)
                signatureOf[indexOf[static_cast<std::size_t>(pe)]] = signatures->ofPe[s];
        }
    }

    std::vector<Job> jobs;
    for (const auto& group : groups) {
        Job workers { group.name, {}, false, {}, false };
        Job comm { group.name + " comm threads", {}, true, {}, false };
        for (const auto pe : group.pes) {
            if (pe < 0 || static_cast<std::size_t>(pe) > maxPe)
                continue;
            const auto k = indexOf[static_cast<std::size_t>(pe)];
            if (k != kAbsent)
                (apart[k] ? comm : workers).members.push_back(k);
        }
        for (auto* job : { &workers, &comm }) {
            if (job->members.empty())
                continue;
            if (!split) {
                jobs.push_back(std::move(*job));
                continue;
            }
            // One job per signature present, in order of first member.
            std::vector<std::uint32_t> order;
            for (const auto k : job->members)
                if (std::find(order.begin(), order.end(), signatureOf[k]) == order.end())
                    order.push_back(signatureOf[k]);
            for (const auto s : order) {
                Job part { job->name + " / signature " + std::to_string(s + 1), {},
                    job->commThreads, signatures->sets[s], true };
                for (const auto k : job->members)
                    if (signatureOf[k] == s)
                        part.members.push_back(k);
                jobs.push_back(std::move(part));
            }
        }
    }

    result.groups.resize(jobs.size());
    const Aggregator aggregator(usage);
    const unsigned workers
        = threads == 0 ? std::max(1U, std::thread::hardware_concurrency()) : threads;
    parallelFor(jobs.size(), workers, {}, [&](std::size_t j) {
        const auto& job = jobs[j];
        auto& out = result.groups[j];
        out.name = job.name;
        out.commThreads = job.commThreads;
        out.signature = job.signature;
        out.pes.reserve(job.members.size());
        for (const auto k : job.members)
            out.pes.push_back(usage.pes[k]);
        out.busy = aggregator.spread(job.members);
        switch (mode) {
        case AggregationMode::Sum:
        case AggregationMode::Signature:
            aggregator.sum(job.members, out.values);
            break;
        case AggregationMode::Set:
            aggregator.set(job.members, out.values);
            break;
        case AggregationMode::Key:
            aggregator.key(job.members, out.values);
            break;
        }
    });
    return result;
}

std::string groupAggregationCsv(const GroupAggregation& aggregation, bool header)
{
    std::string out = header
        ? "group,first_pe,last_pe,members,mode,role,pe,activity,activity_name,value_us,percent\n"
        : "";
    const auto& columns = aggregation.columns;
    const auto length = aggregation.range.length();
    const auto mode = std::string(aggregationModeName(aggregation.mode));
    for (const auto& group : aggregation.groups) {
        const auto head = csvField(group.name) + ',' + std::to_string(group.firstPe()) + ','
            + std::to_string(group.lastPe()) + ',' + std::to_string(group.pes.size()) + ',' + mode
            + ',';
        for (const auto& v : group.values) {
            const auto role = std::string(valueRoleName(v.role)) + ','
                + (v.pe == kNoPe ? std::string() : std::to_string(v.pe)) + ',';
            for (int c = 0; c < columns.count(); ++c) {
                const double value = v.us[static_cast<std::size_t>(c)];
                if (value == 0.0)
                    continue;
                out += head + role + columns.name(c) + ',' + csvField(columns.label(c)) + ','
                    + formatCsvNumber(value) + ',' + formatCsvNumber(v.percent(c, length)) + '\n';
            }
        }
    }
    return out;
}

} // namespace parallax::core::analysis
