#pragma once

#include "views/common/analysis_view.h"

#include <optional>

namespace parallax::views {

class EntryPalette;

// Creates the view of a kind (null for an unknown kind). Used by the app and by
// `parallax-cli render`, so both draw with the very same widgets.
AnalysisView* createView(ViewKind kind, EntryPalette* palette, QWidget* parent = nullptr);

// "overview", "usage", ... -> kind.
std::optional<ViewKind> viewKindFromKey(const QString& key);

} // namespace parallax::views
