#include "io/bellperson_assignment.hpp"

#include <tbb/parallel_invoke.h>

#include <cstring>
#include <fstream>

#include "io/error.hpp"
#include "io/mapped_file.hpp"
#include "io/parallel_decode.hpp"

namespace cuzk::io::bellperson_assignment {

namespace {

using groth16::bellperson::Assignment;
using groth16::bellperson::Density;
using groth16::bellperson::Fr;

constexpr std::size_t kHeaderBytes = 4 + 4 + 3 * 8;

std::uint64_t words(std::uint64_t bits) {
  return (bits + 63) / 64;
}

Header parse_header(std::span<const std::uint8_t> b, const std::string& name) {
  if (b.size() < kHeaderBytes || std::memcmp(b.data(), "CZKA", 4) != 0)
    throw FormatError(name, "not a binary bellperson assignment (magic \"CZKA\")");
  std::uint32_t version = 0;
  std::memcpy(&version, b.data() + 4, 4);
  if (version != 1) throw FormatError(name, "version " + std::to_string(version) + " (expected 1)");
  Header h;
  std::memcpy(&h.abc_size, b.data() + 8, 8);
  std::memcpy(&h.inputs_size, b.data() + 16, 8);
  std::memcpy(&h.aux_size, b.data() + 24, 8);
  const std::uint64_t limit = std::uint64_t{1} << 40;  // sizes beyond any circuit: a corrupt header
  if (h.abc_size > limit || h.inputs_size > limit || h.aux_size > limit)
    throw FormatError(name, "implausible sizes in the header");
  const std::uint64_t want = kHeaderBytes + 32 * (3 * h.abc_size + h.inputs_size + h.aux_size) +
                             8 * (2 * words(h.aux_size) + words(h.inputs_size));
  if (b.size() != want)
    throw FormatError(name,
                      std::to_string(b.size()) + " bytes, but its header implies " + std::to_string(want));
  return h;
}

// `file`, when the bytes are its mapping: each vector's pages are dropped once it is decoded.
Assignment parse(std::span<const std::uint8_t> b, const std::string& name, const MappedFile* file = nullptr,
                 const Lend& lend = {}) {
  const Header h = parse_header(b, name);
  std::size_t at = kHeaderBytes;
  // In parallel: a PoRep partition's assignment is 17 GB, 530 M values.
  auto scalars = [&](std::span<Fr> v, const char* what) {
    const std::uint64_t n = v.size();
    const std::uint8_t* base = b.data() + at;
    const std::uint64_t bad = decode_parallel(n, [&](std::uint64_t i) {
      ff::BigInt<4> raw;
      std::memcpy(raw.v, base + 32 * i, 32);
      if (!ff::bigint_less(raw, Fr::modulus())) return false;
      v[i] = Fr::from_raw(raw);
      return true;
    });
    if (bad < n)
      throw FormatError(name, std::string(what) + "[" + std::to_string(bad) + "] is not reduced (≥ r)");
    if (file) file->drop(at, 32 * n);
    at += 32 * n;
  };
  auto density = [&](std::uint64_t bits) {
    Density d = Density::of_size(bits);
    std::memcpy(d.words.data(), b.data() + at, 8 * d.words.size());
    at += 8 * d.words.size();
    if (bits % 64) d.words.back() &= (std::uint64_t{1} << (bits % 64)) - 1;
    return d;
  };
  Assignment w;
  auto borrow = [&](Part part, std::uint64_t count) -> std::optional<LentMemory> {
    if (!lend || count == 0) return std::nullopt;
    auto lent = lend(part, count);
    if (lent && lent->values.size() < count) lent.reset();
    return lent;
  };
  // Lent memory is decoded in place: nothing to zero first.
  if (auto lent = borrow(Part::kAbc, 3 * h.abc_size)) {
    const std::size_t n = h.abc_size;
    w.a = groth16::Column<Fr>(lent->values.subspan(0, n), lent->owner);
    w.b = groth16::Column<Fr>(lent->values.subspan(n, n), lent->owner);
    w.c = groth16::Column<Fr>(lent->values.subspan(2 * n, n), std::move(lent->owner));
  }
  if (auto lent = borrow(Part::kAux, h.aux_size))
    w.aux = groth16::Column<Fr>(lent->values.first(h.aux_size), std::move(lent->owner));
  // Sizing a vector zeroes it on one core; the big four at once (17 GB at 32 GiB PoRep, where zeroing them
  // one after another would take longer than decoding them on every core).
  auto own = [](groth16::Column<Fr>& column, std::size_t n) {
    if (!column.borrowed()) column = std::vector<Fr>(n);
  };
  tbb::parallel_invoke([&] { own(w.a, h.abc_size); }, [&] { own(w.b, h.abc_size); },
                       [&] { own(w.c, h.abc_size); }, [&] { own(w.aux, h.aux_size); });
  w.inputs.resize(h.inputs_size);
  scalars(w.a, "a");
  scalars(w.b, "b");
  scalars(w.c, "c");
  scalars(w.inputs, "inputs");
  scalars(w.aux, "aux");
  w.a_aux = density(h.aux_size);
  w.b_inputs = density(h.inputs_size);
  w.b_aux = density(h.aux_size);
  return w;
}

}  // namespace

Assignment read(const std::string& path, const Lend& lend) {
  const MappedFile f(path);
  return parse(f.bytes(), path, &f, lend);
}

Assignment read_bytes(std::vector<std::uint8_t> bytes, const std::string& name) {
  return parse(bytes, name);
}

Header peek(const std::string& path) {
  const MappedFile f(path);
  return parse_header(f.bytes(), path);
}

void write(const std::string& path, const Assignment& w) {
  std::ofstream out(path, std::ios::binary);
  const std::uint32_t version = 1;
  const std::uint64_t n[3] = {w.a.size(), w.inputs.size(), w.aux.size()};
  out.write("CZKA", 4);
  out.write(reinterpret_cast<const char*>(&version), 4);
  out.write(reinterpret_cast<const char*>(n), sizeof n);
  for (const std::span<const Fr> v :
       {std::span<const Fr>(w.a), std::span<const Fr>(w.b), std::span<const Fr>(w.c),
        std::span<const Fr>(w.inputs), std::span<const Fr>(w.aux)})
    out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size_bytes()));
  for (const auto* d : {&w.a_aux, &w.b_inputs, &w.b_aux})
    out.write(reinterpret_cast<const char*>(d->words.data()),
              static_cast<std::streamsize>(d->words.size() * 8));
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace cuzk::io::bellperson_assignment
