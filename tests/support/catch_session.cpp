// Catch2's implementation, compiled once and linked into every test executable. main() is in
// catch_main.cpp (plain executables) or qt_test_main.cpp (those that need a QApplication).
#define CATCH_CONFIG_RUNNER
#include "support/catch_session.h"

#include <catch2/catch.hpp>

int parallax::test::runCatchSession(int argc, char** argv)
{
    return Catch::Session().run(argc, argv);
}
