#include "core/analysis/entry_model.h"

#include "core/analysis/iterations.h"
#include "core/trace.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>
#include <optional>
#include <set>

namespace parallax::core::analysis {

namespace {

constexpr std::size_t kMaxDistinctGroups = 64;
constexpr std::size_t kBins = 20;

double rSquared(const std::vector<double>& x, const std::vector<double>& y,
    const std::function<double(double)>& model)
{
    const double mean = std::accumulate(y.begin(), y.end(), 0.0) / static_cast<double>(y.size());
    double ssRes = 0;
    double ssTot = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
        const double r = y[i] - model(x[i]);
        ssRes += r * r;
        ssTot += (y[i] - mean) * (y[i] - mean);
    }
    return ssTot > 0 ? 1.0 - ssRes / ssTot : (ssRes == 0 ? 1.0 : 0.0);
}

std::size_t distinctCount(const std::vector<double>& x)
{
    return std::set<double>(x.begin(), x.end()).size();
}

// y = a + b x by least squares (x centred for accuracy).
std::optional<ModelFit> fitLinear(const std::vector<double>& x, const std::vector<double>& y)
{
    if (distinctCount(x) < 2)
        return std::nullopt;
    const double n = static_cast<double>(x.size());
    const double mx = std::accumulate(x.begin(), x.end(), 0.0) / n;
    const double my = std::accumulate(y.begin(), y.end(), 0.0) / n;
    double sxx = 0;
    double sxy = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    ModelFit fit;
    fit.kind = ModelFit::Kind::Linear;
    fit.b = sxy / sxx;
    fit.a = my - fit.b * mx;
    fit.points = x.size();
    fit.r2 = rSquared(x, y, [&](double v) { return fit.a + fit.b * v; });
    return fit;
}

// y = a x^b: a line through (ln x, ln y) of the points with x > 0 and y > 0.
std::optional<ModelFit> fitPowerLaw(const std::vector<double>& x, const std::vector<double>& y)
{
    std::vector<double> px;
    std::vector<double> py;
    std::vector<double> lx;
    std::vector<double> ly;
    for (std::size_t i = 0; i < x.size(); ++i)
        if (x[i] > 0 && y[i] > 0) {
            px.push_back(x[i]);
            py.push_back(y[i]);
            lx.push_back(std::log(x[i]));
            ly.push_back(std::log(y[i]));
        }
    const auto line = fitLinear(lx, ly);
    if (!line)
        return std::nullopt;
    ModelFit fit;
    fit.kind = ModelFit::Kind::PowerLaw;
    fit.a = std::exp(line->a);
    fit.b = line->b;
    fit.points = px.size();
    fit.r2 = rSquared(px, py, [&](double v) { return fit.a * std::pow(v, fit.b); });
    return fit;
}

// y = a + b x + c x²: normal equations in t = (x - m) / s, then back to x.
std::optional<ModelFit> fitQuadratic(const std::vector<double>& x, const std::vector<double>& y)
{
    if (distinctCount(x) < 3)
        return std::nullopt;
    const double n = static_cast<double>(x.size());
    const double m = std::accumulate(x.begin(), x.end(), 0.0) / n;
    double var = 0;
    for (const double v : x)
        var += (v - m) * (v - m);
    const double s = std::sqrt(var / n);
    double st[5] = {};
    double sy[3] = {};
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double t = (x[i] - m) / s;
        double p = 1;
        for (int k = 0; k < 5; ++k) {
            st[k] += p;
            if (k < 3)
                sy[k] += p * y[i];
            p *= t;
        }
    }
    // Solve [[st0 st1 st2][st1 st2 st3][st2 st3 st4]] (a b c)' = sy by Cramer's rule.
    const auto det3 = [](double a11, double a12, double a13, double a21, double a22, double a23,
                          double a31, double a32, double a33) {
        return a11 * (a22 * a33 - a23 * a32) - a12 * (a21 * a33 - a23 * a31)
            + a13 * (a21 * a32 - a22 * a31);
    };
    const double d = det3(st[0], st[1], st[2], st[1], st[2], st[3], st[2], st[3], st[4]);
    if (std::abs(d) < 1e-12 * n * n * n)
        return std::nullopt;
    const double ta = det3(sy[0], st[1], st[2], sy[1], st[2], st[3], sy[2], st[3], st[4]) / d;
    const double tb = det3(st[0], sy[0], st[2], st[1], sy[1], st[3], st[2], sy[2], st[4]) / d;
    const double tc = det3(st[0], st[1], sy[0], st[1], st[2], sy[1], st[2], st[3], sy[2]) / d;
    ModelFit fit;
    fit.kind = ModelFit::Kind::Quadratic;
    fit.c = tc / (s * s);
    fit.b = tb / s - 2.0 * tc * m / (s * s);
    fit.a = ta - tb * m / s + tc * m * m / (s * s);
    fit.points = x.size();
    fit.r2 = rSquared(x, y, [&](double v) { return fit.a + fit.b * v + fit.c * v * v; });
    return fit;
}

