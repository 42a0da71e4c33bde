#include "views/common/options_bar.h"

#include "core/text_args.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>

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
    addLabelled(tr("&PEs"), m_peList, 10);
    m_fields = new QHBoxLayout();
    m_fields->setSpacing(6);
    layout->addLayout(m_fields);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("optionsError"));
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_error, 1);
}

void OptionsBar::setTrace(const core::TracePtr& trace)
{
    m_trace = trace;
    m_pes.clear();
    m_peList->clear();
    setRange(trace ? core::TimeRange { 0, std::max<core::TimeUs>(trace->endTime(), 1) }
                   : core::TimeRange {});
    showError({});
}

void OptionsBar::setRange(core::TimeRange range)
{
    m_range = range;
    m_begin->setText(timeText(range.begin));
    m_end->setText(timeText(range.end));
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

bool OptionsBar::apply()
{
    QString error;
    const auto begin = parseTimeField(m_begin->text(), &error);
    if (!begin) {
        showError(tr("From: %1").arg(error));
        return false;
    }
    const auto end = parseTimeField(m_end->text(), &error);
    if (!end) {
        showError(tr("To: %1").arg(error));
        return false;
    }
    if (*end <= *begin) {
        showError(tr("The range ends before it begins"));
        return false;
    }
    const auto pes
        = parsePeField(m_peList->text(), m_trace ? m_trace->metadata.processors : 0, &error);
    if (!pes) {
        showError(tr("PEs: %1").arg(error));
        return false;
    }
    for (const auto& [edit, validator] : m_extraFields) {
        if (const auto problem = validator(edit->text())) {
            showError(*problem);
            return false;
        }
    }
    m_range = { *begin, *end };
    m_pes = *pes;
    showError({});
    emit applied();
    return true;
}

} // namespace parallax::views
