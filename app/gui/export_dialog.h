#pragma once

#include <QDialog>
#include <QSize>

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

} // namespace parallax::app
