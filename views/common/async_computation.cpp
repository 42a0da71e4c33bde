// AsyncComputation is header-only (its run() is a template); this file gives moc a home for it.
#include "views/common/async_computation.h"
