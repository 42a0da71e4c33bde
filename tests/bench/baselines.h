#pragma once

// The reference points parallax-bench compares ingest against: what a minimal reader does with
// the same files on the same machine, with nothing but the unavoidable work.

#include <cstdint>
#include <string>
#include <vector>

namespace parallax::bench {

enum class BaselineKind {
    // mmap each plain log (gzip logs are inflated in chunks first) and std::from_chars every
    // whitespace-separated integer of every line, summing per file so nothing is optimised away.
    Tokenize,
    // mmap each plain log and read every line's integers with the loader's own scan
    // (io/integer_scan.h), nothing checked or stored: the parse's share of a load, alone.
    // Plain logs only.
    Scan,
    // zlib inflate of every gzip log into a reused buffer, output discarded (plain logs are
    // only mapped and touched once per page).
    Inflate,
    // libdeflate's whole-buffer gzip decompression of every gzip log read whole into memory
    // (only when the bench was built with libdeflate; see libdeflateAvailable()).
    LibdeflateInflate,
};

struct BaselineResult {
    double seconds = 0.0;
    std::uint64_t diskBytes = 0; // bytes of the files as stored
    std::uint64_t textBytes = 0; // bytes after decompression
    std::uint64_t lines = 0;
    std::uint64_t checksum = 0; // sum of all per-file sums: printed so the work stays observable
    std::string error; // first file that could not be read, if any
};

// Reads `files` with `threads` workers taking the next file from a shared counter. `populate`
// maps plain files with MAP_POPULATE (faster on one thread; two threads mapping and unmapping at
// once contend on the process's page tables, where lazy faults do better).
BaselineResult runBaseline(
    const std::vector<std::string>& files, BaselineKind kind, unsigned threads, bool populate);

// True when this build can run BaselineKind::LibdeflateInflate.
bool libdeflateAvailable();

// True when the file starts with the gzip magic bytes.
bool isGzipFile(const std::string& path);

} // namespace parallax::bench
