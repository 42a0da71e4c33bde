#include "view_factory.h"

namespace parallax::views {

AnalysisView* createView(ViewKind kind, EntryPalette* palette, QWidget* parent)
{
    (void)kind;
    (void)palette;
    (void)parent;
    return nullptr; // filled in as the views land
}

std::optional<ViewKind> viewKindFromKey(const QString& key)
{
    for (const auto kind : { ViewKind::Overview, ViewKind::UsageProfile, ViewKind::TimeProfile,
             ViewKind::Histogram, ViewKind::Communication, ViewKind::Extrema, ViewKind::Timeline })
        if (viewKey(kind) == key)
            return kind;
    return std::nullopt;
}

} // namespace parallax::views
