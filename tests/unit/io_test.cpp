// Tests for src/io: binary container, zkey / wtns / r1cs readers and writers, snarkjs JSON, the LEM and
// zcash point codecs. Every reader is also fed truncated and corrupted files and must answer with a
// FormatError (never a crash or another exception type).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "ec/scalar_mul.hpp"
#include "ff/encoding.hpp"
#include "io/binfile.hpp"
#include "io/curve_id.hpp"
#include "io/error.hpp"
#include "io/json.hpp"
#include "io/point_codec.hpp"
#include "io/r1cs_file.hpp"
#include "io/wtns.hpp"
#include "io/zcash_codec.hpp"
#include "io/zkey.hpp"
#include "pairing/pairing.hpp"

namespace fs = std::filesystem;
using namespace cuzk;
using io::FormatError;

namespace {

// ---- helpers ----------------------------------------------------------------------------------------

const fs::path kFixtures = fs::path(__FILE__).parent_path().parent_path() / "fixtures" / "io";

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

Bytes read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}
void write_bytes(const std::string& path, const Bytes& b) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}
std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
void write_text(const std::string& path, const std::string& s) {
  std::ofstream out(path, std::ios::trunc);
  out << s;
}

// An independent (test-side) walk of the container: section id → {payload offset, size}.
struct Sec {
  std::size_t offset, size;
};
std::map<std::uint32_t, Sec> sections_of(const Bytes& b) {
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
std::size_t size_field_of(const Bytes& b, std::uint32_t id) {
  return sections_of(b).at(id).offset - 8;
}

void put_u32(Bytes& b, std::size_t at, std::uint32_t v) {
  std::memcpy(b.data() + at, &v, 4);
}
void put_u64(Bytes& b, std::size_t at, std::uint64_t v) {
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

#define EXPECT_FORMAT_ERROR(call, substr)                                   \
  do {                                                                      \
    const std::string msg_ = format_error_of([&] { (void)(call); });        \
    EXPECT_NE(msg_.find(substr), std::string::npos) << "message: " << msg_; \
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
void expect_pk_equal(const groth16::ProvingKey<Curve>& x, const groth16::ProvingKey<Curve>& y) {
  EXPECT_EQ(x.n_vars, y.n_vars);
  EXPECT_EQ(x.n_public, y.n_public);
  EXPECT_EQ(x.domain_size, y.domain_size);
  EXPECT_TRUE(x.alpha1 == y.alpha1 && x.beta1 == y.beta1 && x.delta1 == y.delta1);
  EXPECT_TRUE(x.beta2 == y.beta2 && x.gamma2 == y.gamma2 && x.delta2 == y.delta2);
  EXPECT_EQ(x.ic, y.ic);
  EXPECT_EQ(x.a, y.a);
  EXPECT_EQ(x.b1, y.b1);
  EXPECT_EQ(x.b2, y.b2);
  EXPECT_EQ(x.c, y.c);
  EXPECT_EQ(x.h, y.h);
  ASSERT_EQ(x.coefs.size(), y.coefs.size());
  for (std::size_t i = 0; i < x.coefs.size(); ++i) {
    EXPECT_EQ(x.coefs[i].matrix, y.coefs[i].matrix);
    EXPECT_EQ(x.coefs[i].constraint, y.coefs[i].constraint);
    EXPECT_EQ(x.coefs[i].signal, y.coefs[i].signal);
    EXPECT_TRUE(x.coefs[i].value == y.coefs[i].value) << "coefficient " << i;
  }
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
TYPED_TEST_SUITE(IoCurveTest, Curves, CurveNames);

// ---- round trips ------------------------------------------------------------------------------------

TYPED_TEST(IoCurveTest, ZkeyRoundTrip) {
  using C = TypeParam;
  std::mt19937_64 rng(1);
  TempDir dir;
  const auto pk = random_pk<C>(rng);
  const std::string path = dir.file("k.zkey");
  io::write_zkey<C>(path, pk);
  expect_pk_equal(io::read_zkey<C>(path), pk);
  EXPECT_FALSE(fs::exists(path + ".partial"));

  // Layout: sections 1..10 in order, section 10 = 64 zero bytes + u32 0.
  const Bytes b = read_bytes(path);
  const auto secs = sections_of(b);
  ASSERT_EQ(secs.size(), 10u);
  std::uint32_t expect_id = 1;
  for (auto [id, s] : secs) EXPECT_EQ(id, expect_id++);
  EXPECT_EQ(secs.at(10).size, 68u);
  EXPECT_EQ(b.size(), secs.at(10).offset + 68);

  const auto info = io::describe_zkey(path);
  EXPECT_EQ(info.curve, io::curve_id_of<C>);
  EXPECT_EQ(info.n_vars, 6u);
  EXPECT_EQ(info.n_public, 2u);
  EXPECT_EQ(info.domain_size, 8u);
  EXPECT_EQ(info.n_coefs, pk.coefs.size());
  EXPECT_EQ(info.sections.size(), 10u);
  EXPECT_NE(info.to_string().find(C::snarkjs_name), std::string::npos);
  EXPECT_EQ(io::peek_curve(path), io::curve_id_of<C>);
}

TYPED_TEST(IoCurveTest, WtnsRoundTrip) {
  using C = TypeParam;
  std::mt19937_64 rng(2);
  TempDir dir;
  auto w = random_witness<C>(rng, 37);
  w[3] = C::Fr::zero();
  w[4] = -C::Fr::one();
  const std::string path = dir.file("w.wtns");
  io::write_wtns<C>(path, w);
  EXPECT_EQ(io::read_wtns<C>(path), w);
  EXPECT_EQ(io::peek_curve(path), io::curve_id_of<C>);
  io::write_wtns<C>(path, {});
  EXPECT_TRUE(io::read_wtns<C>(path).empty());
}

TYPED_TEST(IoCurveTest, R1csRoundTrip) {
  using C = TypeParam;
  std::mt19937_64 rng(3);
  TempDir dir;
  const auto cs = random_cs<C>(rng);
  const std::string path = dir.file("c.r1cs");
  io::write_r1cs<C>(path, cs);
  const auto got = io::read_r1cs<C>(path);
  EXPECT_EQ(got.n_wires, cs.n_wires);
  EXPECT_EQ(got.n_pub_out, cs.n_pub_out);
  EXPECT_EQ(got.n_pub_in, cs.n_pub_in);
  EXPECT_EQ(got.n_prv_in, cs.n_prv_in);
  EXPECT_EQ(got.n_labels, cs.n_labels);
  ASSERT_EQ(got.constraints.size(), cs.constraints.size());
  auto same = [](const r1cs::LinearCombination<C>& x, const r1cs::LinearCombination<C>& y) {
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (x[i].wire != y[i].wire || x[i].coeff != y[i].coeff) return false;
    return true;
  };
  for (std::size_t i = 0; i < cs.constraints.size(); ++i) {
    EXPECT_TRUE(same(got.constraints[i].a, cs.constraints[i].a));
    EXPECT_TRUE(same(got.constraints[i].b, cs.constraints[i].b));
    EXPECT_TRUE(same(got.constraints[i].c, cs.constraints[i].c));
  }
  EXPECT_EQ(io::peek_curve(path), io::curve_id_of<C>);
}

TYPED_TEST(IoCurveTest, JsonRoundTrips) {
  using C = TypeParam;
  std::mt19937_64 rng(4);
  TempDir dir;
  groth16::Proof<C> proof{rand_g1<C>(rng), rand_g2<C>(rng), rand_g1<C>(rng)};
  const std::string pp = dir.file("proof.json");
  io::write_proof<C>(pp, proof);
  EXPECT_EQ(io::read_proof<C>(pp), proof);
  EXPECT_EQ(io::peek_json_curve(pp), io::curve_id_of<C>);

  groth16::Proof<C> inf{C::G1::infinity(), C::G2::infinity(), rand_g1<C>(rng)};
  io::write_proof<C>(pp, inf);
  EXPECT_EQ(io::read_proof<C>(pp), inf);
  const auto j = nlohmann::json::parse(read_text(pp));
  EXPECT_EQ(j["pi_a"], nlohmann::json::parse(R"(["0","1","0"])"));
  EXPECT_EQ(j["pi_b"], nlohmann::json::parse(R"([["0","0"],["1","0"],["0","0"]])"));
  EXPECT_EQ(j["pi_c"][2], "1");
  EXPECT_EQ(j["protocol"], "groth16");
  EXPECT_EQ(j["curve"], C::snarkjs_name);

  const std::string pub = dir.file("public.json");
  auto inputs = random_witness<C>(rng, 5);
  inputs[0] = C::Fr::zero();
  io::write_public<C>(pub, inputs);
  EXPECT_EQ(io::read_public<C>(pub), inputs);
  io::write_public<C>(pub, {});
  EXPECT_TRUE(io::read_public<C>(pub).empty());

  const auto pk = random_pk<C>(rng);
  const auto vk = pk.verifying_key();
  const std::string vp = dir.file("vk.json");
  io::write_vk<C>(vp, vk, /*with_alphabeta=*/false);
  const auto got = io::read_vk<C>(vp);
  EXPECT_TRUE(got.alpha1 == vk.alpha1 && got.beta2 == vk.beta2 && got.gamma2 == vk.gamma2 &&
              got.delta2 == vk.delta2);
  EXPECT_EQ(got.ic, vk.ic);
  EXPECT_EQ(nlohmann::json::parse(read_text(vp))["nPublic"], 2);
  EXPECT_EQ(io::peek_json_curve(vp), io::curve_id_of<C>);
}

// ---- snarkjs reference files (tests/fixtures/io) ---------------------------------------------------

TYPED_TEST(IoCurveTest, ReadsSnarkjsFiles) {
  using C = TypeParam;
  using Fr = typename C::Fr;
  const std::string d = fixture_dir<C>();
  const auto pk = io::read_zkey<C>(d + "/multiplier.zkey");
  EXPECT_EQ(pk.n_vars, 4u);
  EXPECT_EQ(pk.n_public, 1u);
  EXPECT_EQ(pk.domain_size, 4u);
  EXPECT_TRUE(pk.gamma2 == C::G2Cfg::generator());
  // The multiplier is stored as (−a)·(b) = (−c): every coefficient decodes to ±1.
  ASSERT_FALSE(pk.coefs.empty());
  for (const auto& e : pk.coefs) EXPECT_TRUE(e.value == Fr::one() || e.value == -Fr::one());
  // The last nPublic + 1 records bind the public inputs: {0, nConstraints + s, s, 1}.
  const auto& last = pk.coefs.back();
  EXPECT_EQ(last.matrix, 0u);
  EXPECT_EQ(last.signal, 1u);
  EXPECT_TRUE(last.value == Fr::one());

  const auto vk = io::read_vk<C>(d + "/verification_key.json");
  const auto from_pk = pk.verifying_key();
  EXPECT_TRUE(vk.alpha1 == from_pk.alpha1 && vk.beta2 == from_pk.beta2 && vk.gamma2 == from_pk.gamma2 &&
              vk.delta2 == from_pk.delta2);
  EXPECT_EQ(vk.ic, from_pk.ic);

  const auto w = io::read_wtns<C>(d + "/multiplier.wtns");
  const std::vector<Fr> expect_w{Fr::one(), Fr::from_u64(33), Fr::from_u64(3), Fr::from_u64(11)};
  EXPECT_EQ(w, expect_w);

  const auto cs = io::read_r1cs<C>(d + "/multiplier.r1cs");
  EXPECT_EQ(cs.n_wires, 4u);
  EXPECT_EQ(cs.n_public(), 1u);
  ASSERT_EQ(cs.constraints.size(), 1u);
  // A·B = C holds for the witness.
  auto eval = [&](const r1cs::LinearCombination<C>& lc) {
    Fr s = Fr::zero();
    for (const auto& t : lc) s += t.coeff * w[t.wire];
    return s;
  };
  const auto& con = cs.constraints[0];
  EXPECT_TRUE(eval(con.a) * eval(con.b) == eval(con.c));

  const auto pub = io::read_public<C>(d + "/public.json");
  ASSERT_EQ(pub.size(), 1u);
  EXPECT_TRUE(pub[0] == Fr::from_u64(33));

  // snarkjs' proof satisfies e(−A, B)·e(vk_x, γ)·e(C, δ)·e(α, β) = 1 with our decoding.
  const auto proof = io::read_proof<C>(d + "/proof.json");
  const auto vk_x = (ec::scalar_mul(vk.ic[1], pub[0].to_int()).add_affine(vk.ic[0])).to_affine();
  const std::pair<typename C::G1, typename C::G2> pairs[] = {
      {-proof.a, proof.b}, {vk_x, vk.gamma2}, {proof.c, vk.delta2}, {vk.alpha1, vk.beta2}};
  EXPECT_TRUE(pairing::pairing_product_is_one<C>(pairs));

  for (const char* f : {"/multiplier.zkey", "/multiplier.wtns", "/multiplier.r1cs"})
    EXPECT_EQ(io::peek_curve(d + f), io::curve_id_of<C>);
  EXPECT_EQ(io::peek_json_curve(d + "/proof.json"), io::curve_id_of<C>);
  EXPECT_EQ(io::peek_json_curve(d + "/verification_key.json"), io::curve_id_of<C>);
}

// write_zkey reproduces snarkjs' bytes for sections 1–9 (snarkjs writes them in another order).
TYPED_TEST(IoCurveTest, WriteZkeyMatchesSnarkjsBytes) {
  using C = TypeParam;
  TempDir dir;
  const std::string src = fixture_dir<C>() + "/multiplier.zkey";
  const std::string out = dir.file("re.zkey");
  io::write_zkey<C>(out, io::read_zkey<C>(src));
  const Bytes a = read_bytes(src), b = read_bytes(out);
  const auto sa = sections_of(a), sb = sections_of(b);
  for (std::uint32_t id = 1; id <= 9; ++id) {
    ASSERT_EQ(sa.at(id).size, sb.at(id).size) << "section " << id;
    EXPECT_EQ(0, std::memcmp(a.data() + sa.at(id).offset, b.data() + sb.at(id).offset, sa.at(id).size))
        << "section " << id;
  }
}

// write_vk matches snarkjs' verification_key.json field by field, vk_alphabeta_12 included.
TYPED_TEST(IoCurveTest, WriteVkMatchesSnarkjs) {
  using C = TypeParam;
  TempDir dir;
  const std::string d = fixture_dir<C>();
  const std::string out = dir.file("vk.json");
  io::write_vk<C>(out, io::read_zkey<C>(d + "/multiplier.zkey").verifying_key());
  const auto ours = nlohmann::json::parse(read_text(out));
  const auto theirs = nlohmann::json::parse(read_text(d + "/verification_key.json"));
  EXPECT_EQ(ours, theirs);

  // proof.json: same structure and order of keys as snarkjs.
  const std::string pp = dir.file("proof.json");
  io::write_proof<C>(pp, io::read_proof<C>(d + "/proof.json"));
  EXPECT_EQ(nlohmann::json::parse(read_text(pp)), nlohmann::json::parse(read_text(d + "/proof.json")));
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

TYPED_TEST(IoCurveTest, ZkeyStructuralErrors) {
  using C = TypeParam;
  using Fq = typename C::Fq;
  TempDir dir;
  const std::string src = fixture_dir<C>() + "/multiplier.zkey";
  const Bytes good = read_bytes(src);
  const std::string bad = dir.file("bad.zkey");
  auto with = [&](auto&& mutate) {
    Bytes b = good;
    mutate(b);
    write_bytes(bad, b);
  };
  auto read = [&] { return io::read_zkey<C>(bad); };
  const auto secs = sections_of(good);
  const std::size_t g1 = 2 * Fq::bytes();

  with([](Bytes& b) { b[0] = 'w'; });
  EXPECT_FORMAT_ERROR(read(), "magic is \"wkey\", expected \"zkey\"");
  with([](Bytes& b) { put_u32(b, 4, 2); });
  EXPECT_FORMAT_ERROR(read(), "unsupported .zkey version 2 (expected 1)");
  with([&](Bytes& b) { put_u32(b, secs.at(1).offset, 2); });
  EXPECT_FORMAT_ERROR(read(), "protocol 2 (plonk) is not supported");
  with([&](Bytes& b) { put_u32(b, secs.at(1).offset, 10); });
  EXPECT_FORMAT_ERROR(read(), "protocol 10 (fflonk)");
  // Duplicate id: relabel section 10 as 9.
  with([&](Bytes& b) { put_u32(b, secs.at(10).offset - 12, 9); });
  EXPECT_FORMAT_ERROR(read(), "section 9 appears twice");
  // Missing section: relabel section 8 as 42.
  with([&](Bytes& b) { put_u32(b, secs.at(8).offset - 12, 42); });
  EXPECT_FORMAT_ERROR(read(), "missing section 8 (C points)");
  // Section declares more bytes than the file has.
  with([&](Bytes& b) { put_u64(b, size_field_of(b, 9), 1ull << 62); });
  EXPECT_FORMAT_ERROR(read(), "declares 4611686018427387904 bytes");
  // Section size vs. counts: grow section 3 by one byte by stealing it from a rewritten file.
  {
    Bytes b;
    b.insert(b.end(), good.begin(),
             good.begin() + static_cast<std::ptrdiff_t>(secs.at(3).offset + secs.at(3).size));
    b.push_back(0);
    b.insert(b.end(), good.begin() + static_cast<std::ptrdiff_t>(secs.at(3).offset + secs.at(3).size),
             good.end());
    put_u64(b, secs.at(3).offset - 8, secs.at(3).size + 1);
    write_bytes(bad, b);
    EXPECT_FORMAT_ERROR(read(), "section 3 (IC points) at offset " + std::to_string(secs.at(3).offset) +
                                    ": section size is " + std::to_string(secs.at(3).size + 1) + " bytes");
  }
  // nPublic ≥ nVars.
  const std::size_t hdr_counts = secs.at(2).offset + 4 + Fq::bytes() + 4 + 32;
  with([&](Bytes& b) { put_u32(b, hdr_counts + 4, 4); });
  EXPECT_FORMAT_ERROR(read(), "need nVars ≥ nPublic + 1");
  with([&](Bytes& b) { put_u32(b, hdr_counts + 8, 6); });
  EXPECT_FORMAT_ERROR(read(), "domainSize = 6 is not a power of two");
  // Changing nVars changes expected section sizes: reported against the first point section.
  with([&](Bytes& b) { put_u32(b, hdr_counts, 5); });
  EXPECT_FORMAT_ERROR(read(), "section 5 (A points)");

  // Coordinate ≥ q: write q itself into H[2].x.
  const std::size_t h2 = secs.at(9).offset + 2 * g1;
  with([&](Bytes& b) {
    const auto q = Fq::modulus();
    std::memcpy(b.data() + h2, q.v, Fq::bytes());
  });
  EXPECT_FORMAT_ERROR(read(), "section 9 (H points) at offset " + std::to_string(h2) +
                                  ": H[2]: coordinate is not reduced (≥ q)");
  // Off-curve: perturb H[3].y's lowest byte (Montgomery limbs still reduced: y < q with high probability).
  const std::size_t h3 = secs.at(9).offset + 3 * g1;
  with([&](Bytes& b) { b[h3 + Fq::bytes()] ^= 1; });
  EXPECT_FORMAT_ERROR(read(),
                      "section 9 (H points) at offset " + std::to_string(h3) + ": H[3]: point not on curve");
  // Off-curve α1 in the header.
  const std::size_t alpha = hdr_counts + 12;
  with([&](Bytes& b) { b[alpha] ^= 1; });
  EXPECT_FORMAT_ERROR(read(), "alpha1: point not on curve");
  // G2: perturb B2[0].x.c1 (B2[0] may be infinity; pick the first finite one).
  {
    const auto pk = io::read_zkey<C>(src);
    std::size_t i = 0;
    while (pk.b2[i].is_infinity()) ++i;
    const std::size_t at = secs.at(7).offset + i * 2 * g1;
    with([&](Bytes& b) { b[at + Fq::bytes()] ^= 1; });
    EXPECT_FORMAT_ERROR(read(), "B2[" + std::to_string(i) + "]: point not on curve");
  }

  // Coefficient records: matrix, constraint, signal, value.
  const std::size_t coef0 = secs.at(4).offset + 4;
  with([&](Bytes& b) { put_u32(b, coef0, 2); });
  EXPECT_FORMAT_ERROR(read(), "coefficient 0: matrix 2, expected 0 (A) or 1 (B)");
  with([&](Bytes& b) { put_u32(b, coef0 + 4, 4); });
  EXPECT_FORMAT_ERROR(read(), "coefficient 0: constraint 4 ≥ domainSize 4");
  with([&](Bytes& b) { put_u32(b, coef0 + 8, 4); });
  EXPECT_FORMAT_ERROR(read(), "coefficient 0: signal 4 ≥ nVars 4");
  with([&](Bytes& b) { std::memset(b.data() + coef0 + 12, 0xff, 32); });
  EXPECT_FORMAT_ERROR(read(), "coefficient 0: value is not reduced (≥ r)");
  with([&](Bytes& b) { put_u32(b, secs.at(4).offset, 0xffffffffu); });
  EXPECT_FORMAT_ERROR(read(), "4 + nCoefs 4294967295 × 44");

  // File and section named with offsets in the message.
  with([&](Bytes& b) { put_u32(b, coef0, 7); });
  EXPECT_FORMAT_ERROR(read(), bad + ": section 4 (coefficients) at offset " + std::to_string(coef0));

  EXPECT_FORMAT_ERROR(io::read_zkey<C>(dir.file("does_not_exist.zkey")), "cannot open");
  EXPECT_FORMAT_ERROR(io::read_zkey<C>(dir.file("")), "is a directory");
}

TEST(IoErrors, WrongCurve) {
  const std::string bls = (kFixtures / "bls12381").string(), bn = (kFixtures / "bn128").string();
  EXPECT_FORMAT_ERROR(io::read_zkey<Bn254>(bls + "/multiplier.zkey"),
                      "this is a BLS12-381 (bls12381) key, but a BN254 key was expected");
  EXPECT_FORMAT_ERROR(io::read_zkey<Bls12_381>(bn + "/multiplier.zkey"), "BN254 (bn128) key");
  EXPECT_FORMAT_ERROR(io::read_wtns<Bn254>(bls + "/multiplier.wtns"), "BLS12-381 (bls12381) witness");
  EXPECT_FORMAT_ERROR(io::read_r1cs<Bls12_381>(bn + "/multiplier.r1cs"), "BN254 (bn128) circuit");
  EXPECT_FORMAT_ERROR(io::read_vk<Bn254>(bls + "/verification_key.json"), "curve: \"bls12381\" but a BN254");
  EXPECT_FORMAT_ERROR(io::read_proof<Bls12_381>(bn + "/proof.json"), "curve: \"bn128\"");
  EXPECT_EQ(io::peek_curve(bls + "/multiplier.zkey"), io::CurveId::bls12_381);
  EXPECT_EQ(io::peek_curve(bn + "/multiplier.wtns"), io::CurveId::bn254);
}

TEST(IoErrors, UnsupportedPrime) {
  TempDir dir;
  std::mt19937_64 rng(12);
  const std::string p = dir.file("w.wtns");
  io::write_wtns<Bn254>(p, random_witness<Bn254>(rng, 3));
  Bytes b = read_bytes(p);
  const auto s1 = sections_of(b).at(1);
  // Goldilocks 2^64 − 2^32 + 1 written as 32 bytes.
  std::memset(b.data() + s1.offset + 4, 0, 32);
  put_u64(b, s1.offset + 4, 0xffffffff00000001ull);
  write_bytes(p, b);
  EXPECT_FORMAT_ERROR(io::read_wtns<Bn254>(p), "unsupported prime 18446744069414584321 (supported: bn128");
  EXPECT_FORMAT_ERROR(io::peek_curve(p), "unsupported prime 18446744069414584321");
  put_u32(b, s1.offset, 7);
  write_bytes(p, b);
  EXPECT_FORMAT_ERROR(io::read_wtns<Bn254>(p), "unsupported field size n8 = 7");

  // q where r is expected.
  io::write_wtns<Bn254>(p, random_witness<Bn254>(rng, 3));
  b = read_bytes(p);
  const auto q = Bn254::Fq::modulus();
  std::memcpy(b.data() + s1.offset + 4, q.v, 32);
  write_bytes(p, b);
  EXPECT_FORMAT_ERROR(io::read_wtns<Bn254>(p), "prime is the base field q prime of bn128");

  EXPECT_THROW(io::identify_prime(std::vector<std::uint8_t>(8, 0xff)), std::invalid_argument);
  std::uint8_t rb[32];
  std::memcpy(rb, Bls12_381::Fr::modulus().v, 32);
  EXPECT_EQ(io::identify_prime(rb).curve, io::CurveId::bls12_381);
  EXPECT_EQ(io::identify_prime(rb).kind, io::PrimeKind::scalar);
}

TYPED_TEST(IoCurveTest, WtnsAndR1csValueErrors) {
  using C = TypeParam;
  using Fr = typename C::Fr;
  TempDir dir;
  std::mt19937_64 rng(13);
  const std::string wp = dir.file("w.wtns");
  io::write_wtns<C>(wp, random_witness<C>(rng, 6));
  Bytes b = read_bytes(wp);
  const std::size_t v4 = sections_of(b).at(2).offset + 4 * 32;
  std::memcpy(b.data() + v4, Fr::modulus().v, 32);
  write_bytes(wp, b);
  EXPECT_FORMAT_ERROR(io::read_wtns<C>(wp), "section 2 (witness values) at offset " + std::to_string(v4) +
                                                ": witness value 4 is not reduced (≥ r)");
  b = read_bytes(wp);
  put_u32(b, sections_of(b).at(1).offset + 36, 7);  // nWitness 7 but 6 values
  write_bytes(wp, b);
  EXPECT_FORMAT_ERROR(io::read_wtns<C>(wp), "expected nWitness 7 × 32 = 224");
  b[4] = 1;
  write_bytes(wp, b);
  EXPECT_FORMAT_ERROR(io::read_wtns<C>(wp), "unsupported .wtns version 1 (expected 2)");

  const std::string rp = dir.file("c.r1cs");
  auto cs = random_cs<C>(rng);
  io::write_r1cs<C>(rp, cs);
  const Bytes r1cs_orig = read_bytes(rp);
  b = r1cs_orig;
  // First term of constraint 0's B (constraint 0 has an empty A): wire := nWires.
  const std::size_t s2 = sections_of(b).at(2).offset;
  put_u32(b, s2 + 8, 7);
  write_bytes(rp, b);
  EXPECT_FORMAT_ERROR(io::read_r1cs<C>(rp), "constraint 0 B term 0: wire 7 ≥ nWires 7");
  b = r1cs_orig;
  std::memset(b.data() + s2 + 12, 0xff, 32);
  write_bytes(rp, b);
  EXPECT_FORMAT_ERROR(io::read_r1cs<C>(rp), "constraint 0 B term 0: coefficient is not reduced");
  b = r1cs_orig;
  put_u32(b, s2 + 4, 0x10000000);  // B's nTerms
  write_bytes(rp, b);
  EXPECT_FORMAT_ERROR(io::read_r1cs<C>(rp), "constraint 0 B declares 268435456 terms");
  b = r1cs_orig;
  put_u32(b, sections_of(b).at(1).offset + 32 + 4 + 16 + 8, 0xffffffffu);  // nConstraints
  write_bytes(rp, b);
  EXPECT_FORMAT_ERROR(io::read_r1cs<C>(rp), "4294967295 constraints need at least");
  b = r1cs_orig;
  put_u32(b, sections_of(b).at(1).offset + 32 + 4, 2);  // nWires < 1 + inputs
  write_bytes(rp, b);
  EXPECT_FORMAT_ERROR(io::read_r1cs<C>(rp), "nWires = 2 is less than");
  b = r1cs_orig;
  put_u32(b, sections_of(b).at(3).offset - 12, 4);  // label map relabelled as custom gates
  write_bytes(rp, b);
  EXPECT_FORMAT_ERROR(io::read_r1cs<C>(rp), "custom gates");
}

TEST(IoErrors, ContainerHeader) {
  TempDir dir;
  const std::string p = dir.file("x.bin");
  write_bytes(p, {});
  EXPECT_FORMAT_ERROR(io::read_zkey<Bn254>(p), "truncated: 0 bytes");
  write_text(p, "{\"curve\": \"bn128\"} and some more text");
  EXPECT_FORMAT_ERROR(io::read_zkey<Bn254>(p), "not a .zkey file: magic is \"{\"cu\", expected \"zkey\"");
  EXPECT_FORMAT_ERROR(io::peek_curve(p), "not a .zkey, .wtns or .r1cs file: magic is \"{\"cu\"");
  write_bytes(p, {0x89, 'P', 'N', 'G', 1, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_FORMAT_ERROR(io::read_wtns<Bn254>(p), "magic is 0x89504e47");
  // nSections = 2^32 − 1 with nothing behind it.
  write_bytes(p, {'r', '1', 'c', 's', 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff});
  EXPECT_FORMAT_ERROR(io::read_r1cs<Bn254>(p), "header of section #1 of 4294967295 needs 12 bytes");
}

// ---- JSON errors -------------------------------------------------------------------------------------

TYPED_TEST(IoCurveTest, JsonErrors) {
  using C = TypeParam;
  TempDir dir;
  const std::string fx = fixture_dir<C>();
  const auto proof = nlohmann::ordered_json::parse(read_text(fx + "/proof.json"));
  const auto vk = nlohmann::ordered_json::parse(read_text(fx + "/verification_key.json"));
  const std::string p = dir.file("bad.json");
  auto proof_with = [&](auto&& mutate) {
    auto j = proof;
    mutate(j);
    write_text(p, j.dump());
    return p;
  };
  auto vk_with = [&](auto&& mutate) {
    auto j = vk;
    mutate(j);
    write_text(p, j.dump());
    return p;
  };
  const std::string q = ff::bigint_to_decimal(C::Fq::modulus());
  const std::string r = ff::bigint_to_decimal(C::Fr::modulus());

  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["pi_a"][0] = "12a"; })),
                      "bad.json: pi_a[0]: \"12a\" is not a non-negative decimal integer");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["pi_a"][0] = "-1"; })), "pi_a[0]");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["pi_a"][0] = ""; })), "pi_a[0]");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["pi_a"][1] = 5; })),
                      "pi_a[1]: expected a decimal string, got 5");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([&](auto& j) { j["pi_c"][0] = q; })),
                      "pi_c[0]: \"" + q.substr(0, 70));
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([&](auto& j) { j["pi_c"][0] = q; })),
                      "is not less than the field modulus q");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([&](auto& j) { j["pi_b"][1][1] = q + "0"; })),
                      "pi_b[1][1]");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["pi_a"].push_back("1"); })),
                      "pi_a: expected [x, y, z]");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["pi_b"][0] = "1"; })),
                      "pi_b[0]: expected [c0, c1]");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["pi_a"][2] = "2"; })),
                      "pi_a[2]: z must be \"1\"");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) {
                        j["pi_b"][2] = {"1", "1"};
                      })),
                      "pi_b[2]: z");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["pi_a"][0] = "1"; })),
                      "pi_a: point not on curve");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["pi_b"][0][1] = "1"; })),
                      "pi_b: point not on curve");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j.erase("pi_c"); })),
                      "missing field \"pi_c\"");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["protocol"] = "plonk"; })),
                      "protocol: \"plonk\" is not supported");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["curve"] = "secp256k1"; })),
                      "curve: \"secp256k1\" is not a supported curve");
  // z = 0 is infinity whatever x and y are; "1"/"0" shapes pass; a 2-element point is affine.
  EXPECT_TRUE(io::read_proof<C>(proof_with([](auto& j) { j["pi_a"][2] = "0"; })).a.is_infinity());
  EXPECT_NO_THROW(io::read_proof<C>(proof_with([](auto& j) { j["pi_a"].erase(2); })));
  EXPECT_NO_THROW(io::read_proof<C>(
      proof_with([](auto& j) { j["pi_a"][0] = "000" + j["pi_a"][0].template get<std::string>(); })));
  EXPECT_NO_THROW(io::read_proof<C>(proof_with([](auto& j) { j.erase("curve"); })));
  EXPECT_NO_THROW(io::read_proof<C>(proof_with([](auto& j) { j["curve"] = C::display_name; })));

  write_text(p, "{\"pi_a\": [");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(p), "bad.json: invalid JSON");
  write_text(p, "[1]");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(p), "expected a JSON object");
  EXPECT_FORMAT_ERROR(io::peek_json_curve(p), "expected a JSON object");
  write_text(p, "{}");
  EXPECT_FORMAT_ERROR(io::peek_json_curve(p), "missing field \"curve\"");

  // public.json
  write_text(p, "[\"1\", \"" + r + "\"]");
  EXPECT_FORMAT_ERROR(io::read_public<C>(p), "[1]: \"" + r.substr(0, 70));
  EXPECT_FORMAT_ERROR(io::read_public<C>(p), "is not less than the field modulus r");
  write_text(p, "[\"1\", 2]");
  EXPECT_FORMAT_ERROR(io::read_public<C>(p), "[1]: expected a decimal string");
  write_text(p, "{\"a\": \"1\"}");
  EXPECT_FORMAT_ERROR(io::read_public<C>(p), "expected an array of decimal strings");
  write_text(p, "[\"0x10\"]");
  EXPECT_FORMAT_ERROR(io::read_public<C>(p), "[0]: \"0x10\" is not a non-negative decimal integer");

  // verification_key.json
  EXPECT_FORMAT_ERROR(io::read_vk<C>(vk_with([](auto& j) { j["nPublic"] = 3; })),
                      "nPublic: 3 does not match IC, which has 2 points");
  EXPECT_FORMAT_ERROR(io::read_vk<C>(vk_with([](auto& j) { j["IC"] = nlohmann::ordered_json::array(); })),
                      "IC: expected a non-empty array");
  EXPECT_FORMAT_ERROR(io::read_vk<C>(vk_with([](auto& j) { j["IC"][1][1] = "7"; })),
                      "IC[1]: point not on curve");
  EXPECT_FORMAT_ERROR(io::read_vk<C>(vk_with([](auto& j) { j.erase("vk_delta_2"); })),
                      "missing field \"vk_delta_2\"");
  EXPECT_FORMAT_ERROR(io::read_vk<C>(vk_with([](auto& j) { j["vk_gamma_2"][0][0] = "x"; })),
                      "vk_gamma_2[0][0]");
  // vk_alphabeta_12 is optional.
  EXPECT_NO_THROW(io::read_vk<C>(vk_with([](auto& j) { j.erase("vk_alphabeta_12"); })));
}

