#include "clustering.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <thread>

namespace parallax::core::analysis {

namespace {

// PEs per task of the assignment step: enough work per task to make the scheduling cheap.
constexpr std::size_t kChunk = 256;
// Up to this k, each PE keeps a lower bound per centroid (Elkan); above, one (Hamerly).
constexpr std::size_t kElkanMaxK = 64;
// Independent partial sums of a squared distance (see distance2).
constexpr std::size_t kLanes = 4;

unsigned workerCount(unsigned threads)
{
    return threads == 0 ? std::max(1U, std::thread::hardware_concurrency()) : threads;
}

// Lloyd's k-means from the diagonal seeds, or from `seeds` ([j * dims + d], k of them) when
// given; nullopt when cancelled.
std::optional<PeClustering> kMeans(const std::vector<double>& values, std::size_t n,
    std::size_t dims, int kWanted, unsigned threads, const Progress& progress,
    const std::vector<double>* seeds = nullptr)
{
    PeClustering c;
    const int k = std::max(kWanted, 1);
    const auto kk = static_cast<std::size_t>(k);
    c.k = k;
    c.cluster.assign(n, -1);
    c.role.assign(n, ClusterRole::Member);
    c.sizes.assign(kk, 0);
    // Seeds on the diagonal of the bounding box: centroid j at lo + (hi - lo) * (j + 0.5) / k.
    std::vector<double> lo(dims, std::numeric_limits<double>::max());
    std::vector<double> hi(dims, std::numeric_limits<double>::lowest());
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t d = 0; d < dims; ++d) {
            lo[d] = std::min(lo[d], values[i * dims + d]);
            hi[d] = std::max(hi[d], values[i * dims + d]);
        }
    c.centroids.assign(kk * dims, 0.0);
    if (seeds != nullptr)
        c.centroids = *seeds;
    for (std::size_t j = 0; j < kk && n > 0 && seeds == nullptr; ++j) {
        const double t = (static_cast<double>(j) + 0.5) / static_cast<double>(k);
        for (std::size_t d = 0; d < dims; ++d)
            c.centroids[j * dims + d] = lo[d] + (hi[d] - lo[d]) * t;
    }
    // Squared distance of PE i to centroid j: dimension d is added into lane d % kLanes, each
    // lane in order, and the lanes are added pairwise at the end. Four independent sums run
    // four times as fast as one; the full assignment below sums the same way, so every
    // distance of a PE to a centroid is the same number whichever step computes it.
    auto distance2 = [&](std::size_t i, std::size_t j) {
        const double* x = values.data() + i * dims;
        const double* m = c.centroids.data() + j * dims;
        const auto square = [&](std::size_t d) {
            return (x[d] - m[d]) * (x[d] - m[d]);
        };
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        std::size_t d = 0;
        for (; d + kLanes <= dims; d += kLanes) {
            s0 += square(d);
            s1 += square(d + 1);
            s2 += square(d + 2);
            s3 += square(d + 3);
        }
        if (d < dims)
            s0 += square(d);
        if (d + 1 < dims)
            s1 += square(d + 1);
        if (d + 2 < dims)
            s2 += square(d + 2);
        return (s0 + s1) + (s2 + s3);
    };
    // Hamerly's bounds (2010) let most PEs skip the k distances once clusters settle: upper[i]
    // is at least the distance to its centroid, lower[i] at most the distance to any other;
    // `half[j]` is half the distance from centroid j to the nearest other one. A PE whose upper
    // bound is below both cannot move, and plain Lloyd would keep it where it is (strictly: a
    // small slack covers rounding in the bounds, so the result is Lloyd's, ties included).
    //
    // Up to kElkanMaxK centroids, Elkan's bounds (2003) instead: a lower bound per PE and
    // centroid (`lowerTo`), loosened by that centroid's own move, and half the distance between
    // every two centroids (`halfBetween`). Data without structure (many PEs near the borders of
    // clusters that barely move) then skips most distances where one bound for all centroids,
    // loosened by the largest move, skips few.
    constexpr double kSlack = 1e-9;
    const bool elkan = kk <= kElkanMaxK;
    std::vector<double> upper(n, 0.0);
    std::vector<double> lower(elkan ? 0 : n, 0.0);
    std::vector<double> lowerTo(elkan ? n * kk : 0, 0.0);
    std::vector<double> halfBetween(elkan ? kk * kk : 0, 0.0);
    std::vector<double> half(kk, 0.0);
    std::vector<double> moved(kk, 0.0);
    std::size_t fastest = 0; // the centroid that moved most
    double fastestMove = 0;
    double secondMove = 0;
    // The centroids transposed ([d * k + j]) so that the distances of one PE to all centroids
    // are accumulated side by side (independent sums, which the compiler vectorises; each sum
    // still adds its dimensions in order, so the result does not depend on the threads).
    std::vector<double> byDim(dims * kk);
    const std::size_t chunks = (n + kChunk - 1) / kChunk;
    const unsigned workers = workerCount(threads);
    // One PE's Elkan step after the centroids moved; true when it changed cluster. Decisions
    // compare squared distances, summed as the full assignment sums them, so the result is
    // Lloyd's (the lower cluster on ties); the bounds only skip what cannot win.
    auto elkanStep = [&](std::size_t i) {
        auto a = static_cast<std::size_t>(c.cluster[i]);
        double* bound = lowerTo.data() + i * kk;
        for (std::size_t j = 0; j < kk; ++j)
            bound[j] = std::max(bound[j] - moved[j], 0.0);
        upper[i] += moved[a];
        if (upper[i] * (1 + kSlack) < half[a])
            return false;
        bool tight = false;
        double best = 0;
        for (std::size_t j = 0; j < kk; ++j) {
            if (j == a)
                continue;
            const auto skip = [&]() {
                const double u = upper[i] * (1 + kSlack);
                return u < bound[j] || u < halfBetween[a * kk + j];
            };
            if (skip())
                continue;
            if (!tight) {
                best = distance2(i, a);
                upper[i] = bound[a] = std::sqrt(best);
                tight = true;
                if (skip())
                    continue;
            }
            const double d2 = distance2(i, j);
            bound[j] = std::sqrt(d2);
            if (d2 < best || (d2 == best && j < a)) {
                a = j;
                best = d2;
                upper[i] = bound[j];
            }
        }
        if (c.cluster[i] == static_cast<int>(a))
            return false;
        c.cluster[i] = static_cast<int>(a);
        return true;
    };
    auto assign = [&](bool first) {
        for (std::size_t d = 0; d < dims; ++d)
            for (std::size_t j = 0; j < kk; ++j)
                byDim[d * kk + j] = c.centroids[j * dims + d];
        std::atomic<std::size_t> changed { 0 };
        parallelFor(chunks, workers, {}, [&](std::size_t chunk) {
            std::vector<double> acc(kk);
            std::vector<double> lanes(kLanes * kk);
            std::size_t movedHere = 0;
            const std::size_t end = std::min(n, (chunk + 1) * kChunk);
            for (std::size_t i = chunk * kChunk; i < end; ++i) {
                if (!first && elkan) {
                    movedHere += elkanStep(i) ? 1U : 0U;
                    continue;
                }
                if (!first) {
                    const auto a = static_cast<std::size_t>(c.cluster[i]);
                    upper[i] += moved[a];
                    lower[i] -= a == fastest ? secondMove : fastestMove;
                    const double bound = std::max(lower[i], half[a]);
                    if (upper[i] * (1 + kSlack) < bound)
                        continue;
                    upper[i] = std::sqrt(distance2(i, a));
                    if (upper[i] * (1 + kSlack) < bound)
                        continue;
                }
                std::fill(lanes.begin(), lanes.end(), 0.0);
                const double* x = values.data() + i * dims;
                for (std::size_t d = 0; d < dims; ++d) {
                    const double xd = x[d];
                    const double* cd = byDim.data() + d * kk;
                    double* lane = lanes.data() + (d % kLanes) * kk;
                    for (std::size_t j = 0; j < kk; ++j) {
                        const double diff = xd - cd[j];
                        lane[j] += diff * diff;
                    }
                }
                for (std::size_t j = 0; j < kk; ++j)
                    acc[j] = (lanes[j] + lanes[kk + j]) + (lanes[2 * kk + j] + lanes[3 * kk + j]);
                std::size_t best = 0; // ties go to the lower cluster
                for (std::size_t j = 1; j < kk; ++j)
                    if (acc[j] < acc[best])
                        best = j;
                double second = std::numeric_limits<double>::max();
                for (std::size_t j = 0; j < kk; ++j)
                    if (j != best)
                        second = std::min(second, acc[j]);
                if (c.cluster[i] != static_cast<int>(best)) {
                    c.cluster[i] = static_cast<int>(best);
                    ++movedHere;
                }
                upper[i] = std::sqrt(acc[best]);
                if (elkan)
                    for (std::size_t j = 0; j < kk; ++j)
                        lowerTo[i * kk + j] = std::sqrt(acc[j]);
                else
                    lower[i] = std::sqrt(second);
            }
            changed += movedHere;
        });
        return changed.load();
    };
    // Running sums per cluster, updated by the PEs that moved (in PE order, so deterministic).
    std::vector<double> sums(kk * dims, 0.0);
    std::vector<std::size_t> counts(kk, 0);
    std::vector<int> previous(n, -1);
    std::vector<double> old(dims);
    c.converged = false;
    for (int iteration = 1; iteration <= kMaxIterations; ++iteration) {
        if (progress.isCancelled())
            return std::nullopt;
        c.iterations = iteration;
        if (assign(iteration == 1) == 0) {
            c.converged = true;
            break;
        }
        for (std::size_t i = 0; i < n; ++i) {
            const int now = c.cluster[i];
            if (now == previous[i])
                continue;
            const double* x = values.data() + i * dims;
            if (previous[i] >= 0) {
                const auto p = static_cast<std::size_t>(previous[i]);
                --counts[p];
                for (std::size_t d = 0; d < dims; ++d)
                    sums[p * dims + d] -= x[d];
            }
            const auto q = static_cast<std::size_t>(now);
            ++counts[q];
            for (std::size_t d = 0; d < dims; ++d)
                sums[q * dims + d] += x[d];
            previous[i] = now;
        }
        // The centroids move to the means of their members; an empty cluster keeps its centroid.
        fastest = 0;
        fastestMove = secondMove = 0;
        for (std::size_t j = 0; j < kk; ++j) {
            moved[j] = 0;
            if (counts[j] == 0)
                continue;
            double shift = 0;
            for (std::size_t d = 0; d < dims; ++d) {
                const double mean = sums[j * dims + d] / static_cast<double>(counts[j]);
                shift += (mean - c.centroids[j * dims + d]) * (mean - c.centroids[j * dims + d]);
                c.centroids[j * dims + d] = mean;
            }
            moved[j] = std::sqrt(shift);
            if (moved[j] > fastestMove) {
                secondMove = fastestMove;
                fastestMove = moved[j];
                fastest = j;
            } else if (moved[j] > secondMove) {
                secondMove = moved[j];
            }
        }
        for (std::size_t j = 0; j < kk; ++j) {
            double nearest = std::numeric_limits<double>::max();
            for (std::size_t o = 0; o < kk; ++o) {
                if (o == j)
                    continue;
                double sum = 0;
                for (std::size_t d = 0; d < dims; ++d) {
                    const double diff = c.centroids[j * dims + d] - c.centroids[o * dims + d];
                    sum += diff * diff;
                }
                nearest = std::min(nearest, sum);
                if (elkan)
                    halfBetween[j * kk + o] = 0.5 * std::sqrt(sum);
            }
            half[j] = kk > 1 ? 0.5 * std::sqrt(nearest) : std::numeric_limits<double>::max();
        }
    }
    if (n == 0)
        c.converged = true;
    // Distances to the final centroids (unchanged since the last assignment when converged).
    c.distance.resize(n);
    c.wcss = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const auto j = static_cast<std::size_t>(c.cluster[i]);
        const double d2 = distance2(i, j);
        ++c.sizes[j];
        c.distance[i] = std::sqrt(d2);
        c.wcss += d2;
    }
    c.nonEmpty = static_cast<int>(
        std::count_if(c.sizes.begin(), c.sizes.end(), [](int s) { return s > 0; }));
    return c;
}

