// parallax-bench-clusters: k-means over a synthetic PE x entry-method matrix (figures, not
// pass/fail; docs/performance.md). The matrix has planted classes of PEs with different loads
// and jitter, so the run also says whether the clustering finds them.
//
//   parallax-bench-clusters [--pes N] [--entries E] [--classes C] [--k K] [--threads T]
//                           [--uniform 1]

#include "core/analysis/clustering.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

using namespace parallax::core::analysis;

namespace {

struct Lcg {
    std::uint64_t state = 42;
    double next()
    {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) / 9007199254740992.0;
    }
};

double seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Of each planted class, the share of its PEs in the class's most common cluster, averaged; and
// whether two classes share a most common cluster.
void reportPurity(const PeClustering& c, const std::vector<int>& planted, int classes)
{
    double purity = 0;
    std::set<int> majorities;
    for (int p = 0; p < classes; ++p) {
        std::vector<int> counts(static_cast<std::size_t>(c.k), 0);
        int total = 0;
        for (std::size_t i = 0; i < planted.size(); ++i)
            if (planted[i] == p) {
                ++counts[static_cast<std::size_t>(c.cluster[i])];
                ++total;
            }
        int best = 0;
        for (int j = 1; j < c.k; ++j)
            if (counts[static_cast<std::size_t>(j)] > counts[static_cast<std::size_t>(best)])
                best = j;
        majorities.insert(best);
        purity += total == 0 ? 1.0 : counts[static_cast<std::size_t>(best)] / double(total);
    }
    std::printf("  planted classes: %d, mean share in their main cluster %.3f, distinct main "
                "clusters %zu\n",
        classes, purity / classes, majorities.size());
}

} // namespace

int main(int argc, char** argv)
{
    std::size_t pes = 16384;
    std::size_t entries = 200;
    int classes = 15;
    int k = 15;
    unsigned threads = 0;
    bool uniform = false;
    for (int a = 1; a + 1 < argc; a += 2) {
        const std::string name = argv[a];
        const long value = std::strtol(argv[a + 1], nullptr, 10);
        if (value < 1) {
            std::fprintf(stderr, "parallax-bench-clusters: %s needs a positive number\n", argv[a]);
            return 2;
        }
        if (name == "--pes")
            pes = static_cast<std::size_t>(value);
        else if (name == "--entries")
            entries = static_cast<std::size_t>(value);
        else if (name == "--classes")
            classes = static_cast<int>(value);
        else if (name == "--uniform")
            uniform = value != 0;
        else if (name == "--k")
            k = static_cast<int>(value);
        else if (name == "--threads")
            threads = static_cast<unsigned>(value);
        else {
            std::fprintf(stderr, "parallax-bench-clusters: unknown option %s\n", argv[a]);
            return 2;
        }
    }
    // Class p: a base profile times a load of 1 + p / 2 (heavier PEs do more of everything), plus
    // a few entry methods of its own at 3 times the base, 10 % jitter. --classes 0: no classes,
    // every value uniform in [0, 1000) (the slowest case: no structure, many iterations).
    Lcg random;
    std::vector<double> profile(entries);
    for (auto& x : profile)
        x = 1000.0 * random.next() * random.next();
    std::vector<std::vector<bool>> own(
        static_cast<std::size_t>(classes), std::vector<bool>(entries));
    for (auto& o : own)
        for (int j = 0; j < 5; ++j)
            o[static_cast<std::size_t>(random.next() * static_cast<double>(entries))] = true;
    std::vector<double> values(pes * entries);
    std::vector<int> planted(pes);
    for (std::size_t i = 0; i < pes; ++i) {
        const int p
            = uniform ? 0 : static_cast<int>((i * 7919) % static_cast<std::size_t>(classes));
        planted[i] = p;
        for (std::size_t d = 0; d < entries; ++d) {
            const auto pp = static_cast<std::size_t>(p);
            values[i * entries + d] = uniform ? 1000.0 * random.next()
                                              : profile[d] * (1.0 + p / 2.0)
                    * (own[pp][d] ? 3.0 : 1.0) * (0.9 + 0.2 * random.next());
        }
    }
    if (uniform)
        classes = 1;
    std::printf("matrix: %zu PEs x %zu entry methods, %d planted classes\n", pes, entries, classes);

    auto start = std::chrono::steady_clock::now();
    auto c = kMeansDiagonal(values, pes, entries, k, threads);
    const double kMeansSeconds = seconds(start);
    std::printf("k = %d: %.3f s, %d iterations, %d non-empty, converged %s\n", k, kMeansSeconds,
        c.iterations, c.nonEmpty, c.converged ? "yes" : "no");
    reportPurity(c, planted, classes);

    // Automatic k as clusterPes runs it: the sweep 2..20 on a sample, then the chosen k on all.
    start = std::chrono::steady_clock::now();
    const std::size_t sample = std::min(pes, kSweepSampleLimit);
    std::vector<double> sampled(sample * entries);
    for (std::size_t s = 0; s < sample; ++s)
        for (std::size_t d = 0; d < entries; ++d)
            sampled[s * entries + d] = values[(s * pes / sample) * entries + d];
    std::vector<ClusterSweepRow> rows;
    for (int sk = 2; sk <= 20; ++sk) {
        const auto r = kMeansDiagonal(sampled, sample, entries, sk, threads);
        rows.push_back({ sk, r.nonEmpty, r.wcss, false });
    }
    const auto one = kMeansDiagonal(sampled, sample, entries, 1, threads);
    const int chosen = chooseElbow(rows, one.wcss);
    const auto automatic = kMeansDiagonal(values, pes, entries, chosen, threads);
    std::printf("auto k (sweep 2..20 on %zu PEs): %.3f s, chose k = %d, %d non-empty\n", sample,
        seconds(start), chosen, automatic.nonEmpty);
    reportPurity(automatic, planted, classes);
    return 0;
}
