// main() of the view and GUI tests: a QApplication (offscreen unless a platform is set), then
// Catch2. Widgets need it for fonts and queued results. Each executable has its own application
// name (PARALLAX_TEST_APP_NAME), so two suites running at once keep their settings apart.
#include "support/catch_session.h"

#include <QApplication>

#include <cstdlib>

int main(int argc, char** argv)
{
    if (std::getenv("QT_QPA_PLATFORM") == nullptr)
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ParallaxTests"));
    QApplication::setApplicationName(QStringLiteral(PARALLAX_TEST_APP_NAME));
    return parallax::test::runCatchSession(argc, argv);
}
