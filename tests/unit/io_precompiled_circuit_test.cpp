// The pre-compiled circuit file (.cpce, src/io/precompiled_circuit.hpp): a round trip of a real gadget
// circuit (one SHA-256 compression packed into public inputs) and of a small hand-made one, the header-only
// read, and the reader's checks: every truncation, every section one term short, each field corrupted in
// turn, each reported as a FormatError naming the section and the exact byte offset.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gadgets/boolean.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/sha256.hpp"
#include "io/precompiled_circuit.hpp"
#include "unit/gadgets_test_util.hpp"
#include "unit/io_test_util.hpp"

using namespace cuzk;
using namespace cuzk::test;
using gadgets::Fr;
using gadgets::LinearCombination;
using gadgets::PrecompiledCircuit;
using gadgets::Variable;

namespace {

// Section ids and header field offsets (docs/formats-precompiled.md).
enum : std::uint32_t { kHeader = 1, kA = 2, kB = 3, kC = 4, kAAux = 5, kBInput = 6, kBAux = 7 };
constexpr std::size_t kFlags = 36, kInputs = 40, kAux = 48, kConstraints = 56, kNnzA = 64, kPopAAux = 88,
                      kPopBInput = 96, kIdLength = 112;

// Four rows over ONE, two inputs and five aux variables, with an empty row, a zero-free mix of coefficients,
// an input in B, and an aux variable (a4) in no A row and no B row.
PrecompiledCircuit small_circuit() {
  gadgets::RecordCS<> cs;
  auto one = [] { return Fr::one(); };
  const Variable x = cs.alloc_input(one), y = cs.alloc_input(one);
  std::vector<Variable> a;
  for (int i = 0; i < 5; ++i) a.push_back(cs.alloc(one));
  using LC = LinearCombination;
  cs.enforce([&](LC& l) { l.add(x).add(a[0], Fr::from_u64(2)); },
             [&](LC& l) { l.add(a[1]).add(gadgets::kOne); }, [&](LC& l) { l.add(a[2]); });
  cs.enforce([&](LC& l) { l.add(a[3]).sub(a[0]); }, [&](LC& l) { l.add(y); },
             [&](LC& l) { l.sub(a[4], Fr::from_u64(7)); });
  cs.enforce([](LC&) {}, [](LC&) {}, [](LC&) {});
  cs.enforce([&](LC& l) { l.add(gadgets::kOne, Fr::from_u64(3)); }, [&](LC& l) { l.add(a[2]); },
             [&](LC& l) { l.add(x).add(y).add(a[4]); });
  return std::move(cs).finish();
}

// One SHA-256 compression of allocated message bits, its digest packed into public inputs: 25,840 rows of
// bellpepper gadgets plus the bits' booleanity rows and the packing rows.
PrecompiledCircuit sha256_circuit() {
  gadgets::RecordCS<> cs;
  std::mt19937 rng(7);
  std::vector<gadgets::Boolean> bits;
  for (int i = 0; i < 512; ++i) bits.push_back(gadgets::AllocatedBit::alloc(cs, rng() & 1));
  const auto out = gadgets::sha256_compression_function(cs, bits, gadgets::get_sha256_iv());
  const std::vector<gadgets::Boolean> digest = gadgets::sha256_digest_bits(out);
  gadgets::pack_into_inputs(cs, digest);
  return std::move(cs).finish();
}

void expect_same(const PrecompiledCircuit& x, const PrecompiledCircuit& y) {
  EXPECT_EQ(x.system.n_vars, y.system.n_vars);
  EXPECT_EQ(x.system.n_public, y.system.n_public);
  gadgets::testing::expect_same_matrix(x.system.a, y.system.a);
  gadgets::testing::expect_same_matrix(x.system.b, y.system.b);
  gadgets::testing::expect_same_matrix(x.system.c, y.system.c);
  gadgets::testing::expect_same_shape(x.shape, y.shape);
}

// The FormatError a read of `bytes` gives; fails the test when there is none.
FormatError error_of(const TempDir& dir, const Bytes& bytes) {
  const std::string path = dir.file("bad.cpce");
  write_bytes(path, bytes);
  try {
    io::read_precompiled_circuit(path);
  } catch (const FormatError& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected FormatError, got: " << e.what();
    return FormatError(path, "wrong exception");
  }
  ADD_FAILURE() << "the corrupted file was accepted";
  return FormatError(path, "accepted");
}

// A corruption of `good` must be reported in section `section` at absolute byte `offset`, saying `what`.
void expect_error_at(const TempDir& dir, const Bytes& bad, std::uint32_t section, std::size_t offset,
                     const std::string& what) {
  const FormatError e = error_of(dir, bad);
  EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  EXPECT_EQ(e.section(), section) << e.what();
  EXPECT_EQ(e.offset(), offset) << e.what();
}

class PrecompiledCircuitFile : public ::testing::Test {
 protected:
  void SetUp() override {
    circuit = small_circuit();
    path = dir.file("small.cpce");
    io::write_precompiled_circuit(path, circuit, "test-small");
    good = read_bytes(path);
    secs = sections_of(good);
  }
  std::size_t at(std::uint32_t section, std::size_t rel) const { return secs.at(section).offset + rel; }
  Bytes with_u64(std::uint32_t section, std::size_t rel, std::uint64_t v) const {
    Bytes b = good;
    put_u64(b, at(section, rel), v);
    return b;
  }
  Bytes with_u32(std::uint32_t section, std::size_t rel, std::uint32_t v) const {
    Bytes b = good;
    put_u32(b, at(section, rel), v);
    return b;
  }
  // Offsets inside matrix sections: rows + 1 row starts, then nnz columns, then nnz values.
  std::size_t cols_rel() const { return 8 * (circuit.shape.constraints + 1); }
  std::size_t vals_rel(std::uint64_t nnz) const { return cols_rel() + 4 * nnz; }