TEST(IoJson, CurveNames) {
  EXPECT_EQ(io::parse_curve_name("bn128"), io::CurveId::bn254);
  EXPECT_EQ(io::parse_curve_name("BN254"), io::CurveId::bn254);
  EXPECT_EQ(io::parse_curve_name("AltBn128"), io::CurveId::bn254);
  EXPECT_EQ(io::parse_curve_name("bls12381"), io::CurveId::bls12_381);
  EXPECT_EQ(io::parse_curve_name("BLS12-381"), io::CurveId::bls12_381);
  EXPECT_FALSE(io::parse_curve_name("bls12377"));
  EXPECT_EQ(io::curve_name(io::CurveId::bn254), "bn128");
  EXPECT_EQ(io::curve_name(io::CurveId::bls12_381), "bls12381");
  const auto n =
      io::with_curve(io::CurveId::bls12_381, []<class C>() { return std::string(C::display_name); });
  EXPECT_EQ(n, "BLS12-381");
}

// ---- LEM codec ---------------------------------------------------------------------------------------

TYPED_TEST(IoCurveTest, LemCodec) {
  using C = TypeParam;
  using G1 = typename C::G1;
  using G2 = typename C::G2;
  std::mt19937_64 rng(14);
  const G2 p2 = rand_g2<C>(rng);
  std::uint8_t buf[io::lem_size<G2>];
  static_assert(io::lem_size<G1> == 2 * C::Fq::bytes() && io::lem_size<G2> == 4 * C::Fq::bytes());
  io::encode_lem(p2, buf);
  G2 back;
  EXPECT_EQ(io::decode_lem(buf, back), io::PointStatus::ok);
  EXPECT_TRUE(back == p2);
  // LEM coordinate = x·2^(8·n8q) mod q: Montgomery form with our R.
  typename C::Fq x;
  std::memcpy(x.l, buf, C::Fq::bytes());
  EXPECT_TRUE(x == p2.x.c0);

  std::memset(buf, 0, sizeof buf);
  EXPECT_EQ(io::decode_lem(buf, back), io::PointStatus::ok);
  EXPECT_TRUE(back.is_infinity());

  std::vector<G1> pts(5);
  for (auto& p : pts) p = rand_g1<C>(rng);
  pts[2] = G1::infinity();
  std::vector<std::uint8_t> arr(pts.size() * io::lem_size<G1>);
  for (std::size_t i = 0; i < pts.size(); ++i) io::encode_lem(pts[i], arr.data() + i * io::lem_size<G1>);
  std::vector<G1> dec(pts.size());
  EXPECT_EQ(io::decode_lem_array(arr.data(), pts.size(), dec.data()).status, io::PointStatus::ok);
  EXPECT_EQ(dec, pts);
  arr[3 * io::lem_size<G1> + 1] ^= 0x40;  // x of point 3
  arr[4 * io::lem_size<G1> + 1] ^= 0x40;
  const auto res = io::decode_lem_array(arr.data(), pts.size(), dec.data());
  EXPECT_EQ(res.bad_index, 3u);
  EXPECT_NE(res.status, io::PointStatus::ok);
  std::memset(arr.data(), 0xff, C::Fq::bytes());
  EXPECT_EQ(io::decode_lem_array(arr.data(), pts.size(), dec.data()).status,
            io::PointStatus::coordinate_not_reduced);
}

