#pragma once

#include "core/types.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parallax::core {
struct Trace;
}

namespace parallax::core::analysis {

struct UsageProfile;
struct TimeProfile;
struct Overview;
struct Histogram;
struct CommunicationOverTime;
struct Extrema;
enum class HistogramMetric : std::uint8_t;

// The CSV behind every analysis, the same for `parallax-cli` and the views' "Export Data":
// a header row, then one row per non-zero cell. A null result gives the header alone.

// Whole numbers without a decimal point, anything else with 6 significant digits.
std::string formatCsvNumber(double value);

// pe,activity,percent (pe "avg" first)
std::string usageCsv(const UsageProfile* usage);
// interval,begin_us,end_us,activity,time_us,percent
std::string timeProfileCsv(const TimeProfile* profile);
// pe,column,begin_us,end_us,dominant,utilization_pct,idle_pct
std::string overviewCsv(const Overview* overview);
// metric,bin,lo,hi,activity,count (hi "inf" for the overflow bin)
std::string histogramCsv(const Histogram* histogram);
// interval,begin_us,end_us,metric,activity,value
std::string commCsv(const CommunicationOverTime* comm);
// rank,pe,score, then group,activity,value for avg, non-outliers and outliers
std::string extremaCsv(const Extrema* extrema);

// The Timeline's data: pe,begin_us,end_us,kind,entry,entry_name,source_pe,msg_bytes, one row
// per execution ("exec"), idle, pack and unpack interval of `pes` (in that order) overlapping
// `window`, by begin time within a PE; the entry columns are empty for the other kinds.
std::string timelineCsv(const Trace& trace, const std::vector<PeId>& pes, TimeRange window);

// "duration", "msg-size", "idle" (the CLI's --metric names).
std::string_view histogramMetricKey(HistogramMetric metric);

} // namespace parallax::core::analysis
