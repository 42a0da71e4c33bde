#pragma once

#include <cstdint>

namespace parallax::app {

// How much memory the store of a run's logs may take before the app opens it from its
// summaries and reads PEs on demand (io::LoadOptions::memoryBudget): $PARALLAX_MEMORY_BUDGET
// (e.g. "8G"), else the setting "memoryBudget" (same syntax), else half of the physical memory.
std::uint64_t memoryBudget();

} // namespace parallax::app
