#pragma once

#include "column.h"

#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

namespace parallax::core {

// A column of integers kept narrow: row i holds `value - base` in a Narrow when that fits, and
// the rare value that does not (its row holds kEscape) is kept whole in a side list sorted by
// row. Nothing is lost. The base is fixed (kBase) or, with kBaseFromFirst, the first value of
// each block of kBlockRows rows (for a clock, whose readings within a block lie close to its
// first one). Reading a row costs a load, a compare and an add; only an escaped row searches the
// side list. A column whose values mostly do not fit (message sizes of an application that sends
// large messages, the times of a PE whose 65,536 executions span more than 71 minutes) is made
// *wide* when its PE is finished (widenIfMostlyEscaped): every value whole in escapeValue, the
// other parts empty, so it costs no more than a plain column and reads without a search. Every
// part is a Column, so a mapped index views each in place (settle() after setting the parts).
// Iterators yield values (not references), enough for std::lower_bound and friends.
template <typename Wide, typename Narrow, Wide kBase = 0, bool kBaseFromFirst = false>
class PackedColumn {
    static_assert(std::is_integral_v<Wide> && std::is_unsigned_v<Narrow>);
    static_assert(sizeof(Narrow) < sizeof(Wide));
    using Unsigned = std::make_unsigned_t<Wide>;

public:
    using value_type = Wide;
    static constexpr Narrow kEscape = std::numeric_limits<Narrow>::max();
    static constexpr std::size_t kBlockShift = 16;
    static constexpr std::size_t kBlockRows = std::size_t { 1 } << kBlockShift;

    Column<Narrow> narrow; // value - base, or kEscape
    Column<std::uint32_t> escapeRow; // rows holding kEscape, ascending
    Column<Wide> escapeValue; // their values
    Column<Wide> base; // kBaseFromFirst: each block's first value (one per started block)

    class const_iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = Wide;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = Wide;
        const_iterator() = default;
        const_iterator(const PackedColumn* c, std::size_t i)
            : m_c(c)
            , m_i(static_cast<difference_type>(i))
        { }
        Wide operator*() const { return (*m_c)[static_cast<std::size_t>(m_i)]; }
        Wide operator[](difference_type n) const { return *(*this + n); }
        const_iterator& operator++() { return ++m_i, *this; }
        const_iterator operator++(int) { return { m_c, static_cast<std::size_t>(m_i++) }; }
        const_iterator& operator--() { return --m_i, *this; }
        const_iterator operator--(int) { return { m_c, static_cast<std::size_t>(m_i--) }; }
        const_iterator& operator+=(difference_type n) { return m_i += n, *this; }
        const_iterator& operator-=(difference_type n) { return m_i -= n, *this; }
        friend const_iterator operator+(const_iterator a, difference_type n) { return a += n; }
        friend const_iterator operator+(difference_type n, const_iterator a) { return a += n; }
        friend const_iterator operator-(const_iterator a, difference_type n) { return a -= n; }
        friend difference_type operator-(const const_iterator& a, const const_iterator& b)
        {
            return a.m_i - b.m_i;
        }
        friend bool operator==(const const_iterator& a, const const_iterator& b)
        {
            return a.m_i == b.m_i;
        }
        friend auto operator<=>(const const_iterator& a, const const_iterator& b)
        {
            return a.m_i <=> b.m_i;
        }

    private:
        const PackedColumn* m_c = nullptr;
        difference_type m_i = 0;
    };
    using iterator = const_iterator;

    PackedColumn() = default;
    PackedColumn(std::initializer_list<Wide> values) { assign(values.begin(), values.end()); }
    PackedColumn& operator=(std::initializer_list<Wide> values)
    {
        assign(values.begin(), values.end());
        return *this;
    }

