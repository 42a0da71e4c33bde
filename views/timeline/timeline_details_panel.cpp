#include "views/timeline/timeline_details_panel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace parallax::views {

TimelineDetailsPanel::TimelineDetailsPanel(QWidget* parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("timelineDetails"));
    setFrameShape(QFrame::StyledPanel);
    setMinimumWidth(240);
    setMaximumWidth(340);
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("×"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Clear the selection (Escape)"));
    m_fields = new QLabel(this);
    m_fields->setTextFormat(Qt::RichText);
    m_fields->setWordWrap(true);
    m_fields->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_fields->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_path = new QLabel(this);
    m_path->setWordWrap(true);
    m_path->setForegroundRole(QPalette::PlaceholderText);
    m_entry = new QCheckBox(tr("Highlight all executions of this entry"), this);
    m_entry->setObjectName(QStringLiteral("highlightEntry"));
    m_object = new QCheckBox(tr("… only of this object"), this);
    m_object->setObjectName(QStringLiteral("highlightObject"));
    m_hops = new QSpinBox(this);
    m_hops->setObjectName(QStringLiteral("backTraceHops"));
    m_hops->setRange(1, 32);
    m_hops->setToolTip(tr("How many messages the arrows trace back"));

    auto* head = new QHBoxLayout();
    head->addWidget(m_title, 1);
    head->addWidget(close, 0, Qt::AlignTop);
    auto* hops = new QHBoxLayout();
    hops->addWidget(new QLabel(tr("Trace back"), this));
    hops->addWidget(m_hops);
    hops->addWidget(new QLabel(tr("message hops"), this), 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 8);
    layout->addLayout(head);
    layout->addWidget(m_fields);
    layout->addWidget(m_path);
    layout->addSpacing(4);
    layout->addLayout(hops);
    layout->addWidget(m_entry);
    layout->addWidget(m_object);
    layout->addStretch(1);

    connect(close, &QToolButton::clicked, this, &TimelineDetailsPanel::closeRequested);
    connect(m_entry, &QCheckBox::toggled, this, [this](bool on) {
        m_object->setEnabled(on && m_object->property("available").toBool());
        emit highlightChanged();
    });
    connect(m_object, &QCheckBox::toggled, this, &TimelineDetailsPanel::highlightChanged);
    connect(m_hops, &QSpinBox::valueChanged, this, &TimelineDetailsPanel::backTraceHopsChanged);
}

void TimelineDetailsPanel::showDetails(const ExecutionDetails& details,
    const std::vector<MessageLink>& path, const std::vector<MessageLink>& forward)
{
    m_title->setText(details.title);
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='1'>");
    m_plain = details.title + QLatin1Char('\n');
    for (const auto& f : details.fields) {
        html += QStringLiteral(
            "<tr><td style='color:gray; padding-right:8px'>%1</td><td>%2</td></tr>")
                    .arg(f.label.toHtmlEscaped(), f.value.toHtmlEscaped());
        m_plain += f.label + QStringLiteral(": ") + f.value + QLatin1Char('\n');
    }
    html += QStringLiteral("</table>");
    m_fields->setText(html);
    // The message path, receiver first: "PE 1 ← PE 0 ← PE 3".
    QString chain;
    std::size_t linked = 0;
    for (const auto& link : path) {
        if (!link.linked())
            break;
        if (chain.isEmpty())
            chain = tr("PE %1").arg(link.pe);
        chain += tr(" ← PE %1").arg(link.senderPe);
        ++linked;
    }
    QString text = linked == 0 ? QString() : tr("Arrows back: %1").arg(chain);
    if (!forward.empty()) {
        QStringList to;
        for (const auto& link : forward)
            to << tr("PE %1").arg(link.pe);
        to.removeDuplicates();
        if (!text.isEmpty())
            text += QLatin1Char('\n');
        text += forward.size() == 1
            ? tr("Started 1 execution on %1").arg(to.join(QStringLiteral(", ")))
            : tr("Started %1 executions on %2")
                  .arg(forward.size())
                  .arg(to.join(QStringLiteral(", ")));
    }
    m_path->setText(text);
    m_plain += m_path->text();
    const bool hasObject = details.object.has_value();
    m_object->setProperty("available", hasObject);
    m_object->setEnabled(hasObject && m_entry->isChecked());
    if (!hasObject)
        m_object->setChecked(false);
}

QString TimelineDetailsPanel::text() const
{
    return m_plain;
}

} // namespace parallax::views
