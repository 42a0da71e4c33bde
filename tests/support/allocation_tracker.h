#pragma once

#include <cstddef>

namespace parallax::test {

// The io test executable replaces the global operator new (allocation_tracker.cpp) and records
// the largest single request since the last reset, so tests can check that hostile headers
// (count:1000000000000) do not turn into huge allocations.
void resetLargestAllocation();
std::size_t largestAllocation();

} // namespace parallax::test
