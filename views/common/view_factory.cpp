#include "views/common/view_factory.h"

#include "views/animation/animation_view.h"
#include "views/call_table/call_table_view.h"
#include "views/clusters/clusters_view.h"
#include "views/comm/comm_view.h"
#include "views/comm_matrix/comm_matrix_view.h"
#include "views/compare/compare_view.h"
#include "views/counters/counters_view.h"
#include "views/entry_profile/entry_profile_view.h"
#include "views/extrema/extrema_view.h"
#include "views/histogram/histogram_view.h"
#include "views/iterations/iterations_view.h"
#include "views/log_view/log_view.h"
#include "views/memory/memory_view.h"
#include "views/model/model_view.h"
#include "views/msg_size_evolution/msg_size_evolution_view.h"
#include "views/noise/noise_view.h"
#include "views/overview/overview_view.h"
#include "views/time_profile/time_profile_view.h"
#include "views/timeline/timeline_view.h"
#include "views/usage_profile/usage_profile_view.h"
#include "views/user_events/user_events_view.h"
#include "views/user_stats/user_stats_view.h"
#include "views/why/why_view.h"

namespace parallax::views {

AnalysisView* createView(ViewKind kind, EntryPalette* palette, QWidget* parent)
{
    switch (kind) {
    case ViewKind::UsageProfile:
        return new UsageProfileView(palette, parent);
    case ViewKind::TimeProfile:
        return new TimeProfileView(palette, parent);
    case ViewKind::Histogram:
        return new HistogramView(palette, parent);
    case ViewKind::Communication:
        return new CommView(palette, parent);
    case ViewKind::Extrema:
        return new ExtremaView(palette, parent);
    case ViewKind::Overview:
        return new OverviewView(palette, parent);
    case ViewKind::Timeline:
        return new TimelineView(palette, parent);
    case ViewKind::Clusters:
        return new ClustersView(palette, parent);
    case ViewKind::CommMatrix:
        return new CommMatrixView(palette, parent);
    case ViewKind::MsgSizeEvolution:
        return new MsgSizeEvolutionView(palette, parent);
    case ViewKind::Animation:
        return new AnimationView(palette, parent);
    case ViewKind::EntryProfile:
        return new EntryProfileView(palette, parent);
    case ViewKind::CallTable:
        return new CallTableView(palette, parent);
    case ViewKind::UserEvents:
        return new UserEventsView(palette, parent);
    case ViewKind::LogView:
        return new LogView(palette, parent);
    case ViewKind::Noise:
        return new NoiseView(palette, parent);
    case ViewKind::UserStats:
        return new UserStatsView(palette, parent);
    case ViewKind::Memory:
        return new MemoryView(palette, parent);
    case ViewKind::Counters:
        return new CountersView(palette, parent);
    case ViewKind::Compare:
        return new CompareView(palette, parent);
    case ViewKind::Iterations:
        return new IterationsView(palette, parent);
    case ViewKind::EntryModel:
        return new EntryModelView(palette, parent);
    case ViewKind::Why:
        return new WhyView(palette, parent);
    }
    return nullptr;
}

std::optional<ViewKind> viewKindFromKey(const QString& key)
{
    for (const auto kind : kAllViewKinds)
        if (viewKey(kind) == key)
            return kind;
    return std::nullopt;
}

} // namespace parallax::views
