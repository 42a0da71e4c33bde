#include "views/common/apng_writer.h"

#include "views/common/analysis_view.h"

#include <QDir>
#include <QSaveFile>

#include <algorithm>
#include <array>
#include <vector>

namespace parallax::views {

namespace {

void appendU32(QByteArray& out, std::uint32_t v)
{
    for (const int shift : { 24, 16, 8, 0 })
        out.append(static_cast<char>((v >> shift) & 0xFFU));
}

void appendU16(QByteArray& out, std::uint16_t v)
{
    out.append(static_cast<char>((v >> 8) & 0xFFU));
    out.append(static_cast<char>(v & 0xFFU));
}

// The rows of `image` inside `rect` as PNG scanlines of 8-bit RGB, each with its filter byte: the
// first unfiltered, the others "Up" (the difference to the row above), which turns the flat areas
// of a chart into runs of zeros for zlib.
QByteArray scanlines(const QImage& image, QRect rect)
{
    const auto stride = static_cast<std::size_t>(rect.width()) * 3;
    QByteArray out(static_cast<qsizetype>((stride + 1) * static_cast<std::size_t>(rect.height())),
        Qt::Uninitialized);
    auto* o = reinterpret_cast<unsigned char*>(out.data());
    std::vector<unsigned char> previous(stride, 0);
    std::vector<unsigned char> row(stride, 0);
    for (int y = rect.top(); y <= rect.bottom(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < rect.width(); ++x) {
            const QRgb p = line[rect.left() + x];
            const auto i = static_cast<std::size_t>(x) * 3;
            row[i] = static_cast<unsigned char>(qRed(p));
            row[i + 1] = static_cast<unsigned char>(qGreen(p));
            row[i + 2] = static_cast<unsigned char>(qBlue(p));
        }
        const bool up = y > rect.top();
        *o++ = up ? 2 : 0;
        for (std::size_t i = 0; i < stride; ++i)
            *o++ = up ? static_cast<unsigned char>(row[i] - previous[i]) : row[i];
        std::swap(previous, row);
    }
    return out;
}

// The smallest rectangle holding every pixel that differs (at least one pixel).
QRect changedRect(const QImage& before, const QImage& after)
{
    int top = after.height();
    int bottom = -1;
    int left = after.width();
    int right = -1;
    for (int y = 0; y < after.height(); ++y) {
        const auto* a = reinterpret_cast<const QRgb*>(before.constScanLine(y));
        const auto* b = reinterpret_cast<const QRgb*>(after.constScanLine(y));
        for (int x = 0; x < after.width(); ++x)
            if (a[x] != b[x]) {
                top = std::min(top, y);
                bottom = y;
                left = std::min(left, x);
                right = std::max(right, x);
            }
    }
    if (bottom < 0)
        return QRect(0, 0, 1, 1);
    return QRect(QPoint(left, top), QPoint(right, bottom));
}

} // namespace

std::uint32_t pngCrc(const QByteArray& data, std::uint32_t crc)
{
    static const auto table = [] {
        std::array<std::uint32_t, 256> t {};
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k)
                c = (c & 1U) != 0 ? 0xEDB88320U ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    crc = ~crc;
    for (const char byte : data)
        crc = table[(crc ^ static_cast<unsigned char>(byte)) & 0xFFU] ^ (crc >> 8);
    return ~crc;
}

ApngWriter::ApngWriter() = default;
ApngWriter::~ApngWriter() = default; // an unfinished file is discarded (QSaveFile)

bool ApngWriter::writeChunk(const char* type, const QByteArray& data, QString* error)
{
    QByteArray chunk;
    appendU32(chunk, static_cast<std::uint32_t>(data.size()));
    QByteArray body(type, 4);
    body.append(data);
    chunk.append(body);
    appendU32(chunk, pngCrc(body));
    if (m_file->write(chunk) != chunk.size()) {
        if (error != nullptr)
            *error = m_file->errorString();
        return false;
    }
    return true;
}

bool ApngWriter::open(const QString& path, QSize size, int frames, int delayMs, QString* error)
{
    m_file = std::make_unique<QSaveFile>(path);
    if (!m_file->open(QIODevice::WriteOnly)) {
        if (error != nullptr)
            *error = m_file->errorString();
        return false;
    }
    m_size = size;
    m_frames = std::max(frames, 1);
    m_delayMs = std::clamp(delayMs, 1, 65535);
    m_written = 0;
    m_sequence = 0;
    m_previous = QImage();
    m_file->write(QByteArray("\x89PNG\r\n\x1a\n", 8));
    QByteArray header;
    appendU32(header, static_cast<std::uint32_t>(size.width()));
    appendU32(header, static_cast<std::uint32_t>(size.height()));
    header.append(QByteArray("\x08\x02\x00\x00\x00", 5)); // 8-bit RGB, deflate, no interlace
    QByteArray control;
    appendU32(control, static_cast<std::uint32_t>(m_frames));
    appendU32(control, 0); // loop forever
    return writeChunk("IHDR", header, error) && writeChunk("acTL", control, error);
}

bool ApngWriter::addFrame(const QImage& frame, QString* error)
{
    if (!m_file || m_written >= m_frames) {
        if (error != nullptr)
            *error = QObject::tr("more frames than announced");
        return false;
    }
    QImage image = frame.convertToFormat(QImage::Format_RGB32);
    if (image.size() != m_size)
        image = image.scaled(m_size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    const QRect rect = m_previous.isNull() ? image.rect() : changedRect(m_previous, image);
    QByteArray control;
    appendU32(control, m_sequence++);
    appendU32(control, static_cast<std::uint32_t>(rect.width()));
    appendU32(control, static_cast<std::uint32_t>(rect.height()));
    appendU32(control, static_cast<std::uint32_t>(rect.left()));
    appendU32(control, static_cast<std::uint32_t>(rect.top()));
    appendU16(control, static_cast<std::uint16_t>(m_delayMs));
    appendU16(control, 1000); // delay in ms
    control.append('\0'); // dispose: leave the frame as it is
    control.append('\0'); // blend: replace the region
    // qCompress gives a zlib stream after a 4-byte length of its own.
    const QByteArray data = qCompress(scanlines(image, rect), 6).mid(4);
    bool ok = writeChunk("fcTL", control, error);
    if (m_previous.isNull()) {
        ok = ok && writeChunk("IDAT", data, error);
    } else {
        QByteArray frameData;
        appendU32(frameData, m_sequence++);
        frameData.append(data);
        ok = ok && writeChunk("fdAT", frameData, error);
    }
    m_previous = std::move(image);
    ++m_written;
    return ok;
}

bool ApngWriter::finish(QString* error)
{
    if (!m_file)
        return false;
    if (m_written != m_frames) {
        if (error != nullptr)
            *error = QObject::tr("%1 frames announced, %2 written").arg(m_frames).arg(m_written);
        m_file->cancelWriting();
        return false;
    }
    if (!writeChunk("IEND", {}, error) || !m_file->commit()) {
        if (error != nullptr && error->isEmpty())
            *error = m_file->errorString();
        return false;
    }
    m_file.reset();
    return true;
}

bool writeAnimatedPng(
    AnalysisView& view, const QString& path, QSize size, int delayMs, QString* error)
{
    const int frames = view.frameCount();
    if (frames <= 0) {
        if (error != nullptr)
            *error = QObject::tr("the %1 view has no frames").arg(viewTitle(view.kind()));
        return false;
    }
    ApngWriter writer;
    if (!writer.open(path, size, frames, delayMs, error))
        return false;
    for (int f = 0; f < frames; ++f)
        if (!writer.addFrame(view.renderFrame(f, size), error))
            return false;
    return writer.finish(error);
}

bool writeFrameSequence(AnalysisView& view, const QString& directory, QSize size, QString* error)
{
    const int frames = view.frameCount();
    if (frames <= 0 || !QDir().mkpath(directory)) {
        if (error != nullptr)
            *error = frames <= 0
                ? QObject::tr("the %1 view has no frames").arg(viewTitle(view.kind()))
                : QObject::tr("cannot create the folder %1").arg(directory);
        return false;
    }
    const int digits = std::max(4, static_cast<int>(QString::number(frames).size()));
    for (int f = 0; f < frames; ++f) {
        const QString name
            = QStringLiteral("frame-%1.png").arg(f + 1, digits, 10, QLatin1Char('0'));
        QSaveFile file(QDir(directory).filePath(name));
        if (!file.open(QIODevice::WriteOnly) || !view.renderFrame(f, size).save(&file, "PNG")
            || !file.commit()) {
            if (error != nullptr)
                *error = QObject::tr("could not write %1: %2").arg(name, file.errorString());
            return false;
        }
    }
    return true;
}

} // namespace parallax::views
