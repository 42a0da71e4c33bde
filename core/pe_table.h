#pragma once

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

namespace parallax::core {

// Completes a row of a PeTable the first time it is used (io/mapped_index.cpp: checks a PE's
// columns in a mapped index, decodes its summary). Called at most once per row, from whichever
// thread asks first while the others wait; never throws (a row it cannot complete it leaves
// empty and reports).
template <typename T> class RowLoader {
public:
    RowLoader() = default;
    RowLoader(const RowLoader&) = delete;
    RowLoader& operator=(const RowLoader&) = delete;
    virtual ~RowLoader() = default;
    virtual void load(std::size_t row, T& value) const noexcept = 0;
};

// One row per PE (Trace::pes, summaries, details): a std::vector-like table whose rows may be
// completed lazily. Without a loader it is a plain vector. With one, every access to a row
// (operator[], at, iterators, front/back) first lets the loader complete that row, once, so a
// run opened from a mapped index touches only the PEs a view reads. `peek` skips the loader
// (for the few fields the loader's owner fills in up front). Copying a lazy table completes all
// its rows first; the copy is a plain table.
template <typename T> class PeTable {
public:
    using value_type = T;
    using size_type = std::size_t;
    using reference = T&;
    using const_reference = const T&;

    template <bool Const> class Iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = T;
        using difference_type = std::ptrdiff_t;
        using Table = std::conditional_t<Const, const PeTable, PeTable>;
        using reference = std::conditional_t<Const, const T&, T&>;
        using pointer = std::conditional_t<Const, const T*, T*>;

        Iterator() = default;
        Iterator(Table* table, std::size_t i)
            : m_table(table)
            , m_i(i)
        { }
        operator Iterator<true>() const { return { m_table, m_i }; } // NOLINT
        reference operator*() const { return (*m_table)[m_i]; }
        pointer operator->() const { return &(*m_table)[m_i]; }
        reference operator[](difference_type k) const
        {
            return (*m_table)[m_i + static_cast<std::size_t>(k)];
        }
        Iterator& operator++()
        {
            ++m_i;
            return *this;
        }
        Iterator operator++(int)
        {
            auto old = *this;
            ++m_i;
            return old;
        }
        Iterator& operator--()
        {
            --m_i;
            return *this;
        }
        Iterator operator--(int)
        {
            auto old = *this;
            --m_i;
            return old;
        }
        Iterator& operator+=(difference_type k)
        {
            m_i = static_cast<std::size_t>(static_cast<difference_type>(m_i) + k);
            return *this;
        }
        Iterator& operator-=(difference_type k) { return *this += -k; }
        friend Iterator operator+(Iterator it, difference_type k) { return it += k; }
        friend Iterator operator+(difference_type k, Iterator it) { return it += k; }
        friend Iterator operator-(Iterator it, difference_type k) { return it -= k; }
        friend difference_type operator-(const Iterator& a, const Iterator& b)
        {
            return static_cast<difference_type>(a.m_i) - static_cast<difference_type>(b.m_i);
        }
        friend bool operator==(const Iterator& a, const Iterator& b) { return a.m_i == b.m_i; }
        friend auto operator<=>(const Iterator& a, const Iterator& b) { return a.m_i <=> b.m_i; }

    private:
        Table* m_table = nullptr;
        std::size_t m_i = 0;
    };
    using iterator = Iterator<false>;
    using const_iterator = Iterator<true>;

    PeTable() = default;
    PeTable(std::vector<T> rows) // NOLINT(google-explicit-constructor): a table is its rows
        : m_rows(std::move(rows))
    { }
    PeTable(std::initializer_list<T> rows)
        : m_rows(rows)
    { }
    PeTable(const PeTable& other)
        : m_rows(other.completedRows())
    { }
    PeTable(PeTable&&) noexcept = default;
    PeTable& operator=(const PeTable& other)
    {
        if (this != &other) {
            auto rows = other.completedRows();
            m_rows = std::move(rows);
            m_lazy.reset();
        }
        return *this;
    }
    PeTable& operator=(PeTable&&) noexcept = default;
    PeTable& operator=(std::vector<T> rows)
    {
        m_lazy.reset();
        m_rows = std::move(rows);
        return *this;
    }
    PeTable& operator=(std::initializer_list<T> rows)
    {
        m_lazy.reset();
        m_rows.assign(rows);
        return *this;
    }
    ~PeTable() = default;

