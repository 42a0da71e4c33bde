// main() for the views tests: a QApplication (offscreen unless a platform is set), then Catch2.
// The views need a QApplication for fonts, widgets and queued results; tests render offscreen.
#define CATCH_CONFIG_RUNNER
#include <QApplication>

#include <catch2/catch.hpp>

#include <cstdlib>

int main(int argc, char** argv)
{
    if (std::getenv("QT_QPA_PLATFORM") == nullptr)
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ParallaxTests"));
    QApplication::setApplicationName(QStringLiteral("ParallaxViewsTests"));
    return Catch::Session().run(argc, argv);
}