    [[nodiscard]] std::size_t size() const { return m_wide ? escapeValue.size() : narrow.size(); }
    [[nodiscard]] bool empty() const { return size() == 0; }
    // Every value whole in escapeValue (see the class comment).
    [[nodiscard]] bool wide() const { return m_wide; }
    // The value narrow 0 stands for in row i.
    [[nodiscard]] Wide baseOf(std::size_t i) const
    {
        if constexpr (kBaseFromFirst) {
            return base[i >> kBlockShift]; // one per started block (checked when mapped)
        } else {
            return kBase;
        }
    }
    [[nodiscard]] Wide operator[](std::size_t i) const
    {
        if (m_wide) [[unlikely]]
            return escapeValue[i];
        const Narrow n = narrow[i];
        if (n != kEscape) [[likely]]
            return static_cast<Wide>(static_cast<Unsigned>(baseOf(i)) + n);
        return escaped(i);
    }
    [[nodiscard]] Wide front() const { return (*this)[0]; }
    [[nodiscard]] Wide back() const { return (*this)[size() - 1]; }
    [[nodiscard]] const_iterator begin() const { return { this, 0 }; }
    [[nodiscard]] const_iterator end() const { return { this, size() }; }
    [[nodiscard]] std::vector<Wide> toVector() const
    {
        std::vector<Wide> out(size());
        if (m_wide || !std::is_sorted(escapeRow.begin(), escapeRow.end(), std::less_equal<>())) {
            for (std::size_t i = 0; i < out.size(); ++i)
                out[i] = (*this)[i];
            return out;
        }
        // Rows strictly ascending (as a builder leaves them): the k-th escaped row is
        // escapeRow[k], so one walk replaces a search per escaped row.
        std::size_t k = 0;
        for (std::size_t i = 0; i < out.size(); ++i) {
            const Narrow n = narrow[i];
            if (n != kEscape) [[likely]]
                out[i] = static_cast<Wide>(static_cast<Unsigned>(baseOf(i)) + n);
            else if (k < escapeRow.size() && escapeRow[k] == i && k < escapeValue.size())
                out[i] = escapeValue[k++];
            else
                out[i] = escaped(i);
        }
        return out;
    }
    // Bytes of memory the parts own (a mapped part owns none).
    [[nodiscard]] std::size_t memoryBytes() const
    {
        return narrow.capacity() * sizeof(Narrow) + escapeRow.capacity() * sizeof(std::uint32_t)
            + (escapeValue.capacity() + base.capacity()) * sizeof(Wide);
    }

    // Makes the column wide when more than one row in eight is escaped: from there on the side
    // list costs more than it saves (each escaped row holds a narrow slot, its row number and its
    // value) and every read of such a row searches it.
    void widenIfMostlyEscaped()
    {
        if (m_wide || escapeRow.size() * 8 <= narrow.size())
            return;
        Column<Wide> all(toVector());
        *this = PackedColumn(); // the narrow parts' memory goes too
        escapeValue = std::move(all);
        m_wide = true;
    }
    // After the parts were set one by one (a mapped index): wide when only escapeValue has rows.
    void settle() { m_wide = narrow.empty() && escapeRow.empty() && !escapeValue.empty(); }

    void push_back(Wide v)
    {
        if (m_wide) [[unlikely]] {
            escapeValue.push_back(v);
            return;
        }
        if constexpr (kBaseFromFirst) {
            if ((narrow.size() & (kBlockRows - 1)) == 0)
                base.push_back(v);
        }
        const auto b = baseOf(narrow.size());
        const auto d = static_cast<Unsigned>(static_cast<Unsigned>(v) - static_cast<Unsigned>(b));
        if (v >= b && d < kEscape) [[likely]] {
            narrow.push_back(static_cast<Narrow>(d));
            return;
        }
        escapeRow.push_back(static_cast<std::uint32_t>(narrow.size()));
        escapeValue.push_back(v);
        narrow.push_back(kEscape);
    }
    void clear()
    {
        narrow.clear();
        escapeRow.clear();
        escapeValue.clear();
        base.clear();
        m_wide = false;
    }
    void shrink_to_fit()
    {
        narrow.shrink_to_fit();
        escapeRow.shrink_to_fit();
        escapeValue.shrink_to_fit();
        base.shrink_to_fit();
    }
    template <typename It> void assign(It first, It last)
    {
        clear();
        for (; first != last; ++first)
            push_back(*first);
    }

