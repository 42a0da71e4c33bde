// AsyncComputation is header-only (its run() is a template); this file gives moc a home for it.
#include "async_computation.h"
