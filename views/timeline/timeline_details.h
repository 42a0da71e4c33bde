#pragma once

#include "core/trace.h"

#include <QString>

#include <optional>
#include <vector>

namespace parallax::views {

// One line of the details panel.
struct DetailField {
    QString label;
    QString value;
};

// What the details panel says about one execution: entry, chare and object index, begin, end,
// duration, CPU time, source PE, message size, where and when its message was sent and the
// latency (or why no send was found), and the PAPI counters measured over it (end - begin)
// when the run has them.
struct ExecutionDetails {
    QString title; // the entry method's name
    std::vector<DetailField> fields;
    int entry = -1;
    std::optional<core::ObjectId> object; // when the entry names an object
};

// Pure: reads the trace only. An execution that does not exist gives an empty title.
ExecutionDetails describeExecution(const core::Trace& trace, core::PeId pe, std::size_t execution);

// The object index of an execution ("[3,1]"), empty when it has none.
QString objectIndexText(const core::ObjectId& id);

} // namespace parallax::views
