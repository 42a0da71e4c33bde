// parallax-bench-timeline: how long the Timeline takes to paint a frame. Not a test: it prints
// figures (the target is 16 ms per frame, docs/performance.md). Usage:
//   parallax-bench-timeline RUN [--frames 50] [--width 1920 --height 1080] [--pes N]
//                           [--collapse K [--mode sum|set|key]] [--save PREFIX] [--level L]
//                           [--split 1]
// It loads the run, shows the first N PEs (default 512, or all), and paints the TimelineWidget
// offscreen into a QImage at five zoom levels from the whole run down to 100 µs, centred on
// the middle of the run. Per zoom level it prints the median and the maximum of
//   cold: a frame after the window moved by 1 µs (the geometry is rebuilt), and
//   warm: a repaint of the same window (cached geometry, as for hover or selection);
//   cold cpu: the CPU time of a cold frame over all threads (less sensitive to other load),
//             median and minimum (the minimum moves least with other work on the machine);
//   geometry (with --split 1): of a cold frame, the wall time of building its geometry (rows,
//             blocks, spread; the rest is painting), measured on a separate cold build.
// With --collapse K every K consecutive PEs are collapsed into one group, drawn in --mode (SUM:
// one aggregated row, SET: one row with the members' spread, KEY: four rows). --save writes
// each zoom level's last frame to PREFIX-LEVEL.png, to compare pictures before and after.
// --level L (0 = whole run ... 4 = 100 µs) paints only that zoom level (to profile one).
// Example:
//   build/bin/parallax-bench-timeline /tmp/bench512 --frames 50

#include "core/trace.h"
#include "io/run_loader.h"
#include "views/common/entry_palette.h"
#include "views/timeline/timeline_widget.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

using namespace parallax;

namespace {

struct Options {
    std::string run;
    int frames = 50;
    int width = 1920;
    int height = 1080;
    int pes = 512;
    int collapse = 0;
    int level = -1; // only this zoom level; -1: all
    int split = 0; // 1: also time the geometry alone
    core::analysis::AggregationMode mode = core::analysis::AggregationMode::Sum;
    std::string save; // PNG prefix: the last frame of each zoom level, to compare pictures
};

bool readNumber(const char* text, int minimum, int& out)
{
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || value < minimum || value > 1'000'000)
        return false;
    out = static_cast<int>(value);
    return true;
}

int usage()
{
    std::fprintf(stderr,
        "usage: parallax-bench-timeline RUN [--frames N] [--width W --height H] [--pes N] "
        "[--collapse K [--mode sum|set|key]] [--save PREFIX] [--level 0-4] [--split 1]\n");
    return 2;
}

struct Figures {
    double median = 0.0;
    double max = 0.0;
};

Figures summarize(std::vector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    if (ms.empty())
        return {};
    return { ms[ms.size() / 2], ms.back() };
}

