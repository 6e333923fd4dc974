// A driver for the fuzz harnesses without libFuzzer (any compiler; CI's GCC builds, with and without
// ASan/UBSan): every file of the corpus as it is, then, for CUZK_FUZZ_SECONDS (default 2), mutations of them
// — truncations, flipped bits, overwritten words (zeros, ones, large lengths), inserted and deleted bytes —
// from a fixed seed, so a run is repeatable. The real campaign is libFuzzer's (scripts/fuzz); this keeps
// every harness and its corpus exercised on every CI run.
//   <harness>-replay CORPUS_DIR_OR_FILE…
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::vector<std::uint8_t> read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::uint64_t next(std::uint64_t& s) {  // xorshift64*
  s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
  return s * 2685821657736338717ULL;
}

void mutate(std::vector<std::uint8_t>& b, std::uint64_t& rng) {
  const std::size_t n = b.size();
  switch (next(rng) % 5) {
    case 0:  // truncate
      b.resize(n ? next(rng) % n : 0);
      return;
    case 1:  // flip bits
      for (int i = 0, k = 1 + next(rng) % 4; n && i < k; ++i)
        b[next(rng) % n] ^= std::uint8_t(1u << (next(rng) % 8));
      return;
    case 2: {  // a word of zeros, ones or a large length
      if (n < 8) return;
      const std::size_t at = next(rng) % (n - 7);
      const std::uint64_t words[] = {0, ~std::uint64_t{0}, 1ULL << 32, 1ULL << 40, 0x7fffffff, 1};
      const std::uint64_t w = words[next(rng) % std::size(words)];
      for (int i = 0; i < 8; ++i) b[at + i] = std::uint8_t(w >> (8 * i));
      return;
    }
    case 3:  // insert a byte
      b.insert(b.begin() + static_cast<std::ptrdiff_t>(n ? next(rng) % n : 0), std::uint8_t(next(rng)));
      return;
    default:  // delete a run
      if (n) {
        const std::size_t at = next(rng) % n, len = std::min<std::size_t>(n - at, 1 + next(rng) % 16);
        b.erase(b.begin() + static_cast<std::ptrdiff_t>(at),
                b.begin() + static_cast<std::ptrdiff_t>(at + len));
      }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::vector<std::uint8_t>> corpus;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path p(argv[i]);
    if (std::filesystem::is_directory(p)) {
      std::vector<std::filesystem::path> files;
      for (const auto& e : std::filesystem::recursive_directory_iterator(p))
        if (e.is_regular_file()) files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) corpus.push_back(read(f));
    } else {
      corpus.push_back(read(p));
    }
  }
  if (corpus.empty()) {
    std::fprintf(stderr, "no corpus: give the harness's corpus directories or files\n");
    return 2;
  }
  for (const auto& c : corpus) LLVMFuzzerTestOneInput(c.data(), c.size());
  const char* env = std::getenv("CUZK_FUZZ_SECONDS");
  const double seconds = env ? std::atof(env) : 2.0;
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t rng = 0x9e3779b97f4a7c15ULL, runs = 0;
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds) {
    std::vector<std::uint8_t> b = corpus[runs % corpus.size()];
    for (int m = 0, k = 1 + next(rng) % 3; m < k; ++m) mutate(b, rng);
    LLVMFuzzerTestOneInput(b.data(), b.size());
    ++runs;
  }
  std::printf("%zu corpus inputs and %llu mutations of them ran without a finding\n", corpus.size(),
              static_cast<unsigned long long>(runs));
  return 0;
}
