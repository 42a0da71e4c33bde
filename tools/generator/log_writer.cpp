#include "log_writer.h"

#include <algorithm>

namespace parallax::gen {

LogWriter::LogWriter(OutputFile& file, std::uint64_t recordCount, TextBuffer& text)
    : m_file(file)
    , m_text(text)
{
    m_text.clear();
    m_text.append("PROJECTIONS-RECORD");
    m_text.appendField(static_cast<std::int64_t>(std::min(recordCount, kLogBufferRecords)));
    m_text.append('\n');
}

void LogWriter::write(const TraceRecord& record)
{
    if (m_recordsInBuffer == kLogBufferRecords) {
        // The writer's buffer is full: it is written out and the next one starts with the
        // interval the flush took ("8 t 0 0", "9 t 0 0"); here it takes no time.
        TraceRecord flush;
        flush.time = m_lastTime;
        flush.type = RecordType::BeginInterrupt;
        format(flush);
        flush.type = RecordType::EndInterrupt;
        format(flush);
        m_recordsInBuffer = 2;
    }
    format(record);
    ++m_recordsInBuffer;
    m_lastTime = std::max(m_lastTime, record.time);
    if (m_text.nearlyFull()) {
        flush();
    }
}

bool LogWriter::flush()
{
    const bool written = m_file.write(m_text.view());
    m_text.clear();
    return written;
}

void LogWriter::format(const TraceRecord& record)
{
    TextBuffer& text = m_text;
    text.appendInt(static_cast<std::int64_t>(record.type));
    switch (record.type) {
    case RecordType::Creation: // mtype ep t ev pe len sendT
        text.appendField(record.messageType);
        text.appendField(record.entry);
        text.appendField(record.time);
        text.appendField(record.event);
        text.appendField(record.pe);
        text.appendField(record.length);
        text.appendField(record.value);
        break;
    case RecordType::BeginProcessing: // mtype ep t ev srcPE len recvT id{n} cpu
        text.appendField(record.messageType);
        text.appendField(record.entry);
        text.appendField(record.time);
        text.appendField(record.event);
        text.appendField(record.pe);
        text.appendField(record.length);
        text.appendField(0);
        for (std::int32_t i = 0; i < record.count; ++i) {
            text.appendField(record.values[static_cast<std::size_t>(i)]);
        }
        text.appendField(record.value);
        break;
    case RecordType::EndProcessing: // mtype ep t ev srcPE len cpu
        text.appendField(record.messageType);
        text.appendField(record.entry);
        text.appendField(record.time);
        text.appendField(record.event);
        text.appendField(record.pe);
        text.appendField(record.length);
        text.appendField(record.value);
        break;
    case RecordType::BeginComputation:
    case RecordType::EndComputation: // t
        text.appendField(record.time);
        break;
    case RecordType::BeginInterrupt:
    case RecordType::EndInterrupt: // t ev pe (both 0 for flush markers)
        text.appendField(record.time);
        text.appendField(0);
        text.appendField(0);
        break;
    case RecordType::UserEvent: // id t ev pe
        text.appendField(record.entry);
        text.appendField(record.time);
        text.appendField(record.event);
        text.appendField(record.pe);
        break;
    case RecordType::BeginIdle:
    case RecordType::EndIdle:
    case RecordType::BeginPack:
    case RecordType::EndPack:
    case RecordType::BeginUnpack:
    case RecordType::EndUnpack: // t pe
        text.appendField(record.time);
        text.appendField(record.pe);
        break;
    case RecordType::CreationBcast: // mtype ep t ev pe len sendT nPEs
        text.appendField(record.messageType);
        text.appendField(record.entry);
        text.appendField(record.time);
        text.appendField(record.event);
        text.appendField(record.pe);
        text.appendField(record.length);
        text.appendField(record.value);
        text.appendField(record.count);
        break;
    case RecordType::CreationMulticast: // Charm++ >= 7.0: ... sendT nPEs nPEs destPE{nPEs}
        text.appendField(record.messageType);
        text.appendField(record.entry);
        text.appendField(record.time);
        text.appendField(record.event);
        text.appendField(record.pe);
        text.appendField(record.length);
        text.appendField(record.value);
        text.appendField(record.count);
        text.appendField(record.count);
        for (std::int32_t i = 0; i < record.count; ++i) {
            text.appendField(record.values[static_cast<std::size_t>(i)]);
        }
        break;
    case RecordType::MemoryUsage: // bytes t
        text.appendField(record.value);
        text.appendField(record.time);
        break;
    case RecordType::UserStat: // t userTime stat pe statId (doubles as %.15g; integral here)
        text.appendField(record.time);
        text.appendField(-1);
        text.appendField(record.value);
        text.appendField(record.pe);
        text.appendField(record.entry);
        break;
    case RecordType::BeginUserEventPair:
    case RecordType::EndUserEventPair:
    case RecordType::UserEventPair: // id t ev pe nestedId
        text.appendField(record.entry);
        text.appendField(record.time);
        text.appendField(record.event);
        text.appendField(record.pe);
        text.appendField(0);
        break;
    }
    text.append('\n');
}

} // namespace parallax::gen
