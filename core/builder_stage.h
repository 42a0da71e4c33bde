#pragma once

#include "types.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

namespace parallax::core {

// The columns a PeTraceBuilder fills record by record, staged as whole values in plain arrays
// before finish() writes each once, in its final (packed) form, into the store. A table checks
// its capacity once per row for all its columns, and an append is a store at a row: no growth
// check per column, no packing per value, no call. A thread's builders reuse the arrays (see
// BuilderScratch), so they grow only while a thread meets bigger PEs.
template <typename T> class StagedArray {
public:
    T& operator[](std::size_t i) { return m_data[i]; }
    const T& operator[](std::size_t i) const { return m_data[i]; }
    T* data() { return m_data.get(); }
    [[nodiscard]] const T* data() const { return m_data.get(); }
    // Room for `capacity` rows, keeping the first `rows`.
    void grow(std::size_t rows, std::size_t capacity)
    {
        std::unique_ptr<T[]> fresh(new T[capacity]); // default-initialised: not zeroed
        if (rows > 0)
            std::memcpy(fresh.get(), m_data.get(), rows * sizeof(T));
        m_data = std::move(fresh);
    }

private:
    std::unique_ptr<T[]> m_data;
};

// Rows shared by the arrays that `each(f)` visits.
template <typename Table> struct StagedRows {
    std::size_t rows = 0;
    std::size_t capacity = 0;

    // Makes room for one more row (call when rows == capacity).
    [[gnu::noinline]] void grow()
    {
        const std::size_t more = std::max<std::size_t>(4096, capacity * 2);
        static_cast<Table*>(this)->each([&](auto& a) { a.grow(rows, more); });
        capacity = more;
    }
    [[nodiscard]] std::size_t bytes()
    {
        std::size_t sum = 0;
        static_cast<Table*>(this)->each([&](auto& a) { sum += capacity * sizeof(a[0]); });
        return sum;
    }
    // The next row's index, room made.
    [[gnu::always_inline]] std::size_t append()
    {
        if (rows == capacity) [[unlikely]]
            grow();
        return rows++;
    }
};

struct StagedExecutions : StagedRows<StagedExecutions> {
    StagedArray<TimeUs> begin;
    StagedArray<TimeUs> end;
    StagedArray<std::uint16_t> entry;
    StagedArray<PeId> sourcePe;
    StagedArray<std::int32_t> msgBytes;
    StagedArray<std::int32_t> eventId;
    StagedArray<std::uint32_t> object; // filled by internObjects
    StagedArray<TimeUs> cpuBegin;
    StagedArray<std::uint32_t> cpuDuration;
    StagedArray<std::uint8_t> flags;
    template <typename F> void each(F f)
    {
        f(begin), f(end), f(entry), f(sourcePe), f(msgBytes), f(eventId), f(object), f(cpuBegin),
            f(cpuDuration), f(flags);
    }
};

struct StagedIntervals : StagedRows<StagedIntervals> {
    StagedArray<TimeUs> begin;
    StagedArray<TimeUs> end;
    template <typename F> void each(F f) { f(begin), f(end); }
};

struct StagedSends : StagedRows<StagedSends> {
    StagedArray<TimeUs> time;
    StagedArray<std::uint16_t> entry;
    StagedArray<std::uint8_t> kind; // SendKind
    StagedArray<std::uint8_t> messageType;
    StagedArray<std::int32_t> msgBytes;
    StagedArray<std::int32_t> eventId;
    StagedArray<std::int32_t> destinationCount;
    StagedArray<std::int32_t> sendDuration;
    StagedArray<std::uint32_t> execution;
    bool unsorted = false; // a send's time was before the previous one's
    template <typename F> void each(F f)
    {
        f(time), f(entry), f(kind), f(messageType), f(msgBytes), f(eventId), f(destinationCount),
            f(sendDuration), f(execution);
    }
};

// The object id of every execution in begin order: its hash, its length, and its values one
// after another (up to 6 a row), interned by finish().
struct StagedObjectIds : StagedRows<StagedObjectIds> {
    StagedArray<std::uint32_t> hash;
    StagedArray<std::uint8_t> length;
    StagedArray<std::int32_t> values; // 6 a row of room
    std::size_t valueCount = 0;
    template <typename F> void each(F f) { f(hash), f(length); }
    void growValues(std::size_t need)
    {
        if (need > m_valueCapacity) {
            const std::size_t more = std::max(need, m_valueCapacity * 2);
            values.grow(valueCount, more);
            m_valueCapacity = more;
        }
    }
    [[nodiscard]] std::size_t valueBytes() const { return m_valueCapacity * sizeof(std::int32_t); }

private:
    std::size_t m_valueCapacity = 0;
};

// Everything a builder stages, handed from one builder to the next on a thread.
struct BuilderStage {
    StagedExecutions executions;
    StagedIntervals idles;
    StagedIntervals packs;
    StagedIntervals unpacks;
    StagedSends sends;
    StagedObjectIds objectIds;
    // The interned objects: offsets (one more than objects) and values.
    StagedArray<std::uint32_t> tableOffset;
    StagedArray<std::int32_t> tableValues;
    std::size_t tableOffsetCapacity = 0;
    std::size_t tableValueCapacity = 0;
    // Object-id interning: open addressing with linear probing; a slot holds the object's
    // 32-bit hash in its high half and its index + 1 in its low half (0 = empty), so probing
    // touches only the table.
    StagedArray<std::uint64_t> objectSlots;
    std::size_t objectSlotCapacity = 0;

    // Empties every table, keeping the room.
    void clear()
    {
        executions.rows = idles.rows = packs.rows = unpacks.rows = sends.rows = 0;
        objectIds.rows = objectIds.valueCount = 0;
        sends.unsorted = false;
    }
    [[nodiscard]] std::size_t bytes()
    {
        return executions.bytes() + idles.bytes() + packs.bytes() + unpacks.bytes() + sends.bytes()
            + objectIds.bytes() + objectIds.valueBytes()
            + tableOffsetCapacity * sizeof(std::uint32_t)
            + tableValueCapacity * sizeof(std::int32_t)
            + objectSlotCapacity * sizeof(std::uint64_t);
    }
};

} // namespace parallax::core
