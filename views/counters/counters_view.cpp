#include "views/counters/counters_view.h"

#include "core/analysis/series_csv.h"
#include "views/common/async_computation.h"
#include "views/common/entry_palette.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

#include <QComboBox>
#include <QLocale>

#include <algorithm>

namespace parallax::views {

namespace {

using core::analysis::CounterGrouping;

constexpr std::size_t kMaxEntryBars = 30;

} // namespace

CountersView::CountersView(EntryPalette* palette, QWidget* parent)
    : BarChartView(ViewKind::Counters, palette, parent)
{
    m_counter = m_options->addChoice(tr("C&ounter"), {});
    m_counter->setObjectName(QStringLiteral("counter"));
    m_counter->setToolTip(tr("The hardware counter to show"));
    m_metric = m_options->addChoice(tr("&Value"), { tr("Total"), tr("Per µs of execution") });
    m_metric->setObjectName(QStringLiteral("metric"));
    m_metric->setToolTip(tr("The counter's total over the executions measured, or its rate: the "
                            "total divided by their execution time"));
    m_by = m_options->addChoice(tr("S&how"), { tr("Per entry method"), tr("Per PE") });
    m_by->setObjectName(QStringLiteral("by"));
    m_chart->setObjectName(QStringLiteral("countersChart"));
    m_chart->setHint(tr("Hover a bar for its numbers · click a PE's bar for its Timeline"));
    for (auto* box : { m_counter, m_metric, m_by })
        connect(box, &QComboBox::currentIndexChanged, this, [this]() { rebuildChart(); });
    recompute();
}

bool CountersView::perPe() const
{
    return m_by->currentIndex() == 1;
}

const core::analysis::CounterTable* CountersView::table() const
{
    if (m_given)
        return m_given.get();
    return m_fromLogs ? &*m_fromLogs : nullptr;
}

const core::RunMetadata* CountersView::metadata() const
{
    if (m_given)
        return m_givenMetadata.get();
    return m_trace ? &m_trace->metadata : nullptr;
}

void CountersView::setCounterTable(std::shared_ptr<const core::analysis::CounterTable> table,
    std::shared_ptr<const core::RunMetadata> metadata)
{
    m_given = std::move(table);
    m_givenMetadata = std::move(metadata);
    fillCounters();
    recompute();
}

bool CountersView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    for (const auto& [name, value] : options) {
        QComboBox* box = nullptr;
        int index = -1;
        QString expected;
        if (name == QStringLiteral("counter")) {
            box = m_counter;
            index = m_counter->findText(value);
            QStringList names;
            for (int i = 0; i < m_counter->count(); ++i)
                names << m_counter->itemText(i);
            expected = names.isEmpty() ? tr("this run has no counters")
                                       : tr("counters: %1").arg(names.join(QStringLiteral(", ")));
        } else if (name == QStringLiteral("metric")) {
            box = m_metric;
            index = value == QStringLiteral("total") ? 0 : value == QStringLiteral("rate") ? 1 : -1;
            expected = tr("total or rate");
        } else if (name == QStringLiteral("by")) {
            box = m_by;
            index = value == QStringLiteral("entry") ? 0 : value == QStringLiteral("pe") ? 1 : -1;
            expected = tr("entry or pe");
        } else {
            return rejectOption(name, error);
        }
        if (index < 0) {
            if (error != nullptr)
                *error = tr("--%1 '%2' is not known (%3)").arg(name, value, expected);
            return false;
        }
        box->setCurrentIndex(index);
    }
    if (m_given) // whole-run totals: no range to check or apply
        return true;
    return applyFields(error);
}

void CountersView::clearResult()
{
    m_fromLogs.reset();
    fillCounters();
}

void CountersView::fillCounters()
{
    const QString keep = m_counter->currentText();
    const QSignalBlocker block(m_counter);
    m_counter->clear();
    std::vector<std::string> names;
    if (m_given)
        names = m_given->names;
    else if (m_trace)
        names = m_trace->metadata.papiEvents;
    for (const auto& n : names)
        m_counter->addItem(QString::fromStdString(n));
    m_counter->setCurrentIndex(std::max(m_counter->findText(keep), 0));
}

void CountersView::recompute()
{
    m_chart->setTitle(tr("Performance counters"));
    m_message.clear();
    if (m_given) {
        m_computation->cancel();
        rebuildChart();
        emit computed();
        return;
    }
    if (!m_trace) {
        m_computation->cancel();
        m_fromLogs.reset();
        m_chart->clearData(tr("No run loaded"));
        return;
    }
    const auto trace = m_trace;
    const auto request = m_options->request();
    using Computed = ResultOrReason<core::analysis::CounterTable>;
    m_computation->run<Computed>(
        [trace, request](const core::analysis::Progress& progress) {
            return computeFromLogs<core::analysis::CounterTable>(
                *trace, tr("hardware counters"),
                [&]() {
                    return core::analysis::hasCounterValues(*trace)
                        ? QString()
                        : tr("This run has no hardware-counter (PAPI) values: its .sts declares "
                             "no PAPI_EVENT");
                },
                [&]() { return core::analysis::countersFromLogs(*trace, request, progress); });
        },
        [this](Computed result) {
            m_fromLogs = std::move(result.result);
            m_message = result.reason;
            rebuildChart();
            emit computed();
        });
}

