#include "pe_log_listing.h"

#include "byte_source.h"
#include "core/text_args.h"
#include "core/trace.h"
#include "line_reader.h"
#include "log_line_parser.h"

namespace parallax::io {

core::analysis::LogListing readLogListing(const core::Trace& trace, core::PeId pe,
    const core::analysis::LogFilter& filter, const core::analysis::Progress& progress)
{
    core::analysis::LogListing listing;
    listing.pe = pe;
    const auto& paths = trace.files.logPaths;
    if (pe < 0 || static_cast<std::size_t>(pe) >= paths.size()
        || paths[static_cast<std::size_t>(pe)].empty()) {
        std::vector<core::PeId> with;
        for (std::size_t p = 0; p < paths.size(); ++p)
            if (!paths[p].empty())
                with.push_back(static_cast<core::PeId>(p));
        listing.error = with.empty() ? std::string("this run has no logs")
                                     : "PE " + std::to_string(pe)
                + " has no log in this run (PEs with a log: " + core::formatPeList(with) + ")";
        return listing;
    }
    const auto& path = paths[static_cast<std::size_t>(pe)];
    listing.file = path.substr(path.find_last_of('/') + 1);
    std::string error;
    auto source = ByteSource::open(path, error);
    if (!source) {
        listing.error = error;
        return listing;
    }
    LineReader lines(*source);
    LogLineParser parser(trace.metadata);
    core::LogRecord record;
    std::string why;
    std::string_view line;
    while (lines.next(line)) {
        if ((lines.lineNumber() & 0x3FFFU) == 0) {
            if (progress.isCancelled())
                break;
            if (progress.report && source->fileSize() > 0)
                progress.report(static_cast<double>(lines.bytesConsumed())
                    / static_cast<double>(source->fileSize()));
        }
        ++listing.linesRead;
        if (line.empty() || (lines.lineNumber() == 1 && line.starts_with("PROJECTIONS-RECORD")))
            continue;
        core::analysis::LogLine row;
        if (parser.parse(line, record, why) == ParseStatus::Ok) {
            if (!core::analysis::passesRangeAndType(record.type, record.time, false, filter))
                continue;
            row = core::analysis::decodeLogRecord(record, lines.lineNumber(), trace.metadata);
        } else {
            ++listing.malformed;
            if (!core::analysis::passesRangeAndType({}, 0, true, filter))
                continue;
            row = core::analysis::malformedLogLine(lines.lineNumber(), line, why);
        }
        if (!core::analysis::passesSearch(row, filter, trace.metadata))
            continue;
        if (filter.limit > 0 && listing.lines.size() >= filter.limit) {
            listing.truncated = true;
            break;
        }
        listing.lines.push_back(std::move(row));
    }
    if (lines.failed() && listing.lines.empty())
        listing.error = lines.error();
    return listing;
}

} // namespace parallax::io
