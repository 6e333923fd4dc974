// Robustness of the src/io readers: every strict prefix of a .zkey, .wtns, .r1cs or snarkjs JSON file
// and random byte corruptions of the reference files must be answered with a FormatError (never a crash
// or another exception type).
#include <gtest/gtest.h>

#include <algorithm>
#include <exception>
#include <random>
#include <string>

#include "io/curve_id.hpp"
#include "io/error.hpp"
#include "io/json.hpp"
#include "io/r1cs_file.hpp"
#include "io/wtns.hpp"
#include "io/zkey.hpp"
#include "unit/io_test_util.hpp"

using namespace cuzk;
using namespace cuzk::test;

namespace {

TYPED_TEST_SUITE(IoCurveTest, Curves, CurveNames);

// Calls read for every strict prefix of `file` (lengths 0 … size−1, thinned out for big files) and
// checks that each one is rejected with a FormatError.
template <class Read>
void expect_all_truncations_rejected(const std::string& file, const TempDir& dir, Read&& read) {
  const Bytes full = read_bytes(file);
  const std::string cut = dir.file("cut.bin");
  const std::size_t step = full.size() > 4096 ? full.size() / 2048 : 1;
  for (std::size_t len = 0; len < full.size(); len += (len < 64 ? 1 : step)) {
    write_bytes(cut, Bytes(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(len)));
    const std::string msg = format_error_of([&] { read(cut); });
    if (msg.empty()) {
      ADD_FAILURE() << "truncation to " << len << " of " << full.size() << " bytes was not rejected";
      return;
    }
  }
}

// Random byte corruptions: the reader must either succeed or throw FormatError.
template <class Read>
void fuzz_bytes(const std::string& file, const TempDir& dir, Read&& read, int iterations,
                std::uint64_t seed) {
  const Bytes full = read_bytes(file);
  const std::string bad = dir.file("fuzz.bin");
  std::mt19937_64 rng(seed);
  for (int it = 0; it < iterations; ++it) {
    Bytes b = full;
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < flips; ++k) {
      // Bias towards the headers, where sizes and counts live.
      const std::size_t pos = (rng() % 2) ? rng() % std::min<std::size_t>(b.size(), 160) : rng() % b.size();
      b[pos] = static_cast<std::uint8_t>(rng());
    }
    write_bytes(bad, b);
    try {
      read(bad);
    } catch (const FormatError&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << "iteration " << it << ": non-FormatError exception: " << e.what();
      return;
    }
  }
}

// ---- error cases ------------------------------------------------------------------------------------

TYPED_TEST(IoCurveTest, TruncatedFilesRejected) {
  using C = TypeParam;
  TempDir dir;
  std::mt19937_64 rng(5);
  const std::string zk = dir.file("k.zkey"), wt = dir.file("w.wtns"), rc = dir.file("c.r1cs");
  io::write_zkey<C>(zk, random_pk<C>(rng));
  io::write_wtns<C>(wt, random_witness<C>(rng, 9));
  io::write_r1cs<C>(rc, random_cs<C>(rng));
  expect_all_truncations_rejected(zk, dir, [](const std::string& p) { io::read_zkey<C>(p); });
  expect_all_truncations_rejected(zk, dir, [](const std::string& p) { io::describe_zkey(p); });
  expect_all_truncations_rejected(zk, dir, [](const std::string& p) { io::peek_curve(p); });
  expect_all_truncations_rejected(wt, dir, [](const std::string& p) { io::read_wtns<C>(p); });
  expect_all_truncations_rejected(rc, dir, [](const std::string& p) { io::read_r1cs<C>(p); });
  // JSON: every prefix of a snarkjs file is invalid JSON or has the wrong shape.
  const std::string fx = fixture_dir<C>();
  for (const char* f : {"/proof.json", "/verification_key.json", "/public.json"}) {
    const std::string full = read_text(fx + f);
    for (std::size_t len = 0; len + 1 < full.size(); len += 7) {
      write_text(dir.file("t.json"), full.substr(0, len));
      EXPECT_FORMAT_ERROR(io::read_vk<C>(dir.file("t.json")), "t.json");
      EXPECT_FORMAT_ERROR(io::read_proof<C>(dir.file("t.json")), "t.json");
      EXPECT_FORMAT_ERROR(io::read_public<C>(dir.file("t.json")), "t.json");
    }
  }
}

TYPED_TEST(IoCurveTest, CorruptedFilesNeverCrash) {
  using C = TypeParam;
  TempDir dir;
  const std::string fx = fixture_dir<C>();
  fuzz_bytes(
      fx + "/multiplier.zkey", dir, [](const std::string& p) { io::read_zkey<C>(p); }, 400, 6);
  fuzz_bytes(
      fx + "/multiplier.zkey", dir, [](const std::string& p) { io::describe_zkey(p); }, 200, 7);
  fuzz_bytes(
      fx + "/multiplier.wtns", dir, [](const std::string& p) { io::read_wtns<C>(p); }, 300, 8);
  fuzz_bytes(
      fx + "/multiplier.r1cs", dir, [](const std::string& p) { io::read_r1cs<C>(p); }, 300, 9);
  fuzz_bytes(
      fx + "/verification_key.json", dir, [](const std::string& p) { io::read_vk<C>(p); }, 200, 10);
  fuzz_bytes(
      fx + "/proof.json", dir, [](const std::string& p) { io::read_proof<C>(p); }, 200, 11);
}

}  // namespace