void CountersView::rebuildChart()
{
    const auto* t = table();
    const auto* meta = metadata();
    if (t == nullptr || meta == nullptr) {
        if (!m_message.isEmpty())
            m_chart->clearData(m_message);
        return;
    }
    const int c = m_counter->currentIndex();
    if (c < 0 || static_cast<std::size_t>(c) >= t->counterCount()) {
        m_chart->clearData(tr("This run has no hardware counters"));
        return;
    }
    const auto counter = static_cast<std::size_t>(c);
    const bool rate = m_metric->currentIndex() == 1;
    const auto grouping = perPe() ? CounterGrouping::Pe : CounterGrouping::Entry;
    const auto rows = core::analysis::summarizeCounters(
        *t, grouping, m_given ? m_options->pes() : std::vector<core::PeId> {});
    auto valueOf = [&](const core::analysis::CounterCell& cell) {
        return rate ? core::analysis::perMicrosecond(cell) : cell.total;
    };
    std::vector<const core::analysis::CounterRow*> shown;
    double calls = 0.0;
    for (const auto& row : rows) {
        calls += row.counters[counter].calls;
        if (row.counters[counter].calls > 0.0 || row.counters[counter].total > 0.0)
            shown.push_back(&row);
    }
    const QString name = QString::fromStdString(t->names[counter]);
    const QString description = QString::fromStdString(t->descriptions[counter]);
    QString subtitle = m_given ? tr("the .count files' whole-run totals · %n PE(s)", nullptr,
                           static_cast<int>(t->pes.size()))
                               : describeSelection(*m_trace, m_options->range(), m_options->pes());
    subtitle
        += tr(" · %1 executions measured").arg(QLocale().toString(static_cast<qlonglong>(calls)));
    if (t->unmeasured > 0)
        subtitle += tr(" (%1 without counters)")
                        .arg(QLocale().toString(static_cast<qulonglong>(t->unmeasured)));
    m_chart->setTitle(
        description.isEmpty() ? name : QStringLiteral("%1 · %2").arg(name, description), subtitle);
    if (shown.empty()) {
        m_chart->clearData(tr("No execution measured for %1 in this selection").arg(name));
        return;
    }

    StackedBarData bars;
    bars.unit = BarUnit::Count;
    bars.yTitle = rate ? tr("%1 per µs of execution").arg(name) : tr("%1, total").arg(name);
    bars.legendShares = !rate;
    bars.secondaryLabel = rate ? tr("Total") : tr("Execution time");
    bars.secondaryUnit = rate ? BarUnit::Count : BarUnit::Time;
    core::analysis::ActivityColumns columns;
    columns.entryCount = static_cast<int>(meta->entries.size());
    if (perPe()) {
        bars.xTitle = tr("PE");
        bars.series.push_back({ -1, name, description, -1, EntryPalette::rankColor(0).rgb() });
        for (const auto* row : shown) {
            const auto& cell = row->counters[counter];
            StackedBarCategory category;
            category.label = QString::number(row->pe);
            category.title
                = tr("PE %1 · %n execution(s)", nullptr, static_cast<int>(cell.calls)).arg(row->pe);
            bars.categories.push_back(category);
            bars.values.push_back(valueOf(cell));
            bars.secondary.push_back(rate ? cell.total : cell.timeUs);
        }
    } else {
        // The heaviest entry methods, each in its own colour (one series per bar).
        std::stable_sort(shown.begin(), shown.end(), [&](const auto* a, const auto* b) {
            return valueOf(a->counters[counter]) > valueOf(b->counters[counter]);
        });
        const std::size_t hidden = shown.size() > kMaxEntryBars ? shown.size() - kMaxEntryBars : 0;
        shown.resize(std::min(shown.size(), kMaxEntryBars));
        if (hidden > 0)
            m_chart->setTitle(m_chart->title(),
                subtitle
                    + tr(" · the %1 highest of %2 entry methods")
                          .arg(kMaxEntryBars)
                          .arg(kMaxEntryBars + hidden));
        bars.xTitle = tr("Entry method (id)");
        const auto n = shown.size();
        bars.values.assign(n * n, 0.0);
        bars.secondary.assign(n * n, 0.0);
        for (std::size_t k = 0; k < n; ++k) {
            const auto& cell = shown[k]->counters[counter];
            const int entry = shown[k]->entry;
            StackedBarSeries s;
            s.activity = entry;
            s.entry = entry;
            s.name = activityName(*meta, columns, entry, false);
            s.fullName = activityName(*meta, columns, entry, true) + tr(" (entry %1)").arg(entry);
            bars.series.push_back(s);
            StackedBarCategory category;
            category.label = QString::number(entry);
            category.title
                = tr("%1 · %n execution(s)", nullptr, static_cast<int>(cell.calls)).arg(s.fullName);
            bars.categories.push_back(category);
            bars.values[k * n + k] = valueOf(cell);
            bars.secondary[k * n + k] = rate ? cell.total : cell.timeUs;
        }
    }
    m_chart->setLegendHeading(perPe() ? tr("Counter") : rate ? tr("Entry") : tr("Entry · share"));
    m_chart->setData(std::move(bars), columns);
}

BarChartView::BarPes CountersView::pesOfBar(int category) const
{
    if (m_given || !perPe())
        return {};
    return peOfNumberedBar(category);
}

QString CountersView::csv() const
{
    const auto grouping = perPe() ? CounterGrouping::Pe : CounterGrouping::Entry;
    const auto* t = table();
    const auto* meta = metadata();
    if (t == nullptr || meta == nullptr)
        return QString::fromStdString(
            core::analysis::countersCsv(core::analysis::CounterTable {}, {}, grouping, {}));
    std::vector<std::string> names;
    for (const auto& e : meta->entries)
        names.push_back(e.name);
    return QString::fromStdString(core::analysis::countersCsv(
        *t, core::analysis::summarizeCounters(*t, grouping), grouping, names));
}

} // namespace parallax::views
