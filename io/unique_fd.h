#pragma once

#include <unistd.h>
#include <utility>

namespace parallax::io {

// Owns a file descriptor and closes it (the index's readers and writers).
class UniqueFd {
public:
    explicit UniqueFd(int fd = -1)
        : m_fd(fd)
    { }
    ~UniqueFd()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    [[nodiscard]] int get() const { return m_fd; }
    // Gives up ownership (to close it oneself and see the error).
    int release() { return std::exchange(m_fd, -1); }

private:
    int m_fd;
};

} // namespace parallax::io