double totalSumOfSquares(const std::vector<double>& values, std::size_t n, std::size_t dims)
{
    if (n == 0)
        return 0;
    std::vector<double> mean(dims, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t d = 0; d < dims; ++d)
            mean[d] += values[i * dims + d];
    for (auto& m : mean)
        m /= static_cast<double>(n);
    double total = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t d = 0; d < dims; ++d) {
            const double diff = values[i * dims + d] - mean[d];
            total += diff * diff;
        }
    return total;
}

} // namespace

PeClustering kMeansDiagonal(
    const std::vector<double>& values, std::size_t n, std::size_t dims, int k, unsigned threads)
{
    return *kMeans(values, n, dims, k, threads, {});
}

std::size_t defaultOutliers(std::size_t n, int exemplars)
{
    const std::size_t fivePercent = (n * 5 + 99) / 100;
    const auto e = static_cast<std::size_t>(std::max(exemplars, 0));
    return fivePercent > e ? fivePercent - e : 0;
}

void assignRoles(PeClustering& c, std::size_t outliers)
{
    const std::size_t n = c.cluster.size();
    const auto kk = c.sizes.size();
    c.role.assign(n, ClusterRole::Member);
    std::vector<std::vector<std::size_t>> members(kk);
    for (std::size_t i = 0; i < n; ++i)
        members[static_cast<std::size_t>(c.cluster[i])].push_back(i);
    // Exemplars: nearest the centroid; members are in PE order, so a tie keeps the lower PE.
    std::vector<std::size_t> room(kk, 0);
    std::size_t capacity = 0;
    for (std::size_t j = 0; j < kk; ++j) {
        if (members[j].empty())
            continue;
        const auto nearest = *std::min_element(members[j].begin(), members[j].end(),
            [&](std::size_t a, std::size_t b) { return c.distance[a] < c.distance[b]; });
        c.role[nearest] = ClusterRole::Exemplar;
        room[j] = members[j].size() >= 2 ? members[j].size() - 1 : 0;
        capacity += room[j];
    }
    // Outliers in proportion to cluster size (largest remainder). A cluster that cannot take
    // its share (it has fewer non-exemplar members) gives the rest back to the next round.
    std::size_t remaining = std::min(outliers, capacity);
    std::vector<std::size_t> quota(kk, 0);
    while (remaining > 0) {
        std::size_t total = 0;
        for (std::size_t j = 0; j < kk; ++j)
            if (quota[j] < room[j])
                total += members[j].size();
        std::size_t given = 0;
        std::vector<std::pair<std::size_t, std::size_t>> fractions; // (remainder, cluster)
        for (std::size_t j = 0; j < kk; ++j) {
            if (quota[j] >= room[j])
                continue;
            const std::size_t share = remaining * members[j].size();
            const std::size_t add = std::min(share / total, room[j] - quota[j]);
            quota[j] += add;
            given += add;
            if (quota[j] < room[j])
                fractions.emplace_back(share % total, j);
        }
        std::stable_sort(fractions.begin(), fractions.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
        std::size_t left = remaining - given;
        for (const auto& [fraction, j] : fractions) {
            if (left == 0)
                break;
            ++quota[j];
            --left;
        }
        remaining = left;
    }
    for (std::size_t j = 0; j < kk; ++j) {
        if (quota[j] == 0)
            continue;
        std::vector<std::size_t> rest;
        for (auto i : members[j])
            if (c.role[i] != ClusterRole::Exemplar)
                rest.push_back(i);
        std::stable_sort(rest.begin(), rest.end(),
            [&](std::size_t a, std::size_t b) { return c.distance[a] > c.distance[b]; });
        for (std::size_t q = 0; q < quota[j]; ++q)
            c.role[rest[q]] = ClusterRole::Outlier;
    }
}

std::optional<PeClustering> splitOffFarPes(const std::vector<double>& values, std::size_t n,
    std::size_t dims, PeClustering c, int maxK, unsigned threads, const Progress& progress)
{
    threads = workerCount(threads);
    while (c.k < maxK) {
        const auto kk = static_cast<std::size_t>(c.k);
        std::vector<std::vector<double>> spread(kk);
        for (std::size_t i = 0; i < n; ++i)
            spread[static_cast<std::size_t>(c.cluster[i])].push_back(c.distance[i]);
        std::vector<double> median(kk, 0.0);
        for (std::size_t j = 0; j < kk; ++j) {
            auto& d = spread[j];
            if (d.size() < 2)
                continue;
            const auto middle = d.begin() + static_cast<std::ptrdiff_t>(d.size() / 2);
            std::nth_element(d.begin(), middle, d.end());
            median[j] = *middle;
        }
        std::size_t farthest = n;
        double ratio = kFarFactor;
        for (std::size_t i = 0; i < n; ++i) {
            const auto j = static_cast<std::size_t>(c.cluster[i]);
            if (spread[j].size() < 2)
                continue;
            const double r = c.distance[i] / std::max(median[j], kFarFloorUs);
            if (r > ratio) {
                ratio = r;
                farthest = i;
            }
        }
        if (farthest == n)
            break;
        std::vector<double> seeds = c.centroids;
        seeds.insert(seeds.end(), values.begin() + static_cast<std::ptrdiff_t>(farthest * dims),
            values.begin() + static_cast<std::ptrdiff_t>((farthest + 1) * dims));
        auto next = kMeans(values, n, dims, c.k + 1, threads, progress, &seeds);
        if (!next)
            return std::nullopt;
        next->splitOff = c.splitOff + 1;
        c = std::move(*next);
    }
    return c;
}

int chooseElbow(const std::vector<ClusterSweepRow>& rows, double totalSumOfSquares)
{
    if (rows.empty())
        return 1;
    // Per number of non-empty clusters m, the sweep's best row (least WCSS, then smaller k).
    std::map<int, const ClusterSweepRow*> best;
    double least = std::numeric_limits<double>::max();
    for (const auto& row : rows) {
        auto& slot = best[row.nonEmpty];
        if (slot == nullptr || row.wcss < slot->wcss)
            slot = &row;
        least = std::min(least, row.wcss);
    }
    // Scaled: x = (m - 1) / (last m - 1), y = the share of the fall of log(1 + WCSS) from
    // k = 1 (the total sum of squares) to the sweep's least WCSS. The elbow is the m farthest
    // above the chord y = x (ties: the smaller m).
    const double top = std::log1p(std::max(totalSumOfSquares, 0.0));
    const double fall = top - std::log1p(std::max(least, 0.0));
    const int lastM = best.rbegin()->first;
    if (!(fall > 0) || lastM <= 1)
        return rows.front().k;
    int chosen = rows.front().k;
    double bestGain = std::numeric_limits<double>::lowest();
    for (const auto& [m, row] : best) {
        const double x = static_cast<double>(m - 1) / static_cast<double>(lastM - 1);
        const double y = (top - std::log1p(std::max(row->wcss, 0.0))) / fall;
        if (y - x > bestGain) {
            bestGain = y - x;
            chosen = row->k;
        }
    }
    return chosen;
}

std::optional<PeClustering> clusterPes(const Trace& trace, const AnalysisRequest& request,
    const ClusterOptions& options, const Progress& progress)
{
    auto features = computePeFeatures(trace, request, progress.part(0.0, 0.5));
    if (!features)
        return std::nullopt;
    const unsigned threads = request.threads == 0 ? workerCount(0) : request.threads;
    return clusterFeatures(std::move(*features), options, threads, progress.part(0.5, 0.5));
}

std::optional<PeClustering> clusterFeatures(PeFeatures featureVectors,
    const ClusterOptions& options, unsigned threads, const Progress& progress)
{
    auto features = std::make_optional(std::move(featureVectors));
    PeClustering failed;
    const std::size_t n = features->pes.size();
    const std::size_t dims = features->dims.size();
    auto fail = [&](std::string message) {
        failed.features = std::move(*features);
        failed.error = std::move(message);
        return failed;
    };
    if (n < 2)
        return fail("clustering needs at least 2 PEs (" + std::to_string(n) + " selected"
            + (features->apart.empty() ? std::string(")") : std::string(", comm threads apart)")));
    if (options.k < 0)
        return fail("k must be at least 1");
    if (static_cast<std::size_t>(options.k) > n)
        return fail("k = " + std::to_string(options.k) + " is more than the " + std::to_string(n)
            + " PEs clustered");
    std::vector<ClusterSweepRow> rows;
    std::size_t sampleSize = 0;
    int chosen = options.k;
    if (options.k == 0 || options.sweep) {
        if (options.sweepMin < 1 || options.sweepMax < options.sweepMin)
            return fail("the sweep needs 1 <= A <= B");
        if (static_cast<std::size_t>(options.sweepMin) > n)
            return fail("the sweep starts at k = " + std::to_string(options.sweepMin)
                + ", more than the " + std::to_string(n) + " PEs clustered");
        const int sweepMax = static_cast<int>(
            std::min<std::size_t>(static_cast<std::size_t>(options.sweepMax), n));
        // Above the limit, an evenly spaced sample of PEs (index floor(s * n / limit)).
        const std::vector<double>* data = &features->values;
        std::vector<double> sample;
        sampleSize = n;
        if (n > kSweepSampleLimit) {
            sampleSize = kSweepSampleLimit;
            sample.resize(sampleSize * dims);
            for (std::size_t s = 0; s < sampleSize; ++s) {
                const std::size_t i = s * n / sampleSize;
                std::copy_n(features->values.begin() + static_cast<std::ptrdiff_t>(i * dims), dims,
                    sample.begin() + static_cast<std::ptrdiff_t>(s * dims));
            }
            data = &sample;
        }
        for (int k = options.sweepMin; k <= sweepMax; ++k) {
            const auto run = kMeans(*data, sampleSize, dims, k, threads, progress);
            if (!run)
                return std::nullopt;
            rows.push_back({ k, run->nonEmpty, run->wcss, false });
            if (progress.report)
                progress.report(0.9 * static_cast<double>(k - options.sweepMin + 1)
                    / static_cast<double>(sweepMax - options.sweepMin + 1));
        }
        chosen = options.k == 0 ? chooseElbow(rows, totalSumOfSquares(*data, sampleSize, dims))
                                : options.k;
        for (auto& row : rows)
            row.chosen = row.k == chosen;
    }
    auto result = kMeans(features->values, n, dims, chosen, threads, progress);
    if (result && options.k == 0)
        result = splitOffFarPes(features->values, n, dims, std::move(*result),
            std::max(chosen,
                static_cast<int>(
                    std::min<std::size_t>(static_cast<std::size_t>(options.sweepMax), n))),
            threads, progress);
    if (!result)
        return std::nullopt;
    result->sweep = std::move(rows);
    result->sweepSample = sampleSize;
    result->features = std::move(*features);
    assignRoles(*result,
        options.outliers < 0 ? defaultOutliers(n, result->nonEmpty)
                             : static_cast<std::size_t>(options.outliers));
    if (progress.report)
        progress.report(1.0);
    return result;
}

std::string_view clusterRoleName(ClusterRole role)
{
    switch (role) {
    case ClusterRole::Exemplar:
        return "exemplar";
    case ClusterRole::Outlier:
        return "outlier";
    case ClusterRole::Member:
        break;
    }
    return "member";
}

} // namespace parallax::core::analysis
