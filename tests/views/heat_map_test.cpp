// The heat map shared by Communication per Processor, Message Size Evolution and the Animation:
// its pure geometry and colour scale, and each view on small and real runs (cells, highlights,
// tooltips, clicks through to the Timeline, export, messages for runs without the records).

#include "io/run_loader.h"
#include "support/io_support.h"
#include "support/qt_wait.h"
#include "support/test_support.h"
#include "support/view_test_support.h"
#include "views/animation/animation_view.h"
#include "views/comm_matrix/comm_matrix_axis.h"
#include "views/comm_matrix/comm_matrix_view.h"
#include "views/common/apng_writer.h"
#include "views/common/entry_palette.h"
#include "views/common/heat_map_chart.h"
#include "views/common/heat_map_geometry.h"
#include "views/common/options_bar.h"
#include "views/iterations/iterations_view.h"
#include "views/msg_size_evolution/msg_size_evolution_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>
#include <QToolButton>

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <numeric>

using namespace parallax;
using namespace parallax::views;

namespace {

core::TracePtr commRun()
{
    return parallax::test::loadOk(parallax::test::dataDir() / "runs" / "comm-smp");
}

HeatMapData grid(std::size_t rows, std::size_t columns)
{
    HeatMapData d;
    d.rows = rows;
    d.columns = columns;
    d.values.assign(rows * columns, 0.0);
    for (std::size_t k = 0; k < rows; ++k)
        d.rowAxis.labels.push_back(QStringLiteral("PE %1").arg(k));
    for (std::size_t k = 0; k < columns; ++k)
        d.columnAxis.labels.push_back(QStringLiteral("PE %1").arg(k));
    d.scale = heatScaleFor(d.values, true, true);
    return d;
}

} // namespace

TEST_CASE("heat map geometry: every pixel of the plot belongs to the cell that covers it",
    "[views][heatmap]")
{
    auto d = grid(7, 13);
    d.rowTotals.assign(7, 1.0);
    d.columnTotals.assign(13, 1.0);
    const auto g = buildHeatMapGeometry(d, QSize(900, 500));
    REQUIRE(g.plot.width() > 100);
    REQUIRE(g.plot.height() > 100);
    CHECK_FALSE(g.rowBars.isEmpty());
    CHECK_FALSE(g.columnBars.isEmpty());
    CHECK(g.rowBars.left() > g.plot.right());
    CHECK(g.columnBars.bottom() < g.plot.top());
    CHECK(g.legend.left() > g.rowBars.right());
    for (std::size_t r = 0; r < 7; ++r)
        for (std::size_t c = 0; c < 13; ++c) {
            const QRect cell = g.cellRect({ r, c });
            CHECK(g.cellAt(cell.topLeft()) == HeatMapCell { r, c });
            CHECK(g.cellAt(cell.bottomRight()) == HeatMapCell { r, c });
        }
    CHECK_FALSE(g.cellAt(g.plot.topLeft() - QPoint(1, 1)));
    CHECK_FALSE(g.cellAt(QPoint(g.plot.right() + 1, g.plot.center().y())));
    // Cells tile the plot: the last cell ends on its edge.
    CHECK(g.cellRect({ 6, 12 }).bottomRight() == g.plot.bottomRight());
}