    friend bool operator==(const PackedColumn& a, const PackedColumn& b)
    {
        if (a.size() != b.size())
            return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a[i] != b[i])
                return false;
        return true;
    }
    friend bool operator==(const PackedColumn& a, const std::vector<Wide>& b)
    {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }

private:
    bool m_wide = false;

    [[nodiscard]] Wide escaped(std::size_t i) const
    {
        const auto it = std::lower_bound(escapeRow.begin(), escapeRow.end(), i);
        const auto k = static_cast<std::size_t>(it - escapeRow.begin());
        if (it == escapeRow.end() || *it != i || k >= escapeValue.size())
            return static_cast<Wide>(static_cast<Unsigned>(baseOf(i)) + kEscape); // forged
        return escapeValue[k];
    }
};

// A column whose rows almost all hold kDefault: only the other rows are stored, as (row, value)
// in row order, and the size apart.
template <typename T, T kDefault> class SparseColumn {
public:
    using value_type = T;

    Column<std::uint32_t> row; // rows not holding kDefault, ascending
    Column<T> value; // their values

    SparseColumn() = default;
    SparseColumn(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
    SparseColumn(const SparseColumn&) = default;
    SparseColumn& operator=(const SparseColumn&) = default;
    // A moved-from column is empty, as a moved-from Column is.
    SparseColumn(SparseColumn&& other) noexcept
        : row(std::move(other.row))
        , value(std::move(other.value))
        , m_size(std::exchange(other.m_size, 0))
    { }
    SparseColumn& operator=(SparseColumn&& other) noexcept
    {
        row = std::move(other.row);
        value = std::move(other.value);
        m_size = std::exchange(other.m_size, 0);
        return *this;
    }
    ~SparseColumn() = default;
    SparseColumn& operator=(std::initializer_list<T> values)
    {
        assign(values.begin(), values.end());
        return *this;
    }

    [[nodiscard]] std::size_t size() const { return m_size; }
    [[nodiscard]] bool empty() const { return m_size == 0; }
    [[nodiscard]] T operator[](std::size_t i) const
    {
        if (row.empty()) [[likely]]
            return kDefault;
        const auto it = std::lower_bound(row.begin(), row.end(), i);
        const auto k = static_cast<std::size_t>(it - row.begin());
        return it != row.end() && *it == i && k < value.size() ? value[k] : kDefault;
    }
    [[nodiscard]] std::vector<T> toVector() const
    {
        std::vector<T> out(m_size, kDefault);
        for (std::size_t k = 0; k < row.size() && k < value.size(); ++k)
            if (row[k] < m_size)
                out[row[k]] = value[k];
        return out;
    }
    [[nodiscard]] std::size_t memoryBytes() const
    {
        return row.capacity() * sizeof(std::uint32_t) + value.capacity() * sizeof(T);
    }

    void push_back(T v)
    {
        if (v != kDefault) {
            row.push_back(static_cast<std::uint32_t>(m_size));
            value.push_back(v);
        }
        ++m_size;
    }
    void clear()
    {
        row.clear();
        value.clear();
        m_size = 0;
    }
    // The parts as read from an index: `size` rows, the others kDefault.
    void assign(std::size_t size, Column<std::uint32_t> rows, Column<T> values)
    {
        m_size = size;
        row = std::move(rows);
        value = std::move(values);
    }
    template <typename It> void assign(It first, It last)
    {
        clear();
        for (; first != last; ++first)
            push_back(*first);
    }

    friend bool operator==(const SparseColumn& a, const SparseColumn& b)
    {
        return a.toVector() == b.toVector();
    }
    friend bool operator==(const SparseColumn& a, const std::vector<T>& b)
    {
        return a.toVector() == b;
    }

private:
    std::size_t m_size = 0;
};

} // namespace parallax::core
