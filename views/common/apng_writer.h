#pragma once

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>

#include <memory>

class QSaveFile;

namespace parallax::views {

class AnalysisView;

// Writes an animated PNG (APNG: the PNG chunks plus acTL, fcTL and fdAT), frame by frame, so that
// a long animation never sits in memory. Frames are 8-bit RGB, compressed with zlib (qCompress);
// after the first, each frame holds only the rectangle that changed since the previous one (the
// rest stays). The file is written beside `path` and renamed over it by finish(): a failed or
// abandoned animation leaves no partial file. Viewers without APNG support show the first frame.
class ApngWriter {
public:
    ApngWriter();
    ~ApngWriter();
    ApngWriter(const ApngWriter&) = delete;
    ApngWriter& operator=(const ApngWriter&) = delete;

    // Starts the file: `frames` frames of `size`, each shown `delayMs` ms, looping forever.
    bool open(const QString& path, QSize size, int frames, int delayMs, QString* error);
    // The next frame (converted to `size`'s RGB); exactly `frames` of them before finish().
    bool addFrame(const QImage& frame, QString* error);
    bool finish(QString* error);

private:
    bool writeChunk(const char* type, const QByteArray& data, QString* error);

    std::unique_ptr<QSaveFile> m_file;
    QSize m_size;
    int m_frames = 0;
    int m_written = 0;
    int m_delayMs = 100;
    std::uint32_t m_sequence = 0;
    QImage m_previous;
};

// The CRC-32 of PNG chunks (ISO 3309, as zlib's crc32), over `data` continuing from `crc`.
std::uint32_t pngCrc(const QByteArray& data, std::uint32_t crc = 0);

// Every frame of `view` (AnalysisView::frameCount) at `size` as an animated PNG, or each as
// DIR/frame-0001.png, frame-0002.png, ... (each written atomically; DIR is created if missing).
bool writeAnimatedPng(
    AnalysisView& view, const QString& path, QSize size, int delayMs, QString* error);
bool writeFrameSequence(AnalysisView& view, const QString& directory, QSize size, QString* error);

} // namespace parallax::views
