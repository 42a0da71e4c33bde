#include "run_reduction.h"

#include "core/analysis/clustering.h"
#include "core/analysis/run_span.h"
#include "reduced_run_writer.h"

#include <algorithm>
#include <exception>

namespace parallax::io {

namespace {

using core::analysis::KeptPe;
using Failure = ReductionOutcome::Failure;

// Shares of the whole job: choosing, measuring, writing.
constexpr double kSelectShare = 0.1;
constexpr double kQualityShare = 0.5;

ReductionOutcome failed(Failure failure, std::string error)
{
    ReductionOutcome outcome;
    outcome.failure = failure;
    outcome.error = std::move(error);
    return outcome;
}

} // namespace

ReductionOutcome reduceRun(
    const core::Trace& trace, const ReductionSettings& settings, const ReductionProgress& progress)
{
    try {
        auto report = [&](double fraction, const std::string& stage) {
            if (progress.report)
                progress.report(fraction, stage);
        };
        auto cancelled = [&] {
            return progress.cancelled && progress.cancelled();
        };
        if (!trace.hasLogs())
            return failed(
                Failure::BadRequest, "the run has no logs, so there is nothing to reduce");
        if (trace.logsOnDemand())
            return failed(Failure::BadRequest,
                "the logs were left on disk (memory budget); a reduction needs them read");
        const auto candidates = trace.validPes();
        if (candidates.size() < 2)
            return failed(Failure::BadRequest,
                "the run has " + std::to_string(candidates.size())
                    + " PE with a log; a reduction needs at least 2");
        std::string error;
        const auto count = core::analysis::keptCount(settings.keep, candidates.size(), &error);
        if (!count)
            return failed(Failure::BadRequest, error);
        if (const auto check = checkReducedRunOutput(trace.files, settings.outDir, settings.force);
            !check.ok())
            return failed(Failure::BadRequest, check.message);

        ReductionOutcome outcome;
        auto& r = outcome.report;
        r.parameters.source = settings.source;
        r.parameters.runName = trace.files.baseName;
        r.parameters.keep = settings.keepText;
        r.parameters.keepCount = *count;
        r.parameters.seed = settings.seed;
        r.parameters.rangeGiven = settings.rangeGiven;
        r.processors = static_cast<std::size_t>(std::max(trace.metadata.processors, 0));
        r.tracedSpan = core::analysis::tracedRunSpan(trace);

        // 1. Which PEs.
        report(0.0, "choosing PEs");
        if (settings.select == PeSelectionMethod::Clusters) {
            // Seed 000 §4.4.3: R places, one exemplar per non-empty cluster, the remaining
            // R − C to outliers in proportion to cluster size (never negative: with more
            // clusters than places every exemplar is still kept).
            core::analysis::ClusterOptions options;
            options.k = settings.k;
            options.outliers = 0;
            core::analysis::Progress clusterProgress;
            clusterProgress.cancelled = progress.cancelled;
            clusterProgress.report = [&](double f) {
                report(f * kSelectShare, "clustering PEs");
            };
            auto clustering
                = core::analysis::clusterPes(trace, settings.request, options, clusterProgress);
            if (!clustering)
                return failed(Failure::Cancelled, "cancelled");
            if (!clustering->error.empty())
                return failed(Failure::BadRequest, "clustering: " + clustering->error);
            const auto exemplars = static_cast<std::size_t>(std::max(clustering->nonEmpty, 0));
            core::analysis::assignRoles(*clustering, *count > exemplars ? *count - exemplars : 0);
            r.parameters.select = "clusters";
            r.parameters.k = settings.k == 0 ? "auto" : std::to_string(settings.k);
            r.parameters.kUsed = clustering->k;
            r.parameters.clustersNonEmpty = clustering->nonEmpty;
            r.kept = core::analysis::keptFromClustering(*clustering);
        } else {
            r.parameters.select = "random";
            r.kept = core::analysis::selectRandomPes(candidates, *count, settings.seed);
        }
        if (cancelled())
            return failed(Failure::Cancelled, "cancelled");
        const auto keptPes = core::analysis::keptPeIds(r.kept);

        // 2. What it costs and keeps.
        r.plan = planReducedRun(trace.files, keptPes, settings.allowNoSummaries);
        if (!r.plan.ok()) {
            if (r.plan.pesWithSummary == 0) {
                auto refused = failed(Failure::BadRequest, r.plan.error);
                refused.missingSummaries = true;
                return refused;
            }
            return failed(Failure::WriteFailed, r.plan.error);
        }
        report(kSelectShare, "measuring the quality");
        core::analysis::QualityOptions quality = settings.quality;
        quality.controlSeed = settings.seed + 1;
        core::analysis::Progress qualityProgress;
        qualityProgress.report = [&](double f) {
            report(kSelectShare + f * kQualityShare, "measuring the quality");
        };
        qualityProgress.cancelled = progress.cancelled;
        auto q = core::analysis::computeReductionQuality(
            trace, settings.request, keptPes, r.plan.peLogBytes, quality, qualityProgress);
        if (!q)
            return failed(Failure::Cancelled, "cancelled");
        r.quality = std::move(*q);

        // 3. The files.
        const double writeStart = kSelectShare + kQualityShare;
        report(writeStart, "writing the reduced run");
        ReducedRunWriteOptions write;
        write.force = settings.force;
        write.progress = [&](double f) {
            report(writeStart + f * (1 - writeStart), "writing the reduced run");
        };
        write.cancelled = progress.cancelled;
        const auto written
            = writeReducedRun(trace.files, r.plan, reductionReportFiles(r), settings.outDir, write);
        if (written.cancelled)
            return failed(Failure::Cancelled, "cancelled");
        if (!written.ok)
            return failed(Failure::WriteFailed, written.error);
        outcome.bytesWritten = written.bytesWritten;
        report(1.0, "done");
        return outcome;
    } catch (const std::exception& e) {
        return failed(Failure::WriteFailed, std::string("reduction failed: ") + e.what());
    }
}

} // namespace parallax::io
