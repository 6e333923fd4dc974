#include "io/precompiled_circuit.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "io/binfile.hpp"
#include "io/binwriter.hpp"
#include "io/checked_math.hpp"
#include "io/curve_id.hpp"
#include "io/parallel_decode.hpp"

namespace cuzk::io {

namespace {

using gadgets::Fr;

// Values go to and from the file as the bytes Fr holds (Montgomery limbs): no conversion per term.
static_assert(std::is_trivially_copyable_v<Fr> && sizeof(Fr) == 32, "Fr must be 32 bytes of limbs");

constexpr std::uint32_t kPrecompiledVersion = 1;
constexpr std::uint32_t kInputRowsImplied = 1;  // flags bit 0
constexpr std::uint32_t kSections = 7;

struct MatrixSection {
  std::uint32_t id;
  const char* name;
};
constexpr MatrixSection kMatrices[3] = {{2, "matrix A"}, {3, "matrix B"}, {4, "matrix C"}};
struct BitmapSection {
  std::uint32_t id;
  const char* name;
  const char* bitmap;        // its name in the header's popcount fields
  const char* length_field;  // what nBits must equal
};
constexpr BitmapSection kBitmaps[3] = {{5, "density a_aux", "a_aux", "nAux"},
                                       {6, "density b_input", "b_input", "nInputs"},
                                       {7, "density b_aux", "b_aux", "nAux"}};

std::uint64_t words_for(std::uint64_t bits) {
  return bits / 64 + (bits % 64 != 0);
}

// The high bits of the last word past `bits`.
std::uint64_t unused_mask(std::uint64_t bits) {
  return bits % 64 ? ~std::uint64_t{0} << (bits % 64) : 0;
}

std::uint64_t nnz_of(const PrecompiledCircuitHeader& h, int m) {
  return m == 0 ? h.nnz_a : m == 1 ? h.nnz_b : h.nnz_c;
}
std::uint64_t bits_of(const PrecompiledCircuitHeader& h, int b) {
  return b == 1 ? h.inputs : h.aux;
}
std::uint64_t popcount_of(const PrecompiledCircuitHeader& h, int b) {
  return b == 0 ? h.popcount_a_aux : b == 1 ? h.popcount_b_input : h.popcount_b_aux;
}

// ---- writing ---------------------------------------------------------------------------------------------

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("write_precompiled_circuit: " + what);
}

void check_writable(const gadgets::PrecompiledCircuit& c) {
  const gadgets::Shape& s = c.shape;
  require(s.first_input == 0 && s.first_aux == 0, "a part of a circuit cannot be saved, only a whole one");
  require(s.inputs >= 1, "the shape has no inputs (ONE is always one)");
  require(s.inputs + s.aux == c.system.n_vars && s.inputs - 1 == c.system.n_public,
          "the shape's variable counts disagree with the matrices' n_vars / n_public");
  const r1cs::Csr<Fr>* ms[3] = {&c.system.a, &c.system.b, &c.system.c};
  const std::uint64_t nnz[3] = {s.nnz_a, s.nnz_b, s.nnz_c};
  for (int m = 0; m < 3; ++m) {
    const auto& x = *ms[m];
    require(!x.row_start.empty() && x.rows() == s.constraints,
            std::string(kMatrices[m].name) + " has " + std::to_string(x.row_start.size() - 1) +
                " rows, the shape " + std::to_string(s.constraints) +
                " (the prover's input rows must not be included)");
    require(x.col.size() == nnz[m] && x.val.size() == nnz[m] && x.row_start.back() == nnz[m],
            std::string(kMatrices[m].name) + " has " + std::to_string(x.col.size()) + " terms, the shape " +
                std::to_string(nnz[m]));
  }
  require(s.a_aux.size() == s.aux && s.b_aux.size() == s.aux && s.b_input.size() == s.inputs,
          "the density bitmaps' lengths disagree with the variable counts");
}

// The bitmap's words with any bits past its length cleared, so the file's popcount is the bitmap's.
std::vector<std::uint64_t> clean_words(const gadgets::Bitmap& b) {
  std::vector<std::uint64_t> w = b.words();
  w.resize(words_for(b.size()));
  if (!w.empty()) w.back() &= ~unused_mask(b.size());
  return w;
}

std::uint64_t popcount(const std::vector<std::uint64_t>& words) {
  std::uint64_t n = 0;
  for (std::uint64_t w : words) n += static_cast<std::uint64_t>(std::popcount(w));
  return n;
}

// ---- reading ---------------------------------------------------------------------------------------------

PrecompiledCircuitHeader parse_header(const BinFile& f) {
  f.require_version(kPrecompiledVersion);
  Cursor c = f.section(1, "header");
  const std::uint64_t prime_at = c.offset() + 4;  // past n8
  if (read_prime_field(c, PrimeKind::scalar, "r") != CurveId::bls12_381)
    c.fail_at(prime_at, "the circuit is over BN254's scalar field; pre-compiled circuits are BLS12-381");
  const std::uint64_t flags_at = c.offset();
  const std::uint32_t flags = c.u32("flags");
  if (flags & ~kInputRowsImplied)
    c.fail_at(flags_at,
              "unknown flag bits in flags = " + std::to_string(flags) + " (version 1 uses bit 0 only)");
  if (!(flags & kInputRowsImplied))
    c.fail_at(flags_at,
              "flags bit 0 (input rows implied) is clear: version 1 never stores the prover's input rows");
  PrecompiledCircuitHeader h;
  const std::uint64_t inputs_at = c.offset();
  h.inputs = c.u64("nInputs");
  h.aux = c.u64("nAux");
  h.constraints = c.u64("nConstraints");
  h.nnz_a = c.u64("nnzA");
  h.nnz_b = c.u64("nnzB");
  h.nnz_c = c.u64("nnzC");
  const std::uint64_t pop_at = c.offset();
  h.popcount_a_aux = c.u64("popcount a_aux");
  h.popcount_b_input = c.u64("popcount b_input");
  h.popcount_b_aux = c.u64("popcount b_aux");
  const std::uint32_t id_len = c.u32("idLength");
  const std::uint8_t* id = c.take(id_len, "circuit id");
  h.circuit_id.assign(reinterpret_cast<const char*>(id), id_len);
  c.require_end();

  if (h.inputs == 0) c.fail_at(inputs_at, "nInputs is 0, but ONE is always an input");
  // Columns are u32 (r1cs::Csr), so the variables must be numbered below 2^32.
  const auto vars = checked_add(h.inputs, h.aux);
  if (!vars || *vars > UINT32_MAX)
    c.fail_at(inputs_at, "nInputs + nAux = " + std::to_string(h.inputs) + " + " + std::to_string(h.aux) +
                             " does not fit the u32 columns");
  for (int b = 0; b < 3; ++b)
    if (popcount_of(h, b) > bits_of(h, b))
      c.fail_at(pop_at + 8 * b, std::string("popcount ") + kBitmaps[b].bitmap + " = " +
                                    std::to_string(popcount_of(h, b)) + " exceeds " +
                                    kBitmaps[b].length_field + " = " + std::to_string(bits_of(h, b)));
  return h;
}

// Sections 2–7 exist and have the sizes the header implies (which also bounds every allocation below by
// the file's size).
void check_sizes(const BinFile& f, const PrecompiledCircuitHeader& h) {
  for (int m = 0; m < 3; ++m) {
    const Cursor c = f.section(kMatrices[m].id, kMatrices[m].name);
    const std::uint64_t nnz = nnz_of(h, m);
    const auto row_starts = checked_add(h.constraints, 1);
    const auto rows = row_starts ? checked_mul(*row_starts, 8) : std::nullopt;
    const auto terms = checked_mul(nnz, 4 + sizeof(Fr));
    const auto total = rows && terms ? checked_add(*rows, *terms) : std::nullopt;
    const std::string how = "(nConstraints + 1) × 8 + nnz × 36 = (" + std::to_string(h.constraints) +
                            " + 1) × 8 + " + std::to_string(nnz) + " × 36";
    if (!total)
      c.fail_at(c.offset_of(0), "section size " + std::to_string(c.size()) + " cannot be " + how +
                                    ": the header's counts overflow");
    c.require_size(*total, how);
  }
  for (int b = 0; b < 3; ++b) {
    const Cursor c = f.section(kBitmaps[b].id, kBitmaps[b].name);
    const std::uint64_t bits = bits_of(h, b);
    c.require_size(8 + 8 * words_for(bits), std::string("8 + ⌈") + kBitmaps[b].length_field +
                                                " / 64⌉ × 8 = 8 + ⌈" + std::to_string(bits) + " / 64⌉ × 8");
  }
}

// The row holding term k of m (row_start already checked).
std::uint64_t row_of(const r1cs::Csr<Fr>& m, std::uint64_t k) {
  return static_cast<std::uint64_t>(std::upper_bound(m.row_start.begin(), m.row_start.end(), k) -
                                    m.row_start.begin()) -
         1;
}

r1cs::Csr<Fr> read_matrix(const BinFile& f, int which, const PrecompiledCircuitHeader& h) {
  Cursor c = f.section(kMatrices[which].id, kMatrices[which].name);
  const std::uint64_t rows = h.constraints, nnz = nnz_of(h, which), n_vars = h.inputs + h.aux;
  r1cs::Csr<Fr> m;

  const std::uint64_t rs_at = c.offset();
  m.row_start.resize(rows + 1);
  std::memcpy(m.row_start.data(), c.take(8 * (rows + 1), "rowStart"), 8 * (rows + 1));
  if (m.row_start[0] != 0)
    c.fail_at(rs_at, "rowStart[0] = " + std::to_string(m.row_start[0]) + ", expected 0");
  const std::uint64_t bad_row =
      decode_parallel(rows, [&](std::uint64_t r) { return m.row_start[r] <= m.row_start[r + 1]; });
  if (bad_row < rows)
    c.fail_at(rs_at + 8 * (bad_row + 1),
              "rowStart[" + std::to_string(bad_row + 1) + "] = " + std::to_string(m.row_start[bad_row + 1]) +
                  " is below rowStart[" + std::to_string(bad_row) +
                  "] = " + std::to_string(m.row_start[bad_row]) + ": row starts must not decrease");
  if (m.row_start[rows] != nnz)
    c.fail_at(rs_at + 8 * rows, "rowStart[" + std::to_string(rows) +
                                    "] = " + std::to_string(m.row_start[rows]) +
                                    ", but the header's nnz for this matrix is " + std::to_string(nnz));

  const std::uint64_t col_at = c.offset();
  m.col.resize(nnz);
  std::memcpy(m.col.data(), c.take(4 * nnz, "col"), 4 * nnz);
  const std::uint64_t bad_col = decode_parallel(nnz, [&](std::uint64_t k) { return m.col[k] < n_vars; });
  if (bad_col < nnz)
    c.fail_at(col_at + 4 * bad_col, "term " + std::to_string(bad_col) + " (row " +
                                        std::to_string(row_of(m, bad_col)) + "): column " +
                                        std::to_string(m.col[bad_col]) +
                                        " ≥ nInputs + nAux = " + std::to_string(n_vars));

  const std::uint64_t val_at = c.offset();
  m.val.resize(nnz);
  std::memcpy(static_cast<void*>(m.val.data()), c.take(sizeof(Fr) * nnz, "val"), sizeof(Fr) * nnz);
  const std::uint64_t bad_val =
      decode_parallel(nnz, [&](std::uint64_t k) { return m.val[k].is_reduced() && !m.val[k].is_zero(); });
  if (bad_val < nnz)
    c.fail_at(val_at + sizeof(Fr) * bad_val,
              "term " + std::to_string(bad_val) + " (row " + std::to_string(row_of(m, bad_val)) +
                  "): value " +
                  (m.val[bad_val].is_zero() ? std::string("is zero (a term that cancelled is never stored)")
                                            : std::string("is not reduced (≥ r)")));
  c.require_end();
  return m;
}

// Reads one bitmap section; `implied` is the bitmap the matrices give (the same length).
gadgets::Bitmap read_bitmap(const BinFile& f, int which, const PrecompiledCircuitHeader& h,
                            const std::vector<std::uint64_t>& implied, const char* matrix) {
  const BitmapSection& s = kBitmaps[which];
  Cursor c = f.section(s.id, s.name);
  const std::uint64_t expected_bits = bits_of(h, which);
  const std::uint64_t bits_at = c.offset();
  const std::uint64_t bits = c.u64("nBits");
  if (bits != expected_bits)
    c.fail_at(bits_at, "nBits = " + std::to_string(bits) + ", expected " + s.length_field + " = " +
                           std::to_string(expected_bits));
  const std::uint64_t n_words = words_for(bits);
  const std::uint64_t words_at = c.offset();
  std::vector<std::uint64_t> words(n_words);
  std::memcpy(words.data(), c.take(8 * n_words, "words"), 8 * n_words);
  c.require_end();
  if (n_words && (words.back() & unused_mask(bits)))
    c.fail_at(words_at + 8 * (n_words - 1),
              "bits past nBits = " + std::to_string(bits) + " are set in the last word");
  if (const std::uint64_t pop = popcount(words); pop != popcount_of(h, which))
    c.fail_at(words_at, "popcount is " + std::to_string(pop) + ", but the header says " +
                            std::to_string(popcount_of(h, which)));
  for (std::uint64_t w = 0; w < n_words; ++w) {
    if (words[w] == implied[w]) continue;
    const std::uint64_t diff = words[w] ^ implied[w];
    const std::uint64_t bit = 64 * w + static_cast<std::uint64_t>(std::countr_zero(diff));
    const std::uint64_t column = which == 1 ? bit : h.inputs + bit;
    c.fail_at(words_at + 8 * w,
              "bit " + std::to_string(bit) + " (column " + std::to_string(column) + ") is " +
                  ((words[w] >> (bit % 64)) & 1
                       ? std::string("set, but ") + matrix + " has no term in that column"
                       : std::string("clear, but ") + matrix + " has a term in that column"));
  }
  gadgets::Bitmap out;
  out.resize(bits);
  for (std::uint64_t w = 0; w < n_words; ++w)
    for (std::uint64_t x = words[w]; x; x &= x - 1)
      out.set(64 * w + static_cast<std::uint64_t>(std::countr_zero(x)));
  return out;
}

// The density bitmap a matrix implies: bit i set when column first + i (first ≤ column < first + bits) has a
// term (zero values are rejected, so every stored term counts, as bellperson's eval_with_trackers counts).
std::vector<std::uint64_t> implied_bits(const r1cs::Csr<Fr>& m, std::uint64_t first, std::uint64_t bits) {
  std::vector<std::uint64_t> words(words_for(bits), 0);
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, m.col.size(), 1 << 16), [&](const auto& range) {
    for (std::uint64_t k = range.begin(); k != range.end(); ++k) {
      const std::uint64_t col = m.col[k];
      if (col < first || col - first >= bits) continue;
      const std::uint64_t i = col - first, mask = std::uint64_t{1} << (i % 64);
      std::atomic_ref<std::uint64_t> word(words[i / 64]);
      if (!(word.load(std::memory_order_relaxed) & mask)) word.fetch_or(mask, std::memory_order_relaxed);
    }
  });
  return words;
}

}  // namespace

