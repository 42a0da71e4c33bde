#pragma once

// Sets (or unsets) an environment variable for the lifetime of the object and restores the
// previous value afterwards, also when a REQUIRE ends the test case early.

#include <cstdlib>
#include <optional>
#include <string>

namespace parallax::test {

class ScopedEnv {
public:
    ScopedEnv(std::string name, const std::optional<std::string>& value)
        : m_name(std::move(name))
    {
        if (const char* old = std::getenv(m_name.c_str()))
            m_previous = old;
        set(value);
    }
    ~ScopedEnv() { set(m_previous); }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

    void set(const std::optional<std::string>& value) const
    {
        if (value)
            ::setenv(m_name.c_str(), value->c_str(), 1);
        else
            ::unsetenv(m_name.c_str());
    }

private:
    std::string m_name;
    std::optional<std::string> m_previous;
};

} // namespace parallax::test
