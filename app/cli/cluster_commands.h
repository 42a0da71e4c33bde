#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace parallax::cli {

// `parallax-cli clusters`: k-means equivalence classes of PEs (core/analysis/clustering.h) as
// CSV pe,cluster,role,distance, or the sweep over k as CSV k,nonempty,wcss,chosen.
int runClusters(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace parallax::cli