void write_precompiled_circuit(const std::string& path, const gadgets::PrecompiledCircuit& circuit,
                               const std::string& circuit_id) {
  check_writable(circuit);
  require(circuit_id.size() <= UINT32_MAX, "circuit id too long");
  const gadgets::Shape& s = circuit.shape;
  const std::vector<std::uint64_t> bitmaps[3] = {clean_words(s.a_aux), clean_words(s.b_input),
                                                 clean_words(s.b_aux)};
  BinWriter w(path, "cpce", kPrecompiledVersion, kSections);

  w.begin_section(1);
  const auto r = Fr::modulus();
  w.u32(static_cast<std::uint32_t>(Fr::bytes()));
  w.bytes(r.v, Fr::bytes());
  w.u32(kInputRowsImplied);
  for (std::uint64_t v : {s.inputs, s.aux, s.constraints, s.nnz_a, s.nnz_b, s.nnz_c}) w.u64(v);
  for (const auto& b : bitmaps) w.u64(popcount(b));
  w.u32(static_cast<std::uint32_t>(circuit_id.size()));
  w.bytes(circuit_id.data(), circuit_id.size());
  w.end_section();

  const r1cs::Csr<Fr>* ms[3] = {&circuit.system.a, &circuit.system.b, &circuit.system.c};
  for (int m = 0; m < 3; ++m) {
    w.begin_section(kMatrices[m].id);
    w.bytes(ms[m]->row_start.data(), 8 * ms[m]->row_start.size());
    w.bytes(ms[m]->col.data(), 4 * ms[m]->col.size());
    w.bytes(ms[m]->val.data(), sizeof(Fr) * ms[m]->val.size());
    w.end_section();
  }
  const std::uint64_t lengths[3] = {s.aux, s.inputs, s.aux};
  for (int b = 0; b < 3; ++b) {
    w.begin_section(kBitmaps[b].id);
    w.u64(lengths[b]);
    w.bytes(bitmaps[b].data(), 8 * bitmaps[b].size());
    w.end_section();
  }
  w.finish();
}

