#pragma once

#include <QLocale>
#include <QString>

#include <cstdint>

namespace parallax::views {

// A count with the locale's digit grouping ("12,345").
inline QString countText(std::uint64_t n)
{
    return QLocale().toString(static_cast<qulonglong>(n));
}

// A count and its noun, singular or plural ("1 node", "12,345 events").
inline QString countOf(std::uint64_t n, const QString& one, const QString& many)
{
    return QStringLiteral("%1 %2").arg(countText(n), n == 1 ? one : many);
}

} // namespace parallax::views