ModelGroup summarize(const std::vector<const ModelPoint*>& members)
{
    ModelGroup g;
    g.count = members.size();
    g.xMin = members.front()->x;
    g.xMax = members.front()->x;
    g.min = members.front()->duration;
    g.max = members.front()->duration;
    double sumX = 0;
    double sum = 0;
    for (const auto* p : members) {
        sumX += p->x;
        sum += static_cast<double>(p->duration);
        g.xMin = std::min(g.xMin, p->x);
        g.xMax = std::max(g.xMax, p->x);
        g.min = std::min(g.min, p->duration);
        g.max = std::max(g.max, p->duration);
    }
    const double n = static_cast<double>(g.count);
    g.x = sumX / n;
    g.mean = sum / n;
    double var = 0;
    for (const auto* p : members)
        var += (static_cast<double>(p->duration) - g.mean)
            * (static_cast<double>(p->duration) - g.mean);
    g.sd = std::sqrt(var / n);
    return g;
}

std::vector<ModelGroup> groupPoints(const std::vector<ModelPoint>& points)
{
    std::vector<const ModelPoint*> sorted;
    for (const auto& p : points)
        sorted.push_back(&p);
    std::stable_sort(sorted.begin(), sorted.end(),
        [](const ModelPoint* l, const ModelPoint* r) { return l->x < r->x; });
    std::vector<ModelGroup> groups;
    if (sorted.empty())
        return groups;
    std::set<double> distinct;
    for (const auto* p : sorted)
        distinct.insert(p->x);
    std::vector<const ModelPoint*> members;
    if (distinct.size() <= kMaxDistinctGroups) {
        for (std::size_t i = 0; i < sorted.size(); ++i) {
            members.push_back(sorted[i]);
            if (i + 1 == sorted.size() || sorted[i + 1]->x != sorted[i]->x) {
                groups.push_back(summarize(members));
                members.clear();
            }
        }
        return groups;
    }
    // Bins of about equal counts; equal x never split between two bins.
    const std::size_t target = (sorted.size() + kBins - 1) / kBins;
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        members.push_back(sorted[i]);
        const bool last = i + 1 == sorted.size();
        if (last || (members.size() >= target && sorted[i + 1]->x != sorted[i]->x)) {
            groups.push_back(summarize(members));
            members.clear();
        }
    }
    return groups;
}

// The user-supplied value recorded during execution i of `p` (the last one), if any.
std::optional<double> userValueIn(const PeTrace& p, std::size_t i)
{
    const auto& values = p.userSupplied;
    const auto begin = p.executions.begin[i];
    const auto end = p.executions.end[i];
    auto it = std::upper_bound(values.begin(), values.end(), end,
        [](TimeUs t, const UserSuppliedValue& v) { return t < v.time; });
    if (it == values.begin())
        return std::nullopt;
    --it;
    if (it->time < begin)
        return std::nullopt;
    return static_cast<double>(it->value);
}

// Calls fn(pe, its trace, execution index) for each execution of `entry` that begins in the
// request's range on its PEs, by PE, then time.
void forEachModelledExecution(const Trace& trace, const AnalysisRequest& request, EntryId entry,
    const std::function<void(PeId, const PeTrace&, std::size_t)>& fn)
{
    const auto resolved = resolve(trace, request);
    for (const PeId pe : resolved.pes) {
        if (static_cast<std::size_t>(pe) >= trace.pes.size())
            continue;
        const auto& p = trace.pes[static_cast<std::size_t>(pe)];
        const auto& ex = p.executions;
        const auto span = p.executionsOverlapping(resolved.range.begin, resolved.range.end);
        for (std::size_t i = span.first; i < span.last; ++i)
            if (static_cast<EntryId>(ex.entry[i]) == entry && ex.begin[i] >= resolved.range.begin)
                fn(pe, p, i);
    }
}

} // namespace

const char* modelFitName(ModelFit::Kind kind)
{
    switch (kind) {
    case ModelFit::Kind::Linear:
        return "linear";
    case ModelFit::Kind::PowerLaw:
        return "power";
    case ModelFit::Kind::Quadratic:
        return "quadratic";
    }
    return "";
}

