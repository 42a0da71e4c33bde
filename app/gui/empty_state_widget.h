#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QVBoxLayout;

namespace parallax::app {

// What the window shows with no run open: how to open one (menu, buttons, drag and drop) and
// the recent runs as links. While a first run loads it says so.
class EmptyStateWidget : public QWidget {
    Q_OBJECT
public:
    explicit EmptyStateWidget(QWidget* parent = nullptr);

    void setRecentRuns(const QStringList& paths);
    // A line under the hint, e.g. "Opening leanmd…"; empty hides it.
    void setStatus(const QString& text);

signals:
    void openFileRequested();
    void openDirectoryRequested();
    void openRecentRequested(const QString& path);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QLabel* m_title = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_recentHeading = nullptr;
    QVBoxLayout* m_recentList = nullptr;
};

} // namespace parallax::app
