#include "views/common/table_analysis_view.h"

#include "core/analysis/run_span.h"
#include "core/text_args.h"
#include "views/common/async_computation.h"
#include "views/common/options_bar.h"
#include "views/common/result_table_view.h"
#include "views/common/stacked_bar_chart.h"
#include "views/timeline/timeline_geometry.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QProgressBar>
#include <QSaveFile>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#ifdef PARALLAX_HAVE_SVG
#include <QBuffer>
#include <QSvgGenerator>
#endif

#include <algorithm>

namespace parallax::views {

core::TimeRange timelineWindowAround(const core::analysis::RowTarget& target, core::TimeRange run)
{
    const core::TimeUs length = std::max<core::TimeUs>(target.end - target.begin, 0);
    const core::TimeUs pad = std::max<core::TimeUs>(2 * length, 100);
    core::TimeRange window { target.begin - pad, target.end + pad };
    if (!run.empty() && window.length() < run.length()) {
        if (window.begin < run.begin)
            window = { run.begin, run.begin + window.length() };
        if (window.end > run.end)
            window = { run.end - window.length(), run.end };
    }
    return window;
}

TableAnalysisView::TableAnalysisView(ViewKind kind, EntryPalette* palette, QWidget* parent)
    : AnalysisView(kind, palette, parent)
{
    m_options = new OptionsBar(this);
    m_computation = new AsyncComputation(this);
    m_table = new ResultTableView(this);
    m_heading = new QLabel(this);
    m_heading->setObjectName(QStringLiteral("tableHeading"));
    m_heading->setTextFormat(Qt::RichText);
    m_heading->setContentsMargins(6, 4, 6, 2);
    m_heading->setWordWrap(true);
    const auto top
        = layOutOptionsRow(this, m_options, makeBusyIndicator(m_computation, nullptr, this));
    m_toolbar = top.row;
    m_layout = top.layout;
    m_layout->addWidget(m_heading);
    m_body = m_table;
    m_layout->addWidget(m_table, 1);
    setFocusProxy(m_table->tableView()); // the rows, ready for keys
    wireTable(m_table);
    connect(m_options, &OptionsBar::applied, this, [this]() {
        recompute();
        if (rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes()))
            emit selectionChanged(m_options->range(), m_options->pes());
    });
}

void TableAnalysisView::wireTable(ResultTableView* table)
{
    connect(table, &ResultTableView::targetActivated, this,
        [this](core::analysis::RowTarget target) { openTimelineAt(target); });
    connect(table, &ResultTableView::contextMenuRequested, this,
        [this, table](QPoint globalPos, int row) { showContextMenu(globalPos, row, table); });
}

void TableAnalysisView::addToolbarWidget(QWidget* widget)
{
    m_toolbar->insertWidget(m_toolbar->count() - 1, widget);
}

void TableAnalysisView::setBody(QWidget* body)
{
    m_layout->removeWidget(m_body);
    m_body = body;
    m_layout->addWidget(body, 1);
}

void TableAnalysisView::setTrace(core::TracePtr trace)
{
    m_trace = std::move(trace);
    m_options->setTrace(m_trace);
    rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
    recompute();
}

void TableAnalysisView::setSelection(core::TimeRange range, std::vector<core::PeId> pes)
{
    m_options->setSelection(range, pes);
    rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
    recompute();
}

bool TableAnalysisView::busy() const
{
    return m_computation->busy();
}

core::analysis::AnalysisRequest TableAnalysisView::request() const
{
    auto r = m_options->request();
    r.entries = m_entries;
    return r;
}

bool TableAnalysisView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    for (const auto& [name, value] : options) {
        if (name == QStringLiteral("entries") && takesEntries()) {
            std::string why;
            const auto ids = core::parsePeList(value.toStdString(), &why, 65536);
            if (!ids) {
                if (error != nullptr)
                    *error = tr("--entries: %1").arg(QString::fromStdString(why));
                return false;
            }
            m_entries.assign(ids->begin(), ids->end());
        } else if (!applyViewOption(name, value, error)) {
            return false;
        }
    }
    if (!m_options->apply()) {
        if (error != nullptr)
            *error = m_options->errorText();
        return false;
    }
    return true;
}

bool TableAnalysisView::applyViewOption(
    const QString& name, const QString& /*value*/, QString* error)
{
    if (error != nullptr)
        *error = tr("the %1 view has no option --%2").arg(viewKey(kind()), name);
    return false;
}

void TableAnalysisView::setHeading(const QString& title, const QString& subtitle)
{
    m_title = title;
    m_subtitle = subtitle;
    m_heading->setText(QStringLiteral("<b>%1</b><br><span style='color:#555'>%2</span>")
                           .arg(title.toHtmlEscaped(), subtitle.toHtmlEscaped()));
}

QString TableAnalysisView::describe(core::TimeRange range, const std::vector<core::PeId>& pes,
    const std::vector<core::PeId>& apart) const
{
    if (!m_trace)
        return {};
    QString text = describeSelection(*m_trace, range, pes);
    if (!apart.empty())
        text += tr(" · comm threads %1 apart")
                    .arg(QString::fromStdString(core::formatPeList(apart)));
    return text;
}

