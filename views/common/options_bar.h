#pragma once

#include "core/analysis/analysis_request.h"
#include "core/trace.h"

#include <QWidget>

#include <functional>
#include <optional>
#include <vector>

class QCheckBox;
class QLabel;
class QLineEdit;
class QComboBox;
class QHBoxLayout;
class QMenu;
class QToolButton;
class QVBoxLayout;

namespace parallax::views {

// The row of options above every view: a time range with units ("10ms" .. "25ms"), a PE list
// ("0-3,5,7-15:2"), and view-specific fields (interval size or bins, metric, criterion …)
// that views add with addField()/addChoice(). Bad input is rejected with a message next to the
// fields that names every bad field and says that nothing was applied; the last good values
// stay in force. Pressing Enter (or choosing in a combo box) applies: applied() fires with the
// parsed values. The range starts as the run's traced span (core::analysis::tracedRunSpan).
// On SMP runs with comm threads, views that offer it get an "Include comm threads" box (off by
// default) that says whether they count in averages, sums and rankings; toggling it applies.
// Next to the range, "Iterations…" takes "5" or "5-9" of the run's iterations (found once per
// run by the app, setRunIterations) and makes their time the range; without iterations it is
// disabled and its tooltip says why.
class OptionsBar : public QWidget {
    Q_OBJECT
public:
    explicit OptionsBar(QWidget* parent = nullptr);

    // Resets the fields to the whole run and all PEs.
    void setTrace(const core::TracePtr& trace);
    void setRange(core::TimeRange range);
    void setPes(const std::vector<core::PeId>& pes); // empty = all
    // A view's setSelection(): the range (an empty one: the run's traced span) and the PEs.
    void setSelection(core::TimeRange range, const std::vector<core::PeId>& pes);

    [[nodiscard]] core::TimeRange range() const { return m_range; }
    [[nodiscard]] const std::vector<core::PeId>& pes() const { return m_pes; } // empty = all
    // Whether comm threads count in averages, sums over PEs and rankings (AnalysisRequest).
    [[nodiscard]] bool includeCommThreads() const { return m_includeCommThreads; }
    // What the fields ask of an analysis: the range, the PEs and whether comm threads count.
    [[nodiscard]] core::analysis::AnalysisRequest request() const
    {
        core::analysis::AnalysisRequest r;
        r.range = m_range;
        r.pes = m_pes;
        r.includeCommThreads = m_includeCommThreads;
        return r;
    }
    void setIncludeCommThreads(bool include);
    // Views whose numbers depend on it show the "Include comm threads" box (on SMP runs with
    // comm threads only); call before setTrace().
    void offerCommThreads() { m_offerCommThreads = true; }

    // The run's iterations (core::analysis::findIterations over the whole run), for the
    // "Iterations…" chooser: nullopt while they are being found. They stay with `run` (a later
    // setTrace() of another run forgets them).
    void setRunIterations(
        const core::Trace* run, std::optional<std::vector<core::TimeRange>> iterations);
    // What the chooser's field does on Enter: the range becomes [begin of the first, end of the
    // last] of "5" or "5-9" and is applied; false (range unchanged, the message shown) otherwise.
    bool applyIterations(const QString& text);
    // "5", "5-9" (also "5–9", "5..9") of `count` iterations numbered from 0; nullopt with the
    // reason in *error otherwise. Shared with the Iterations view.
    static std::optional<std::pair<std::size_t, std::size_t>> parseIterationField(
        const QString& text, std::size_t count, QString* error);

    // A free-text field with a validator: returns the error message or std::nullopt.
    using Validator = std::function<std::optional<QString>(const QString&)>;
    QLineEdit* addField(
        const QString& label, const QString& initial, Validator validator, int widthChars = 8);
    QComboBox* addChoice(const QString& label, const QStringList& items);
    // The two fields of a time-axis view: "Interval" (a time with a unit, object name
    // "interval") or a count of intervals (`countLabel`, e.g. "&Bins", object name `countName`,
    // 1..maxCount, `countWhat` in its tooltip, empty = defaultCount), never both.
    struct IntervalFields {
        QLineEdit* interval = nullptr;
        QLineEdit* count = nullptr;
    };
    IntervalFields addIntervalFields(const QString& countLabel, const QString& countName,
        const QString& countWhat, long long defaultCount, long long maxCount);

    // The message shown next to the fields (empty when everything is valid).
    [[nodiscard]] QString errorText() const;
    // Parses and applies all fields; returns false (and shows why) when one is invalid.
    bool apply();
    // apply(), and when it fails the message in *error (views' applyOptions).
    bool applyOrExplain(QString* error);

    // Parsers shared with tests: a time with units; a PE list limited to the run's PEs.
    static std::optional<core::TimeUs> parseTimeField(const QString& text, QString* error);
    static std::optional<std::vector<core::PeId>> parsePeField(
        const QString& text, core::PeId processors, QString* error);
    // An entry id list ("3,7-9") of `trace`'s entry methods (any ids without a trace), for
    // --entries; the message in *error otherwise.
    static std::optional<std::vector<core::EntryId>> parseEntryField(
        const QString& text, const core::Trace* trace, QString* error);

signals:
    void applied();

private:
    void showError(const QString& message);
    void showIterationsChooser();
    void updateIterationsButton();

    core::TracePtr m_trace;
    core::TimeRange m_range;
    std::vector<core::PeId> m_pes;
    bool m_includeCommThreads = false;
    bool m_offerCommThreads = false;
    QCheckBox* m_commThreads = nullptr;
    QLineEdit* m_begin = nullptr;
    QLineEdit* m_end = nullptr;
    QLineEdit* m_peList = nullptr;
    QToolButton* m_iterationsButton = nullptr;
    QMenu* m_iterationsMenu = nullptr;
    QLineEdit* m_iterationsField = nullptr;
    QLabel* m_iterationsHint = nullptr;
    const core::Trace* m_iterationsRun = nullptr;
    std::optional<std::vector<core::TimeRange>> m_iterations;
    QHBoxLayout* m_fields = nullptr;
    QLabel* m_error = nullptr;
    std::vector<std::pair<QLineEdit*, Validator>> m_extraFields;
};

// The top of a view: a row with the options bar (stretching) and the busy indicator at its right
// (more widgets go before the indicator), first in the view's margin-less vertical layout, which
// the view fills next.
struct OptionsRow {
    QVBoxLayout* layout = nullptr;
    QHBoxLayout* row = nullptr;
};
OptionsRow layOutOptionsRow(QWidget* view, OptionsBar* options, QWidget* busyIndicator);

} // namespace parallax::views
