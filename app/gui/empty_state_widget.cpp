#include "empty_state_widget.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>

namespace parallax::app {

namespace {

constexpr int kMaxRecentShown = 5;
constexpr int kGlyphSize = 72;

QLabel* mutedLabel(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    label->setForegroundRole(QPalette::PlaceholderText);
    label->setAlignment(Qt::AlignHCenter);
    return label;
}

} // namespace

EmptyStateWidget::EmptyStateWidget(QWidget* parent)
    : QWidget(parent)
{
    auto* outer = new QVBoxLayout(this);
    outer->addStretch(3);

    auto* column = new QVBoxLayout;
    column->setSpacing(10);
    column->addSpacing(kGlyphSize + 20); // the glyph is painted here

    m_title = new QLabel(tr("No run open"), this);
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.6);
    titleFont.setWeight(QFont::DemiBold);
    m_title->setFont(titleFont);
    m_title->setAlignment(Qt::AlignHCenter);
    column->addWidget(m_title);

    column->addWidget(mutedLabel(tr("Open a run: File → Open Run… or drop a folder here"), this));
    column->addSpacing(8);

    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    auto* openFile = new QPushButton(tr("Open Run…"), this);
    openFile->setDefault(true);
    auto* openDirectory = new QPushButton(tr("Open Directory…"), this);
    buttons->addWidget(openFile);
    buttons->addWidget(openDirectory);
    buttons->addStretch(1);
    column->addLayout(buttons);
    connect(openFile, &QPushButton::clicked, this, &EmptyStateWidget::openFileRequested);
    connect(openDirectory, &QPushButton::clicked, this, &EmptyStateWidget::openDirectoryRequested);

    m_status = mutedLabel({}, this);
    m_status->hide();
    column->addSpacing(4);
    column->addWidget(m_status);

    column->addSpacing(18);
    m_recentHeading = mutedLabel(tr("Recent runs"), this);
    QFont headingFont = m_recentHeading->font();
    headingFont.setBold(true);
    m_recentHeading->setFont(headingFont);
    column->addWidget(m_recentHeading);
    m_recentList = new QVBoxLayout;
    m_recentList->setSpacing(4);
    column->addLayout(m_recentList);

    auto* centre = new QHBoxLayout;
    centre->addStretch(1);
    centre->addLayout(column);
    centre->addStretch(1);
    outer->addLayout(centre);
    outer->addStretch(4);

    setRecentRuns({});
}

void EmptyStateWidget::setRecentRuns(const QStringList& paths)
{
    while (auto* item = m_recentList->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    const auto shown = std::min<qsizetype>(paths.size(), kMaxRecentShown);
    // Rich text needs an opaque colour: blend text into the background for the muted path.
    const QColor text = palette().color(QPalette::WindowText);
    const QColor window = palette().color(QPalette::Window);
    const QColor muted = QColor::fromRgbF((text.redF() + window.redF()) / 2,
        (text.greenF() + window.greenF()) / 2, (text.blueF() + window.blueF()) / 2);
    for (qsizetype i = 0; i < shown; ++i) {
        const QString& path = paths[i];
        const QFileInfo info(path);
        auto* link = new QLabel(this);
        link->setAlignment(Qt::AlignHCenter);
        link->setTextFormat(Qt::RichText);
        link->setText(
            QStringLiteral("<a href=\"%1\">%2</a>&nbsp;&nbsp;<span style=\"color:%3\">%4</span>")
                .arg(QString::number(i), info.fileName().toHtmlEscaped(), muted.name(),
                    QDir::toNativeSeparators(info.path()).toHtmlEscaped()));
        link->setToolTip(QDir::toNativeSeparators(path));
        connect(link, &QLabel::linkActivated, this,
            [this, path](const QString&) { emit openRecentRequested(path); });
        m_recentList->addWidget(link);
    }
    m_recentHeading->setVisible(shown > 0);
}

void EmptyStateWidget::setStatus(const QString& text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

void EmptyStateWidget::paintEvent(QPaintEvent* event)
{
    QWidget::paintEvent(event);
    // A simple glyph above the title: three PE rows of a timeline, in the accent colour.
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor accent = palette().color(QPalette::Highlight);
    const double centreX = width() / 2.0;
    const double top = m_title->geometry().top() - 20.0 - kGlyphSize;
    const QRectF frame(centreX - kGlyphSize / 2.0, top, kGlyphSize, kGlyphSize);
    QColor fill = accent;
    fill.setAlpha(28);
    painter.setPen(Qt::NoPen);
    painter.setBrush(fill);
    painter.drawRoundedRect(frame, 16, 16);
    const double rowHeight = kGlyphSize / 9.0;
    const double spans[3][4]
        = { { 0.14, 0.46, 0.56, 0.86 }, { 0.14, 0.30, 0.42, 0.86 }, { 0.14, 0.62, 0.72, 0.86 } };
    for (int row = 0; row < 3; ++row) {
        const double y = frame.top() + kGlyphSize * (0.26 + 0.2 * row);
        for (int s = 0; s < 2; ++s) {
            QColor c = accent;
            c.setAlpha(s == 0 ? 220 : 120);
            painter.setBrush(c);
            const double x0 = frame.left() + kGlyphSize * spans[row][2 * s];
            const double x1 = frame.left() + kGlyphSize * spans[row][2 * s + 1];
            painter.drawRoundedRect(QRectF(x0, y, x1 - x0, rowHeight), 2.5, 2.5);
        }
    }
}

} // namespace parallax::app
