#pragma once

#include "builder_stage.h"
#include "column.h"
#include "packed_column.h"
#include "pe_trace.h"
#include "store_arena.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

namespace parallax::core {

// Writes a PeTraceBuilder's finished columns, each once and in its final form, into a run's
// arena (or, without one, into memory of their own).
struct ColumnPlacer {
    StoreArena* arena = nullptr;

    // `column` made a column of n values to be written at the pointer returned: a slice of the
    // arena when there is one, memory of its own otherwise.
    template <typename T> T* room(Column<T>& column, std::size_t n)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        if (n == 0) {
            column = Column<T>();
            return nullptr;
        }
        if (arena != nullptr) {
            auto slice = arena->take(n * sizeof(T));
            if (slice.data != nullptr) {
                auto* at = static_cast<T*>(slice.data);
                column = Column<T>::view(at, n, std::move(slice.keep));
                return at;
            }
        }
        column = std::vector<T>(n);
        return column.data();
    }

    template <typename T> void place(Column<T>& column, const T* values, std::size_t n)
    {
        if (auto* at = room(column, n))
            std::memcpy(at, values, n * sizeof(T));
    }

    // Packs n values as PackedColumn::push_back would have, one after another, followed by
    // widenIfMostlyEscaped: the escapes are counted first, so each part is written once, at its
    // final size.
    template <typename W, typename N, W B, bool F>
    void place(PackedColumn<W, N, B, F>& column, const W* values, std::size_t n)
    {
        using Packed = PackedColumn<W, N, B, F>;
        using Unsigned = std::make_unsigned_t<W>;
        column = Packed();
        if (n == 0)
            return;
        const auto fits = [](W v, W b) {
            const auto d
                = static_cast<Unsigned>(static_cast<Unsigned>(v) - static_cast<Unsigned>(b));
            return v >= b && d < Packed::kEscape;
        };
        // Block by block (a block's rows share one base), so the loops vectorise.
        const auto eachBlock = [&](auto visit) {
            for (std::size_t first = 0; first < n; first += Packed::kBlockRows) {
                const std::size_t last = std::min(n, first + Packed::kBlockRows);
                if constexpr (F)
                    visit(first, last, values[first]);
                else
                    visit(first, last, B);
            }
        };
        std::size_t escapes = 0;
        eachBlock([&](std::size_t first, std::size_t last, W b) {
            for (std::size_t i = first; i < last; ++i)
                escapes += static_cast<std::size_t>(!fits(values[i], b));
        });
        if (escapes * 8 > n) { // wide (see widenIfMostlyEscaped)
            place(column.escapeValue, values, n);
            column.settle();
            return;
        }
        N* narrow = room(column.narrow, n);
        eachBlock([&](std::size_t first, std::size_t last, W b) {
            for (std::size_t i = first; i < last; ++i) {
                const W v = values[i];
                narrow[i] = fits(v, b)
                    ? static_cast<N>(static_cast<Unsigned>(v) - static_cast<Unsigned>(b))
                    : Packed::kEscape;
            }
        });
        if (escapes > 0) {
            std::uint32_t* escapeRow = room(column.escapeRow, escapes);
            W* escapeValue = room(column.escapeValue, escapes);
            std::size_t k = 0;
            eachBlock([&](std::size_t first, std::size_t last, W b) {
                for (std::size_t i = first; i < last; ++i)
                    if (!fits(values[i], b)) {
                        escapeRow[k] = static_cast<std::uint32_t>(i);
                        escapeValue[k] = values[i];
                        ++k;
                    }
            });
        }
        if constexpr (F) {
            const std::size_t blocks = (n + Packed::kBlockRows - 1) >> Packed::kBlockShift;
            W* base = room(column.base, blocks);
            for (std::size_t b = 0; b < blocks; ++b)
                base[b] = values[b << Packed::kBlockShift];
        }
        column.settle();
    }

    void place(IntervalColumns& c, const StagedIntervals& staged)
    {
        place(c.begin, staged.begin.data(), staged.rows);
        place(c.end, staged.end.data(), staged.rows);
    }
};

} // namespace parallax::core
