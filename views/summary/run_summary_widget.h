#pragma once

#include "core/analysis/summary_profiles.h"
#include "core/trace.h"

#include <QHash>
#include <QString>
#include <QWidget>

#include <vector>

class QCheckBox;
class QFormLayout;
class QGridLayout;
class QLabel;

namespace parallax::views {

class AsyncComputation;
class SummaryGraphWidget;

// The first page of an opened run: what it is (name, directory, machine, Charm++ and log-format
// versions, processors and SMP layout, entry methods, user events), when it ran (begin, end,
// duration, events), which files it has (logs, summaries, missing PEs, import problems) and,
// when .sum files exist, the whole-run utilisation graph. Reads only the immutable trace.
class RunSummaryWidget : public QWidget {
    Q_OBJECT
public:
    explicit RunSummaryWidget(QWidget* parent = nullptr);

    // Shows `trace`; null clears every field. The graph's average over the summaries
    // (O(PEs x bins)) is computed off the GUI thread and appears when ready.
    void setTrace(core::TracePtr trace);
    // True while the graph's average is being computed.
    [[nodiscard]] bool graphPending() const;
    [[nodiscard]] const core::TracePtr& trace() const { return m_trace; }

    // The shown value of a field, as plain text, e.g. fieldText("machine"). Keys: name,
    // directory, commandLine, machine, charmVersion, formatVersion, recorded, user, processors,
    // smpNodes, commThreads, entries, userEvents, begin, end, duration, events, logs, sums, sumds,
    // missingPes, importReport, notice, graphCaption. Empty for an unknown key.
    [[nodiscard]] QString fieldText(const QString& key) const;
    // Whether the field's row is shown (rows that do not apply to a run are hidden).
    [[nodiscard]] bool isFieldVisible(const QString& key) const;
    [[nodiscard]] SummaryGraphWidget* graphWidget() const { return m_graph; }
    // "Include comm threads" under the graph's caption (shown for runs whose comm threads have
    // .sum files): averages them with the workers.
    [[nodiscard]] QCheckBox* commThreadsBox() const { return m_commThreads; }

signals:
    // The user clicked "show" next to the import-report counts.
    void importReportRequested();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QLabel* addField(QFormLayout* form, const QString& key, const QString& label);
    void setField(const QString& key, const QString& text, bool visible = true);
    void arrangeSections();
    void showGraph(core::analysis::SummaryAverage series);
    void computeGraph();

    core::TracePtr m_trace;
    QHash<QString, QLabel*> m_fields;
    QHash<QString, QFormLayout*> m_fieldForms; // form of each field that sits in a section
    std::vector<QWidget*> m_sections;
    QGridLayout* m_sectionGrid = nullptr;
    int m_sectionColumns = 0;
    QLabel* m_graphHeading = nullptr;
    QLabel* m_noGraph = nullptr;
    SummaryGraphWidget* m_graph = nullptr;
    AsyncComputation* m_graphComputation = nullptr;
    QCheckBox* m_commThreads = nullptr;
};

} // namespace parallax::views