// CPU time of the whole process (every thread), ms: what a frame costs whatever else runs on
// the machine.
double processCpuMs()
{
    timespec t {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double paintMs(const views::TimelineWidget& widget, QImage& image, double* cpuMs = nullptr)
{
    const double cpu = processCpuMs();
    const auto start = std::chrono::steady_clock::now();
    QPainter painter(&image);
    painter.setFont(widget.font());
    widget.paintChart(painter, widget.size(), false);
    painter.end();
    if (cpuMs != nullptr)
        *cpuMs = processCpuMs() - cpu;
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

} // namespace

int main(int argc, char** argv)
{
    Options options;
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0)
        return usage();
    options.run = argv[1];
    for (int i = 2; i < argc; i += 2) {
        if (i + 1 >= argc)
            return usage();
        const std::string flag = argv[i];
        bool ok = false;
        if (flag == "--save") {
            options.save = argv[i + 1];
            continue;
        }
        if (flag == "--frames")
            ok = readNumber(argv[i + 1], 1, options.frames);
        else if (flag == "--width")
            ok = readNumber(argv[i + 1], 200, options.width);
        else if (flag == "--height")
            ok = readNumber(argv[i + 1], 100, options.height);
        else if (flag == "--pes")
            ok = readNumber(argv[i + 1], 1, options.pes);
        else if (flag == "--collapse")
            ok = readNumber(argv[i + 1], 1, options.collapse);
        else if (flag == "--split")
            ok = readNumber(argv[i + 1], 0, options.split) && options.split < 2;
        else if (flag == "--level")
            ok = readNumber(argv[i + 1], 0, options.level) && options.level < 5;
        else if (flag == "--mode") {
            const auto mode = core::analysis::parseAggregationMode(argv[i + 1]);
            ok = mode && *mode != core::analysis::AggregationMode::Signature;
            if (ok)
                options.mode = *mode;
        }
        if (!ok) {
            std::fprintf(
                stderr, "parallax-bench-timeline: bad option %s %s\n", flag.c_str(), argv[i + 1]);
            return usage();
        }
    }

    // Offscreen unless the caller chose a platform.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);

    io::LoadOptions loadOptions;
    const auto loadStart = std::chrono::steady_clock::now();
    const auto loaded = io::loadRun(options.run, loadOptions);
    if (!loaded.trace) {
        std::fprintf(stderr, "parallax-bench-timeline: %s\n", loaded.error.c_str());
        return 1;
    }
    const double loadS
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - loadStart).count();
    const auto& trace = loaded.trace;

    views::EntryPalette palette;
    views::TimelineWidget widget(&palette);
    widget.resize(options.width, options.height);
    widget.setTrace(trace);
    std::vector<core::PeId> pes;
    const auto shown
        = std::min<std::size_t>(static_cast<std::size_t>(options.pes), trace->pes.size());
    for (std::size_t pe = 0; pe < shown; ++pe)
        pes.push_back(static_cast<core::PeId>(pe));
    widget.setPes(pes);
    widget.setGroupMode(options.mode);
    if (options.collapse > 1)
        for (std::size_t first = 0; first < pes.size();
             first += static_cast<std::size_t>(options.collapse)) {
            const auto last
                = std::min(pes.size(), first + static_cast<std::size_t>(options.collapse));
            widget.collapse({ pes.begin() + static_cast<std::ptrdiff_t>(first),
                                pes.begin() + static_cast<std::ptrdiff_t>(last) },
                QStringLiteral("PEs %1-%2").arg(first).arg(last - 1));
        }

    const auto span = widget.runSpan();
    std::printf("run: %zu PEs, %llu events, loaded in %.1f s; painting %zu PEs in %zu rows at "
                "%dx%d, %d frames per figure\n",
        trace->pes.size(), static_cast<unsigned long long>(trace->eventCount()), loadS, shown,
        widget.rowSources().size(), options.width, options.height, options.frames);
    std::printf("%-16s %9s %16s %16s %16s %9s %9s\n", "window", "rows", "cold median/max",
        "cold cpu med/min", "warm median/max", "geometry", "blocks");

    // Five windows from the whole run down to 100 µs, evenly spaced on a log scale.
    constexpr int kLevels = 5;
    const double whole = static_cast<double>(span.length());
    const double finest = std::min(100.0, whole);
    QImage image(options.width, options.height, QImage::Format_ARGB32_Premultiplied);
    const core::TimeUs middle = span.begin + span.length() / 2;
    for (int level = 0; level < kLevels; ++level) {
        if (options.level >= 0 && level != options.level)
            continue;
        const double t = static_cast<double>(level) / (kLevels - 1);
        const auto length = std::max<core::TimeUs>(
            static_cast<core::TimeUs>(std::llround(whole * std::pow(finest / whole, t))), 1);
        core::TimeRange window { middle - length / 2, middle - length / 2 + length };
        if (level == 0)
            window = span;
        widget.setWindow(window);
        const auto base = widget.window();

        std::vector<double> cold;
        std::vector<double> coldCpu;
        std::vector<double> warm;
        std::vector<double> geometry;
        (void)paintMs(widget, image); // warm-up (fonts, glyph caches)
        // A new window each frame, so the geometry is rebuilt: every other frame the window
        // moves by 1 µs (or, at the run's edge, shrinks by 1 µs).
        const auto step = [&](int f) {
            if (f % 2 == 0) {
                widget.setWindow({ base.begin + 1, base.end + 1 });
                if (widget.window().begin == base.begin && widget.window().end == base.end)
                    widget.setWindow({ base.begin, base.end - 1 });
            } else {
                widget.setWindow(base);
            }
        };
        for (int f = 0; f < options.frames; ++f) {
            step(f);
            double cpu = 0.0;
            cold.push_back(paintMs(widget, image, &cpu));
            coldCpu.push_back(cpu);
            warm.push_back(paintMs(widget, image));
            if (options.split == 0)
                continue;
            // The geometry alone, of the other window, then back to this frame's window.
            step(f + 1);
            const auto start = std::chrono::steady_clock::now();
            (void)widget.currentGeometry();
            geometry.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count());
            step(f);
        }
        if (!options.save.empty())
            image.save(QString::fromStdString(options.save + "-" + std::to_string(level) + ".png"));
        std::size_t blocks = 0;
        const auto& g = widget.currentGeometry();
        for (const auto& row : g.rows)
            blocks += row.blocks.size();
        const auto c = summarize(cold);
        const auto w = summarize(warm);
        // Padded as a QString: "µs" is one character but two bytes.
        const QString label = views::formatPreciseTime(base.length()).leftJustified(16);
        const auto cpu = summarize(coldCpu);
        std::printf("%s %9zu %7.2f/%6.2f ms %7.2f/%6.2f ms %7.2f/%6.2f ms %6.2f ms %9zu\n",
            label.toUtf8().constData(), g.rows.size(), c.median, c.max, cpu.median,
            *std::min_element(coldCpu.begin(), coldCpu.end()), w.median, w.max,
            options.split != 0 ? summarize(geometry).median : 0.0, blocks);
    }
    return 0;
}
