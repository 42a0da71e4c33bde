#include "pe_selection.h"

#include "clustering.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace parallax::core::analysis {

namespace {

// splitmix64 (Steele, Lea, Flood 2014): a tiny generator whose output is fully specified, so
// a seed means the same selection everywhere.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed)
        : m_state(seed)
    { }
    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31U);
    }
    // Uniform in [0, bound) by rejection (no modulo bias); bound > 0.
    std::uint64_t below(std::uint64_t bound)
    {
        const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
        std::uint64_t x = next();
        while (x >= limit)
            x = next();
        return x % bound;
    }

private:
    std::uint64_t m_state;
};

} // namespace

std::optional<KeepAmount> parseKeepAmount(std::string_view text, std::string* error)
{
    // Messages are appended piecewise (GCC 12 warns falsely on chained string concatenation).
    auto fail = [&](const char* before, const char* after) -> std::optional<KeepAmount> {
        if (error != nullptr) {
            std::string message(before);
            message.append(text);
            message.append(after);
            error->swap(message);
        }
        return std::nullopt;
    };
    KeepAmount amount;
    std::string_view number = text;
    if (!number.empty() && number.back() == '%') {
        amount.percent = true;
        number.remove_suffix(1);
    }
    double value = 0;
    const auto* end = number.data() + number.size();
    const auto [ptr, ec] = std::from_chars(number.data(), end, value);
    if (number.empty() || ec != std::errc() || ptr != end || !std::isfinite(value))
        return fail("'", "' is neither a share like 5% nor a PE count like 12");
    if (amount.percent) {
        if (!(value > 0) || value > 100)
            return fail("a share of PEs must be above 0% and at most 100%, got '", "'");
    } else if (value < 1 || value != std::floor(value) || value > 1e9) {
        return fail("a PE count must be a whole number of at least 1, got '", "'");
    }
    amount.value = value;
    return amount;
}

std::optional<std::size_t> keptCount(
    const KeepAmount& amount, std::size_t candidates, std::string* error)
{
    std::size_t count = 0;
    if (amount.percent) {
        // 1e-9 absorbs the rounding of shares such as 30% of 10 (3.0000000000000004).
        count = static_cast<std::size_t>(
            std::ceil(amount.value * static_cast<double>(candidates) / 100.0 - 1e-9));
        count = std::clamp<std::size_t>(count, 1, std::max<std::size_t>(candidates, 1));
    } else {
        count = static_cast<std::size_t>(amount.value);
    }
    if (candidates == 0 || count > candidates) {
        if (error != nullptr)
            *error = "cannot keep " + std::to_string(count) + " PEs: the run has "
                + std::to_string(candidates) + " PEs with logs";
        return std::nullopt;
    }
    return count;
}

std::vector<KeptPe> selectRandomPes(
    const std::vector<PeId>& candidates, std::size_t count, std::uint64_t seed)
{
    std::vector<PeId> pool = candidates;
    count = std::min(count, pool.size());
    SplitMix64 random(seed);
    // The first `count` steps of a Fisher-Yates shuffle.
    for (std::size_t i = 0; i < count; ++i) {
        const auto j = i + static_cast<std::size_t>(random.below(pool.size() - i));
        std::swap(pool[i], pool[j]);
    }
    pool.resize(count);
    std::sort(pool.begin(), pool.end());
    std::vector<KeptPe> kept;
    kept.reserve(count);
    for (auto pe : pool)
        kept.push_back({ pe, "random", -1, 0.0 });
    return kept;
}

std::vector<KeptPe> keptFromClustering(const PeClustering& clustering)
{
    std::vector<KeptPe> kept;
    const auto& pes = clustering.features.pes;
    for (std::size_t i = 0; i < clustering.role.size() && i < pes.size(); ++i) {
        const auto role = clustering.role[i];
        if (role == ClusterRole::Member)
            continue;
        kept.push_back({ pes[i], std::string(clusterRoleName(role)), clustering.cluster[i],
            clustering.distance[i] });
    }
    std::stable_sort(kept.begin(), kept.end(), [](const KeptPe& a, const KeptPe& b) {
        if (a.cluster != b.cluster)
            return a.cluster < b.cluster;
        const bool aExemplar = a.role == "exemplar";
        const bool bExemplar = b.role == "exemplar";
        if (aExemplar != bExemplar)
            return aExemplar;
        if (a.distance != b.distance)
            return a.distance > b.distance;
        return a.pe < b.pe;
    });
    return kept;
}

std::vector<PeId> keptPeIds(const std::vector<KeptPe>& kept)
{
    std::vector<PeId> pes;
    pes.reserve(kept.size());
    for (const auto& k : kept)
        pes.push_back(k.pe);
    std::sort(pes.begin(), pes.end());
    pes.erase(std::unique(pes.begin(), pes.end()), pes.end());
    return pes;
}

} // namespace parallax::core::analysis