// ---- zcash codec (BLS12-381) --------------------------------------------------------------------------

std::string hex(std::span<const std::uint8_t> b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (auto c : b) {
    s += d[c >> 4];
    s += d[c & 15];
  }
  return s;
}

Bytes unhex(const std::string& s) {
  Bytes b;
  for (std::size_t i = 0; i + 1 < s.size(); i += 2)
    b.push_back(static_cast<std::uint8_t>(std::stoi(s.substr(i, 2), nullptr, 16)));
  return b;
}

TEST(IoZcash, KnownGenerators) {
  using namespace io::zcash;
  const auto g1 = Bls12_381::G1Cfg::generator();
  EXPECT_EQ(
      hex(encode_g1_compressed(g1)),
      "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb");
  const auto g2 = Bls12_381::G2Cfg::generator();
  EXPECT_EQ(
      hex(encode_g2_compressed(g2)),
      "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
      "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8");
  EXPECT_EQ(
      hex(encode_g1_uncompressed(g1)),
      "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
      "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1");
  G1 p;
  const Bytes enc = unhex(
      "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb");
  EXPECT_EQ(decode_g1(enc, p), io::PointStatus::ok);
  EXPECT_TRUE(p == g1);
  // −G1 differs only in the sort flag.
  auto neg = encode_g1_compressed(-g1);
  EXPECT_EQ(neg[0], 0xb7);
  EXPECT_EQ(decode_g1(neg, p), io::PointStatus::ok);
  EXPECT_TRUE(p == -g1);
}

