#include "views/common/options_bar.h"

#include "core/analysis/run_span.h"
#include "core/text_args.h"
#include "views/common/stacked_bar_chart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWidgetAction>

#include <cstdio>

namespace parallax::views {

namespace {

QString timeText(core::TimeUs us)
{
    // Shortest exact form with a unit.
    if (us != 0 && us % 1'000'000 == 0)
        return QString::number(us / 1'000'000) + QStringLiteral("s");
    if (us != 0 && us % 1000 == 0)
        return QString::number(us / 1000) + QStringLiteral("ms");
    if (us >= 10'000) // exact, but readable: 134.614ms rather than 134614us
        return QString::number(static_cast<double>(us) / 1000.0, 'f', 3) + QStringLiteral("ms");
    return QString::number(us) + QStringLiteral("µs");
}

} // namespace

OptionsBar::OptionsBar(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(6);
    auto addLabelled = [&](const QString& label, QLineEdit* edit, int chars) {
        auto* l = new QLabel(label, this);
        l->setBuddy(edit);
        layout->addWidget(l);
        edit->setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('0')) * chars + 16);
        edit->setMaximumWidth(fontMetrics().horizontalAdvance(QLatin1Char('0')) * (chars + 8) + 16);
        layout->addWidget(edit);
        connect(edit, &QLineEdit::returnPressed, this, &OptionsBar::apply);
    };
    m_begin = new QLineEdit(this);
    m_begin->setObjectName(QStringLiteral("rangeBegin"));
    m_begin->setToolTip(tr("Start of the time range: a number with a unit (ns, µs or us, ms, s); "
                           "plain numbers are µs"));
    m_end = new QLineEdit(this);
    m_end->setObjectName(QStringLiteral("rangeEnd"));
    m_end->setToolTip(tr(
        "End of the time range: a number with a unit (ns, µs or us, ms, s); plain numbers are µs"));
    m_peList = new QLineEdit(this);
    m_peList->setObjectName(QStringLiteral("peList"));
    m_peList->setToolTip(tr("Processors, e.g. 0-3,5,7-15:2 (empty = all)"));
    m_peList->setPlaceholderText(tr("all"));
    addLabelled(tr("&From"), m_begin, 8);
    addLabelled(tr("&to"), m_end, 8);
    // "Iterations…": a small field in a popup that turns iterations into the range.
    m_iterationsButton = new QToolButton(this);
    m_iterationsButton->setObjectName(QStringLiteral("iterationsButton"));
    m_iterationsButton->setText(tr("Iterations…"));
    m_iterationsButton->setAutoRaise(true);
    layout->addWidget(m_iterationsButton);
    m_iterationsMenu = new QMenu(m_iterationsButton);
    m_iterationsMenu->setObjectName(QStringLiteral("iterationsMenu"));
    auto* chooser = new QWidget(m_iterationsMenu);
    auto* chooserRow = new QHBoxLayout(chooser);
    chooserRow->setContentsMargins(8, 4, 8, 4);
    auto* chooserLabel = new QLabel(tr("&Iterations"), chooser);
    m_iterationsField = new QLineEdit(chooser);
    m_iterationsField->setObjectName(QStringLiteral("iterationsField"));
    m_iterationsField->setPlaceholderText(tr("e.g. 5-9"));
    m_iterationsField->setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('0')) * 8);
    chooserLabel->setBuddy(m_iterationsField);
    m_iterationsHint = new QLabel(chooser);
    m_iterationsHint->setObjectName(QStringLiteral("iterationsHint"));
    chooserRow->addWidget(chooserLabel);
    chooserRow->addWidget(m_iterationsField);
    chooserRow->addWidget(m_iterationsHint);
    auto* chooserAction = new QWidgetAction(m_iterationsMenu);
    chooserAction->setDefaultWidget(chooser);
    m_iterationsMenu->addAction(chooserAction);
    connect(m_iterationsButton, &QToolButton::clicked, this, &OptionsBar::showIterationsChooser);
    connect(m_iterationsField, &QLineEdit::returnPressed, this,
        [this]() { applyIterations(m_iterationsField->text()); });
    updateIterationsButton();
    addLabelled(tr("&PEs"), m_peList, 10);
    m_fields = new QHBoxLayout();
    m_fields->setSpacing(6);
    layout->addLayout(m_fields);
    m_commThreads = new QCheckBox(tr("Include &comm threads"), this);
    m_commThreads->setObjectName(QStringLiteral("includeCommThreads"));
    m_commThreads->setToolTip(tr("Comm threads have no idle records and relay other PEs' "
                                 "messages, so by default they are left out of averages, sums "
                                 "over PEs, rankings and message counts"));
    m_commThreads->setVisible(false);
    layout->addWidget(m_commThreads);
    connect(m_commThreads, &QCheckBox::toggled, this, [this](bool on) {
        if (on == m_includeCommThreads)
            return;
        m_includeCommThreads = on;
        if (!apply()) // a bad field elsewhere: the box does not change either
            setIncludeCommThreads(!on);
    });
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("optionsError"));
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_error, 1);
}

