// parallax-bench-groups: the PE-axis views with PE groups on a large run — how long the
// Overview and the Usage Profile take to compute their groups and to paint a frame. Not a test:
// it prints figures (the target is 16 ms per frame at any PE count, docs/performance.md).
// Usage:
//   parallax-bench-groups RUN [--frames 20] [--width 1920 --height 1080] [--mode sum|set|key]
// It loads the run (through the index cache), opens each view offscreen with its automatic
// grouping (nodes, or blocks, at most about 200 rows), waits for the result and then paints:
//   overview cold: the heat map image rebuilt (a new size or data) and the frame drawn;
//   overview warm: a repaint with the image cached (hover, selection);
//   usage: the stacked bars of the groups drawn.
// Example:
//   build/bin/parallax-bench-groups /tmp/s16384 --frames 20 --mode set

#include "core/trace.h"
#include "io/index_cache.h"
#include "views/common/entry_palette.h"
#include "views/overview/overview_view.h"
#include "views/usage_profile/usage_profile_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

using namespace parallax;

namespace {

struct Figures {
    double median = 0.0;
    double max = 0.0;
    double cpuMedian = 0.0; // CPU time of all threads
};

// CPU seconds of the whole process (every thread): what a computation costs whatever else
// runs on the machine.
double processCpuSeconds()
{
    timespec t {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

Figures timeFrames(int frames, const std::function<void()>& paint)
{
    std::vector<double> ms;
    std::vector<double> cpuMs;
    for (int i = 0; i < frames; ++i) {
        const double cpu = processCpuSeconds();
        const auto start = std::chrono::steady_clock::now();
        paint();
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
        cpuMs.push_back((processCpuSeconds() - cpu) * 1e3);
    }
    if (ms.empty())
        return {};
    std::sort(ms.begin(), ms.end());
    std::sort(cpuMs.begin(), cpuMs.end());
    return { ms[ms.size() / 2], ms.back(), cpuMs[cpuMs.size() / 2] };
}

// Waits (processing events) until the view has a result; returns the seconds it took (and in
// *cpu the CPU seconds since `cpuStart`).
double waitComputed(
    views::AnalysisView& view, const std::function<bool()>& ready, double cpuStart, double* cpu)
{
    QElapsedTimer timer;
    timer.start();
    QTimer wake;
    wake.start(50);
    while (!(ready() && !view.busy()) && timer.elapsed() < 600'000)
        // Sleeps until an event comes (the result; a timer wakes it anyway): a busy loop here
        // would add its own CPU time to the computation's.
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    *cpu = processCpuSeconds() - cpuStart;
    return static_cast<double>(timer.elapsed()) / 1000.0;
}

int usage()
{
    std::fprintf(stderr,
        "usage: parallax-bench-groups RUN [--frames N] [--width W --height H] "
        "[--mode sum|set|key]\n");
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0)
        return usage();
    const std::string run = argv[1];
    int frames = 20;
    int width = 1920;
    int height = 1080;
    std::string mode = "sum";
    for (int i = 2; i < argc; i += 2) {
        if (i + 1 >= argc)
            return usage();
        const std::string flag = argv[i];
        const std::string value = argv[i + 1];
        const int number = std::atoi(value.c_str());
        if (flag == "--frames" && number >= 1)
            frames = number;
        else if (flag == "--width" && number >= 200)
            width = number;
        else if (flag == "--height" && number >= 100)
            height = number;
        else if (flag == "--mode" && (value == "sum" || value == "set" || value == "key"))
            mode = value;
        else
            return usage();
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);

    const auto loadStart = std::chrono::steady_clock::now();
    const auto loaded = io::loadRunCached(run, {}, {});
    if (!loaded.trace) {
        std::fprintf(stderr, "parallax-bench-groups: %s\n", loaded.error.c_str());
        return 1;
    }
    const double loadS
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - loadStart).count();
    const auto& trace = loaded.trace;
    std::printf("run: %s, %d PEs, %llu events, loaded in %.2f s%s\n", run.c_str(),
        trace->metadata.processors, static_cast<unsigned long long>(trace->eventCount()), loadS,
        loaded.fromCache ? " (index cache)" : "");
    const QSize size(width, height);
    const QString modeKey = QString::fromStdString(mode);

    views::EntryPalette palette;
    palette.setRun(trace.get());
    {
        views::OverviewView view(&palette);
        view.resize(size);
        const double cpuStart = processCpuSeconds();
        view.setTrace(trace);
        QString error;
        if (!view.applyOptions({ { QStringLiteral("mode"), modeKey } }, &error)) {
            std::fprintf(stderr, "parallax-bench-groups: %s\n", qPrintable(error));
            return 1;
        }
        double cpu = 0;
        const double computeS = waitComputed(
            view, [&]() { return view.overview().has_value(); }, cpuStart, &cpu);
        auto* chart = view.chart();
        chart->resize(size);
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        const auto cold = timeFrames(frames, [&]() { image = chart->renderImage(size); });
        const auto warm = timeFrames(frames, [&]() {
            QPainter painter(&image);
            chart->render(&painter);
        });
        std::printf(
            "overview (%s): %zu rows (%zu groups), computed in %.2f s (%.2f s CPU); frame "
            "cold median %.1f ms max %.1f ms (CPU median %.1f ms), warm median %.1f ms max %.1f "
            "ms\n",
            mode.c_str(), chart->rows().size(), view.groups() ? view.groups()->groupCount() : 0,
            computeS, cpu, cold.median, cold.max, cold.cpuMedian, warm.median, warm.max);
    }
    {
        views::UsageProfileView view(&palette);
        view.resize(size);
        const double cpuStart = processCpuSeconds();
        view.setTrace(trace);
        QString error;
        if (!view.applyOptions({ { QStringLiteral("mode"), modeKey } }, &error)) {
            std::fprintf(stderr, "parallax-bench-groups: %s\n", qPrintable(error));
            return 1;
        }
        double cpu = 0;
        const double computeS = waitComputed(
            view, [&]() { return view.profile() != nullptr; }, cpuStart, &cpu);
        QImage image;
        const auto paint = timeFrames(frames, [&]() { image = view.renderChart(size); });
        std::printf(
            "usage (%s): grouped %s, computed in %.2f s (%.2f s CPU); frame median %.1f ms max "
            "%.1f ms (CPU median %.1f ms)\n",
            mode.c_str(), view.grouped() ? "yes" : "no", computeS, cpu, paint.median, paint.max,
            paint.cpuMedian);
    }
    return 0;
}
