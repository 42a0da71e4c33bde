#pragma once

// Files of named PE lists ("name: 0-15,32" per line, core::analysis::parsePeLists): read and
// written by the Overview, the Usage Profile and the PE lists editor, as `parallax-cli groups
// --by list:FILE` reads them.

#include "core/analysis/pe_groups.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileDialog>
#include <QSaveFile>
#include <QString>

#include <optional>
#include <vector>

namespace parallax::views {

// The file dialogs' filter for PE lists files.
inline QString peListsFilter()
{
    return QCoreApplication::translate(
        "parallax::views", "PE lists (*.txt *.lists);;All files (*)");
}

// The lists of a file; nullopt with one sentence in *error when it cannot be read, is malformed
// or holds no list.
inline std::optional<std::vector<core::analysis::NamedPeList>> readPeListsFile(
    const QString& path, QString* error = nullptr)
{
    const auto tr = [](const char* text) {
        return QCoreApplication::translate("parallax::views", text);
    };
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error != nullptr)
            *error = tr("%1: cannot be read (%2)").arg(path, file.errorString());
        return std::nullopt;
    }
    std::string why;
    auto lists = core::analysis::parsePeLists(file.readAll().toStdString(), &why);
    if (!lists || lists->empty()) {
        if (error != nullptr)
            *error = tr("%1: %2").arg(
                path, lists ? tr("no PE lists in it") : QString::fromStdString(why));
        return std::nullopt;
    }
    return lists;
}

// Writes `lists` so that readPeListsFile reads them back; the file is replaced atomically (a
// temporary sibling renamed at the end). False with one sentence in *error.
inline bool writePeListsFile(const QString& path,
    const std::vector<core::analysis::NamedPeList>& lists, QString* error = nullptr)
{
    QSaveFile file(path);
    const auto text = core::analysis::formatPeLists(lists);
    if (!file.open(QIODevice::WriteOnly)
        || file.write(text.data(), static_cast<qint64>(text.size()))
            != static_cast<qint64>(text.size())
        || !file.commit()) {
        if (error != nullptr)
            *error = QCoreApplication::translate("parallax::views", "%1: cannot be written (%2)")
                         .arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace parallax::views