void OptionsBar::setTrace(const core::TracePtr& trace)
{
    m_trace = trace;
    if (trace.get() != m_iterationsRun) {
        m_iterationsRun = nullptr;
        m_iterations.reset();
    }
    updateIterationsButton();
    m_pes.clear();
    m_peList->clear();
    setRange(trace ? core::analysis::tracedRunSpan(*trace) : core::TimeRange {});
    std::vector<core::PeId> commThreads;
    if (trace)
        for (const auto pe : trace->validPes())
            if (trace->metadata.isCommThread(pe))
                commThreads.push_back(pe);
    setIncludeCommThreads(false);
    m_commThreads->setVisible(m_offerCommThreads && !commThreads.empty());
    m_commThreads->setText(commThreads.empty()
            ? tr("Include &comm threads")
            : tr("Include &comm threads (PE %1)")
                  .arg(QString::fromStdString(core::formatPeList(commThreads))));
    showError({});
}

void OptionsBar::setRange(core::TimeRange range)
{
    m_range = range;
    m_begin->setText(timeText(range.begin));
    m_end->setText(timeText(range.end));
}

void OptionsBar::setSelection(core::TimeRange range, const std::vector<core::PeId>& pes)
{
    if (range.empty() && m_trace)
        range = core::analysis::tracedRunSpan(*m_trace);
    setRange(range);
    setPes(pes);
}

void OptionsBar::setPes(const std::vector<core::PeId>& pes)
{
    m_pes = pes;
    m_peList->setText(QString::fromStdString(core::formatPeList(pes)));
}

QLineEdit* OptionsBar::addField(
    const QString& label, const QString& initial, Validator validator, int widthChars)
{
    auto* l = new QLabel(label, this);
    auto* edit = new QLineEdit(initial, this);
    l->setBuddy(edit);
    edit->setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('0')) * widthChars + 16);
    edit->setMaximumWidth(
        fontMetrics().horizontalAdvance(QLatin1Char('0')) * (widthChars + 6) + 16);
    m_fields->addWidget(l);
    m_fields->addWidget(edit);
    connect(edit, &QLineEdit::returnPressed, this, &OptionsBar::apply);
    m_extraFields.emplace_back(edit, std::move(validator));
    return edit;
}

QComboBox* OptionsBar::addChoice(const QString& label, const QStringList& items)
{
    auto* l = new QLabel(label, this);
    auto* combo = new QComboBox(this);
    combo->addItems(items);
    l->setBuddy(combo);
    m_fields->addWidget(l);
    m_fields->addWidget(combo);
    connect(combo, &QComboBox::activated, this, [this]() { apply(); });
    return combo;
}

QString OptionsBar::errorText() const
{
    return m_error->text();
}

void OptionsBar::showError(const QString& message)
{
    m_error->setText(message);
    m_error->setToolTip(message);
}

std::optional<core::TimeUs> OptionsBar::parseTimeField(const QString& text, QString* error)
{
    std::string why;
    const auto t = core::parseTime(text.toStdString(), &why);
    if (!t && error != nullptr)
        *error = QString::fromStdString(why);
    return t;
}

std::optional<std::vector<core::PeId>> OptionsBar::parsePeField(
    const QString& text, core::PeId processors, QString* error)
{
    if (text.trimmed().isEmpty())
        return std::vector<core::PeId> {};
    std::string why;
    auto pes = core::parsePeList(text.toStdString(), &why);
    if (!pes) {
        if (error != nullptr)
            *error = QString::fromStdString(why);
        return std::nullopt;
    }
    if (processors > 0 && !pes->empty() && pes->back() >= processors) {
        if (error != nullptr)
            *error = QObject::tr("PE %1 is not in this run (PEs 0-%2)")
                         .arg(pes->back())
                         .arg(processors - 1);
        return std::nullopt;
    }
    return pes;
}

