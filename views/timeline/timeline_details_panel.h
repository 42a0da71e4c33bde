#pragma once

#include "views/timeline/timeline_details.h"
#include "views/timeline/timeline_geometry.h"

#include <QFrame>

class QCheckBox;
class QLabel;
class QSpinBox;

namespace parallax::views {

// The Timeline's side panel for the selected execution: its details (describeExecution), the
// message path the arrows show, "highlight all executions of this entry" / "… of this object",
// and how many message hops the arrows trace back.
class TimelineDetailsPanel : public QFrame {
    Q_OBJECT
public:
    explicit TimelineDetailsPanel(QWidget* parent = nullptr);

    // `path`: the arrows back (receiver first); `forward`: the messages it sent, received.
    void showDetails(const ExecutionDetails& details, const std::vector<MessageLink>& path,
        const std::vector<MessageLink>& forward = {});
    [[nodiscard]] QString text() const; // the shown details as plain text (tests, copying)

    [[nodiscard]] QCheckBox* highlightEntry() const { return m_entry; }
    [[nodiscard]] QCheckBox* highlightObject() const { return m_object; }
    [[nodiscard]] QSpinBox* backTraceHops() const { return m_hops; }

signals:
    void highlightChanged(); // either check box
    void backTraceHopsChanged(int hops);
    void closeRequested();

private:
    QLabel* m_title = nullptr;
    QLabel* m_fields = nullptr;
    QLabel* m_path = nullptr;
    QCheckBox* m_entry = nullptr;
    QCheckBox* m_object = nullptr;
    QSpinBox* m_hops = nullptr;
    QString m_plain;
};

} // namespace parallax::views
