#pragma once

#include "output_file.h"
#include "text_buffer.h"
#include "trace_types.h"

#include <cstdint>

namespace parallax::gen {

// Records per trace buffer of the Charm++ writer (+logsize default). A log with more
// records is "flushed": every new buffer starts with a BEGIN_INTERRUPT/END_INTERRUPT pair.
inline constexpr std::uint64_t kLogBufferRecords = 1000000;

// Formats log records exactly as the Charm++ text writer does (docs/format.md §2.1, 2.3 and
// Appendix A): the type, then every field preceded by one space, one record per line.
// Sample lines (BEGIN_PROCESSING of Worker::compute on element 24, its END, the group
// broadcast of WorkerMgr::startStep, a multicast in the Charm++ >= 7.0 form):
//   2 4 13 3171 16 3 72 0 24 57635
//   3 0 13 3462 16 3 0 57897
//   20 23 17 2932 18 0 128 7 8
//   21 5 18 20487 150 0 176 2 8 8 0 1 2 3 4 5 6 7
class LogWriter {
public:
    // `recordCount`: records the log will hold, for the PROJECTIONS-RECORD header (the
    // records of the first buffer only when the log is flushed). `text` is the writing
    // thread's buffer, reused from PE to PE (allocating and zeroing a fresh megabyte per PE
    // cost more than formatting a small PE's log); its contents are discarded.
    LogWriter(OutputFile& file, std::uint64_t recordCount, TextBuffer& text);

    void write(const TraceRecord& record);
    // Writes out what is buffered; false if the file failed (see OutputFile::error()).
    bool flush();

private:
    void format(const TraceRecord& record);

    OutputFile& m_file;
    TextBuffer& m_text;
    std::uint64_t m_recordsInBuffer = 0;
    TimeUs m_lastTime = 0;
};

} // namespace parallax::gen