  TempDir dir;
  PrecompiledCircuit circuit;
  std::string path;
  Bytes good;
  std::map<std::uint32_t, Sec> secs;
};

TEST(PrecompiledCircuit, Sha256CompressionRoundTrip) {
  TempDir dir;
  const PrecompiledCircuit c = sha256_circuit();
  ASSERT_EQ(c.shape.constraints, 512u + 25840u + 2u);  // bits, compression (bellperson), two packing rows
  ASSERT_EQ(c.shape.inputs, 3u);
  const std::string path = dir.file("sha.cpce");
  io::write_precompiled_circuit(path, c, "sha256-compression");

  io::PrecompiledCircuitHeader h;
  const PrecompiledCircuit back = io::read_precompiled_circuit(path, h);
  expect_same(c, back);
  EXPECT_EQ(h.circuit_id, "sha256-compression");
  EXPECT_EQ(h.prover_constraints(), c.shape.prover_constraints());
  EXPECT_EQ(h.prover_nnz_a(), c.shape.prover_nnz_a());
  EXPECT_EQ(h.popcount_a_aux, c.shape.a_aux.popcount());
  EXPECT_EQ(h.popcount_b_input, c.shape.b_input.popcount());
  EXPECT_EQ(h.popcount_b_aux, c.shape.b_aux.popcount());
  // The matrices as the prover sees them agree too.
  const auto rows = back.with_input_rows();
  EXPECT_EQ(rows.a.rows(), c.shape.prover_constraints());
  EXPECT_EQ(rows.a.nnz(), c.shape.prover_nnz_a());

  const io::PrecompiledCircuitHeader only = io::read_precompiled_circuit_header(path);
  EXPECT_EQ(only.circuit_id, "sha256-compression");
  EXPECT_EQ(only.constraints, c.shape.constraints);
  EXPECT_EQ(only.aux, c.shape.aux);
  EXPECT_EQ(only.nnz_b, c.shape.nnz_b);
}

TEST_F(PrecompiledCircuitFile, RoundTripAndLayout) {
  expect_same(circuit, io::read_precompiled_circuit(path));
  // ONE + 2 inputs, 5 aux, 4 rows; A: 2 + 2 + 0 + 1 terms; a4 in no A or B row.
  const io::PrecompiledCircuitHeader h = io::read_precompiled_circuit_header(path);
  EXPECT_EQ(h.circuit_id, "test-small");
  EXPECT_EQ(h.inputs, 3u);
  EXPECT_EQ(h.aux, 5u);
  EXPECT_EQ(h.constraints, 4u);
  EXPECT_EQ(h.nnz_a, 5u);
  EXPECT_EQ(h.nnz_b, 4u);
  EXPECT_EQ(h.nnz_c, 5u);
  EXPECT_EQ(h.popcount_a_aux, 2u);    // a0, a3 (ONE and x are inputs)
  EXPECT_EQ(h.popcount_b_input, 2u);  // ONE, y
  EXPECT_EQ(h.popcount_b_aux, 2u);    // a1, a2
  EXPECT_EQ(std::string(good.begin(), good.begin() + 4), "cpce");
  EXPECT_EQ(good[4], 1u);  // version
  EXPECT_EQ(secs.size(), 7u);
  EXPECT_EQ(secs.at(kA).size, 8u * 5 + 36u * 5);
  EXPECT_EQ(secs.at(kBInput).size, 16u);
  // Values are the Montgomery limbs as Fr holds them.
  const Fr two = Fr::from_u64(2);
  EXPECT_EQ(std::memcmp(good.data() + at(kA, vals_rel(5) + 32), two.l, 32), 0);
}

TEST_F(PrecompiledCircuitFile, EveryTruncationIsRejected) {
  const std::string cut = dir.file("cut.cpce");
  for (std::size_t len = 0; len < good.size(); ++len) {
    write_bytes(cut, Bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(len)));
    const std::string msg = format_error_of([&] { io::read_precompiled_circuit(cut); });
    ASSERT_FALSE(msg.empty()) << "a prefix of " << len << " of " << good.size() << " bytes was accepted";
  }
}

