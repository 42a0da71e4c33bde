#pragma once

#include "import_report.h"
#include "pe_trace.h"

#include <memory>

namespace parallax::core {

// Per-PE event detail read on demand, for a run opened without its logs because their store
// would exceed the memory budget (Trace::logsOnDemand()). Implemented by io (it reads logs);
// views ask it for the PEs they show. Thread-safe.
class PeDetailSource {
public:
    virtual ~PeDetailSource() = default;
    PeDetailSource() = default;
    PeDetailSource(const PeDetailSource&) = delete;
    PeDetailSource& operator=(const PeDetailSource&) = delete;

    // The PE's detail (read now if needed); null when the PE has no log. Problems of a
    // damaged log go to `report` when given.
    virtual std::shared_ptr<const PeTrace> get(PeId pe, ImportReport* report = nullptr) = 0;
};

} // namespace parallax::core
