// AsyncComputation is mostly header-only (its run() is a template); this file gives moc a home
// for it, and holds what its workers share.
#include "views/common/async_computation.h"

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace parallax::views {

void runBelowGuiPriority()
{
#ifdef __linux__
    // Linux schedules threads, and a thread's nice value is its own (the threads it starts,
    // as parallelFor's, inherit it). Raising it is always allowed and is never undone: the
    // global pool's threads only run background work.
    thread_local bool lowered = false;
    if (!lowered) {
        lowered = true;
        (void)setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kWorkerNice);
    }
#endif
}

} // namespace parallax::views
