#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

namespace parallax::core {

// One column of a PE's store: a contiguous array of T that either owns its elements (a
// std::vector, as the builder fills it) or views elements that live elsewhere, in a memory-mapped
// index shard (io/index_shard.h), kept alive by a shared handle. Reading is the same either way
// and costs what a std::vector costs: `col[i]`, `size()`, `data()`, iterators that are plain
// pointers (so std::lower_bound and friends work on them). The vector-like mutators exist for
// whoever builds a store; used on a mapped column they first copy it into memory it owns.
template <typename T> class Column {
public:
    using value_type = T;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using reference = T&;
    using const_reference = const T&;
    using pointer = T*;
    using const_pointer = const T*;
    using iterator = T*;
    using const_iterator = const T*;
    using reverse_iterator = std::reverse_iterator<iterator>;
    using const_reverse_iterator = std::reverse_iterator<const_iterator>;

    Column() = default;
    Column(std::vector<T>&& values) // NOLINT(google-explicit-constructor): a column is its values
        : m_own(std::move(values))
    {
        sync();
    }
    Column(std::initializer_list<T> values)
        : m_own(values)
    {
        sync();
    }
    Column(const Column& other)
        : m_data(other.m_data)
        , m_size(other.m_size)
        , m_keep(other.m_keep)
    {
        if (!m_keep) {
            m_own = other.m_own;
            sync();
        }
    }
    Column(Column&& other) noexcept
        : m_own(std::move(other.m_own))
        , m_data(other.m_data)
        , m_size(other.m_size)
        , m_keep(std::move(other.m_keep))
    {
        if (!m_keep)
            sync();
        other.reset();
    }
    Column& operator=(const Column& other)
    {
        if (this != &other)
            *this = Column(other);
        return *this;
    }
    Column& operator=(Column&& other) noexcept
    {
        if (this != &other) {
            m_own = std::move(other.m_own);
            m_data = other.m_data;
            m_size = other.m_size;
            m_keep = std::move(other.m_keep);
            if (!m_keep)
                sync();
            other.reset();
        }
        return *this;
    }
    Column& operator=(std::vector<T>&& values)
    {
        m_keep.reset();
        m_own = std::move(values);
        sync();
        return *this;
    }
    Column& operator=(std::initializer_list<T> values)
    {
        m_keep.reset();
        m_own.assign(values);
        sync();
        return *this;
    }
    ~Column() = default;

    // A column viewing `size` elements at `data`, valid as long as `keep` lives.
    static Column view(const T* data, std::size_t size, std::shared_ptr<const void> keep)
    {
        Column c;
        c.m_data = size == 0 ? nullptr : data;
        c.m_size = size;
        c.m_keep = size == 0 ? nullptr : std::move(keep);
        return c;
    }
    // True when the elements live outside this column (a mapped index).
    [[nodiscard]] bool isView() const { return m_keep != nullptr; }

    [[nodiscard]] std::size_t size() const { return m_size; }
    [[nodiscard]] bool empty() const { return m_size == 0; }
    [[nodiscard]] const T* data() const { return m_data; }
    [[nodiscard]] const T& operator[](std::size_t i) const { return m_data[i]; }
    [[nodiscard]] const T& at(std::size_t i) const
    {
        if (i >= m_size)
            throw std::out_of_range("Column::at");
        return m_data[i];
    }
    [[nodiscard]] const T& front() const { return m_data[0]; }
    [[nodiscard]] const T& back() const { return m_data[m_size - 1]; }
    [[nodiscard]] const_iterator begin() const { return m_data; }
    [[nodiscard]] const_iterator end() const { return m_data + m_size; }
    [[nodiscard]] const_iterator cbegin() const { return begin(); }
    [[nodiscard]] const_iterator cend() const { return end(); }
    [[nodiscard]] const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
    [[nodiscard]] const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }
    // Bytes of memory this column owns (a view owns none).
    [[nodiscard]] std::size_t capacity() const { return m_keep ? m_size : m_own.capacity(); }
    [[nodiscard]] std::vector<T> toVector() const { return { begin(), end() }; }