void TableAnalysisView::showMessage(const QString& message)
{
    m_table->setEmptyMessage(message);
    m_table->setTable({}, {});
}

void TableAnalysisView::openTimelineAt(const core::analysis::RowTarget& target)
{
    if (!target.valid() || !m_trace)
        return;
    emit timelineRequested(
        { target.pe }, timelineWindowAround(target, core::analysis::tracedRunSpan(*m_trace)));
}

void TableAnalysisView::showContextMenu(QPoint globalPos, int tableRow, ResultTableView* source)
{
    QMenu menu(this);
    if (source == m_table)
        addRowActions(menu, tableRow);
    const auto target = source->model()->target(tableRow);
    if (target.valid())
        menu.addAction(tr("Open PE %1 in the Timeline at %2")
                           .arg(target.pe)
                           .arg(formatPreciseTime(target.begin)),
            this, [this, target]() { openTimelineAt(target); });
    auto* copy
        = menu.addAction(tr("Copy Rows as CSV"), source, [source]() { source->copySelection(); });
    copy->setShortcut(QKeySequence::Copy);
    copy->setEnabled(!source->selectedRows().empty());
    menu.addSeparator();
    addOpenRangeMenu(menu, *this, m_options->range(), m_options->pes());
    addExportActions(menu, *this);
    menu.exec(globalPos);
}

QString TableAnalysisView::csv() const
{
    return QString::fromStdString(core::analysis::resultTableCsv(m_table->model()->table()));
}

ResultTableView* TableAnalysisView::addDetailTable(const QString& objectName)
{
    m_detail = new ResultTableView(this);
    m_detail->setObjectName(objectName);
    wireTable(m_detail);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    setBody(split);
    connect(
        m_table, &ResultTableView::currentRowChanged, this, [this](int row) { showDetail(row); });
    return m_detail;
}

void TableAnalysisView::paintBody(QPainter& painter, const QRect& rect) const
{
    if (m_detail == nullptr) {
        m_table->paint(painter, rect);
        return;
    }
    // The main table takes what its rows need, up to half; the detail the rest.
    const int mainHeight = std::min(m_table->paintHeight(painter.font()), rect.height() / 2);
    m_table->paint(painter, QRect(rect.topLeft(), QSize(rect.width(), mainHeight)));
    m_detail->paint(painter,
        QRect(rect.left(), rect.top() + mainHeight + 8, rect.width(),
            rect.height() - mainHeight - 8));
}

namespace {

// Title and subtitle at the top of a picture; returns the height they take.
int paintHeading(QPainter& painter, int width, const QString& title, const QString& subtitle)
{
    QFont font = painter.font();
    QFont big = font;
    big.setPointSizeF(font.pointSizeF() * 1.25);
    big.setBold(true);
    painter.setFont(big);
    painter.setPen(QColor(20, 20, 20));
    const int titleHeight = QFontMetrics(big).height();
    painter.drawText(QRect(8, 6, width - 16, titleHeight), Qt::AlignLeft | Qt::AlignVCenter, title);
    painter.setFont(font);
    painter.setPen(QColor(90, 90, 90));
    const int subtitleHeight = QFontMetrics(font).height();
    painter.drawText(QRect(8, 8 + titleHeight, width - 16, subtitleHeight),
        Qt::AlignLeft | Qt::AlignVCenter, subtitle);
    return 14 + titleHeight + subtitleHeight;
}

} // namespace

QImage TableAnalysisView::renderChart(QSize size)
{
    if (size.isEmpty())
        size = isVisible() ? this->size() : QSize(1200, 700);
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setFont(font());
    const int top = paintHeading(painter, size.width(), m_title, m_subtitle);
    paintBody(painter, QRect(8, top, size.width() - 16, size.height() - top - 4));
    painter.end();
    return image;
}

bool TableAnalysisView::canExportSvg() const
{
#ifdef PARALLAX_HAVE_SVG
    return true;
#else
    return false;
#endif
}

bool TableAnalysisView::exportSvg(const QString& path, QSize size, QString* error)
{
    if (size.isEmpty())
        size = isVisible() ? this->size() : QSize(1200, 700);
#ifdef PARALLAX_HAVE_SVG
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(m_title);
    svg.setDescription(m_subtitle);
    QPainter painter;
    if (!painter.begin(&svg)) {
        if (error != nullptr)
            *error = tr("cannot paint into %1").arg(path);
        return false;
    }
    painter.setFont(font());
    painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    const int top = paintHeading(painter, size.width(), m_title, m_subtitle);
    paintBody(painter, QRect(8, top, size.width() - 16, size.height() - top - 4));
    painter.end();
    // Written whole or not at all.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(buffer.data()) < 0 || !file.commit()) {
        if (error != nullptr)
            *error = file.errorString();
        return false;
    }
    return true;
#else
    (void)path;
    if (error != nullptr)
        *error = tr("this build has no SVG support (install qt6-svg-dev and rebuild)");
    return false;
#endif
}

} // namespace parallax::views
