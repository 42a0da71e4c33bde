#include "memory_budget.h"

#include "core/text_args.h"

#include <QObject>
#include <QSettings>
#include <QString>

#include <cstdlib>
#include <unistd.h>

namespace parallax::app {

namespace {

const QString kSettingKey = QStringLiteral("memoryBudget");

// A typed size in bytes; 0 for empty or unreadable text.
std::uint64_t parsed(const QString& text)
{
    if (text.trimmed().isEmpty())
        return 0;
    return core::parseByteSize(text.trimmed().toStdString()).value_or(0);
}

} // namespace

MemoryBudget currentMemoryBudget()
{
    if (const char* env = std::getenv("PARALLAX_MEMORY_BUDGET"))
        if (const auto bytes = parsed(QString::fromLocal8Bit(env)); bytes > 0)
            return { bytes, MemoryBudget::Source::Environment };
    if (const auto bytes = parsed(QSettings().value(kSettingKey).toString()); bytes > 0)
        return { bytes, MemoryBudget::Source::Setting };
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long pageSize = ::sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || pageSize <= 0)
        return {}; // unknown: no limit
    return { static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize) / 2,
        MemoryBudget::Source::Default };
}

std::uint64_t memoryBudget()
{
    return currentMemoryBudget().bytes;
}

const char* memoryBudgetSource()
{
    switch (currentMemoryBudget().source) {
    case MemoryBudget::Source::Environment:
        return "environment";
    case MemoryBudget::Source::Setting:
        return "setting";
    case MemoryBudget::Source::Default:
        break;
    }
    return "default";
}

bool setMemoryBudgetSetting(const QString& text, QString* error)
{
    QSettings settings;
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty()) {
        settings.remove(kSettingKey);
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
    settings.setValue(kSettingKey, trimmed);
    return true;
}

} // namespace parallax::app