std::string modelFormula(const ModelFit& fit)
{
    char buf[160];
    switch (fit.kind) {
    case ModelFit::Kind::Linear:
        std::snprintf(buf, sizeof buf, "y = %.6g %+.6g x", fit.a, fit.b);
        break;
    case ModelFit::Kind::PowerLaw:
        std::snprintf(buf, sizeof buf, "y = %.6g x^%.6g", fit.a, fit.b);
        break;
    case ModelFit::Kind::Quadratic:
        std::snprintf(buf, sizeof buf, "y = %.6g %+.6g x %+.6g x^2", fit.a, fit.b, fit.c);
        break;
    }
    return buf;
}

std::vector<ModelFit> fitModels(const std::vector<double>& x, const std::vector<double>& y)
{
    std::vector<ModelFit> fits;
    for (const auto& fit : { fitLinear(x, y), fitPowerLaw(x, y), fitQuadratic(x, y) })
        if (fit)
            fits.push_back(*fit);
    return fits;
}

double bimodalityCoefficient(const std::vector<double>& values)
{
    const std::size_t count = values.size();
    if (count < 4)
        return 0;
    const double n = static_cast<double>(count);
    const double mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
    double m2 = 0;
    double m3 = 0;
    double m4 = 0;
    for (const double v : values) {
        const double d = v - mean;
        m2 += d * d;
        m3 += d * d * d;
        m4 += d * d * d * d;
    }
    m2 /= n;
    m3 /= n;
    m4 /= n;
    if (m2 <= 0)
        return 0;
    // Sample skewness and excess kurtosis, corrected for bias.
    const double g1 = m3 / std::pow(m2, 1.5);
    const double g2 = m4 / (m2 * m2) - 3.0;
    const double skew = g1 * std::sqrt(n * (n - 1)) / (n - 2);
    const double kurt = (n - 1) / ((n - 2) * (n - 3)) * ((n + 1) * g2 + 6);
    return (skew * skew + 1) / (kurt + 3 * (n - 1) * (n - 1) / ((n - 2) * (n - 3)));
}

ModelXChoices modelXChoices(const Trace& trace, const AnalysisRequest& request, EntryId entry)
{
    return modelXChoices(
        trace, request, entry, findIterations(trace, request).iterations.size() >= 2);
}

ModelXChoices modelXChoices(
    const Trace& trace, const AnalysisRequest& request, EntryId entry, bool iterations)
{
    ModelXChoices choices;
    bool anyExecution = false;
    // Message sizes are something to set durations against only when they differ: a single
    // size is one column of points and no fit.
    std::optional<std::uint64_t> firstSize;
    forEachModelledExecution(trace, request, entry, [&](PeId, const PeTrace& p, std::size_t i) {
        anyExecution = true;
        if (const auto bytes = static_cast<std::uint64_t>(p.executions.msgBytes[i]); bytes > 0) {
            if (!firstSize)
                firstSize = bytes;
            else if (bytes != *firstSize)
                choices.messageBytes = true;
        }
        choices.userValue = choices.userValue || userValueIn(p, i).has_value();
    });
    choices.singleMessageSize = firstSize.has_value() && !choices.messageBytes;
    // Only an entry method that ran in the range has iterations to be set against.
    choices.iteration = iterations && anyExecution;
    return choices;
}

EntryModel modelEntry(const Trace& trace, const AnalysisRequest& request, EntryId entry, ModelX x)
{
    EntryModel model;
    model.entry = entry;
    model.x = x;
    std::vector<TimeUs> starts;
    if (x == ModelX::Iteration) {
        const auto found = findIterations(trace, request);
        model.iterationSource = found.source;
        for (const auto& it : found.iterations)
            starts.push_back(it.range.begin);
    }
    forEachModelledExecution(trace, request, entry, [&](PeId pe, const PeTrace& p, std::size_t i) {
        const auto& ex = p.executions;
        std::optional<double> value;
        if (x == ModelX::MessageBytes) {
            if (ex.msgBytes[i] > 0)
                value = static_cast<double>(ex.msgBytes[i]);
        } else if (x == ModelX::Iteration) {
            const auto it = std::upper_bound(starts.begin(), starts.end(), ex.begin[i]);
            if (it != starts.begin())
                value = static_cast<double>(it - starts.begin() - 1);
        } else {
            value = userValueIn(p, i);
        }
        if (!value) {
            ++model.withoutX;
            return;
        }
        model.points.push_back({ pe, ex.begin[i], *value, ex.end[i] - ex.begin[i] });
    });
    std::vector<double> xs;
    std::vector<double> ys;
    for (const auto& point : model.points) {
        xs.push_back(point.x);
        ys.push_back(static_cast<double>(point.duration));
    }
    model.groups = groupPoints(model.points);
    model.fits = fitModels(xs, ys);
    model.bimodality = bimodalityCoefficient(ys);
    return model;
}

} // namespace parallax::core::analysis