TEST_CASE("heat map geometry: labels are thinned to fit, the emphasized one always shown",
    "[views][heatmap]")
{
    auto d = grid(300, 300);
    d.rowAxis.emphasized = { 151 };
    d.columnAxis.emphasized = { 77 };
    HeatMapLayout layout;
    layout.lineHeight = 12;
    const auto g = buildHeatMapGeometry(d, QSize(1000, 700), layout);
    REQUIRE_FALSE(g.rowLabelItems.empty());
    CHECK(g.rowLabelItems.size() < 300);
    for (std::size_t k = 1; k < g.rowLabelItems.size(); ++k)
        CHECK(g.rowLabelItems[k].position - g.rowLabelItems[k - 1].position >= 12);
    const auto has = [](const std::vector<HeatMapLabel>& labels, std::size_t item) {
        return std::any_of(labels.begin(), labels.end(),
            [&](const HeatMapLabel& l) { return l.item == item && l.emphasized; });
    };
    CHECK(has(g.rowLabelItems, 151));
    CHECK(has(g.columnLabelItems, 77));

    // A time axis gets time ticks instead of item labels.
    auto t = grid(3, 50);
    t.columnAxis.labels.clear();
    t.columnAxis.span = core::TimeRange { 0, 50'000 };
    const auto tg = buildHeatMapGeometry(t, QSize(800, 400));
    CHECK(tg.columnLabelItems.empty());
    REQUIRE(tg.timeAxis.ticks.size() >= 3);
    CHECK(tg.timeAxis.ticks.front().x == Approx(tg.plot.left()).margin(1));
}

TEST_CASE("heat map chart: a drag along a time axis selects its range, a click names the cell",
    "[views][heatmap]")
{
    auto t = grid(3, 50);
    t.columnAxis.labels.clear();
    t.columnAxis.span = core::TimeRange { 0, 50'000 };
    HeatMapChart chart;
    chart.resize(800, 400);
    chart.setData(t);
    const QRect plot = chart.geometry().plot;
    REQUIRE(plot.width() > 100);
    QSignalSpy ranges(&chart, &HeatMapChart::rangeSelected);
    QSignalSpy cells(&chart, &HeatMapChart::cellClicked);
    const int y = plot.top() + plot.height() / 2;
    const QPoint from(plot.left() + plot.width() / 4, y);
    const QPoint to(plot.left() + plot.width() / 2, y);
    QTest::mousePress(&chart, Qt::LeftButton, {}, from);
    QMouseEvent move(
        QEvent::MouseMove, to, chart.mapToGlobal(to), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&chart, &move);
    QTest::mouseRelease(&chart, Qt::LeftButton, {}, to);
    REQUIRE(ranges.size() == 1);
    CHECK(cells.isEmpty()); // a drag is no click
    const auto range = ranges.front().front().value<core::TimeRange>();
    const double usPerPixel = 50'000.0 / plot.width();
    CHECK(static_cast<double>(range.begin) == Approx(12'500).margin(usPerPixel));
    CHECK(static_cast<double>(range.end) == Approx(25'000).margin(usPerPixel));

    // A click (a press and release at one point): the cell, and no range.
    QTest::mouseClick(&chart, Qt::LeftButton, {}, QPoint(plot.left() + 2, plot.top() + 2));
    REQUIRE(cells.size() == 1);
    CHECK(cells.front().at(0).toInt() == 0);
    CHECK(cells.front().at(1).toInt() == 0);
    CHECK(ranges.size() == 1);
}

TEST_CASE("heat scale: linear for close values, logarithmic across decades, zero is none",
    "[views][heatmap]")
{
    auto s = heatScaleFor({ 0, 10, 40, 50 }, true, true);
    CHECK_FALSE(s.logarithmic);
    CHECK(s.maximum == 50);
    CHECK(s.fraction(25) == Approx(0.5));
    CHECK(s.color(0) == emptyCellColor());
    CHECK(s.color(std::nan("")) == noDataCellColor());
    CHECK(s.color(50) == viridisColor(1.0));

    s = heatScaleFor({ 0, 2, 20, 20000 }, true, true);
    CHECK(s.logarithmic);
    CHECK(s.minimum == 2);
    CHECK(s.fraction(2) == Approx(0.0));
    CHECK(s.fraction(20000) == Approx(1.0));
    CHECK(s.fraction(200) == Approx(0.5));
    const auto ticks = s.ticks(6);
    CHECK(ticks.front() == 2);
    CHECK(ticks.back() == 20000);

    // Percentages: a fixed 0-100 scale where 0 % is a value (the bottom of the ramp).
    s = heatScaleFor({ 0, 5, 12 }, false, false, 100.0);
    CHECK(s.maximum == 100);
    CHECK(s.color(0) == viridisColor(0.0));
    CHECK(s.ticks(6) == std::vector<double> { 0, 20, 40, 60, 80, 100 });
}

TEST_CASE("heat map image: a hot cell narrower than a pixel still shows", "[views][heatmap]")
{
    auto d = grid(2, 1000);
    d.values[1 * 1000 + 437] = 100.0; // one hot cell among 1000 columns
    d.values[5] = 1.0;
    d.scale = heatScaleFor(d.values, true, false);
    const QImage image = heatMapImage(d, QSize(100, 2));
    CHECK(QColor(image.pixel(43, 1)) == viridisColor(1.0));
    CHECK(QColor(image.pixel(0, 0)) == d.scale.color(1.0));
    CHECK(QColor(image.pixel(50, 0)) == emptyCellColor());
}

TEST_CASE("comm matrix axis: above 200 PEs groups, expanded in place on demand",
    "[views][heatmap][comm-matrix]")
{
    core::RunMetadata meta;
    meta.processors = 1024;
    core::analysis::CommMatrix m;
    for (core::PeId pe = 0; pe < 1024; ++pe)
        m.pes.push_back(pe);
    auto axis = buildCommAxis(m, meta, CommAxisMode::Pes, {});
    REQUIRE(axis.size() <= core::analysis::kMaxAxisRows);
    REQUIRE(axis.size() > 1);
    CHECK_FALSE(axis.front().group.empty());
    std::size_t covered = 0;
    for (const auto& item : axis)
        covered += item.pes.size();
    CHECK(covered == 1024);
    const auto first = axis.front();
    axis = buildCommAxis(m, meta, CommAxisMode::Pes, { first.group });
    CHECK(
        axis.size() == buildCommAxis(m, meta, CommAxisMode::Pes, {}).size() - 1 + first.pes.size());
    CHECK(axis.front().label == QStringLiteral("PE 0"));
    CHECK(axis.front().parent == first.group);

    // A few PEs: one item each, or one per node.
    const auto trace = commRun();
    core::analysis::AnalysisRequest include;
    include.includeCommThreads = true;
    const auto small = core::analysis::computeCommMatrix(*trace, include);
    REQUIRE(small);
    const auto byNode = buildCommAxis(*small, trace->metadata, CommAxisMode::PesByNode, {});
    QStringList labels;
    for (const auto& item : byNode)
        labels << item.label;
    CHECK(labels == QStringList { "PE 0", "PE 1", "PE 4 (comm)", "PE 2", "PE 3", "PE 5 (comm)" });
    const auto nodes = buildCommAxis(*small, trace->metadata, CommAxisMode::Nodes, {});
    REQUIRE(nodes.size() == 2);
    CHECK(nodes[1].pes == std::vector<core::PeId> { 2, 3, 5 });
}

TEST_CASE("comm matrix view: cells, heaviest sender and receiver, clicks to the Timeline",
    "[views][heatmap][comm-matrix]")
{
    const auto trace = commRun();
    EntryPalette palette;
    palette.setRun(trace.get());
    CommMatrixView view(&palette);
    view.resize(1000, 600);
    view.show();
    view.setTrace(trace);
    test::waitForResult(view);
    auto* chart = view.chart();
    REQUIRE(chart->hasData());
    const auto& d = chart->data();
    REQUIRE(d.rows == 4);
    CHECK(d.value(0, 1) == 1); // 0 -> 1
    CHECK(d.value(3, 0) == 1); // 3 -> 0, relayed by comm thread 4: once
    CHECK(d.value(0, 0) == 0);
    CHECK(d.rowTotals == std::vector<double> { 2, 1, 2, 1 });
    CHECK(d.columnTotals == std::vector<double> { 1, 2, 2, 1 });
    CHECK(d.rowAxis.emphasized == std::vector<std::size_t> { 0 });
    CHECK(d.columnAxis.emphasized == std::vector<std::size_t> { 1 });
    CHECK(chart->subtitle().contains(QStringLiteral("heaviest sender PE 0")));
    CHECK(chart->footnote().contains(QStringLiteral("Comm threads (PE 4-5)")));
    CHECK(chart->footnote().contains(QStringLiteral("unknown sender")));

    // The tooltip of a cell has exact values and says what a click does.
    const auto& g = chart->geometry();
    const QString tip = chart->toolTipAt(g.cellRect({ 3, 0 }).center());
    CHECK(tip.contains(QStringLiteral("PE 3 → PE 0")));
    CHECK(tip.contains(QStringLiteral("1 message")));
    CHECK(tip.contains(QStringLiteral("300 B")));
    CHECK(chart->toolTipAt(g.rowBars.topLeft() + QPoint(2, 2)).contains(QStringLiteral("sent")));

    QSignalSpy timeline(&view, &AnalysisView::timelineRequested);
    QTest::mouseClick(chart, Qt::LeftButton, {}, g.cellRect({ 3, 0 }).center());
    REQUIRE(timeline.count() == 1);
    CHECK(
        timeline.at(0).at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { 0, 3 });

    // Bytes, nodes, between nodes only.
    QString error;
    REQUIRE(view.applyOptions({ { "metric", "bytes" }, { "by", "node" } }, &error));
    test::waitForResult(view);
    REQUIRE(chart->data().rows == 2);
    CHECK(chart->data().values == std::vector<double> { 150, 200, 300, 128 });
    CHECK(view.csv().startsWith(QStringLiteral("src_node,dst_node,messages,bytes\n0,0,2,150\n")));
    REQUIRE(view.applyOptions({ { "external", "on" }, { "by", "pe" } }, &error));
    test::waitForResult(view);
    CHECK(chart->data().values[0 * 4 + 2] == 200);
    CHECK(view.csv() == QStringLiteral("src_pe,dst_pe,messages,bytes\n0,2,1,200\n3,0,1,300\n"));

    CHECK_FALSE(view.applyOptions({ { "metric", "calls" } }, &error));
    CHECK(error.contains(QStringLiteral("messages or bytes")));
    CHECK_FALSE(view.applyOptions({ { "columns", "3" } }, &error));

    const QImage image = view.renderChart(QSize(900, 500));
    CHECK_FALSE(image.isNull());
    if (svgExportAvailable()) {
        parallax::test::TempDir dir;
        const QString svg = QString::fromStdString((dir / "m.svg").string());
        REQUIRE(view.exportSvg(svg, QSize(800, 500), &error));
        QFile file(svg);
        REQUIRE(file.open(QIODevice::ReadOnly));
        CHECK(file.readAll().contains("<svg"));
    }
}

TEST_CASE("comm matrix view: a run without logs says so instead of an empty chart",
    "[views][heatmap][comm-matrix]")
{
    parallax::test::TempDir dir;
    for (const auto& entry :
        std::filesystem::directory_iterator(parallax::test::realLog("gen-feat-smp"))) {
        const auto name = entry.path().filename().string();
        if (name.ends_with(".sts") || name.ends_with(".sum"))
            std::filesystem::copy_file(entry.path(), dir.path() / name);
    }
    auto loaded = io::loadRun((dir.path() / "feat.sts").string());
    REQUIRE(loaded.trace);
    CommMatrixView view(nullptr);
    view.setTrace(loaded.trace);
    test::waitForResult(view);
    CHECK_FALSE(view.chart()->hasData());
    CHECK(view.chart()->message().contains(QStringLiteral("no message records")));
    CHECK(view.chart()->message().contains(QStringLiteral("summary files only")));

    // A range without messages says that, too.
    const auto trace = commRun();
    view.setTrace(trace);
    view.setSelection({ 2000, 3000 }, {});
    test::waitForResult(view);
    CHECK_FALSE(view.chart()->hasData());
    CHECK(view.chart()->message().contains(QStringLiteral("No message")));
}

TEST_CASE("message size evolution view: sizes up the side, time along, totals beside",
    "[views][heatmap][msg-size-evolution]")
{
    const auto trace = commRun();
    MsgSizeEvolutionView view(nullptr);
    view.resize(1000, 600);
    view.show();
    view.setTrace(trace);
    QString error;
    REQUIRE(view.applyOptions({ { "bins", "4" } }, &error));
    test::waitForResult(view);
    auto* chart = view.chart();
    REQUIRE(chart->hasData());
    const auto& d = chart->data();
    // Bins 32-64 .. 256-512 B, the largest at the top; 4 intervals of 500 µs from 1000 µs.
    REQUIRE(d.rows == 4);
    REQUIRE(d.columns == 4);
    CHECK(d.rowAxis.labels.front() == QStringLiteral("256 B–512 B"));
    CHECK(d.rowAxis.labels.back() == QStringLiteral("32 B–64 B"));
    REQUIRE(d.columnAxis.span);
    CHECK(d.columnAxis.span->begin == 1000);
    CHECK(d.columnAxis.span->end == 3000);
    CHECK(d.value(0, 0) == 1); // 300 B at 1050
    CHECK(d.value(2, 0) == 3); // 64-128 B: 100 B at 1100 and the broadcast twice at 1460
    CHECK(d.columnTotals == std::vector<double> { 6, 0, 0, 0 });
    CHECK(d.rowTotals == std::vector<double> { 1, 1, 3, 1 });
    CHECK(d.rowAxis.emphasized == std::vector<std::size_t> { 2 });
    CHECK(chart->footnote().contains(QStringLiteral("Comm threads (PE 4-5) left out")));
    CHECK(view.csv().startsWith(
        QStringLiteral("interval,begin_us,end_us,size_lo,size_hi,messages,bytes\n")));

    // A click on a cell opens its interval in the Timeline.
    QSignalSpy timeline(&view, &AnalysisView::timelineRequested);
    QTest::mouseClick(chart, Qt::LeftButton, {}, chart->geometry().cellRect({ 0, 0 }).center());
    REQUIRE(timeline.count() == 1);
    const auto interval = timeline.at(0).at(1).value<core::TimeRange>();
    CHECK(interval.begin == 1000);
    CHECK(interval.end == 1500);

    // Received messages in 100-byte bins; then one entry method on demand.
    REQUIRE(view.applyOptions({ { "event", "receive" }, { "size-bin", "100" } }, &error));
    test::waitForResult(view);
    REQUIRE(view.result());
    CHECK_FALSE(view.result()->logScale);
    CHECK(view.result()->total() == 8);
    CHECK(chart->data().rowAxis.labels.front() == QStringLiteral("≥ 5,000 B"));
    view.setEntries({ 3 });
    test::waitForResult(view);
    CHECK(view.result()->total() == 2);
    CHECK(chart->subtitle().contains(QStringLiteral("bcast()")));
    view.setEntries({ 1 }); // Main: no message
    test::waitForResult(view);
    CHECK_FALSE(chart->hasData());
    CHECK(chart->message().contains(QStringLiteral("No message of the chosen entry methods")));

    CHECK_FALSE(view.applyOptions({ { "event", "both" } }, &error));
    CHECK(error.contains(QStringLiteral("send or receive")));
    CHECK_FALSE(view.applyOptions({ { "size-bin", "0" } }, &error));
    CHECK_FALSE(view.applyOptions({ { "entries", "x" } }, &error));
    CHECK_FALSE(view.applyOptions({ { "entries", "99" } }, &error));
    CHECK(error.contains(QStringLiteral("the run has no entry method 99")));
}

namespace {

struct PngChunk {
    std::string type;
    QByteArray data;
    bool crcOk = false;
};

// The chunks of a PNG file, each with its CRC checked.
std::vector<PngChunk> pngChunks(const QByteArray& file)
{
    std::vector<PngChunk> out;
    REQUIRE(file.startsWith(QByteArray("\x89PNG\r\n\x1a\n", 8)));
    auto u32 = [&](qsizetype at) {
        std::uint32_t v = 0;
        for (int k = 0; k < 4; ++k)
            v = (v << 8) | static_cast<unsigned char>(file[at + k]);
        return v;
    };
    qsizetype at = 8;
    while (at + 12 <= file.size()) {
        const auto length = static_cast<qsizetype>(u32(at));
        PngChunk chunk;
        chunk.type = file.mid(at + 4, 4).toStdString();
        chunk.data = file.mid(at + 8, length);
        chunk.crcOk = pngCrc(file.mid(at + 4, 4 + length)) == u32(at + 8 + length);
        out.push_back(std::move(chunk));
        at += 12 + length;
    }
    return out;
}

std::uint32_t be32(const QByteArray& data, qsizetype at)
{
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k)
        v = (v << 8) | static_cast<unsigned char>(data[at + k]);
    return v;
}

// Undoes the writer's scanline filters (None, Up) of an RGB region into an image.
QImage unfilter(const QByteArray& zlib, int width, int height)
{
    QByteArray sized;
    for (const int shift : { 24, 16, 8, 0 })
        sized.append(static_cast<char>(((3 * width + 1) * height >> shift) & 0xFF));
    const QByteArray raw = qUncompress(sized + zlib);
    REQUIRE(raw.size() == (3 * width + 1) * height);
    QImage image(width, height, QImage::Format_RGB32);
    std::vector<unsigned char> previous(static_cast<std::size_t>(3 * width), 0);
    for (int y = 0; y < height; ++y) {
        const auto* row
            = reinterpret_cast<const unsigned char*>(raw.constData()) + y * (3 * width + 1);
        REQUIRE((row[0] == 0 || row[0] == 2));
        for (int i = 0; i < 3 * width; ++i)
            previous[static_cast<std::size_t>(i)] = static_cast<unsigned char>(
                row[1 + i] + (row[0] == 2 ? previous[static_cast<std::size_t>(i)] : 0));
        for (int x = 0; x < width; ++x)
            image.setPixel(x, y,
                qRgb(previous[static_cast<std::size_t>(3 * x)],
                    previous[static_cast<std::size_t>(3 * x + 1)],
                    previous[static_cast<std::size_t>(3 * x + 2)]));
    }
    return image;
}

} // namespace

TEST_CASE("APNG writer: frames, sequence numbers, checksums and changed regions",
    "[views][heatmap][animation]")
{
    parallax::test::TempDir dir;
    const QString path = QString::fromStdString((dir / "a.png").string());
    QImage first(40, 30, QImage::Format_RGB32);
    first.fill(QColor(10, 20, 30));
    QImage second = first;
    second.setPixel(5, 7, qRgb(200, 0, 0));
    second.setPixel(12, 9, qRgb(0, 200, 0));
    QString error;
    ApngWriter writer;
    REQUIRE(writer.open(path, first.size(), 3, 250, &error));
    REQUIRE(writer.addFrame(first, &error));
    REQUIRE(writer.addFrame(second, &error));
    REQUIRE(writer.addFrame(second, &error)); // unchanged: a one-pixel frame
    CHECK_FALSE(QFile::exists(path)); // nothing in place before finish()
    REQUIRE(writer.finish(&error));

    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const auto chunks = pngChunks(file.readAll());
    std::vector<std::string> types;
    for (const auto& c : chunks) {
        types.push_back(c.type);
        CHECK(c.crcOk);
    }
    CHECK(types
        == std::vector<std::string> {
            "IHDR", "acTL", "fcTL", "IDAT", "fcTL", "fdAT", "fcTL", "fdAT", "IEND" });
    CHECK(be32(chunks[1].data, 0) == 3); // frames
    CHECK(be32(chunks[1].data, 4) == 0); // loop forever
    // Sequence numbers run through fcTL and fdAT: 0, 1 2, 3 4.
    CHECK(be32(chunks[2].data, 0) == 0);
    CHECK(be32(chunks[4].data, 0) == 1);
    CHECK(be32(chunks[5].data, 0) == 2);
    CHECK(be32(chunks[6].data, 0) == 3);
    CHECK(be32(chunks[7].data, 0) == 4);
    // The second frame is the rectangle that changed: x 5-12, y 7-9.
    const auto& control = chunks[4].data;
    CHECK(be32(control, 4) == 8); // width
    CHECK(be32(control, 8) == 3); // height
    CHECK(be32(control, 12) == 5); // x
    CHECK(be32(control, 16) == 7); // y
    const QImage region = unfilter(chunks[5].data.mid(4), 8, 3);
    CHECK(region == second.copy(5, 7, 8, 3));
    CHECK(be32(chunks[6].data, 4) == 1); // the unchanged frame: one pixel
    // Any PNG reader sees the first frame.
    const QImage still(path);
    REQUIRE_FALSE(still.isNull());
    CHECK(still.convertToFormat(QImage::Format_RGB32) == first);
    CHECK(unfilter(chunks[3].data, 40, 30) == first);

    // An animation that is not finished leaves no file.
    const QString abandoned = QString::fromStdString((dir / "b.png").string());
    {
        ApngWriter partial;
        REQUIRE(partial.open(abandoned, first.size(), 2, 100, &error));
        REQUIRE(partial.addFrame(first, &error));
        CHECK_FALSE(partial.finish(&error));
        CHECK(error.contains(QStringLiteral("2 frames announced, 1 written")));
    }
    CHECK_FALSE(QFile::exists(abandoned));
}

TEST_CASE("animation grid: one row per node, or a grid in PE order", "[views][heatmap][animation]")
{
    const auto trace = commRun();
    const auto byNode = peGridLayout({ 0, 1, 2, 3 }, trace->metadata, 1.6);
    CHECK(byNode.rows == 2);
    CHECK(byNode.columns == 2);
    CHECK(byNode.rowLabels == std::vector<QString> { "node 0", "node 1" });
    CHECK(byNode.cells == std::vector<std::ptrdiff_t> { 0, 1, 2, 3 });

    core::RunMetadata flat;
    flat.processors = 10;
    std::vector<core::PeId> pes(10);
    std::iota(pes.begin(), pes.end(), 0);
    const auto grid = peGridLayout(pes, flat, 2.5);
    CHECK(grid.columns == 5);
    CHECK(grid.rows == 2);
    CHECK(grid.rowLabels == std::vector<QString> { "PE 0", "PE 5" });
    CHECK(grid.columnLabels.back() == QStringLiteral("+4"));
    const auto odd = peGridLayout({ 0, 1, 2 }, flat, 1.0);
    CHECK(odd.cells == std::vector<std::ptrdiff_t> { 0, 1, 2, -1 }); // 2 x 2, one empty place
}

TEST_CASE("animation view: frames played, stepped and exported", "[views][heatmap][animation]")
{
    const auto trace = commRun();
    AnimationView view(nullptr);
    view.resize(1000, 600);
    view.show();
    view.setTrace(trace);
    QString error;
    REQUIRE(view.applyOptions({ { "frames", "4" } }, &error));
    test::waitForResult(view);
    REQUIRE(view.frameCount() == 4);
    auto* chart = view.chart();
    REQUIRE(chart->hasData());
    CHECK(view.currentFrame() == 0);
    // Nodes as rows: PE 1's 8 % at node 0, second place.
    CHECK(chart->data().value(0, 1) == Approx(8.0));
    CHECK(chart->data().cellLabels[1] == QStringLiteral("PE 1"));
    CHECK(chart->subtitle().contains(QStringLiteral("frame 1 of 4")));

    // Keys and buttons step; the slider follows.
    QTest::keyClick(chart, Qt::Key_Right);
    CHECK(view.currentFrame() == 1);
    CHECK(chart->data().value(0, 0) == Approx(20.0));
    // The strip of frames: a click goes to the frame under it.
    auto* strip = view.frameStrip();
    QTest::mouseClick(strip, Qt::LeftButton, {}, QPoint(strip->width() * 5 / 8, 5));
    CHECK(view.currentFrame() == 2);
    QTest::keyClick(chart, Qt::Key_Left);
    CHECK(view.currentFrame() == 1);
    view.findChild<QToolButton*>(QStringLiteral("previousFrame"))->click();
    CHECK(view.currentFrame() == 0);
    QTest::keyClick(chart, Qt::Key_End);
    CHECK(view.currentFrame() == 3);
    // Playing from the last frame starts again from the first and stops at the end.
    REQUIRE(view.applyOptions({ { "fps", "30" }, { "frames", "4" } }, &error));
    test::waitForResult(view);
    QTest::keyClick(chart, Qt::Key_End);
    view.setPlaying(true);
    CHECK(view.playing());
    CHECK(view.currentFrame() == 0);
    parallax::test::waitUntil([&] { return !view.playing(); }, 20'000);
    CHECK(view.currentFrame() == 3);

    // A click on a PE opens it in the Timeline at the frame shown.
    QSignalSpy timeline(&view, &AnalysisView::timelineRequested);
    QTest::mouseClick(chart, Qt::LeftButton, {}, chart->geometry().cellRect({ 1, 0 }).center());
    REQUIRE(timeline.count() == 1);
    CHECK(timeline.at(0).at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { 2 });
    CHECK(timeline.at(0).at(1).value<core::TimeRange>().begin == 2500);

    // Every frame as an animated PNG whose first frame is renderFrame(0); numbered PNGs.
    parallax::test::TempDir dir;
    const QString apng = QString::fromStdString((dir / "anim.png").string());
    REQUIRE(writeAnimatedPng(view, apng, QSize(500, 300), view.frameDelayMs(), &error));
    QFile file(apng);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const auto chunks = pngChunks(file.readAll());
    CHECK(be32(chunks[1].data, 0) == 4);
    CHECK(QImage(apng).convertToFormat(QImage::Format_RGB32)
        == view.renderFrame(0, QSize(500, 300)).convertToFormat(QImage::Format_RGB32));
    CHECK(view.currentFrame() == 3); // rendering frames leaves the one shown
    const QString frames = QString::fromStdString((dir / "frames").string());
    REQUIRE(writeFrameSequence(view, frames, QSize(400, 300), &error));
    CHECK(QDir(frames).entryList(QDir::Files)
        == QStringList { "frame-0001.png", "frame-0002.png", "frame-0003.png", "frame-0004.png" });
    CHECK(view.csv().startsWith(QStringLiteral("frame,begin_us,end_us,pe,utilization_pct\n")));

    CHECK_FALSE(view.applyOptions({ { "fps", "7" } }, &error));
    CHECK_FALSE(view.applyOptions({ { "frames", "0" } }, &error));
    REQUIRE(view.applyOptions({ { "fps", "10" }, { "frames", "4" } }, &error));
    CHECK(view.frameDelayMs() == 100);
}

TEST_CASE("iterations view: a PE × iteration strip where the slow PEs stand out, clicks to the "
          "Timeline",
    "[views][heatmap][iterations]")
{
    // sample-logs/imbalance: 23 iterations marked by the user event "Iteration start"; PEs 3
    // and 9 do twice the work of the others.
    const auto trace = test::sampleTrace("imbalance");
    EntryPalette palette;
    palette.setRun(trace.get());
    IterationsView view(&palette);
    view.resize(1200, 600);
    view.show();
    view.setTrace(trace);
    test::waitForResult(view);
    REQUIRE(view.result());
    auto* chart = view.chart();
    REQUIRE(chart->hasData());
    const auto& d = chart->data();
    REQUIRE(d.rows == 12);
    REQUIRE(d.columns == 23);
    const auto& r = *view.result();
    CHECK(d.value(3, 0) == static_cast<double>(r.busyOf(0, 3)));
    CHECK(d.value(3, 0) > 1.4 * d.value(0, 0));
    // PE 3 is the busiest over the run, and the duration bars are the iterations' lengths.
    CHECK(d.rowAxis.emphasized == std::vector<std::size_t> { 3 });
    CHECK(d.columnTotals[0]
        == static_cast<double>(r.iterations[0].range.end - r.iterations[0].range.begin));
    CHECK(chart->subtitle().contains(QStringLiteral("Iteration start")));
    CHECK(view.csv() == QString::fromStdString(core::analysis::iterationsCsv(r)));

    const auto& g = chart->geometry();
    CHECK(chart->toolTipAt(g.cellRect({ 9, 2 }).center())
              .contains(QStringLiteral("PE 9 in iteration 2")));
    QSignalSpy timeline(&view, &AnalysisView::timelineRequested);
    QTest::mouseClick(chart, Qt::LeftButton, {}, g.cellRect({ 9, 2 }).center());
    REQUIRE(timeline.count() == 1);
    CHECK(timeline.at(0).at(0).value<std::vector<core::PeId>>() == std::vector<core::PeId> { 9 });
    const auto clicked = timeline.at(0).at(1).value<core::TimeRange>();
    CHECK(clicked.begin == view.iterationRange(2).begin);
    CHECK(clicked.end == view.iterationRange(2).end);

    // Above the median: the other PEs' cells mostly none, the slow ones' clearly positive.
    QString error;
    REQUIRE(view.applyOptions({ { "color", "lateness" } }, &error));
    test::waitForResult(view);
    const auto& late = chart->data();
    CHECK(late.value(3, 0)
        == Approx(static_cast<double>(r.busyOf(0, 3)) - r.iterations[0].medianBusyUs));
    CHECK(late.value(9, 5) > 1000);
    CHECK_FALSE(view.applyOptions({ { "color", "red" } }, &error));
    CHECK(error.contains(QStringLiteral("busy or lateness")));
    CHECK_FALSE(view.applyOptions({ { "bins", "3" } }, &error));

    // A run where nothing marks iterations says so and how to set them.
    IterationsView none(&palette);
    none.resize(800, 400);
    none.show();
    none.setTrace(test::loadOk(test::dataDir() / "runs" / "why-chain"));
    test::waitForResult(none);
    CHECK_FALSE(none.chart()->hasData());
    CHECK(none.chart()->message().contains(QStringLiteral("--every")));
}
