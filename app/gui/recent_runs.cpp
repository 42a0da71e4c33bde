#include "recent_runs.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace parallax::app {

namespace {
const QString kSettingsKey = QStringLiteral("recentRuns");
}

RecentRuns::RecentRuns(bool persistent)
    : m_persistent(persistent)
{
    if (!m_persistent)
        return;
    const QStringList stored = QSettings().value(kSettingsKey).toStringList();
    for (const auto& path : stored)
        if (!path.isEmpty() && !m_paths.contains(path) && m_paths.size() < kMaxRuns)
            m_paths << path;
}

QString RecentRuns::normalized(const QString& path)
{
    return QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

void RecentRuns::add(const QString& path)
{
    const QString p = normalized(path);
    m_paths.removeAll(p);
    m_paths.prepend(p);
    while (m_paths.size() > kMaxRuns)
        m_paths.removeLast();
    save();
}

void RecentRuns::remove(const QString& path)
{
    if (m_paths.removeAll(normalized(path)) > 0)
        save();
}

void RecentRuns::clear()
{
    m_paths.clear();
    save();
}

void RecentRuns::save() const
{
    if (m_persistent)
        QSettings().setValue(kSettingsKey, m_paths);
}

} // namespace parallax::app
