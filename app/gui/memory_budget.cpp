#include "memory_budget.h"

#include "core/text_args.h"

#include <QObject>
#include <QSettings>
#include <QString>

#include <cstdlib>
#include <unistd.h>

namespace parallax::app {

namespace {

std::uint64_t parsed(const QString& text)
{
    if (text.trimmed().isEmpty())
        return 0;
    return core::parseByteSize(text.trimmed().toStdString()).value_or(0);
}

} // namespace

const char* memoryBudgetSource()
{
    if (const char* env = std::getenv("PARALLAX_MEMORY_BUDGET"))
        if (parsed(QString::fromLocal8Bit(env)) > 0)
            return "environment";
    const QSettings settings;
    if (parsed(settings.value(QStringLiteral("memoryBudget")).toString()) > 0)
        return "setting";
    return "default";
}

bool setMemoryBudgetSetting(const QString& text, QString* error)
{
    QSettings settings;
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty()) {
        settings.remove(QStringLiteral("memoryBudget"));
        return true;
    }
    std::string why;
    const auto bytes = core::parseByteSize(trimmed.toStdString(), &why);
    if (!bytes || *bytes == 0) {
        if (error != nullptr)
            *error = why.empty() ? QObject::tr("the budget must be above 0")
                                 : QString::fromStdString(why);
        return false;
    }
    settings.setValue(QStringLiteral("memoryBudget"), trimmed);
    return true;
}

std::uint64_t memoryBudget()
{
    if (const char* env = std::getenv("PARALLAX_MEMORY_BUDGET"))
        if (const auto bytes = parsed(QString::fromLocal8Bit(env)); bytes > 0)
            return bytes;
    const QSettings settings;
    if (const auto bytes = parsed(settings.value(QStringLiteral("memoryBudget")).toString());
        bytes > 0)
        return bytes;
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long pageSize = ::sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || pageSize <= 0)
        return 0; // unknown: no limit
    return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize) / 2;
}

} // namespace parallax::app
