// bellperson .params / .vk: writer → reader round trip, the documented size, and rejection of
// truncated files, inconsistent counts, off-curve, out-of-subgroup and infinity points.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "ec/fixed_base.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/random.hpp"
#include "io/bellperson.hpp"
#include "io/error.hpp"
#include "io/zcash_codec.hpp"

namespace cuzk::io {
namespace {

using bellperson::G1;
using bellperson::G2;

template <class Cfg>
std::vector<ec::Affine<Cfg>> random_points(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const ec::FixedBaseTable<Cfg> table(Cfg::generator());
  std::vector<typename Cfg::Scalar> k(n);
  for (auto& x : k) x = ff::random_element<typename Cfg::Scalar>(rng);
  return table.mul_all(k);
}

bellperson::Params sample(std::size_t ic, std::size_t m, std::size_t aux, std::size_t b) {
  auto g1 = random_points<Bls12_381::G1Cfg>(6 + ic + (m - 1) + aux + (ic + aux) + b, 1);
  auto g2 = random_points<Bls12_381::G2Cfg>(3 + b, 2);
  bellperson::Params p;
  std::size_t i = 0, j = 0;
  p.vk = {g1[i++], g1[i++], g2[j++], g2[j++], g1[i++], g2[j++], {}};
  auto take = [&](std::size_t n) {
    std::vector<G1> v(g1.begin() + i, g1.begin() + i + n);
    i += n;
    return v;
  };
  p.vk.ic = take(ic);
  p.h = take(m - 1);
  p.l = take(aux);
  p.a = take(ic + aux);
  p.b_g1 = take(b);
  p.b_g2.assign(g2.begin() + j, g2.begin() + j + b);
  return p;
}

struct TempFile {
  std::string path = (std::filesystem::temp_directory_path() /
                      ("cuzk-bp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++)))
                         .string();
  ~TempFile() { std::filesystem::remove(path); }
  static inline int counter = 0;
};

std::vector<char> bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
void put(const std::string& path, const std::vector<char>& b) {
  std::ofstream(path, std::ios::binary).write(b.data(), static_cast<std::streamsize>(b.size()));
}

void expect_error(const std::string& path, const std::string& needle, bool subgroup = false) {
  try {
    bellperson::read_params(path, subgroup);
    ADD_FAILURE() << "accepted; expected an error containing '" << needle << "'";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(IoBellperson, RoundTripAndDocumentedSize) {
  const auto p = sample(3, 16, 20, 9);
  TempFile f, v;
  bellperson::write_params(f.path, p);
  EXPECT_EQ(std::filesystem::file_size(f.path), bellperson::params_size(p));
  EXPECT_EQ(bellperson::params_size(p), 888 + 96 * (3 + 15 + 20 + 23 + 9) + 192 * 9);
  EXPECT_EQ(bellperson::read_params(f.path), p);
  EXPECT_EQ(bellperson::read_params(f.path, true), p);
  bellperson::write_vk(v.path, p.vk);
  EXPECT_EQ(std::filesystem::file_size(v.path), 868 + 96 * 3);
  EXPECT_EQ(bellperson::read_vk(v.path), p.vk);
  EXPECT_EQ(bellperson::read_vk(f.path), p.vk);  // a .vk is a prefix of the .params
  // Trailing bytes (an MPC trailer) are ignored.
  auto b = bytes_of(f.path);
  b.resize(b.size() + 100, 7);
  put(f.path, b);
  EXPECT_EQ(bellperson::read_params(f.path), p);
}

// A verifying-only read (engine.isolation = "process"): the verifying key and the vectors' lengths, no
// points; a file too short for the vectors it announces is still refused.
TEST(IoBellperson, VerifyingOnlyReadKeepsTheKeyAndTheLengths) {
  const auto p = sample(3, 16, 20, 9);
  TempFile f;
  bellperson::write_params(f.path, p);
  const auto v = bellperson::read_params(f.path, false, true);
  EXPECT_EQ(v.vk, p.vk);
  EXPECT_TRUE(v.h.empty() && v.l.empty() && v.a.empty() && v.b_g1.empty() && v.b_g2.empty());
  ASSERT_TRUE(v.lengths_only);
  EXPECT_EQ(v.lengths(), p.lengths());
  EXPECT_EQ(p.lengths().h, 15u);
  EXPECT_EQ(p.lengths().l, 20u);
  EXPECT_EQ(p.lengths().b, 9u);
  auto b = bytes_of(f.path);
  b.resize(b.size() - 1);
  put(f.path, b);
  try {
    bellperson::read_params(f.path, false, true);
    ADD_FAILURE() << "a truncated file was accepted";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("truncated: b_g2"), std::string::npos) << e.what();
  }
}

TEST(IoBellperson, RejectsBadFilesWithTheirOffset) {
  const auto p = sample(2, 8, 6, 4);
  TempFile f;
  bellperson::write_params(f.path, p);
  const auto good = bytes_of(f.path);
  const std::size_t h_at = 868 + 96 * 2;  // h_len
  {
    auto b = good;
    b.resize(b.size() - 10);
    put(f.path, b);
    expect_error(f.path, "truncated: b_g2 has 4 points");
  }
  {
    auto b = good;
    b[h_at + 3] = 6;  // h_len 6: not 2^k − 1
    put(f.path, b);
    expect_error(f.path, "h_len 6 is not 2^k");
  }
  {
    auto b = good;
    const std::size_t b2_len_at = good.size() - 4 * 192 - 4;
    b[b2_len_at + 3] = 3;
    put(f.path, b);
    expect_error(f.path, "b_g2_len 3 differs from b_g1_len 4");
  }
  {
    auto b = good;
    const std::size_t l0 = h_at + 4 + 7 * 96 + 4;  // l[0]
    b[l0 + 95] ^= 1;                               // y changes: off the curve
    put(f.path, b);
    expect_error(f.path, "l[0] at offset " + std::to_string(l0));
  }
  {
    auto b = good;
    const std::size_t h2 = h_at + 4 + 2 * 96;  // h[2] := infinity
    std::fill(b.begin() + h2, b.begin() + h2 + 96, 0);
    b[h2] = 0x40;
    put(f.path, b);
    expect_error(f.path, "h[2] at offset " + std::to_string(h2) + ": the point at infinity");
  }
  {
    // A point on the curve outside the subgroup in the big vectors: accepted unless asked.
    G1 odd;
    Bls12_381::Fq x = Bls12_381::Fq::zero(), y;
    for (;;) {
      x += Bls12_381::Fq::one();
      const auto rhs = x.sqr() * x + Bls12_381::G1Cfg::b();
      if (rhs.sqrt(y) && y.sqr() == rhs && !ec::in_prime_subgroup(G1{x, y})) break;
    }
    odd = G1{x, y};
    auto q = p;
    q.l[1] = odd;
    bellperson::write_params(f.path, q);
    EXPECT_NO_THROW(bellperson::read_params(f.path, false));
    expect_error(f.path, "l[1]", true);
    q = p;
    q.vk.ic[1] = odd;  // the verifying key is always checked
    bellperson::write_params(f.path, q);
    expect_error(f.path, "ic[1]", false);
  }
  put(f.path, {});
  expect_error(f.path, "alpha_g1");
}

}  // namespace
}  // namespace cuzk::io
