#include "export_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>

namespace parallax::app {

ExportSizeDialog::ExportSizeDialog(QSize screenSize, QWidget* parent)
    : QDialog(parent)
    , m_screen(screenSize)
{
    setWindowTitle(tr("Export Chart"));
    auto* form = new QFormLayout(this);
    m_useScreen = new QCheckBox(
        tr("Size on screen (%1 × %2)").arg(screenSize.width()).arg(screenSize.height()), this);
    m_useScreen->setChecked(true);
    m_width = new QSpinBox(this);
    m_height = new QSpinBox(this);
    for (auto* box : { m_width, m_height }) {
        box->setRange(200, 16000);
        box->setSuffix(tr(" px"));
        box->setEnabled(false);
    }
    m_width->setValue(std::max(screenSize.width(), 1600));
    m_height->setValue(std::max(screenSize.height(), 900));
    connect(m_useScreen, &QCheckBox::toggled, this, [this](bool screen) {
        m_width->setEnabled(!screen);
        m_height->setEnabled(!screen);
    });
    form->addRow(m_useScreen);
    form->addRow(tr("Width"), m_width);
    form->addRow(tr("Height"), m_height);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

QSize ExportSizeDialog::size() const
{
    return m_useScreen->isChecked() ? m_screen : QSize(m_width->value(), m_height->value());
}

QString exportStartDirectory()
{
    const QString remembered = QSettings().value(QLatin1String(kExportDirectoryKey)).toString();
    if (!remembered.isEmpty() && QFileInfo(remembered).isDir())
        return remembered;
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (!documents.isEmpty() && QFileInfo(documents).isDir())
        return documents;
    return QDir::homePath();
}

QString suggestedExportPath(const QString& fileName)
{
    return QDir(exportStartDirectory()).filePath(fileName);
}

void rememberExportDirectory(const QString& savedFile)
{
    const QString folder = QFileInfo(savedFile).absolutePath();
    if (!folder.isEmpty())
        QSettings().setValue(QLatin1String(kExportDirectoryKey), folder);
}

} // namespace parallax::app
