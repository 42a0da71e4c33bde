#pragma once

// Shared set-up of the view tests: runs loaded once per test executable, a palette ranked for a
// run, waiting until a view has drawn its result, and counting the colours of its picture.

#include "core/trace.h"
#include "io/run_loader.h"
#include "support/qt_wait.h"
#include "support/test_support.h"
#include "views/common/analysis_view.h"
#include "views/common/entry_palette.h"

#include <QImage>

#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>

namespace parallax::test {

// Loads a run (failing the test with the loader's message); each path is loaded once per
// test executable, since a Trace is immutable and shared.
inline core::TracePtr loadRunOnce(const std::filesystem::path& path)
{
    static std::map<std::string, core::TracePtr> cache;
    auto& trace = cache[path.string()];
    if (!trace) {
        auto loaded = io::loadRun(path.string());
        INFO(path.string() << ": " << loaded.error);
        REQUIRE(loaded.trace);
        trace = loaded.trace;
    }
    return trace;
}

// sample-logs/NAME and ../shared/real-logs/NAME, loaded once.
inline core::TracePtr sampleTrace(std::string_view name)
{
    return loadRunOnce(sampleRun(name));
}
inline core::TracePtr realTrace(std::string_view name)
{
    return loadRunOnce(realLog(name));
}

// An entry palette ranked for a run, as the app sets it up.
struct RunPalette {
    explicit RunPalette(const core::TracePtr& trace) { palette.setRun(trace.get()); }
    views::EntryPalette palette;
};

// Waits until the view has no computation running (its result is then on screen).
inline void waitForResult(views::AnalysisView& view)
{
    waitUntil([&]() { return !view.busy(); }, 60'000);
}

// How many colours a picture has (every other pixel of every other row): a chart that draws
// something has many more than its background and frame.
inline std::size_t distinctColours(const QImage& image)
{
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    return colours.size();
}

// Shows a run in a 1200 x 700 view over its whole time and waits for the result.
inline void showAndWait(views::AnalysisView& view, const core::TracePtr& trace)
{
    view.resize(1200, 700);
    view.setTrace(trace);
    view.setSelection({ 0, trace->endTime() }, {});
    waitForResult(view);
}

} // namespace parallax::test
