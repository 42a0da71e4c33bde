#include "views/import_report/import_report_widget.h"

#include "core/text_args.h"
#include "views/common/count_format.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace parallax::views {

namespace {

enum Column { ProblemColumn, CountColumn, KeyColumn };

QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QIcon severityIcon(const QStyle* style, core::Severity severity)
{
    switch (severity) {
    case core::Severity::Error:
        return style->standardIcon(QStyle::SP_MessageBoxCritical);
    case core::Severity::Warning:
        return style->standardIcon(QStyle::SP_MessageBoxWarning);
    case core::Severity::Info:
        break;
    }
    return style->standardIcon(QStyle::SP_MessageBoxInformation);
}

} // namespace

ImportReportWidget::ImportReportWidget(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 8);
    layout->setSpacing(6);

    auto* top = new QHBoxLayout;
    m_summary = new QLabel(this);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_showInfo = new QCheckBox(tr("Show notes"), this);
    m_showInfo->setToolTip(tr("Also list informational items: things that are normal in real "
                              "runs, such as an entry method still open at the end."));
    top->addWidget(m_summary, 1);
    top->addWidget(m_showInfo);
    layout->addLayout(top);

    m_tree = new QTreeWidget(this);
    m_tree->setColumnCount(3);
    m_tree->setHeaderLabels({ tr("Problem"), tr("Count"), tr("Key") });
    m_tree->setRootIsDecorated(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(ProblemColumn, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(CountColumn, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(KeyColumn, QHeaderView::ResizeToContents);
    layout->addWidget(m_tree, 1);

    connect(m_showInfo, &QCheckBox::toggled, this, &ImportReportWidget::rebuild);
    rebuild();
}

void ImportReportWidget::setTrace(core::TracePtr trace)
{
    m_trace = std::move(trace);
    rebuild();
}

void ImportReportWidget::setShowInfo(bool show)
{
    m_showInfo->setChecked(show);
}

bool ImportReportWidget::showInfo() const
{
    return m_showInfo->isChecked();
}

int ImportReportWidget::listedKinds() const
{
    return m_tree->topLevelItemCount();
}

QString ImportReportWidget::summaryText() const
{
    return m_summary->text();
}

void ImportReportWidget::rebuild()
{
    m_tree->clear();
    if (!m_trace) {
        m_summary->setText(tr("No run open."));
        return;
    }
    // With the issues found since the open (a PE of a mapped index that failed its check).
    const auto report = m_trace->fullReport();
    const QLocale locale;
    const bool withInfo = m_showInfo->isChecked();

    std::uint64_t hiddenNotes = 0;
    for (std::size_t k = 0; k < core::kIssueKinds; ++k) {
        const auto issue = static_cast<core::Issue>(k);
        const auto count = report.count(issue);
        if (count == 0)
            continue;
        const auto severity = core::issueSeverity(issue);
        if (severity == core::Severity::Info && !withInfo) {
            hiddenNotes += count;
            continue;
        }
        auto* item = new QTreeWidgetItem(m_tree);
        QString description = fromView(core::issueDescription(issue));
        if (!description.isEmpty())
            description[0] = description[0].toUpper();
        item->setText(ProblemColumn, description);
        item->setIcon(ProblemColumn, severityIcon(style(), severity));
        item->setToolTip(ProblemColumn, fromView(core::severityName(severity)));
        item->setText(CountColumn, locale.toString(qulonglong(count)));
        item->setTextAlignment(CountColumn, Qt::AlignRight | Qt::AlignVCenter);
        item->setText(KeyColumn, fromView(core::issueKey(issue)));
        item->setForeground(KeyColumn, palette().brush(QPalette::PlaceholderText));

        if (issue == core::Issue::MissingFile) {
            // Every PE concerned, not only the first examples: "no .log: 3,7-9; no .sum: 5".
            QStringList which;
            const std::pair<const std::vector<std::string>*, const char*> kinds[]
                = { { &m_trace->files.logPaths, ".log" }, { &m_trace->files.sumPaths, ".sum" },
                      { &m_trace->files.sumdPaths, ".sumd" } };
            for (const auto& [paths, kind] : kinds)
                if (const auto pes = core::Trace::pesLackingFile(*paths); !pes.empty())
                    which << tr("no %1: PE %2")
                                 .arg(QLatin1String(kind),
                                     QString::fromStdString(core::formatPeList(pes)));
            if (!which.isEmpty()) {
                auto* list = new QTreeWidgetItem(item);
                list->setText(ProblemColumn, which.join(QStringLiteral("; ")));
                list->setFirstColumnSpanned(true);
            }
        }
        std::uint64_t shown = 0;
        for (const auto& example : report.examples()) {
            if (example.issue != issue)
                continue;
            auto* child = new QTreeWidgetItem(item);
            QString where = QString::fromStdString(example.file);
            if (example.line > 0)
                where += QStringLiteral(":%1").arg(example.line);
            child->setText(ProblemColumn,
                example.message.empty() ? where
                                        : QStringLiteral("%1 — %2").arg(
                                            where, QString::fromStdString(example.message)));
            child->setFirstColumnSpanned(true);
            ++shown;
        }
        if (shown < count) {
            auto* more = new QTreeWidgetItem(item);
            more->setText(
                ProblemColumn, tr("… and %1 more").arg(locale.toString(qulonglong(count - shown))));
            more->setForeground(ProblemColumn, palette().brush(QPalette::PlaceholderText));
            more->setFirstColumnSpanned(true);
        }
        // Errors and warnings open with their examples visible; notes stay folded.
        item->setExpanded(severity != core::Severity::Info);
    }

    const auto errors = report.total(core::Severity::Error);
    const auto warnings = report.total(core::Severity::Warning) - errors;
    QStringList parts;
    if (errors > 0)
        parts << countOf(errors, tr("error"), tr("errors"));
    if (warnings > 0)
        parts << countOf(warnings, tr("warning"), tr("warnings"));
    QString text = parts.isEmpty()
        ? tr("No problems while reading %1.").arg(QString::fromStdString(m_trace->files.baseName))
        : tr("While reading %1: %2.")
              .arg(QString::fromStdString(m_trace->files.baseName),
                  parts.join(QStringLiteral(", ")));
    if (hiddenNotes > 0)
        text += QLatin1Char(' ')
            + tr("%1 hidden.").arg(countOf(hiddenNotes, tr("note"), tr("notes")));
    m_summary->setText(text);
}

} // namespace parallax::views
