#include "views/noise/noise_view.h"

#include "core/text_args.h"
#include "views/common/async_computation.h"
#include "views/common/options_bar.h"
#include "views/common/result_table_view.h"
#include "views/common/stacked_bar_chart.h"

#include <QLineEdit>
#include <QLocale>

namespace parallax::views {

namespace {

TableColumns eventColumns()
{
    return {
        { "rank", NoiseView::tr("Rank"), {} },
        { "lost_us", NoiseView::tr("Time lost"),
            NoiseView::tr("Summed over the occurrences: duration − the entry method's median") },
        { "occurrences", NoiseView::tr("Occurrences"), {} },
        { "median_lost_us", NoiseView::tr("Typical loss"),
            NoiseView::tr("Median lost time of one occurrence") },
        { "pes", NoiseView::tr("PEs"), {} },
        { "pe_list", NoiseView::tr("Which PEs"), {} },
        { "period_us", NoiseView::tr("Period"),
            NoiseView::tr("Median time between consecutive occurrences on one PE") },
        { "concurrent", NoiseView::tr("Together"),
            NoiseView::tr("Occurrences that overlap one on another PE (noise hitting the PEs "
                          "at once)") },
        { "entries", NoiseView::tr("Entry methods hit"), {} },
    };
}

TableColumns executionColumns()
{
    return {
        { "begin_us", NoiseView::tr("Begin"), {} },
        { "pe", NoiseView::tr("PE"), {} },
        { "entry_name", NoiseView::tr("Entry method"), {} },
        { "duration_us", NoiseView::tr("Duration"), {} },
        { "median_us", NoiseView::tr("Median"),
            NoiseView::tr("The entry method's median duration in the range") },
        { "lost_us", NoiseView::tr("Lost"), {} },
        { "event", NoiseView::tr("Event"), NoiseView::tr("Rank of its noise event") },
    };
}

std::optional<QString> kError(const QString& text)
{
    if (text.trimmed().isEmpty())
        return std::nullopt;
    bool ok = false;
    const double k = text.toDouble(&ok);
    if (!ok || !(k > 0) || k > 1e6)
        return NoiseView::tr("k: a positive number, e.g. 5");
    return std::nullopt;
}

std::optional<QString> excessError(const QString& text)
{
    if (text.trimmed().isEmpty())
        return std::nullopt;
    QString error;
    if (!OptionsBar::parseTimeField(text, &error))
        return NoiseView::tr("Min. excess: %1").arg(error);
    return std::nullopt;
}

} // namespace

NoiseView::NoiseView(EntryPalette* palette, QWidget* parent)
    : TableAnalysisView(ViewKind::Noise, palette, parent)
{
    m_options->offerCommThreads();
    const core::analysis::NoiseOptions defaults;
    m_k = m_options->addField(tr("&k"), {}, kError, 4);
    m_k->setObjectName(QStringLiteral("k"));
    m_k->setPlaceholderText(QString::number(defaults.k));
    m_k->setToolTip(tr("Noisy: longer than the entry method's median + k × 1.4826 × MAD (median "
                       "absolute deviation)"));
    m_minExcess = m_options->addField(tr("Min. e&xcess"), {}, excessError, 6);
    m_minExcess->setObjectName(QStringLiteral("minExcess"));
    m_minExcess->setPlaceholderText(
        QStringLiteral("%1us").arg(static_cast<int>(defaults.minExcessUs)));
    m_minExcess->setToolTip(tr("And at least this much longer than the median"));
    m_executions = addDetailTable(QStringLiteral("noisyExecutions"));
    m_table->model()->setRowToolTip([](int) {
        return tr("Select: list its executions below · double-click: the longest one in the "
                  "Timeline");
    });
    m_executions->model()->setRowToolTip(
        [](int) { return tr("Double-click: this execution in the Timeline"); });
    recompute();
}

bool NoiseView::applyViewOption(const QString& name, const QString& value, QString* error)
{
    if (name == QStringLiteral("k"))
        m_k->setText(value);
    else if (name == QStringLiteral("min-excess"))
        m_minExcess->setText(value);
    else
        return TableAnalysisView::applyViewOption(name, value, error);
    return true;
}

void NoiseView::clearResult()
{
    m_report.reset();
    m_executions->setTable({}, {});
}

void NoiseView::recompute()
{
    core::analysis::NoiseOptions options;
    if (const double k = m_k->text().toDouble(); k > 0)
        options.k = k;
    if (const auto excess = OptionsBar::parseTimeField(m_minExcess->text(), nullptr);
        excess && !m_minExcess->text().trimmed().isEmpty())
        options.minExcessUs = static_cast<double>(*excess);
    computeAndShow<core::analysis::NoiseReport>(
        tr("Noise Miner"),
        [options](const core::Trace& trace, const core::analysis::AnalysisRequest& request,
            const core::analysis::Progress& progress) {
            return core::analysis::computeNoise(trace, request, options, progress);
        },
        [this](core::analysis::NoiseReport report) { show(std::move(report)); });
}

void NoiseView::show(core::analysis::NoiseReport report)
{
    m_report = std::move(report);
    const auto& r = *m_report;
    const QLocale locale;
    setHeading(tr("Noise Miner: executions far longer than usual"),
        describe(r.range, r.pes, r.apart)
            + tr(" · %1 noisy executions lost %2 · median + %3 × MAD, at least %4 more")
                  .arg(locale.toString(static_cast<qulonglong>(r.noisy.size())),
                      formatTime(r.lostUs), locale.toString(r.options.k),
                      formatTime(r.options.minExcessUs)));
    if (!r.error.empty()) {
        showMessage(QString::fromStdString(r.error));
        m_executions->setTable({}, {});
        return;
    }
    m_table->setEmptyMessage(r.baselines.empty()
            ? tr("No entry method ran often enough here to tell usual from unusual")
            : tr("No execution stands out: no noise found"));
    m_table->setTable(core::analysis::noiseEventsTable(r, m_trace->metadata), eventColumns());
    showDetail(-1);
}

void NoiseView::showDetail(int row)
{
    if (!m_report)
        return;
    auto shown = *m_report;
    if (row >= 0)
        std::erase_if(
            shown.noisy, [row](const core::analysis::NoisyExecution& n) { return n.event != row; });
    m_executions->setEmptyMessage(tr("No noisy executions"));
    m_executions->setTable(
        core::analysis::noisyExecutionsTable(shown, m_trace->metadata), executionColumns());
}

QString NoiseView::csv() const
{
    return QString::fromStdString(core::analysis::resultTableCsv(m_report && m_trace
            ? core::analysis::noisyExecutionsTable(*m_report, m_trace->metadata)
            : core::analysis::ResultTable {}));
}

} // namespace parallax::views