TEST(IoZcash, RoundTrips) {
  using namespace io::zcash;
  std::mt19937_64 rng(15);
  for (int i = 0; i < 6; ++i) {
    const G1 a = i == 0 ? G1::infinity() : rand_g1<Bls12_381>(rng);
    const G2 b = i == 0 ? G2::infinity() : rand_g2<Bls12_381>(rng);
    G1 a2;
    G2 b2;
    EXPECT_EQ(decode_g1(encode_g1_compressed(a), a2), io::PointStatus::ok);
    EXPECT_TRUE(a2 == a);
    EXPECT_EQ(decode_g1(encode_g1_uncompressed(a), a2, false), io::PointStatus::ok);
    EXPECT_TRUE(a2 == a);
    EXPECT_EQ(decode_g2(encode_g2_compressed(b), b2), io::PointStatus::ok);
    EXPECT_TRUE(b2 == b);
    EXPECT_EQ(decode_g2(encode_g2_uncompressed(b), b2, false), io::PointStatus::ok);
    EXPECT_TRUE(b2 == b);
    // The negation flips the sort flag only (y ≠ 0 for these points).
    if (i > 0) {
      EXPECT_EQ(encode_g2_compressed(b)[0] ^ encode_g2_compressed(-b)[0], 0x20);
      EXPECT_EQ(decode_g2(encode_g2_compressed(-b), b2), io::PointStatus::ok);
      EXPECT_TRUE(b2 == -b);
    }
  }
  EXPECT_EQ(hex(encode_g1_compressed(G1::infinity())).substr(0, 4), "c000");
  EXPECT_EQ(hex(encode_g2_uncompressed(G2::infinity())).substr(0, 4), "4000");
}

