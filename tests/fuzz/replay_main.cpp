// A standalone main() for the fuzz harnesses when they are not linked with libFuzzer (GCC
// builds, the sanitizer job): runs LLVMFuzzerTestOneInput once on every file named on the
// command line, or on every file of the directories named there (a corpus). A crash or a
// sanitizer report fails the process, which is what the ctest test checks.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {
bool replay(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", file.c_str());
        return false;
    }
    const std::vector<char> bytes { std::istreambuf_iterator<char>(in), {} };
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    return true;
}
} // namespace

int main(int argc, char** argv)
{
    std::size_t inputs = 0;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path arg(argv[i]);
        std::error_code ec;
        if (std::filesystem::is_directory(arg, ec)) {
            std::vector<std::filesystem::path> files;
            for (const auto& e : std::filesystem::directory_iterator(arg, ec))
                if (e.is_regular_file())
                    files.push_back(e.path());
            std::sort(files.begin(), files.end());
            for (const auto& f : files)
                inputs += replay(f) ? 1U : 0U;
        } else if (replay(arg)) {
            ++inputs;
        } else {
            return 2;
        }
    }
    if (inputs == 0) {
        std::fprintf(stderr, "no input files (give corpus files or directories)\n");
        return 2;
    }
    std::printf("replayed %zu inputs\n", inputs);
    return 0;
}
