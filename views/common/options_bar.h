#pragma once

#include "core/trace.h"

#include <QWidget>

#include <functional>
#include <optional>
#include <vector>

class QLabel;
class QLineEdit;
class QComboBox;
class QHBoxLayout;

namespace parallax::views {

// The row of options above every view: a time range with units ("10ms" .. "25ms"), a PE list
// ("0-3,5,7-15:2"), and view-specific fields (interval size or bins, metric, criterion …)
// that views add with addField()/addChoice(). Bad input is rejected with a message next to the
// fields and the last good values stay in force. Pressing Enter (or choosing in a combo box)
// applies: applied() fires with the parsed values.
class OptionsBar : public QWidget {
    Q_OBJECT
public:
    explicit OptionsBar(QWidget* parent = nullptr);

    // Resets the fields to the whole run and all PEs.
    void setTrace(const core::TracePtr& trace);
    void setRange(core::TimeRange range);
    void setPes(const std::vector<core::PeId>& pes); // empty = all

    [[nodiscard]] core::TimeRange range() const { return m_range; }
    [[nodiscard]] const std::vector<core::PeId>& pes() const { return m_pes; } // empty = all

    // A free-text field with a validator: returns the error message or std::nullopt.
    using Validator = std::function<std::optional<QString>(const QString&)>;
    QLineEdit* addField(
        const QString& label, const QString& initial, Validator validator, int widthChars = 8);
    QComboBox* addChoice(const QString& label, const QStringList& items);

    // The message shown next to the fields (empty when everything is valid).
    [[nodiscard]] QString errorText() const;
    // Parses and applies all fields; returns false (and shows why) when one is invalid.
    bool apply();

    // Parsers shared with tests: a time with units; a PE list limited to the run's PEs.
    static std::optional<core::TimeUs> parseTimeField(const QString& text, QString* error);
    static std::optional<std::vector<core::PeId>> parsePeField(
        const QString& text, core::PeId processors, QString* error);

signals:
    void applied();

private:
    void showError(const QString& message);

    core::TracePtr m_trace;
    core::TimeRange m_range;
    std::vector<core::PeId> m_pes;
    QLineEdit* m_begin = nullptr;
    QLineEdit* m_end = nullptr;
    QLineEdit* m_peList = nullptr;
    QHBoxLayout* m_fields = nullptr;
    QLabel* m_error = nullptr;
    std::vector<std::pair<QLineEdit*, Validator>> m_extraFields;
};

} // namespace parallax::views