TEST(IoZcash, LexicographicOrder) {
  using Fq = Bls12_381::Fq;
  using Fq2 = Bls12_381::Fq2;
  const Fq half = Fq::from_int(ff::bigint_shr(ff::bigint_sub_u64(Fq::modulus(), 1), 1));
  EXPECT_FALSE(io::zcash::lexicographically_largest(half));
  EXPECT_TRUE(io::zcash::lexicographically_largest(half + Fq::one()));
  EXPECT_FALSE(io::zcash::lexicographically_largest(Fq::zero()));
  EXPECT_TRUE(io::zcash::lexicographically_largest(-Fq::one()));
  // Fp2: c1 decides; c0 only when c1 = 0.
  EXPECT_TRUE(io::zcash::lexicographically_largest(Fq2{Fq::one(), -Fq::one()}));
  EXPECT_FALSE(io::zcash::lexicographically_largest(Fq2{-Fq::one(), Fq::one()}));
  EXPECT_TRUE(io::zcash::lexicographically_largest(Fq2{-Fq::one(), Fq::zero()}));
}

// A point on the curve but outside the order-r subgroup: y² = x³ + b for the smallest suitable x.
template <class Cfg>
ec::Affine<Cfg> off_subgroup_point() {
  using F = typename Cfg::F;
  F x = F::zero();
  for (;;) {
    x += F::one();
    F y;
    const F rhs = x.sqr() * x + Cfg::b();
    if (rhs.sqrt(y) && y.sqr() == rhs) {
      ec::Affine<Cfg> p{x, y};
      if (!ec::in_prime_subgroup(p)) return p;
    }
  }
}