void OptionsBar::setIncludeCommThreads(bool include)
{
    m_includeCommThreads = include;
    const QSignalBlocker block(m_commThreads);
    m_commThreads->setChecked(include);
}

bool OptionsBar::apply()
{
    // Every field is checked so that the message names all the bad ones; one bad field keeps
    // every change out (views read their fields together), and the message says so.
    QStringList problems;
    QString error;
    const auto begin = parseTimeField(m_begin->text(), &error);
    if (!begin)
        problems << tr("From: %1").arg(error);
    const auto end = parseTimeField(m_end->text(), &error);
    if (!end)
        problems << tr("To: %1").arg(error);
    if (begin && end && *end <= *begin)
        problems << tr("The range ends before it begins");
    const auto pes
        = parsePeField(m_peList->text(), m_trace ? m_trace->metadata.processors : 0, &error);
    if (!pes)
        problems << tr("PEs: %1").arg(error);
    for (const auto& [edit, validator] : m_extraFields)
        if (const auto problem = validator(edit->text()))
            problems << *problem;
    if (!problems.isEmpty()) {
        showError(tr("%1 — nothing applied").arg(problems.join(QStringLiteral("; "))));
        return false;
    }
    m_range = { *begin, *end };
    m_pes = *pes;
    showError({});
    emit applied();
    return true;
}

void OptionsBar::setRunIterations(
    const core::Trace* run, std::optional<std::vector<core::TimeRange>> iterations)
{
    m_iterationsRun = run;
    m_iterations = std::move(iterations);
    updateIterationsButton();
}

void OptionsBar::updateIterationsButton()
{
    const bool mine = m_trace && m_trace.get() == m_iterationsRun && m_iterations;
    const auto count = mine ? m_iterations->size() : 0;
    m_iterationsButton->setEnabled(count > 0);
    if (!m_trace)
        m_iterationsButton->setToolTip(tr("Iterations: no run is open"));
    else if (!mine)
        m_iterationsButton->setToolTip(tr("Iterations: the run's iterations are being found…"));
    else if (count == 0)
        m_iterationsButton->setToolTip(
            tr("Iterations: none were found in this run (no user event named for steps and no "
               "entry method run equally often on every PE)"));
    else
        m_iterationsButton->setToolTip(tr("Set the time range to one iteration or a range of "
                                          "them, e.g. 5-9 (this run has iterations 0–%1)")
                                           .arg(count - 1));
    m_iterationsHint->setText(count > 0 ? tr("of 0–%1").arg(count - 1) : QString());
    if (count == 0)
        m_iterationsMenu->hide();
}

void OptionsBar::showIterationsChooser()
{
    if (!m_iterationsButton->isEnabled())
        return;
    updateIterationsButton(); // the hint, without an old message
    m_iterationsMenu->popup(
        m_iterationsButton->mapToGlobal(QPoint(0, m_iterationsButton->height())));
    m_iterationsField->setFocus(Qt::PopupFocusReason);
    m_iterationsField->selectAll();
}

bool OptionsBar::applyIterations(const QString& text)
{
    const bool known = m_trace && m_trace.get() == m_iterationsRun && m_iterations;
    QString error;
    std::optional<std::pair<std::size_t, std::size_t>> chosen;
    if (!known)
        error = tr("the run's iterations are still being found");
    else
        chosen = parseIterationField(text, m_iterations->size(), &error);
    if (!chosen) {
        // Next to the fields, where there is room for it (the chooser keeps its hint).
        showError(tr("Iterations: %1 — nothing applied").arg(error));
        return false;
    }
    // Through the range fields, so that a bad field elsewhere keeps everything as it was.
    const auto oldBegin = m_begin->text();
    const auto oldEnd = m_end->text();
    m_begin->setText(timeText((*m_iterations)[chosen->first].begin));
    m_end->setText(timeText((*m_iterations)[chosen->second].end));
    if (!apply()) {
        m_begin->setText(oldBegin);
        m_end->setText(oldEnd);
        return false;
    }
    m_iterationsMenu->hide();
    return true;
}

