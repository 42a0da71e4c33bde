#include "views/timeline/timeline_details.h"

#include "core/text_args.h"
#include "views/common/time_format.h"
#include "views/timeline/timeline_geometry.h"

#include <QLocale>
#include <QObject>
#include <QStringList>

namespace parallax::views {

QString objectIndexText(const core::ObjectId& id)
{
    if (id.length == 0)
        return {};
    QStringList parts;
    for (std::size_t i = 0; i < id.length && i < id.values.size(); ++i)
        parts << QString::number(id.values[i]);
    return QStringLiteral("[%1]").arg(parts.join(QLatin1Char(',')));
}

ExecutionDetails describeExecution(const core::Trace& trace, core::PeId pe, std::size_t execution)
{
    ExecutionDetails d;
    if (pe < 0 || static_cast<std::size_t>(pe) >= trace.pes.size())
        return d;
    const auto& p = trace.pes[static_cast<std::size_t>(pe)];
    const auto& ex = p.executions;
    if (execution >= ex.size())
        return d;
    const auto& meta = trace.metadata;
    const QLocale locale;
    d.entry = ex.entry[execution];
    d.title = QString::fromStdString(meta.entryName(d.entry));
    auto add = [&](const QString& label, const QString& value) {
        d.fields.push_back({ label, value });
    };

    const auto chare = QString::fromStdString(meta.chareNameOfEntry(d.entry));
    add(QObject::tr("Entry"), d.title);
    add(QObject::tr("Chare"), chare.isEmpty() ? QObject::tr("—") : chare);
    if (ex.object[execution] < p.objects.size() && meta.objectIdLength(d.entry) > 0) {
        const auto& id = p.objects[ex.object[execution]];
        if (id.length > 0) {
            d.object = id;
            add(QObject::tr("Object index"), objectIndexText(id));
        }
    }
    add(QObject::tr("PE"), QString::number(pe));
    const auto b = ex.begin[execution];
    const auto e = ex.end[execution];
    add(QObject::tr("Begin"), formatPreciseTime(b));
    add(QObject::tr("End"), formatPreciseTime(e));
    add(QObject::tr("Duration"), durationText(e - b));
    if (ex.cpuDuration[execution] > 0 || ex.cpuBegin[execution] > 0)
        add(QObject::tr("CPU time"),
            durationText(static_cast<core::TimeUs>(ex.cpuDuration[execution])));
    if (ex.sourcePe[execution] >= 0)
        add(QObject::tr("Source PE"), QString::number(ex.sourcePe[execution]));
    if (ex.msgBytes[execution] > 0)
        add(QObject::tr("Message size"),
            QObject::tr("%1 bytes").arg(locale.toString(ex.msgBytes[execution])));
    const auto link = findMessageSource(trace, pe, execution);
    if (link.linked()) {
        const auto sent = trace.pes[static_cast<std::size_t>(link.senderPe)].sends.time[*link.send];
        add(QObject::tr("Sent"),
            QObject::tr("by PE %1 at %2").arg(link.senderPe).arg(formatPreciseTime(sent)));
        add(QObject::tr("Latency from send"), durationText(b - sent));
        if (link.weak())
            add(QObject::tr("Link"),
                QObject::tr("uncertain: %1").arg(QString::fromStdString(link.reason)));
    } else if (!link.reason.empty()) {
        add(QObject::tr("Link"), QString::fromStdString(link.reason));
    }
    // PAPI counters: the change over the execution.
    const auto n = meta.papiEvents.size();
    if (n > 0 && ex.papi.size() >= (execution + 1) * 2 * n) {
        const auto* at = ex.papi.data() + execution * 2 * n;
        for (std::size_t c = 0; c < n; ++c)
            add(QString::fromStdString(meta.papiEvents[c]),
                locale.toString(static_cast<qlonglong>(at[n + c] - at[c])));
    }
    return d;
}

} // namespace parallax::views
