// placeLabels (views/timeline/label_placement.h): the message arrows' latency labels never
// cover each other, and stay where they were wanted when there is room.

#include "views/timeline/label_placement.h"

#include <catch2/catch.hpp>

using parallax::views::placeLabels;

namespace {

bool anyOverlap(const std::vector<QRectF>& boxes)
{
    for (std::size_t i = 0; i < boxes.size(); ++i)
        for (std::size_t j = i + 1; j < boxes.size(); ++j)
            if (boxes[i].intersects(boxes[j]))
                return true;
    return false;
}

} // namespace

TEST_CASE("labels with room stay where they were wanted", "[views][timeline][labels]")
{
    const QRectF bounds(0, 0, 400, 200);
    const std::vector<QRectF> wanted { { 10, 10, 50, 16 }, { 100, 10, 50, 16 },
        { 10, 80, 50, 16 } };
    CHECK(placeLabels(wanted, bounds) == wanted);
}

TEST_CASE("labels wanted at the same place are stacked apart, nearest slot first",
    "[views][timeline][labels]")
{
    // Five arrows from one send to five receivers: their labels would all sit on one spot.
    const QRectF bounds(0, 0, 400, 200);
    const std::vector<QRectF> wanted(5, QRectF(100, 90, 60, 16));
    const auto boxes = placeLabels(wanted, bounds);
    REQUIRE(boxes.size() == 5);
    CHECK(boxes[0] == wanted[0]); // the first keeps its place
    CHECK_FALSE(anyOverlap(boxes));
    CHECK(boxes[1].top() == 108); // one slot down: 16 px high plus a 2 px gap
    CHECK(boxes[2].top() == 72); // then one slot up
    for (const auto& b : boxes) {
        CHECK(bounds.contains(b));
        CHECK(b.left() == 100); // same column while it has room
    }
}

TEST_CASE("labels near an edge stay inside, a full column continues to the right",
    "[views][timeline][labels]")
{
    const QRectF bounds(0, 0, 300, 40); // room for two rows of labels only
    const std::vector<QRectF> wanted(4, QRectF(20, 30, 60, 16)); // partly below the bottom
    const auto boxes = placeLabels(wanted, bounds);
    REQUIRE(boxes.size() == 4);
    CHECK_FALSE(anyOverlap(boxes));
    CHECK(boxes[0].bottom() <= bounds.bottom()); // moved up inside
    CHECK(boxes[0].left() == 20);
    CHECK(boxes[2].left() > boxes[0].right()); // the column is full: to the right
}
