#pragma once

// Waiting in Qt tests: processes events until a condition holds (a computation that runs on the
// thread pool has delivered its result), failing the test after a timeout.

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTest>

#include <catch2/catch.hpp>

#include <functional>

namespace parallax::test {

inline void waitUntil(const std::function<bool()>& done, int timeoutMs = 30'000)
{
    QElapsedTimer timer;
    timer.start();
    QCoreApplication::processEvents();
    while (!done() && timer.elapsed() < timeoutMs)
        QTest::qWait(5);
    REQUIRE(done());
    QCoreApplication::processEvents();
}

} // namespace parallax::test
