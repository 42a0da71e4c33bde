#include "render_live.h"

#include "app/cli/command_support.h"
#include "app/cli/commands.h"
#include "core/stream/utilization_stream.h"
#include "io/stream/stream_recording.h"
#include "io/sts_reader.h"
#include "views/live/live_view.h"

#include <QImage>
#include <QString>

#include <ostream>

namespace parallax::render {

namespace {

const char* const kLiveRenderHelp
    = "usage: parallax-cli render live --replay FILE -o OUT.png [--width W] [--height H]\n"
      "                                [--up-to N] [--second N] [--sts FILE]\n\n"
      "The Live Utilization view over a recorded stream: the 10-s window ending with second\n"
      "N (--up-to, default: the end of the recording) and second --second at 1 ms (default:\n"
      "the window's last). --sts names the entry methods (the program's .util.sts).\n";

} // namespace

int renderLive(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    cli::CommandLine cl;
    cl.parser = cli::ArgParser(
        { "replay", "output", "width", "height", "up-to", "second", "sts" }, { "help" });
    if (!cl.parser.parse(args))
        return cli::usageError(err, "render live", cl.parser.error());
    if (cl.parser.flag("help")) {
        out << kLiveRenderHelp;
        return cli::kExitOk;
    }
    if (!cl.parser.positionals().empty())
        return cli::usageError(err, "render live",
            "unexpected argument '" + cl.parser.positionals()[0]
                + "' (the view reads --replay FILE)");
    const auto replay = cl.parser.value("replay");
    const auto output = cl.parser.value("output");
    if (!replay)
        return cli::usageError(err, "render live", "missing --replay FILE");
    if (!output)
        return cli::usageError(err, "render live", "missing -o OUT.png");
    std::int64_t width = 1600;
    std::int64_t height = 900;
    std::int64_t upTo = 0;
    std::int64_t second = -1;
    for (const auto& [name, target, low] :
        { std::tuple<const char*, std::int64_t*, std::int64_t> { "width", &width, 100 },
            { "height", &height, 100 }, { "up-to", &upTo, 1 }, { "second", &second, 0 } })
        if (const int rc
            = cli::readIntOption("render live", cl, name, low, 1'000'000'000, *target, err);
            rc != cli::kExitOk)
            return rc;
    auto recording = io::stream::readStreamRecording(*replay);
    if (!recording.ok) {
        err << "parallax-cli render: " << recording.error << "\n";
        return cli::kExitFatal;
    }
    if (!recording.cut.empty())
        err << "parallax-cli render: warning: " << recording.cut << "\n";
    views::LiveUtilizationView view;
    if (const auto sts = cl.parser.value("sts")) {
        core::ImportReport report;
        const auto read = io::readSts(*sts, report);
        if (!read.ok) {
            err << "parallax-cli render: " << read.error << "\n";
            return cli::kExitFatal;
        }
        view.setEntryNames(core::stream::streamEntryNames(read.metadata));
    }
    view.setReplay(true);
    std::vector<std::vector<std::uint8_t>> payloads;
    for (auto& reply : recording.replies)
        payloads.push_back(std::move(reply.payload));
    view.appendPayloads(payloads);
    view.setConnectionStatus(
        QString::fromStdString(*replay + " (recorded from " + recording.source + ")"),
        QObject::tr("replay"), 0, {});
    if (upTo > 0)
        view.showUpTo(static_cast<std::size_t>(upTo));
    if (second >= 0)
        view.selectSecond(static_cast<std::size_t>(second));
    view.resize(static_cast<int>(width), static_cast<int>(height));
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.show();
    const QImage image = view.grab().toImage();
    if (image.isNull() || !image.save(QString::fromStdString(*output), "PNG")) {
        err << "parallax-cli render: could not write " << *output
            << " (check the folder exists and is writable)\n";
        return cli::kExitFatal;
    }
    return cli::kExitOk;
}

} // namespace parallax::render