// Each section one element short (its size field patched to match): the section's size check names it.
TEST_F(PrecompiledCircuitFile, EverySectionShortIsRejected) {
  for (std::uint32_t id = kHeader; id <= kBAux; ++id) {
    const std::size_t drop = id == kHeader ? 1 : id <= kC ? 36 : 8;
    Bytes b = good;
    const std::size_t end = secs.at(id).offset + secs.at(id).size;
    b.erase(b.begin() + static_cast<std::ptrdiff_t>(end - drop),
            b.begin() + static_cast<std::ptrdiff_t>(end));
    put_u64(b, size_field_of(good, id), secs.at(id).size - drop);
    const FormatError e = error_of(dir, b);
    EXPECT_EQ(e.section(), id) << e.what();
    EXPECT_NE(std::string(e.what()).find(id == kHeader ? "truncated" : "section size is"), std::string::npos)
        << e.what();
    // The header-only read checks the sizes too.
    write_bytes(dir.file("short.cpce"), b);
    EXPECT_FORMAT_ERROR(io::read_precompiled_circuit_header(dir.file("short.cpce")), "section");
  }
}

TEST_F(PrecompiledCircuitFile, ContainerErrors) {
  Bytes b = good;
  std::memcpy(b.data(), "r1cs", 4);
  EXPECT_NE(std::string(error_of(dir, b).what()).find("magic is \"r1cs\", expected \"cpce\""),
            std::string::npos);
  b = good;
  put_u32(b, 4, 2);
  EXPECT_NE(std::string(error_of(dir, b).what()).find("unsupported .cpce version 2"), std::string::npos);
  b = good;
  put_u32(b, secs.at(kBAux).offset - 12, 9);  // section 7 renamed: missing
  EXPECT_NE(std::string(error_of(dir, b).what()).find("missing section 7 (density b_aux)"),
            std::string::npos);
}

TEST_F(PrecompiledCircuitFile, HeaderErrors) {
  expect_error_at(dir, with_u32(kHeader, kFlags, 0), kHeader, at(kHeader, kFlags), "input rows implied");
  expect_error_at(dir, with_u32(kHeader, kFlags, 3), kHeader, at(kHeader, kFlags), "unknown flag bits");
  expect_error_at(dir, with_u64(kHeader, kInputs, 0), kHeader, at(kHeader, kInputs),
                  "ONE is always an input");
  expect_error_at(dir, with_u64(kHeader, kAux, std::uint64_t{1} << 32), kHeader, at(kHeader, kInputs),
                  "does not fit the u32 columns");
  expect_error_at(dir, with_u64(kHeader, kPopBInput, 4), kHeader, at(kHeader, kPopBInput),
                  "popcount b_input = 4 exceeds nInputs = 3");
  expect_error_at(dir, with_u64(kHeader, kConstraints, UINT64_MAX), kA, at(kA, 0), "overflow");
  expect_error_at(dir, with_u64(kHeader, kNnzA, 6), kA, at(kA, 0), "section size is");
  expect_error_at(dir, with_u32(kHeader, kIdLength, 1000), kHeader, at(kHeader, kIdLength + 4), "truncated");
  // BN254's scalar field instead of BLS12-381's.
  Bytes b = good;
  const auto r = Bn254::Fr::modulus();
  std::memcpy(b.data() + at(kHeader, 4), r.v, 32);
  expect_error_at(dir, b, kHeader, at(kHeader, 4), "BN254");
}