PrecompiledCircuitHeader read_precompiled_circuit_header(const std::string& path) {
  const BinFile f(path, "cpce");
  PrecompiledCircuitHeader h = parse_header(f);
  check_sizes(f, h);
  return h;
}

gadgets::PrecompiledCircuit read_precompiled_circuit(const std::string& path,
                                                     PrecompiledCircuitHeader& header) {
  const BinFile f(path, "cpce");
  const PrecompiledCircuitHeader h = parse_header(f);
  check_sizes(f, h);

  gadgets::PrecompiledCircuit out;
  out.system.n_vars = static_cast<std::uint32_t>(h.inputs + h.aux);
  out.system.n_public = static_cast<std::uint32_t>(h.inputs - 1);
  out.system.a = read_matrix(f, 0, h);
  out.system.b = read_matrix(f, 1, h);
  out.system.c = read_matrix(f, 2, h);

  gadgets::Shape& s = out.shape;
  s.inputs = h.inputs, s.aux = h.aux, s.constraints = h.constraints;
  s.nnz_a = h.nnz_a, s.nnz_b = h.nnz_b, s.nnz_c = h.nnz_c;
  s.a_aux = read_bitmap(f, 0, h, implied_bits(out.system.a, h.inputs, h.aux), "matrix A");
  s.b_input = read_bitmap(f, 1, h, implied_bits(out.system.b, 0, h.inputs), "matrix B");
  s.b_aux = read_bitmap(f, 2, h, implied_bits(out.system.b, h.inputs, h.aux), "matrix B");
  header = h;
  return out;
}

gadgets::PrecompiledCircuit read_precompiled_circuit(const std::string& path) {
  PrecompiledCircuitHeader ignored;
  return read_precompiled_circuit(path, ignored);
}

}  // namespace cuzk::io