    [[nodiscard]] std::size_t size() const { return m_rows.size(); }
    [[nodiscard]] bool empty() const { return m_rows.empty(); }

    [[nodiscard]] const T& operator[](std::size_t i) const
    {
        complete(i);
        return m_rows[i];
    }
    [[nodiscard]] T& operator[](std::size_t i)
    {
        complete(i);
        return m_rows[i];
    }
    [[nodiscard]] const T& at(std::size_t i) const
    {
        if (i >= m_rows.size())
            throw std::out_of_range("PeTable::at");
        return (*this)[i];
    }
    [[nodiscard]] T& at(std::size_t i)
    {
        if (i >= m_rows.size())
            throw std::out_of_range("PeTable::at");
        return (*this)[i];
    }
    [[nodiscard]] const T& front() const { return (*this)[0]; }
    [[nodiscard]] const T& back() const { return (*this)[m_rows.size() - 1]; }
    [[nodiscard]] T& front() { return (*this)[0]; }
    [[nodiscard]] T& back() { return (*this)[m_rows.size() - 1]; }
    [[nodiscard]] const_iterator begin() const { return { this, 0 }; }
    [[nodiscard]] const_iterator end() const { return { this, m_rows.size() }; }
    [[nodiscard]] const_iterator cbegin() const { return begin(); }
    [[nodiscard]] const_iterator cend() const { return end(); }
    [[nodiscard]] iterator begin() { return { this, 0 }; }
    [[nodiscard]] iterator end() { return { this, m_rows.size() }; }

    // Changing the number of rows completes every row first and drops the loader.
    void resize(std::size_t n)
    {
        makePlain();
        m_rows.resize(n);
    }
    void reserve(std::size_t n)
    {
        makePlain();
        m_rows.reserve(n);
    }
    void push_back(const T& value)
    {
        makePlain();
        m_rows.push_back(value);
    }
    void push_back(T&& value)
    {
        makePlain();
        m_rows.push_back(std::move(value));
    }
    template <typename... Args> T& emplace_back(Args&&... args)
    {
        makePlain();
        return m_rows.emplace_back(std::forward<Args>(args)...);
    }
    void clear()
    {
        m_lazy.reset();
        m_rows.clear();
    }
    void shrink_to_fit() { m_rows.shrink_to_fit(); }

    // ---- Lazy rows ----

    // Replaces the table with `rows`, each completed by `loader` on first use.
    void setLazy(std::vector<T> rows, std::shared_ptr<const RowLoader<T>> loader)
    {
        m_rows = std::move(rows);
        m_lazy.reset();
        if (loader && !m_rows.empty()) {
            m_lazy = std::make_unique<Lazy>();
            m_lazy->loader = std::move(loader);
            m_lazy->once = std::make_unique<std::once_flag[]>(m_rows.size());
        }
    }
    [[nodiscard]] bool lazy() const { return m_lazy != nullptr; }
    // Row i as it is now, without completing it: only what the loader's owner filled in up front
    // (for a PeTrace of a mapped index: the PE number and the scalar fields, not the columns).
    [[nodiscard]] const T& peek(std::size_t i) const { return m_rows[i]; }
    // Completes every row (before a copy, or to check them all).
    void completeAll() const
    {
        for (std::size_t i = 0; i < m_rows.size(); ++i)
            complete(i);
    }

private:
    struct Lazy {
        std::shared_ptr<const RowLoader<T>> loader;
        std::unique_ptr<std::once_flag[]> once;
    };

    void complete(std::size_t i) const
    {
        if (m_lazy && i < m_rows.size())
            std::call_once(m_lazy->once[i], [&] { m_lazy->loader->load(i, m_rows[i]); });
    }
    std::vector<T> completedRows() const
    {
        completeAll();
        return m_rows;
    }
    void makePlain()
    {
        completeAll();
        m_lazy.reset();
    }

    // Rows are completed through const accessors; every access goes through complete(), which
    // is the only writer, under its row's once_flag.
    mutable std::vector<T> m_rows;
    std::unique_ptr<Lazy> m_lazy;
};

} // namespace parallax::core
