#pragma once

#include <QString>
#include <QStringList>

namespace parallax::app {

// The most recently opened runs (directories or .sts paths, absolute, newest first), kept in
// QSettings under "recentRuns" when persistent.
class RecentRuns {
public:
    static constexpr qsizetype kMaxRuns = 8;

    explicit RecentRuns(bool persistent);

    [[nodiscard]] const QStringList& paths() const { return m_paths; }
    // Puts `path` first (moving it if present) and drops the oldest beyond kMaxRuns.
    void add(const QString& path);
    void remove(const QString& path);
    void clear();

    // The form a path is stored in: absolute and clean, without a trailing separator.
    [[nodiscard]] static QString normalized(const QString& path);

private:
    void save() const;

    bool m_persistent = false;
    QStringList m_paths;
};

} // namespace parallax::app