    // ---- Mutators (a view is first copied into memory the column owns) ----
    T* data()
    {
        own();
        return m_own.data();
    }
    T& operator[](std::size_t i)
    {
        own();
        return m_own[i];
    }
    T& front() { return (*this)[0]; }
    T& back() { return (*this)[m_size - 1]; }
    iterator begin()
    {
        own();
        return m_own.data();
    }
    iterator end()
    {
        own();
        return m_own.data() + m_own.size();
    }
    reverse_iterator rbegin() { return reverse_iterator(end()); }
    reverse_iterator rend() { return reverse_iterator(begin()); }

    // Appending is the builder's hot path (a few appends per log record): forced inline, with
    // the copy of a viewed column out of the way.
    [[gnu::always_inline]] void push_back(const T& value)
    {
        own();
        m_own.push_back(value);
        sync();
    }
    template <typename... Args> T& emplace_back(Args&&... args)
    {
        own();
        m_own.emplace_back(std::forward<Args>(args)...);
        sync();
        return m_own.back();
    }
    void pop_back()
    {
        own();
        m_own.pop_back();
        sync();
    }
    void reserve(std::size_t n)
    {
        own();
        m_own.reserve(n);
        sync();
    }
    void resize(std::size_t n)
    {
        own();
        m_own.resize(n);
        sync();
    }
    void resize(std::size_t n, const T& value)
    {
        own();
        m_own.resize(n, value);
        sync();
    }
    void clear()
    {
        m_keep.reset();
        m_own.clear();
        sync();
    }
    void shrink_to_fit()
    {
        own();
        m_own.shrink_to_fit();
        sync();
    }
    template <typename It> void assign(It first, It last)
    {
        std::vector<T> values(first, last);
        *this = std::move(values);
    }
    void assign(std::size_t n, const T& value) { *this = std::vector<T>(n, value); }
    template <typename It> iterator insert(const_iterator pos, It first, It last)
    {
        const auto at = pos - static_cast<const T*>(m_data);
        std::vector<T> values(first, last); // the source may be this column itself
        own();
        auto it = m_own.insert(m_own.begin() + at, values.begin(), values.end());
        sync();
        return m_own.data() + (it - m_own.begin());
    }
    iterator insert(const_iterator pos, const T& value)
    {
        const auto at = pos - static_cast<const T*>(m_data);
        T copy = value;
        own();
        auto it = m_own.insert(m_own.begin() + at, std::move(copy));
        sync();
        return m_own.data() + (it - m_own.begin());
    }
    iterator erase(const_iterator first, const_iterator last)
    {
        const auto from = first - static_cast<const T*>(m_data);
        const auto to = last - static_cast<const T*>(m_data);
        own();
        auto it = m_own.erase(m_own.begin() + from, m_own.begin() + to);
        sync();
        return m_own.data() + (it - m_own.begin());
    }
    void swap(Column& other) noexcept { std::swap(*this, other); }
    void swap(std::vector<T>& values)
    {
        own();
        m_own.swap(values);
        sync();
    }

    friend bool operator==(const Column& a, const Column& b)
    {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }
    friend bool operator==(const Column& a, const std::vector<T>& b)
    {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }

private:
    void sync()
    {
        m_data = m_own.data();
        m_size = m_own.size();
    }
    void reset()
    {
        m_own.clear();
        m_keep.reset();
        m_data = nullptr;
        m_size = 0;
    }
    void own()
    {
        if (m_keep) [[unlikely]]
            copyViewed();
    }
    [[gnu::noinline]] void copyViewed()
    {
        m_own.assign(m_data, m_data + m_size);
        m_keep.reset();
        sync();
    }

    std::vector<T> m_own;
    const T* m_data = nullptr; // m_own.data() or the viewed elements
    std::size_t m_size = 0;
    std::shared_ptr<const void> m_keep; // set for a view: whatever holds its elements
};

} // namespace parallax::core