TEST_F(PrecompiledCircuitFile, MatrixErrors) {
  const std::uint64_t nnz_b = circuit.shape.nnz_b;
  expect_error_at(dir, with_u64(kB, 0, 1), kB, at(kB, 0), "rowStart[0] = 1, expected 0");
  expect_error_at(dir, with_u64(kB, 16, 0), kB, at(kB, 16), "rowStart[2] = 0 is below rowStart[1] = 2");
  expect_error_at(dir, with_u64(kB, 32, 3), kB, at(kB, 32), "rowStart[4] = 3, but the header's nnz");
  // Row 1's term (y, B) pointed past the variables: term 2 is in row 1.
  expect_error_at(dir, with_u32(kB, cols_rel() + 4 * 2, 8), kB, at(kB, cols_rel() + 8),
                  "term 2 (row 1): column 8 ≥ nInputs + nAux = 8");
  // Values: r itself (not reduced), and zero (a term that cancelled is never stored).
  Bytes b = good;
  const auto r = Fr::modulus();
  const std::size_t v3 = at(kB, vals_rel(nnz_b) + 32 * 3);
  std::memcpy(b.data() + v3, r.v, 32);
  expect_error_at(dir, b, kB, v3, "term 3 (row 3): value is not reduced");
  b = good;
  std::memset(b.data() + v3, 0, 32);
  expect_error_at(dir, b, kB, v3, "term 3 (row 3): value is zero");
  // A value changed to another reduced one is not a format error: the file still reads.
  b = good;
  b[at(kC, vals_rel(circuit.shape.nnz_c))] ^= 1;
  write_bytes(dir.file("other.cpce"), b);
  EXPECT_NO_THROW(io::read_precompiled_circuit(dir.file("other.cpce")));
}

TEST_F(PrecompiledCircuitFile, DensityErrors) {
  expect_error_at(dir, with_u64(kAAux, 0, 4), kAAux, at(kAAux, 0), "nBits = 4, expected nAux = 5");
  expect_error_at(dir, with_u64(kBInput, 8, 0b1101), kBInput, at(kBInput, 8), "bits past nBits = 3");
  expect_error_at(dir, with_u64(kBAux, 8, 0b00111), kBAux, at(kBAux, 8),
                  "popcount is 3, but the header says 2");
  // A bit moved (popcount kept): the matrix disagrees. b_input {ONE, y} → {ONE, x}: x is in no B row.
  expect_error_at(dir, with_u64(kBInput, 8, 0b011), kBInput, at(kBInput, 8),
                  "bit 1 (column 1) is set, but matrix B has no term in that column");
  // a_aux {a0, a3, …}: a0 cleared and the unused a4 set, the header's popcount kept.
  const std::uint64_t a_aux = circuit.shape.a_aux.words()[0];
  ASSERT_EQ(a_aux, 0b01001u);  // a0, a3
  expect_error_at(dir, with_u64(kAAux, 8, (a_aux & ~1u) | 0b10000), kAAux, at(kAAux, 8),
                  "bit 0 (column 3) is clear, but matrix A has a term in that column");
}

// Random byte corruptions (biased to the header, where the counts live): a FormatError or a file that reads,
// never a crash or another exception.
TEST_F(PrecompiledCircuitFile, RandomCorruptionsAreFormatErrors) {
  std::mt19937_64 rng(29);
  const std::string bad = dir.file("fuzz.cpce");
  for (int it = 0; it < 3000; ++it) {
    Bytes b = good;
    for (int k = 0, flips = 1 + static_cast<int>(rng() % 3); k < flips; ++k) {
      const std::size_t pos = rng() % 2 ? rng() % std::min<std::size_t>(b.size(), 200) : rng() % b.size();
      b[pos] = static_cast<std::uint8_t>(rng());
    }
    write_bytes(bad, b);
    try {
      io::read_precompiled_circuit(bad);
    } catch (const FormatError&) {
    } catch (const std::exception& e) {
      FAIL() << "iteration " << it << ": not a FormatError: " << e.what();
    }
  }
}

TEST(PrecompiledCircuit, WriterRejectsInconsistentCircuits) {
  TempDir dir;
  PrecompiledCircuit c = small_circuit();
  c.shape.nnz_a += 1;
  EXPECT_THROW(io::write_precompiled_circuit(dir.file("x.cpce"), c, "x"), std::invalid_argument);
  c = small_circuit();
  const auto with_rows = c.with_input_rows();
  c.system = with_rows;  // the prover's rows must not be saved
  EXPECT_THROW(io::write_precompiled_circuit(dir.file("x.cpce"), c, "x"), std::invalid_argument);
  EXPECT_FALSE(fs::exists(dir.file("x.cpce")));
  EXPECT_FALSE(fs::exists(dir.file("x.cpce.partial")));
}

}  // namespace
