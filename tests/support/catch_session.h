#pragma once

namespace parallax::test {

// Runs the Catch2 session over the executable's test cases (its implementation is compiled once,
// in support/catch_session.cpp, for every test executable).
int runCatchSession(int argc, char** argv);

} // namespace parallax::test
