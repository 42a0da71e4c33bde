#pragma once

// The TimelineView tests' common set-up: a shown view of a given size with its own palette.

#include "views/common/entry_palette.h"
#include "views/timeline/timeline_view.h"

namespace parallax::test {

struct ShownTimeline {
    ShownTimeline(int width, int height)
    {
        view.resize(width, height);
        view.show();
    }
    views::EntryPalette palette;
    views::TimelineView view { &palette };
};

} // namespace parallax::test
