#include "views/compare/compare_view.h"

#include "core/text_args.h"
#include "views/common/async_computation.h"
#include "views/common/entry_palette.h"
#include "views/common/line_chart.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableWidget>

#include <cmath>
#include <limits>

namespace parallax::views {

namespace {

constexpr long long kDefaultBins = 200;
constexpr int kMaxRows = 500;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A table cell shown as text but sorted by its number.
class NumberItem : public QTableWidgetItem {
public:
    NumberItem(const QString& text, double value)
        : QTableWidgetItem(text)
    {
        setData(Qt::UserRole, value);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem& other) const override
    {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};

// A run's name for the comparison: its directory's (as File → Compare With… names B).
std::string runLabel(const core::Trace& trace)
{
    const auto directory = QFileInfo(QString::fromStdString(trace.files.directory)).fileName();
    return directory.isEmpty() ? trace.files.baseName : directory.toStdString();
}

QString signedTime(double us)
{
    if (us == 0.0)
        return QStringLiteral("0");
    return (us > 0 ? QStringLiteral("+") : QStringLiteral("−")) + formatTime(std::abs(us));
}

} // namespace

CompareView::CompareView(EntryPalette* palette, QWidget* parent)
    : LineChartView(ViewKind::Compare, palette, parent)
{
    m_rangeB = m_options->addField(
        tr("B &range"), {},
        [](const QString& text) {
            std::string why;
            if (text.trimmed().isEmpty()
                || core::parseTimeRange(text.trimmed().toStdString(), &why))
                return std::optional<QString>();
            return std::optional<QString>(tr("B range: %1").arg(QString::fromStdString(why)));
        },
        14);
    m_rangeB->setObjectName(QStringLiteral("rangeB"));
    m_rangeB->setPlaceholderText(tr("B's whole run"));
    m_rangeB->setToolTip(tr("The range of B, e.g. 20ms:40ms. Without another run open, two ranges "
                            "of this run are compared: the options' range and this one"));
    m_align = m_options->addChoice(tr("&Align on"), { tr("Range start"), tr("User event") });
    m_align->setObjectName(QStringLiteral("align"));
    m_event = m_options->addField(
        tr("&Event"), {},
        [](const QString& text) {
            return countFieldError(text, 0, std::numeric_limits<int>::max(), tr("Event"));
        },
        5);
    m_event->setObjectName(QStringLiteral("event"));
    m_event->setPlaceholderText(tr("id"));
    m_event->setToolTip(tr("The user event whose first occurrence in each range is time 0"));
    m_show = m_options->addChoice(tr("S&how"), { tr("Both"), tr("Difference B − A") });
    m_show->setObjectName(QStringLiteral("show"));
    addIntervalFields(kDefaultBins);

    m_warning = new QLabel(this);
    m_warning->setObjectName(QStringLiteral("compareWarning"));
    m_warning->setWordWrap(true);
    m_warning->setContentsMargins(8, 4, 8, 4);
    m_warning->setStyleSheet(QStringLiteral("background: #fff3c4; color: #4a3b00;"));
    m_warning->hide();
    addAboveChart(m_warning);

    m_table = new QTableWidget(0, 5, this);
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_table->setHorizontalHeaderLabels(
        { tr("Entry method"), tr("A"), tr("B"), tr("Change (B − A)"), tr("B / A") });
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Unsorted until the analyst clicks a header: the rows come largest change first.
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->setSortingEnabled(true);
    addBelowChart(m_table);

    m_lines->setObjectName(QStringLiteral("compareChart"));
    m_lines->setHint(tr("Drag to zoom · click A's line for its Timeline"));
    // The axis is the time since each side's origin: a drag zooms both sides alike.
    disconnect(m_lines, &LineChart::rangeSelected, this, nullptr);
    connect(m_lines, &LineChart::rangeSelected, this, [this](core::TimeRange offsets) {
        if (!m_result || m_result->origins.size() < 2)
            return;
        const auto& o = m_result->origins;
        if (!m_rangeB->text().trimmed().isEmpty() || !m_other)
            m_rangeB->setText(
                QStringLiteral("%1us:%2us").arg(o[1] + offsets.begin).arg(o[1] + offsets.end));
        zoomTo({ o[0] + offsets.begin, o[0] + offsets.end });
    });
    connect(m_show, &QComboBox::currentIndexChanged, this, [this]() { rebuildChart(); });
    connect(m_align, &QComboBox::currentIndexChanged, this, [this]() { recompute(); });
    recompute();
}

void CompareView::setOtherRun(core::TracePtr other, const QString& label)
{
    m_other = std::move(other);
    m_otherLabel = label;
    recompute();
}

std::optional<core::TimeRange> CompareView::rangeB(QString* error) const
{
    const auto text = m_rangeB->text().trimmed();
    if (text.isEmpty())
        return core::TimeRange {};
    std::string why;
    const auto parsed = core::parseTimeRange(text.toStdString(), &why);
    if (!parsed) {
        if (error != nullptr)
            *error = QString::fromStdString(why);
        return std::nullopt;
    }
    return core::TimeRange { parsed->begin.value_or(0), parsed->end.value_or(core::kTimeMax) };
}

bool CompareView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    for (const auto& [name, value] : options) {
        if (applyIntervalOption(name, value))
            continue;
        if (name == QStringLiteral("range-b")) {
            m_rangeB->setText(value);
        } else if (name == QStringLiteral("align")) {
            if (value == QStringLiteral("start")) {
                m_align->setCurrentIndex(0);
            } else if (value.startsWith(QStringLiteral("event:"))) {
                m_event->setText(value.mid(6));
                m_align->setCurrentIndex(1);
            } else {
                if (error != nullptr)
                    *error = tr("--align takes start or event:ID, got '%1'").arg(value);
                return false;
            }
        } else if (name == QStringLiteral("show")) {
            if (value != QStringLiteral("both") && value != QStringLiteral("difference")) {
                if (error != nullptr)
                    *error = tr("--show takes both or difference, got '%1'").arg(value);
                return false;
            }
            m_show->setCurrentIndex(value == QStringLiteral("difference") ? 1 : 0);
        } else {
            return rejectOption(name, error);
        }
    }
    return applyFields(error);
}

void CompareView::clearResult()
{
    m_result.reset();
}

void CompareView::recompute()
{
    m_lines->setTitle(tr("Compare"));
    m_message.clear();
    m_warning->hide();
    if (!m_trace) {
        m_computation->cancel();
        m_result.reset();
        m_lines->clearData(tr("No run loaded"));
        fillTable();
        return;
    }
    const auto b = rangeB(nullptr);
    const bool ranges = b && !b->empty();
    if (!m_other && !ranges)
        m_message = tr("Choose File → Compare With… to compare this run with another, or give a B "
                       "range to compare two ranges of this run");
    bool eventOk = false;
    const int event = m_event->text().trimmed().toInt(&eventOk);
    const bool byEvent = m_align->currentIndex() == 1;
    if (m_message.isEmpty() && byEvent && !eventOk)
        m_message = tr("Give the user event to align on");
    if (!m_message.isEmpty()) {
        m_computation->cancel();
        m_result.reset();
        m_lines->clearData(m_message);
        fillTable();
        return;
    }
    const auto request = m_options->request();
    if (rejectTooManyIntervals(request.range))
        return;
    std::vector<core::analysis::CompareSide> sides(2);
    sides[0].trace = m_trace.get();
    sides[0].request = request;
    sides[0].label = runLabel(*m_trace);
    sides[1].trace = m_other ? m_other.get() : m_trace.get();
    sides[1].request = request;
    sides[1].request.range = b.value_or(core::TimeRange {});
    sides[1].label = m_other ? m_otherLabel.toStdString() : sides[0].label + " (B range)";
    core::analysis::CompareOptions options;
    options.intervalSize = intervalSize();
    options.bins = intervalBins();
    if (byEvent) {
        options.origin = core::analysis::CompareOrigin::UserEvent;
        options.event = event;
    }
    // The sides' traces stay alive with the computation.
    const auto keepA = m_trace;
    const auto keepB = m_other;
    m_computation->run<std::optional<core::analysis::RunComparison>>(
        [sides, options, keepA, keepB](const core::analysis::Progress& progress) {
            return core::analysis::compareRuns(sides, options, progress);
        },
        [this](std::optional<core::analysis::RunComparison> result) {
            m_result = std::move(result);
            rebuildChart();
            fillTable();
            emit computed();
        });
}

void CompareView::rebuildChart()
{
    if (!m_result) {
        if (!m_message.isEmpty())
            m_lines->clearData(m_message);
        return;
    }
    const auto& c = *m_result;
    QStringList warnings;
    for (const auto& w : c.warnings)
        warnings << QString::fromStdString(w);
    m_warning->setText(tr("⚠ %1").arg(warnings.join(QStringLiteral(" · "))));
    m_warning->setVisible(!warnings.isEmpty());

    const QString a = QString::fromStdString(c.labels[0]);
    const QString b = QString::fromStdString(c.labels[1]);
    const double ta = c.totalUs[0];
    const double tb = c.totalUs[1];
    QString subtitle = tr("entry methods: A %1, B %2 (%3")
                           .arg(formatTime(ta), formatTime(tb), signedTime(tb - ta));
    if (ta > 0)
        subtitle += tr(", B/A %1").arg(tb / ta, 0, 'f', 3);
    subtitle += QStringLiteral(")");
    m_lines->setTitle(tr("A: %1 · B: %2").arg(a, b), subtitle);

    LineChartData lines;
    lines.axis = LineAxis::Time;
    lines.unit = BarUnit::Percent;
    lines.steps = true; // a share of each interval
    const auto count = c.busyPercent.front().size();
    for (std::size_t i = 0; i < count; ++i) {
        const auto begin = static_cast<core::TimeUs>(i) * c.intervalSize;
        lines.spans.push_back({ begin, begin + c.intervalSize });
    }
    lines.xTitle = m_align->currentIndex() == 1
        ? tr("Time since user event %1").arg(m_event->text().trimmed())
        : tr("Time since the range start");
    if (m_show->currentIndex() == 1) {
        LineSeries diff;
        diff.name = tr("B − A");
        diff.fullName = tr("Busy share of B minus that of A");
        diff.color = QColor(0x40, 0x40, 0x40).rgb();
        diff.emphasised = true;
        for (std::size_t i = 0; i < count; ++i) {
            const double va = c.busyPercent[0][i];
            const double vb = c.busyPercent[1][i];
            diff.values.push_back(std::isnan(va) || std::isnan(vb) ? kNaN : vb - va);
        }
        lines.series.push_back(std::move(diff));
        lines.zeroLine = true;
        lines.yTitle = tr("busy share, B − A (percentage points, %1 intervals)")
                           .arg(formatTime(static_cast<double>(c.intervalSize)));
    } else {
        for (std::size_t s = 0; s < 2; ++s) {
            LineSeries side;
            side.name = (s == 0 ? tr("A: %1") : tr("B: %1")).arg(s == 0 ? a : b);
            side.fullName
                = tr("%1 · %n PE(s)", nullptr, static_cast<int>(c.peCounts[s])).arg(side.name);
            side.values = c.busyPercent[s];
            side.color = EntryPalette::rankColor(static_cast<int>(s)).rgb();
            side.emphasised = s == 0;
            lines.series.push_back(std::move(side));
        }
        lines.yTitle = tr("busy share of the PEs (%1 intervals)")
                           .arg(formatTime(static_cast<double>(c.intervalSize)));
    }
    m_lines->setLegendHeading(tr("Run"));
    m_lines->setData(std::move(lines));
}

void CompareView::fillTable()
{
    m_table->setSortingEnabled(false);
    m_table->setRowCount(0);
    if (!m_result) {
        m_table->setSortingEnabled(true);
        return;
    }
    const auto& c = *m_result;
    const int rows = static_cast<int>(std::min<std::size_t>(c.entries.size(), kMaxRows));
    m_table->setRowCount(rows);
    const QColor faster(0x1b, 0x7f, 0x3b);
    const QColor slower(0xb2, 0x22, 0x22);
    for (int r = 0; r < rows; ++r) {
        const auto& e = c.entries[static_cast<std::size_t>(r)];
        const double a = e.timeUs[0];
        const double b = e.timeUs[1];
        auto* name = new QTableWidgetItem(QString::fromStdString(e.name));
        QString tip = QString::fromStdString(e.name);
        if (e.ids[0] == core::kNoEntry || e.ids[1] == core::kNoEntry)
            tip += tr("\nNot in %1").arg(e.ids[0] == core::kNoEntry ? tr("A") : tr("B"));
        name->setToolTip(tip);
        m_table->setItem(r, 0, name);
        m_table->setItem(r, 1, new NumberItem(formatTime(a), a));
        m_table->setItem(r, 2, new NumberItem(formatTime(b), b));
        auto* delta = new NumberItem(signedTime(b - a), b - a);
        if (b != a)
            delta->setForeground(b < a ? faster : slower);
        m_table->setItem(r, 3, delta);
        const double ratio = a > 0 ? b / a : kNaN;
        m_table->setItem(r, 4,
            new NumberItem(std::isnan(ratio) ? tr("new") : QString::number(ratio, 'f', 3),
                std::isnan(ratio) ? std::numeric_limits<double>::max() : ratio));
    }
    m_table->setSortingEnabled(true);
}

std::optional<core::TimeRange> CompareView::positionRange(int index) const
{
    const auto offsets = LineChartView::positionRange(index);
    if (!offsets || !m_result || m_result->origins.empty())
        return std::nullopt;
    const auto origin = m_result->origins.front();
    return core::TimeRange { origin + offsets->begin, origin + offsets->end };
}

BarChartView::BarPes CompareView::pesAtPosition(int index, int series) const
{
    // A's line (or any line, for two ranges of this run): this run's Timeline there.
    if (!m_result || (series != 0 && m_other))
        return {};
    auto range = positionRange(index);
    if (!range)
        return {};
    if (series == 1 && m_result->origins.size() > 1) {
        const auto shift = m_result->origins[1] - m_result->origins[0];
        range = core::TimeRange { range->begin + shift, range->end + shift };
    }
    auto pes = m_options->pes();
    if (pes.empty() && m_trace)
        pes = m_trace->validPes();
    return { pes, *range };
}

QString CompareView::csv() const
{
    return QString::fromStdString(core::analysis::comparisonCsv(m_result ? &*m_result : nullptr));
}

} // namespace parallax::views
