// The files that make Parallax a desktop application (packaging/): the icon's PNG sizes are
// its SVG drawn at each size. After changing resources/parallax.svg, run
// `PARALLAX_UPDATE_GOLDEN=1 build/bin/parallax_gui_tests "[icon]"` to rewrite them.

#include <QImage>
#include <QImageReader>
#include <QString>
#include <QStringList>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>

namespace {

// The mean and the largest difference of two same-sized images' channels (0..255).
struct IconDifference {
    double mean = 0;
    int largest = 0;
};

IconDifference compareIconPixels(const QImage& a, const QImage& b)
{
    IconDifference d;
    long long sum = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y);
            const QRgb q = b.pixel(x, y);
            for (const int delta : { qRed(p) - qRed(q), qGreen(p) - qGreen(q), qBlue(p) - qBlue(q),
                     qAlpha(p) - qAlpha(q) }) {
                sum += std::abs(delta);
                d.largest = std::max(d.largest, std::abs(delta));
            }
        }
    d.mean = static_cast<double>(sum) / (4.0 * a.width() * a.height());
    return d;
}

} // namespace

TEST_CASE("the icon's PNG sizes are its SVG drawn at each size", "[icon]")
{
    const QString svg = QStringLiteral(PARALLAX_SOURCE_DIR "/resources/parallax.svg");
    const bool update = std::getenv("PARALLAX_UPDATE_GOLDEN") != nullptr;
    const QStringList sizes = QStringLiteral(PARALLAX_ICON_SIZES).split(QLatin1Char(','));
    REQUIRE(sizes.size() >= 4);
    for (const QString& text : sizes) {
        const int size = text.toInt();
        INFO("size " << size);
        QImageReader reader(svg);
        reader.setScaledSize(QSize(size, size));
        const QImage drawn = reader.read().convertToFormat(QImage::Format_ARGB32);
        REQUIRE(!drawn.isNull()); // needs Qt's SVG image plugin (Debian: libqt6svg6)
        const QString png = QStringLiteral(PARALLAX_SOURCE_DIR "/packaging/icons/%1.png").arg(size);
        if (update)
            REQUIRE(drawn.save(png));
        const QImage committed = QImage(png).convertToFormat(QImage::Format_ARGB32);
        REQUIRE(committed.size() == QSize(size, size));
        // Another Qt may antialias edges a little differently, never draw another picture.
        const auto difference = compareIconPixels(drawn, committed);
        CHECK(difference.mean < 2.0);
        CHECK(difference.largest < 96);
    }
}
