#pragma once

#include "core/types.h"

namespace parallax::core {
class Trace;
}

namespace parallax::core::analysis {

// The span the run was traced, the default time range of every view and command: from the
// first BEGIN_COMPUTATION of a worker PE to the run's end time, which is the .projrc end time
// when it has one, else the latest END_COMPUTATION (or last record, for a log that lacks one)
// of a worker PE. Comm threads, which keep relaying messages after the workers stopped, do not
// stretch it. Never empty. Without worker logs (summaries only): 0 to the .projrc end time when
// it has one, else to Trace::endTime(). A reduced run: the traced span of the run it was reduced
// from (Trace::reduced), recorded in its reduction.json.
TimeRange tracedRunSpan(const Trace& trace);

} // namespace parallax::core::analysis
