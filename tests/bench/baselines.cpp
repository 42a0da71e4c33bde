#include "baselines.h"

#include "io/integer_scan.h"
#include "io/integer_scan_avx512.h"
#include "io/run_parallel.h"

#include <zlib.h>
#if defined(PARALLAX_BENCH_HAVE_LIBDEFLATE)
#include <libdeflate.h>
#endif

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace parallax::bench {

namespace {

struct Tally {
    std::uint64_t sum = 0;
    std::uint64_t lines = 0;
    std::uint64_t diskBytes = 0;
    std::uint64_t textBytes = 0;
};

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

// Every whitespace-separated integer of [p, end) through std::from_chars; other tokens are
// skipped. Counts newlines as lines.
void tokenize(const char* p, const char* end, Tally& t)
{
    while (p < end) {
        const char c = *p;
        if (c == '\n') {
            ++t.lines;
            ++p;
            continue;
        }
        if (isSpace(c)) {
            ++p;
            continue;
        }
        std::int64_t v = 0;
        const auto [ptr, ec] = std::from_chars(p, end, v);
        if (ec == std::errc()) {
            t.sum += static_cast<std::uint64_t>(v);
            p = ptr;
        }
        while (p < end && *p != '\n' && !isSpace(*p))
            ++p;
    }
}

// Every line of [p, end) through the loader's integer scan (the form the loader picks for this
// processor); a line it refuses is skipped.
template <typename Scan>
[[gnu::always_inline]] inline void scanLinesWith(
    const char* p, const char* end, Tally& t, const Scan& scan)
{
    std::int64_t values[io::scan::kMaxIntegers];
    while (p < end) {
        int count = 0;
        const char* at = p;
        if (scan(at, end, values, count)) {
            t.sum += static_cast<std::uint64_t>(values[0] + values[count - 1]);
        } else {
            at = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
            if (at == nullptr)
                at = end;
        }
        ++t.lines;
        p = at + 1;
    }
}

#if PARALLAX_HAVE_WIDE_SCAN
PARALLAX_WIDE_SCAN_TARGET void scanLinesWide(const char* p, const char* end, Tally& t)
{
    scanLinesWith(p, end, t,
        [](const char*& at, const char* e, std::int64_t* out, int& count)
            PARALLAX_WIDE_SCAN_TARGET {
                return io::scan::integersToNewlineWide(at, e, out, count);
            });
}
#endif

void scanLines(const char* p, const char* end, Tally& t)
{
#if PARALLAX_HAVE_WIDE_SCAN
    if (io::scan::wideEnabled()) {
        scanLinesWide(p, end, t);
        return;
    }
#endif
    scanLinesWith(p, end, t, [](const char*& at, const char* e, std::int64_t* out, int& count) {
        return io::scan::integersToNewline(at, e, out, count);
    });
}

class File {
public:
    explicit File(const std::string& path)
        : m_fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC))
    { }
    ~File()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    File(const File&) = delete;
    File& operator=(const File&) = delete;
    [[nodiscard]] int fd() const { return m_fd; }

private:
    int m_fd;
};

class Mapping {
public:
    Mapping(int fd, std::size_t size, bool populate)
        : m_size(size)
    {
        if (size == 0)
            return;
        void* p
            = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd, 0);
        if (p != MAP_FAILED) {
            m_data = static_cast<const char*>(p);
            ::madvise(p, size, MADV_SEQUENTIAL);
        }
    }
    ~Mapping()
    {
        if (m_data != nullptr)
            ::munmap(const_cast<char*>(m_data), m_size);
    }
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    [[nodiscard]] const char* data() const { return m_data; }
    [[nodiscard]] bool ok() const { return m_data != nullptr || m_size == 0; }

private:
    const char* m_data = nullptr;
    std::size_t m_size;
};

bool readPlain(int fd, std::size_t size, BaselineKind kind, bool populate, Tally& t)
{
    Mapping map(fd, size, populate);
    if (!map.ok())
        return false;
    t.diskBytes += size;
    t.textBytes += size;
    if (size == 0)
        return true;
    const char* data = map.data();
    if (kind == BaselineKind::Tokenize) {
        tokenize(data, data + size, t);
        if (data[size - 1] != '\n')
            ++t.lines;
    } else if (kind == BaselineKind::Scan) {
        scanLines(data, data + size, t);
    } else {
        for (std::size_t i = 0; i < size; i += 4096)
            t.sum += static_cast<unsigned char>(data[i]);
    }
    return true;
}