std::optional<std::pair<std::size_t, std::size_t>> OptionsBar::parseIterationField(
    const QString& text, std::size_t count, QString* error)
{
    auto fail = [error](const QString& why) {
        if (error != nullptr)
            *error = why;
        return std::optional<std::pair<std::size_t, std::size_t>>();
    };
    static const QRegularExpression pattern(
        QStringLiteral("^\\s*(\\d+)\\s*(?:(?:-|–|\\.\\.)\\s*(\\d+))?\\s*$"));
    const auto match = pattern.match(text);
    bool ok = false;
    const auto first = match.hasMatch() ? match.captured(1).toULongLong(&ok) : 0;
    auto last = first;
    if (ok && !match.captured(2).isEmpty())
        last = match.captured(2).toULongLong(&ok);
    if (!ok)
        return fail(tr("'%1' is not an iteration or a range of them, e.g. 5 or 5-9").arg(text));
    if (last < first)
        return fail(tr("%1-%2 ends before it begins").arg(first).arg(last));
    if (count == 0)
        return fail(tr("the run has no iterations"));
    if (last >= count)
        return fail(tr("the run has iterations 0–%1, not %2").arg(count - 1).arg(last));
    return std::make_pair(static_cast<std::size_t>(first), static_cast<std::size_t>(last));
}

OptionsBar::IntervalFields OptionsBar::addIntervalFields(const QString& countLabel,
    const QString& countName, const QString& countWhat, long long defaultCount, long long maxCount)
{
    IntervalFields f;
    QString plain = countLabel;
    plain.remove(QLatin1Char('&'));
    f.interval = addField(tr("&Interval"), {},
        [this](const QString& text) { return intervalFieldError(text, this); });
    f.interval->setObjectName(QStringLiteral("interval"));
    f.interval->setPlaceholderText(tr("auto"));
    f.interval->setToolTip(
        tr("Interval size with a unit, e.g. 100µs, 1ms (empty: use %1)").arg(plain));
    QLineEdit* interval = f.interval;
    f.count = addField(countLabel, {}, [interval, plain, maxCount](const QString& text) {
        if (auto e = countFieldError(text, 1, maxCount, plain))
            return e;
        if (!text.trimmed().isEmpty() && !interval->text().trimmed().isEmpty())
            return std::optional<QString>(
                tr("Give an interval or a number of %1, not both").arg(plain.toLower()));
        return std::optional<QString>();
    });
    f.count->setObjectName(countName);
    f.count->setPlaceholderText(QString::number(defaultCount));
    f.count->setToolTip(tr("%1 over the range (empty: %2)").arg(countWhat).arg(defaultCount));
    return f;
}

bool OptionsBar::applyOrExplain(QString* error)
{
    if (apply())
        return true;
    if (error != nullptr)
        *error = errorText();
    return false;
}

std::optional<std::vector<core::EntryId>> OptionsBar::parseEntryField(
    const QString& text, const core::Trace* trace, QString* error)
{
    std::string why;
    const auto list = core::parsePeList(text.toStdString(), &why, 65536);
    if (!list) {
        if (error != nullptr)
            *error = tr("--entries: %1").arg(QString::fromStdString(why));
        return std::nullopt;
    }
    if (trace != nullptr)
        for (const auto id : *list)
            if (static_cast<std::size_t>(id) >= trace->metadata.entryCount()) {
                if (error != nullptr)
                    *error = tr("--entries: the run has no entry method %1 (it has %2)")
                                 .arg(id)
                                 .arg(trace->metadata.entryCount());
                return std::nullopt;
            }
    return std::vector<core::EntryId>(list->begin(), list->end());
}

OptionsRow layOutOptionsRow(QWidget* view, OptionsBar* options, QWidget* busyIndicator)
{
    OptionsRow top;
    top.row = new QHBoxLayout();
    top.row->setContentsMargins(0, 0, 6, 0);
    top.row->addWidget(options, 1);
    top.row->addWidget(busyIndicator);
    top.layout = new QVBoxLayout(view);
    top.layout->setContentsMargins(0, 0, 0, 0);
    top.layout->setSpacing(0);
    top.layout->addLayout(top.row);
    return top;
}

} // namespace parallax::views
