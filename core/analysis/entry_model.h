#pragma once

#include "core/analysis/analysis_request.h"
#include "core/types.h"

#include <optional>
#include <string>
#include <vector>

namespace parallax::core {
class Trace;
}

namespace parallax::core::analysis {

// A performance model of one entry method (docs/why.md): its executions' durations against
// what may explain them — the size of the message that started each, the iteration it ran in,
// or the value the program recorded with traceUserSuppliedData during it — with least-squares
// fits and a flag for durations that fall into several modes.

enum class ModelX : std::uint8_t { MessageBytes, Iteration, UserValue };

struct ModelPoint {
    PeId pe = kNoPe;
    TimeUs begin = 0;
    double x = 0;
    TimeUs duration = 0;
};

// Points with the same x, or (more than 64 distinct x) 20 bins of about equal counts.
struct ModelGroup {
    double x = 0; // the value, or the mean x of a bin
    double xMin = 0;
    double xMax = 0;
    std::size_t count = 0;
    double mean = 0;
    double sd = 0; // population
    TimeUs min = 0;
    TimeUs max = 0;
};

struct ModelFit {
    enum class Kind : std::uint8_t { Linear, PowerLaw, Quadratic };
    Kind kind = Kind::Linear;
    // Linear y = a + b x; power law y = a x^b (x > 0 only); quadratic y = a + b x + c x².
    double a = 0;
    double b = 0;
    double c = 0;
    double r2 = 0; // 1 - SSres/SStot over the points it was fitted on, in µs (not log space)
    std::size_t points = 0;
};

struct EntryModel {
    EntryId entry = kNoEntry;
    ModelX x = ModelX::MessageBytes;
    std::vector<ModelPoint> points; // by PE, then time
    std::vector<ModelGroup> groups; // by x
    std::vector<ModelFit> fits; // those the points allow (distinct x: 2, 2 positive, 3)
    // Sarle's bimodality coefficient of the durations, (skew² + 1) / (excess kurtosis +
    // 3 (n-1)² / ((n-2)(n-3))); above 5/9 (a uniform distribution's value) suggests more than
    // one mode. 0 with fewer than 4 points.
    double bimodality = 0;
    [[nodiscard]] bool multimodal() const { return bimodality > 5.0 / 9.0; }
    // Iteration x: how the iterations were found (IterationResult::source).
    std::string iterationSource;
    // Executions left out: no message (MessageBytes), outside every iteration, no value.
    std::size_t withoutX = 0;
};

const char* modelFitName(ModelFit::Kind kind); // "linear", "power", "quadratic"
std::string modelFormula(const ModelFit& fit); // "y = 12.5 + 0.0031 x" (µs)

// The executions of `entry` that begin in the range on the selected PEs.
EntryModel modelEntry(const Trace& trace, const AnalysisRequest& request, EntryId entry, ModelX x);

// Which x the executions of `entry` in the range offer: a message size (they were started by
// messages of at least two different sizes), iterations (the range has at least two), a value
// recorded with traceUserSuppliedData during one of them. The Entry Model view offers only these.
struct ModelXChoices {
    bool messageBytes = false;
    bool iteration = false;
    bool userValue = false;
    bool singleMessageSize = false; // messages of one size only (not offered: one column)
    [[nodiscard]] bool any() const { return messageBytes || iteration || userValue; }
    [[nodiscard]] bool offers(ModelX x) const
    {
        return x == ModelX::MessageBytes ? messageBytes
            : x == ModelX::Iteration     ? iteration
                                         : userValue;
    }
};
ModelXChoices modelXChoices(const Trace& trace, const AnalysisRequest& request, EntryId entry);
// The same with whether the range has iterations already known (several entry methods in turn).
ModelXChoices modelXChoices(
    const Trace& trace, const AnalysisRequest& request, EntryId entry, bool iterations);

// The fits alone, for tests: least squares of y on x.
std::vector<ModelFit> fitModels(const std::vector<double>& x, const std::vector<double>& y);
double bimodalityCoefficient(const std::vector<double>& values);

} // namespace parallax::core::analysis
