#pragma once

#include <QDialog>
#include <QSize>
#include <QString>

class QSpinBox;
class QCheckBox;

namespace parallax::app {

// Asks for the picture size of a chart export: the size on screen, or a chosen one.
class ExportSizeDialog : public QDialog {
    Q_OBJECT
public:
    ExportSizeDialog(QSize screenSize, QWidget* parent = nullptr);
    [[nodiscard]] QSize size() const;

private:
    QSize m_screen;
    QCheckBox* m_useScreen = nullptr;
    QSpinBox* m_width = nullptr;
    QSpinBox* m_height = nullptr;
};

// Where File → Export dialogs start: the folder of the user's last export (remembered in
// QSettings under kExportDirectoryKey), else the Documents folder, else home — never the run's
// directory (runs often sit on read-only or shared storage, and exports are the user's files).
inline constexpr const char* kExportDirectoryKey = "exportDirectory";
QString exportStartDirectory();
// The suggested file name `fileName` in exportStartDirectory().
QString suggestedExportPath(const QString& fileName);
// Remembers the folder of `savedFile` for the next export.
void rememberExportDirectory(const QString& savedFile);

} // namespace parallax::app