// Inflates in chunks into a reused buffer; with Tokenize, tokenizes every complete line and
// carries the unfinished one over to the next chunk.
bool readGzip(int fd, BaselineKind kind, Tally& t)
{
    constexpr std::size_t kIn = std::size_t { 1 } << 18;
    constexpr std::size_t kOut = std::size_t { 1 } << 20;
    constexpr std::size_t kCarryMax = std::size_t { 1 } << 20;
    auto input = std::make_unique_for_overwrite<unsigned char[]>(kIn);
    auto output = std::make_unique_for_overwrite<char[]>(kOut + kCarryMax);
    z_stream z {};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        return false;
    std::size_t carry = 0;
    bool ok = true;
    bool eof = false;
    while (ok) {
        if (z.avail_in == 0 && !eof) {
            const auto n = ::read(fd, input.get(), kIn);
            if (n < 0) {
                ok = false;
                break;
            }
            t.diskBytes += static_cast<std::uint64_t>(n);
            eof = n == 0;
            z.next_in = input.get();
            z.avail_in = static_cast<uInt>(n);
        }
        if (z.avail_in == 0 && eof)
            break;
        z.next_out = reinterpret_cast<Bytef*>(output.get() + carry);
        z.avail_out = static_cast<uInt>(kOut);
        const int rc = inflate(&z, Z_NO_FLUSH);
        const auto produced = kOut - z.avail_out;
        t.textBytes += produced;
        if (kind == BaselineKind::Tokenize) {
            const char* begin = output.get();
            const char* end = begin + carry + produced;
            const char* lastNl = end;
            while (lastNl > begin && lastNl[-1] != '\n')
                --lastNl;
            tokenize(begin, lastNl, t);
            carry = static_cast<std::size_t>(end - lastNl);
            if (carry > kCarryMax / 2)
                carry = 0; // not a text log; keep going without the carry
            std::memmove(output.get(), lastNl, carry);
        } else if (produced > 0) {
            t.sum += static_cast<unsigned char>(output[carry + produced - 1]);
        }
        if (rc == Z_STREAM_END) {
            if (inflateReset(&z) != Z_OK)
                ok = false;
        } else if (rc != Z_OK && !(rc == Z_BUF_ERROR && z.avail_in == 0)) {
            ok = false;
        }
    }
    if (kind == BaselineKind::Tokenize && carry > 0) {
        tokenize(output.get(), output.get() + carry, t);
        ++t.lines;
    }
    inflateEnd(&z);
    return ok;
}

#if defined(PARALLAX_BENCH_HAVE_LIBDEFLATE)
// The whole file in memory, then libdeflate member by member into a buffer sized from the
// members' ISIZE trailers (grown when a trailer understates).
bool readGzipLibdeflate(int fd, std::size_t size, Tally& t)
{
    // Buffers reused per thread, as a real reader would: fresh ones per file cost page faults
    // and unmapping, which serialise two threads.
    thread_local std::vector<unsigned char> input;
    thread_local std::vector<char> output;
    if (input.size() < size)
        input.resize(size);
    std::size_t got = 0;
    while (got < size) {
        const auto n = ::read(fd, input.data() + got, size - got);
        if (n <= 0)
            return false;
        got += static_cast<std::size_t>(n);
    }
    t.diskBytes += size;
    if (size < 18)
        return false;
    std::size_t isize = 0;
    std::memcpy(&isize, input.data() + size - 4, 4); // little-endian host (x86, arm64)
    if (output.size() < std::max<std::size_t>(isize, 1U << 16))
        output.resize(std::max<std::size_t>(isize, 1U << 16));
    libdeflate_decompressor* d = libdeflate_alloc_decompressor();
    if (d == nullptr)
        return false;
    std::size_t in = 0;
    bool ok = true;
    while (ok && in < size) {
        std::size_t used = 0;
        std::size_t produced = 0;
        const auto rc = libdeflate_gzip_decompress_ex(
            d, input.data() + in, size - in, output.data(), output.size(), &used, &produced);
        if (rc == LIBDEFLATE_INSUFFICIENT_SPACE) {
            output.resize(output.size() * 2);
            continue;
        }
        ok = rc == LIBDEFLATE_SUCCESS;
        in += used;
        t.textBytes += produced;
        if (produced > 0)
            t.sum += static_cast<unsigned char>(output[produced - 1]);
    }
    libdeflate_free_decompressor(d);
    return ok;
}
#endif

} // namespace

bool libdeflateAvailable()
{
#if defined(PARALLAX_BENCH_HAVE_LIBDEFLATE)
    return true;
#else
    return false;
#endif
}

bool isGzipFile(const std::string& path)
{
    File f(path);
    unsigned char magic[2] = { 0, 0 };
    return f.fd() >= 0 && ::read(f.fd(), magic, 2) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

BaselineResult runBaseline(
    const std::vector<std::string>& files, BaselineKind kind, unsigned threads, bool populate)
{
    std::vector<Tally> perFile(files.size());
    std::mutex errorMutex;
    BaselineResult result;
    auto readFile = [&](std::size_t k) {
        File f(files[k]);
        struct stat st { };
        bool ok = f.fd() >= 0 && ::fstat(f.fd(), &st) == 0;
        if (ok) {
            unsigned char magic[2] = { 0, 0 };
            const bool gzip
                = ::pread(f.fd(), magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
#if defined(PARALLAX_BENCH_HAVE_LIBDEFLATE)
            if (gzip && kind == BaselineKind::LibdeflateInflate)
                ok = readGzipLibdeflate(f.fd(), static_cast<std::size_t>(st.st_size), perFile[k]);
            else
#endif
                ok = gzip ? readGzip(f.fd(), kind, perFile[k])
                          : readPlain(f.fd(), static_cast<std::size_t>(st.st_size), kind, populate,
                              perFile[k]);
        }
        if (!ok) {
            std::lock_guard lock(errorMutex);
            if (result.error.empty())
                result.error = files[k] + ": could not be read";
        }
    };
    const auto start = std::chrono::steady_clock::now();
    io::runParallel(std::max(1U, threads), files.size(), readFile);
    result.seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (const auto& t : perFile) {
        result.diskBytes += t.diskBytes;
        result.textBytes += t.textBytes;
        result.lines += t.lines;
        result.checksum += t.sum;
    }
    return result;
}

} // namespace parallax::bench