TEST(IoZcash, DecodeErrors) {
  using namespace io::zcash;
  using io::PointStatus;
  const auto g1 = Bls12_381::G1Cfg::generator();
  G1 p;
  G2 q;
  auto c = encode_g1_compressed(g1);
  auto u = encode_g1_uncompressed(g1);

  EXPECT_EQ(decode_g1(std::span(c.data(), 47), p), PointStatus::bad_length);
  auto c2 = c;
  c2[0] &= 0x7f;  // compression flag missing on a 48-byte input
  EXPECT_EQ(decode_g1(c2, p), PointStatus::bad_flags);
  auto u2 = u;
  u2[0] |= 0x80;  // compression flag on a 96-byte input
  EXPECT_EQ(decode_g1(u2, p), PointStatus::bad_flags);
  u2 = u;
  u2[0] |= 0x20;  // sort flag on an uncompressed point
  EXPECT_EQ(decode_g1(u2, p), PointStatus::bad_flags);
  u2 = u;
  u2[95] ^= 1;
  EXPECT_EQ(decode_g1(u2, p), PointStatus::not_on_curve);
  // Infinity with junk.
  auto inf = encode_g1_compressed(G1::infinity());
  inf[47] = 1;
  EXPECT_EQ(decode_g1(inf, p), PointStatus::bad_infinity);
  inf = encode_g1_compressed(G1::infinity());
  inf[0] |= 0x20;
  EXPECT_EQ(decode_g1(inf, p), PointStatus::bad_infinity);
  // x ≥ q.
  std::array<std::uint8_t, 48> big{};
  ff::to_bytes_be(Bls12_381::Fq::zero(), big.data(), 48);
  {
    const auto m = Bls12_381::Fq::modulus();
    for (int i = 0; i < 48; ++i) big[47 - i] = static_cast<std::uint8_t>(m.v[i / 8] >> (8 * (i % 8)));
    big[0] |= 0x80;
  }
  EXPECT_EQ(decode_g1(big, p), PointStatus::coordinate_not_reduced);
  // x with no square root for x³ + 4: search a small one.
  for (std::uint64_t x = 1;; ++x) {
    const auto fx = Bls12_381::Fq::from_u64(x);
    if ((fx.sqr() * fx + Bls12_381::G1Cfg::b()).legendre() == -1) {
      auto e = encode_g1_compressed(G1{fx, fx});  // y is ignored; flags from y's sign
      e[0] = static_cast<std::uint8_t>((e[0] & 0x1f) | 0x80);
      EXPECT_EQ(decode_g1(e, p), PointStatus::x_not_on_curve);
      break;
    }
  }
  // Subgroup checks, G1 and G2.
  const G1 o1 = off_subgroup_point<Bls12_381::G1Cfg>();
  EXPECT_EQ(decode_g1(encode_g1_compressed(o1), p), PointStatus::not_in_subgroup);
  EXPECT_EQ(decode_g1(encode_g1_compressed(o1), p, false), PointStatus::ok);
  EXPECT_TRUE(p == o1);
  EXPECT_EQ(decode_g1(encode_g1_uncompressed(o1), p), PointStatus::not_in_subgroup);
  const G2 o2 = off_subgroup_point<Bls12_381::G2Cfg>();
  EXPECT_EQ(decode_g2(encode_g2_compressed(o2), q), PointStatus::not_in_subgroup);
  EXPECT_EQ(decode_g2(encode_g2_compressed(o2), q, false), PointStatus::ok);
  EXPECT_TRUE(q == o2);
}

}  // namespace
