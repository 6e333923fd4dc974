// Helpers shared by the src/io tests (tests/unit/io_*_test.cpp): temporary directories, file bytes and
// text, an independent walk of the snarkjs binary container, FormatError expectations, random points,
// proving keys, constraint systems and witnesses, the snarkjs reference files in tests/fixtures/io, and
// the IoCurveTest fixture typed over both curves (each test file registers it with TYPED_TEST_SUITE).
// The test files use `using namespace cuzk::test;`, which also brings the `fs` alias and io::FormatError.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/encoding.hpp"
#include "groth16/types.hpp"
#include "io/error.hpp"
#include "r1cs/system.hpp"

namespace cuzk::test {

namespace fs = std::filesystem;
using io::FormatError;

inline const fs::path kFixtures = fs::path(__FILE__).parent_path().parent_path() / "fixtures" / "io";

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "cuzk_io_test_XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

using Bytes = std::vector<std::uint8_t>;

inline Bytes read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}
inline void write_bytes(const std::string& path, const Bytes& b) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}
inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
inline void write_text(const std::string& path, const std::string& s) {
  std::ofstream out(path, std::ios::trunc);
  out << s;
}

// An independent (test-side) walk of the container: section id → {payload offset, size}.
struct Sec {
  std::size_t offset, size;
};
inline std::map<std::uint32_t, Sec> sections_of(const Bytes& b) {
  std::map<std::uint32_t, Sec> m;
  std::uint32_t n;
  std::memcpy(&n, b.data() + 8, 4);
  std::size_t pos = 12;
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint32_t id;
    std::uint64_t size;
    std::memcpy(&id, b.data() + pos, 4);
    std::memcpy(&size, b.data() + pos + 4, 8);
    m[id] = {pos + 12, size};
    pos += 12 + size;
  }
  return m;
}
// Position of section `id`'s u64 size field.
inline std::size_t size_field_of(const Bytes& b, std::uint32_t id) {
  return sections_of(b).at(id).offset - 8;
}

inline void put_u32(Bytes& b, std::size_t at, std::uint32_t v) {
  std::memcpy(b.data() + at, &v, 4);
}
inline void put_u64(Bytes& b, std::size_t at, std::uint64_t v) {
  std::memcpy(b.data() + at, &v, 8);
}

// Runs f and returns the FormatError message; fails the test if f succeeds or throws anything else.
template <class F>
std::string format_error_of(F&& f) {
  try {
    f();
  } catch (const FormatError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected FormatError, got another exception: " << e.what();
    return {};
  }
  ADD_FAILURE() << "expected FormatError, but the call succeeded";
  return {};
}

#define EXPECT_FORMAT_ERROR(call, substr)                                          \
  do {                                                                             \
    const std::string msg_ = ::cuzk::test::format_error_of([&] { (void)(call); }); \
    EXPECT_NE(msg_.find(substr), std::string::npos) << "message: " << msg_;        \
  } while (0)

template <class F>
F rand_el(std::mt19937_64& rng) {
  return ff::random_element<F>(rng);
}

template <class Cfg>
ec::Affine<Cfg> rand_point(std::mt19937_64& rng) {
  auto k = rand_el<typename Cfg::Scalar>(rng).to_int();
  return ec::scalar_mul(Cfg::generator(), k).to_affine();
}

template <class Curve>
typename Curve::G1 rand_g1(std::mt19937_64& rng) {
  return rand_point<typename Curve::G1Cfg>(rng);
}
template <class Curve>
typename Curve::G2 rand_g2(std::mt19937_64& rng) {
  return rand_point<typename Curve::G2Cfg>(rng);
}

// A small random proving key: points are random multiples of the generators, some at infinity.
template <class Curve>
groth16::ProvingKey<Curve> random_pk(std::mt19937_64& rng) {
  using G1 = typename Curve::G1;
  using G2 = typename Curve::G2;
  groth16::ProvingKey<Curve> pk;
  pk.n_vars = 6;
  pk.n_public = 2;
  pk.domain_size = 8;
  pk.alpha1 = rand_g1<Curve>(rng);
  pk.beta1 = rand_g1<Curve>(rng);
  pk.delta1 = rand_g1<Curve>(rng);
  pk.beta2 = rand_g2<Curve>(rng);
  pk.gamma2 = Curve::G2Cfg::generator();
  pk.delta2 = rand_g2<Curve>(rng);
  for (std::uint32_t i = 0; i <= pk.n_public; ++i) pk.ic.push_back(rand_g1<Curve>(rng));
  for (std::uint32_t i = 0; i < pk.n_vars; ++i) {
    pk.a.push_back(i % 3 == 1 ? G1::infinity() : rand_g1<Curve>(rng));
    pk.b1.push_back(i % 2 ? G1::infinity() : rand_g1<Curve>(rng));
    pk.b2.push_back(i % 2 ? G2::infinity() : rand_g2<Curve>(rng));
  }
  for (std::uint32_t i = 0; i < pk.n_vars - pk.n_public - 1; ++i) pk.c.push_back(rand_g1<Curve>(rng));
  for (std::uint32_t i = 0; i < pk.domain_size; ++i)
    pk.h.push_back(i == 5 ? G1::infinity() : rand_g1<Curve>(rng));
  using Fr = typename Curve::Fr;
  for (std::uint32_t i = 0; i < 9; ++i)
    pk.coefs.push_back({i % 2, static_cast<std::uint32_t>(rng() % 5),
                        static_cast<std::uint32_t>(rng() % pk.n_vars),
                        i == 0 ? -Fr::one() : rand_el<Fr>(rng)});
  for (std::uint32_t s = 0; s <= pk.n_public; ++s) pk.coefs.push_back({0, 5 + s, s, Fr::one()});
  return pk;
}

template <class Curve>
r1cs::ConstraintSystem<Curve> random_cs(std::mt19937_64& rng) {
  using Fr = typename Curve::Fr;
  r1cs::ConstraintSystem<Curve> cs;
  cs.n_wires = 7;
  cs.n_pub_out = 1;
  cs.n_pub_in = 2;
  cs.n_prv_in = 1;
  cs.n_labels = 9;
  for (int i = 0; i < 4; ++i) {
    r1cs::Constraint<Curve> c;
    for (int k = 0; k < i; ++k) c.a.push_back({static_cast<std::uint32_t>(rng() % 7), rand_el<Fr>(rng)});
    c.b.push_back({static_cast<std::uint32_t>(rng() % 7), Fr::one()});
    c.c.push_back({6, -Fr::one()});
    cs.constraints.push_back(c);
  }
  return cs;
}

template <class Curve>
std::vector<typename Curve::Fr> random_witness(std::mt19937_64& rng, std::size_t n) {
  std::vector<typename Curve::Fr> w{Curve::Fr::one()};
  while (w.size() < n) w.push_back(rand_el<typename Curve::Fr>(rng));
  return w;
}

template <class Curve>
std::string fixture_dir() {
  return (kFixtures / Curve::snarkjs_name).string();
}

template <class Curve>
class IoCurveTest : public ::testing::Test {};
using Curves = ::testing::Types<Bn254, Bls12_381>;
class CurveNames {
 public:
  template <class T>
  static std::string GetName(int) {
    return T::snarkjs_name;
  }
};

}  // namespace cuzk::test
