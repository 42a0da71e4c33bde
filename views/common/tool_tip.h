#pragma once

#include <QEvent>
#include <QHelpEvent>
#include <QPoint>
#include <QString>
#include <QToolTip>
#include <QWidget>

namespace parallax::views {

// The tooltip part of a widget's event() for tips that depend on where the mouse is: on a
// ToolTip event shows `textAt(position)` (hides the tip when it is empty) and returns true;
// false for any other event, which the widget passes on.
template <typename TextAt> bool answerToolTip(QWidget* widget, QEvent* e, TextAt textAt)
{
    if (e->type() != QEvent::ToolTip)
        return false;
    auto* help = static_cast<QHelpEvent*>(e);
    const QString text = textAt(help->pos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), text, widget);
    return true;
}

} // namespace parallax::views
