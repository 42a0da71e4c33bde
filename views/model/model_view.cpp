#include "views/model/model_view.h"

#include "core/analysis/csv_export.h"
#include "core/analysis/iterations.h"
#include "views/common/async_computation.h"
#include "views/common/chart_frame.h"
#include "views/common/entry_palette.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"
#include "views/model/model_chart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLayout>
#include <QLocale>
#include <QMenu>
#include <QStandardItemModel>

#include <algorithm>
#include <optional>
#include <utility>

namespace parallax::views {

namespace {

using core::analysis::EntryModel;
using core::analysis::ModelX;
using core::analysis::ModelXChoices;

constexpr int kModelEntryCandidates = 24; // the default entry: among the heaviest ones

constexpr ModelX kModelXs[] = { ModelX::MessageBytes, ModelX::Iteration, ModelX::UserValue };

const char* modelXKey(ModelX x)
{
    switch (x) {
    case ModelX::MessageBytes:
        return "msg-bytes";
    case ModelX::Iteration:
        return "iteration";
    case ModelX::UserValue:
        return "user-value";
    }
    return "";
}

QString modelXTitle(ModelX x)
{
    switch (x) {
    case ModelX::MessageBytes:
        return EntryModelView::tr("Message size");
    case ModelX::Iteration:
        return EntryModelView::tr("Iteration");
    case ModelX::UserValue:
        return EntryModelView::tr("User-supplied value");
    }
    return {};
}

// Why an x cannot be chosen for this entry method.
QString modelXMissing(ModelX x)
{
    switch (x) {
    case ModelX::MessageBytes:
        return EntryModelView::tr("the executions of this entry method in the range were not "
                                  "started by messages of different sizes");
    case ModelX::Iteration:
        return EntryModelView::tr("no iterations found in the range (see View → Iterations)");
    case ModelX::UserValue:
        return EntryModelView::tr("no execution of this entry method recorded a value with "
                                  "traceUserSuppliedData");
    }
    return {};
}

std::string modelCsvNumber(double v)
{
    return QString::number(v, 'g', 10).toStdString();
}

} // namespace

EntryModelView::EntryModelView(EntryPalette* palette, QWidget* parent)
    : BarChartView(ViewKind::EntryModel, palette, parent)
{
    m_entry = m_options->addChoice(tr("&Entry"), {});
    m_entry->setObjectName(QStringLiteral("entry"));
    m_entry->setMinimumContentsLength(24);
    m_entry->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_entry->setToolTip(tr("The entry method whose executions are modelled"));
    m_x = m_options->addChoice(tr("&x"), {});
    m_x->setObjectName(QStringLiteral("x"));
    for (const auto x : kModelXs)
        m_x->addItem(modelXTitle(x), static_cast<int>(x));
    m_x->setToolTip(tr("What the durations are set against"));
    m_logY = new QCheckBox(tr("&Log scale"), this);
    m_logY->setObjectName(QStringLiteral("logY"));
    m_logY->setToolTip(tr("Durations on a logarithmic axis, so that a few long executions do "
                          "not squash the others against the x axis"));
    addToolbarWidget(m_logY);
    connect(m_entry, &QComboBox::currentIndexChanged, this, [this]() {
        m_entryChosen = true;
        recompute();
    });
    connect(m_x, &QComboBox::currentIndexChanged, this, [this]() { recompute(); });
    // The same model on another axis: no recomputation.
    connect(m_logY, &QCheckBox::toggled, this, [this]() { showModel(); });

    m_model = new ModelChart(this);
    m_model->setObjectName(QStringLiteral("modelChart"));
    m_model->setFocusPolicy(Qt::StrongFocus);
    m_model->setHint(tr("click a point: that execution in the Timeline"));
    delete layout()->replaceWidget(m_chart, m_model);
    m_chart->hide();
    setFocusProxy(m_model);
    connect(m_computation, &AsyncComputation::busyChanged, m_model, &ModelChart::setBusy);
    connect(m_model, &ModelChart::pointClicked, this, &EntryModelView::openPoint);
    connect(m_model, &ModelChart::contextMenuRequested, this, &EntryModelView::showPointMenu);
}

core::EntryId EntryModelView::entry() const
{
    return m_entry->currentIndex() < 0 ? core::kNoEntry
                                       : static_cast<core::EntryId>(m_entry->currentData().toInt());
}

ModelX EntryModelView::x() const
{
    return static_cast<ModelX>(std::max(0, m_x->currentData().toInt()));
}

void EntryModelView::fillEntries()
{
    const QSignalBlocker block(m_entry);
    m_entry->clear();
    if (!m_trace)
        return;
    // Heaviest first (the palette's ranking of this run), then any entry it does not list.
    std::vector<core::EntryId> order = palette()->entryOrder();
    if (order.size() != m_trace->metadata.entries.size())
        order = core::analysis::rankEntriesByTime(*m_trace).order;
    for (const auto id : order)
        m_entry->addItem(
            QString::fromStdString(m_trace->metadata.entryName(id)), static_cast<int>(id));
}

void EntryModelView::setTrace(core::TracePtr trace)
{
    m_trace = trace;
    m_entryChosen = false;
    fillEntries();
    BarChartView::setTrace(std::move(trace));
}

void EntryModelView::showEntry(core::EntryId entry)
{
    const int index = m_entry->findData(static_cast<int>(entry));
    if (index < 0)
        return;
    m_entryChosen = true;
    if (index == m_entry->currentIndex())
        recompute();
    else
        m_entry->setCurrentIndex(index); // recomputes
}

void EntryModelView::clearResult()
{
    m_result.reset();
}

void EntryModelView::showChoices(const ModelXChoices& choices)
{
    auto* items = qobject_cast<QStandardItemModel*>(m_x->model());
    if (items == nullptr)
        return;
    for (int i = 0; i < m_x->count(); ++i) {
        const auto x = static_cast<ModelX>(m_x->itemData(i).toInt());
        auto* item = items->item(i);
        item->setEnabled(choices.offers(x));
        item->setToolTip(choices.offers(x) ? QString() : modelXMissing(x));
    }
}

void EntryModelView::recompute()
{
    m_model->setTitle(tr("Entry model"));
    if (!m_trace) {
        m_computation->cancel();
        m_result.reset();
        m_model->clearData(tr("No run loaded"));
        return;
    }
    if (!m_trace->hasLogs()) {
        m_computation->cancel();
        m_result.reset();
        m_model->clearData(logsOnlyMessage(*m_trace, tr("the executions of entry methods")));
        return;
    }
    const auto entry = this->entry();
    if (entry == core::kNoEntry) {
        m_model->clearData(tr("This run has no entry methods"));
        return;
    }
    struct Computed {
        ModelXChoices choices;
        EntryModel model;
    };
    // Until the analyst picks one, the heaviest entry method that has something to set its
    // durations against (SDAG serial blocks, say, have no message of their own).
    std::vector<core::EntryId> candidates { entry };
    if (!m_entryChosen)
        for (int i = m_entry->currentIndex() + 1;
             i < std::min(m_entry->count(), m_entry->currentIndex() + kModelEntryCandidates); ++i)
            candidates.push_back(static_cast<core::EntryId>(m_entry->itemData(i).toInt()));
    const auto trace = m_trace;
    const auto request = m_options->request();
    const auto asked = x();
    m_computation->run<Computed>(
        [trace, request, candidates, asked](const core::analysis::Progress& progress) {
            Computed c;
            const bool iterations
                = core::analysis::findIterations(*trace, request).iterations.size() >= 2;
            auto picked = candidates.front();
            // Failing that, the first whose messages all have one size: one column of points,
            // no fit, but its spread still shows.
            std::optional<std::pair<core::EntryId, ModelXChoices>> oneSize;
            bool found = false;
            for (const auto candidate : candidates) {
                if (progress.isCancelled())
                    break;
                const auto choices
                    = core::analysis::modelXChoices(*trace, request, candidate, iterations);
                if (choices.any() || candidate == candidates.front())
                    c.choices = choices;
                if (choices.any()) {
                    picked = candidate;
                    found = true;
                    break;
                }
                if (choices.singleMessageSize && !oneSize)
                    oneSize.emplace(candidate, choices);
            }
            if (!found && oneSize) {
                picked = oneSize->first;
                c.choices = oneSize->second;
                c.choices.messageBytes = true;
            }
            // An x the executions lack gives way to the first one they have.
            ModelX shown = asked;
            if (!c.choices.offers(shown))
                for (const auto other : kModelXs)
                    if (c.choices.offers(other)) {
                        shown = other;
                        break;
                    }
            c.model = core::analysis::modelEntry(*trace, request, picked, shown);
            return c;
        },
        [this](Computed c) {
            showChoices(c.choices);
            if (const int index = m_entry->findData(static_cast<int>(c.model.entry));
                index >= 0 && index != m_entry->currentIndex()) {
                const QSignalBlocker block(m_entry);
                m_entry->setCurrentIndex(index);
            }
            {
                const QSignalBlocker block(m_x);
                m_x->setCurrentIndex(m_x->findData(static_cast<int>(c.model.x)));
            }
            const auto& m = c.model;
            const QString name = QString::fromStdString(m_trace->metadata.entryName(m.entry));
            m_model->setTitle(tr("Entry model: %1").arg(name),
                tr("%1 · %2 against %3%4")
                    .arg(describeSelection(*m_trace, m_options->range(), m_options->pes()),
                        modelCountText(m.points.size(), "execution", "executions"),
                        modelXTitle(m.x).toLower(),
                        m.withoutX > 0 ? tr(" · %1 without it").arg(m.withoutX) : QString()));
            if (m.points.empty()) {
                m_result = std::move(c.model);
                m_model->clearData(m_result->withoutX > 0
                        ? tr("None of the %1 of %2 in this range has a value to set it "
                             "against: %3")
                              .arg(modelCountText(m_result->withoutX, "execution", "executions"),
                                  name, modelXMissing(m_result->x))
                        : tr("%1 did not run in this range on these PEs").arg(name));
                emit computed();
                return;
            }
            m_result = std::move(c.model);
            showModel();
            emit computed();
        });
}

void EntryModelView::showModel()
{
    if (!m_result || m_result->points.empty())
        return;
    const auto& m = *m_result;
    ModelChartData chartData;
    chartData.xTitle = modelXTitle(m.x);
    chartData.xUnit = m.x == ModelX::MessageBytes ? BarUnit::Bytes : BarUnit::Count;
    chartData.pointColor = palette()->entryColor(m.entry);
    chartData.logY = m_logY->isChecked();
    chartData.model = m;
    m_model->setData(std::move(chartData));
}

void EntryModelView::openPoint(int point)
{
    if (!m_result || point < 0 || static_cast<std::size_t>(point) >= m_result->points.size())
        return;
    const auto& p = m_result->points[static_cast<std::size_t>(point)];
    // The execution with as much time again on either side.
    const auto pad = std::max<core::TimeUs>(p.duration, 10);
    emit timelineRequested(
        { p.pe }, { std::max<core::TimeUs>(0, p.begin - pad), p.begin + p.duration + pad });
}

void EntryModelView::showPointMenu(QPoint globalPos, int point)
{
    QMenu menu(this);
    if (m_result && point >= 0 && static_cast<std::size_t>(point) < m_result->points.size()) {
        const auto& p = m_result->points[static_cast<std::size_t>(point)];
        menu.addAction(tr("Open this execution on PE %1 in the Timeline").arg(p.pe), this,
            [this, point]() { openPoint(point); });
        menu.addSeparator();
    }
    addOpenRangeMenu(menu, *this, m_options->range(), m_options->pes());
    addExportActions(menu, *this);
    menu.exec(globalPos);
}

QImage EntryModelView::renderChart(QSize size)
{
    return m_model->renderImage(m_model->exportSize(size));
}

bool EntryModelView::canExportSvg() const
{
    return svgExportAvailable();
}

bool EntryModelView::exportSvg(const QString& path, QSize size, QString* error)
{
    if (size.isEmpty())
        size = m_model->size();
    return writeChartSvg(
        path, size, m_model->title(),
        [this, size](QPainter& painter) { m_model->paintExport(painter, size); }, error);
}

QString EntryModelView::csv() const
{
    if (!m_result)
        return {};
    // The fits (as `parallax-cli model`), a blank line, then every point.
    std::string out = "fit,formula,a,b,c,r2,points\n";
    for (const auto& f : m_result->fits)
        out += std::string(core::analysis::modelFitName(f.kind)) + ","
            + core::analysis::csvField(core::analysis::modelFormula(f)) + "," + modelCsvNumber(f.a)
            + "," + modelCsvNumber(f.b) + "," + modelCsvNumber(f.c) + "," + modelCsvNumber(f.r2)
            + "," + std::to_string(f.points) + "\n";
    out += "\npe,begin_us,x,duration_us\n";
    for (const auto& p : m_result->points)
        out += std::to_string(p.pe) + "," + std::to_string(p.begin) + "," + modelCsvNumber(p.x)
            + "," + std::to_string(p.duration) + "\n";
    return QString::fromStdString(out);
}

bool EntryModelView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    for (const auto& [name, value] : options) {
        if (name == QStringLiteral("entry")) {
            bool ok = false;
            const int id = value.toInt(&ok);
            const int index = ok ? m_entry->findData(id) : -1;
            if (index < 0) {
                if (error != nullptr)
                    *error = tr("--entry takes an entry id of this run (parallax-cli entries "
                                "lists them), got '%1'")
                                 .arg(value);
                return false;
            }
            const QSignalBlocker block(m_entry);
            m_entry->setCurrentIndex(index);
            m_entryChosen = true;
        } else if (name == QStringLiteral("x")) {
            int index = -1;
            for (int i = 0; i < m_x->count(); ++i)
                if (value
                    == QLatin1String(modelXKey(static_cast<ModelX>(m_x->itemData(i).toInt()))))
                    index = i;
            if (index < 0) {
                if (error != nullptr)
                    *error
                        = tr("--x takes msg-bytes, iteration or user-value, got '%1'").arg(value);
                return false;
            }
            const QSignalBlocker block(m_x);
            m_x->setCurrentIndex(index);
        } else if (name == QStringLiteral("log-y")) {
            if (value != QStringLiteral("on") && value != QStringLiteral("off")) {
                if (error != nullptr)
                    *error = tr("--log-y takes on or off, got '%1'").arg(value);
                return false;
            }
            m_logY->setChecked(value == QStringLiteral("on"));
        } else {
            return rejectOption(name, error);
        }
    }
    return applyFields(error);
}

AnalysisView::State EntryModelView::saveState() const
{
    auto state = BarChartView::saveState();
    if (entry() != core::kNoEntry)
        state[QStringLiteral("entry")] = QString::number(entry());
    state[QStringLiteral("x")] = QLatin1String(modelXKey(x()));
    state[QStringLiteral("log-y")]
        = m_logY->isChecked() ? QStringLiteral("on") : QStringLiteral("off");
    return state;
}

} // namespace parallax::views
