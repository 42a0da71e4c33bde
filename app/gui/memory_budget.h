#pragma once

#include <QString>

#include <cstdint>

namespace parallax::app {

// How much memory the store of a run's logs may take before the app opens it from its
// summaries and reads PEs on demand (io::LoadOptions::memoryBudget): $PARALLAX_MEMORY_BUDGET
// (e.g. "8G"), else the setting "memoryBudget" (same syntax), else half of the physical memory.
struct MemoryBudget {
    enum class Source { Environment, Setting, Default };
    std::uint64_t bytes = 0; // 0: no limit (the physical memory is unknown)
    Source source = Source::Default;
};
MemoryBudget currentMemoryBudget();

// Shorthands: the bytes, and the source as "environment", "setting" or "default".
std::uint64_t memoryBudget();
const char* memoryBudgetSource();

// Stores the setting from what the user typed ("16G"; empty: back to the default). False with
// a sentence in *error when the text is not a size or is zero.
bool setMemoryBudgetSetting(const QString& text, QString* error);

} // namespace parallax::app
