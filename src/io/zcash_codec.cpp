#include "io/zcash_codec.hpp"

#include <algorithm>
#include <type_traits>

#include "ec/scalar_mul.hpp"
#include "ff/encoding.hpp"

namespace cuzk::io::zcash {

namespace {

using Fq = Bls12_381::Fq;
using Fq2 = Bls12_381::Fq2;

constexpr std::uint8_t kCompressed = 0x80, kInfinity = 0x40, kSort = 0x20, kFlagMask = 0xe0;
constexpr std::size_t kFq = 48;

// Coordinates, big-endian; Fp2 as c1‖c0.
void put(const Fq& x, std::uint8_t* out) {
  ff::to_bytes_be(x, out, kFq);
}
void put(const Fq2& x, std::uint8_t* out) {
  put(x.c1, out);
  put(x.c0, out + kFq);
}
bool get(const std::uint8_t* in, Fq& x) {
  auto v = ff::from_bytes_be<Fq>(in, kFq);
  if (!v) return false;
  x = *v;
  return true;
}
bool get(const std::uint8_t* in, Fq2& x) {
  return get(in, x.c1) && get(in + kFq, x.c0);
}

template <class F>
constexpr std::size_t coord_size() {
  return std::is_same_v<F, Fq> ? kFq : 2 * kFq;
}

template <class C>
auto encode_compressed(const ec::Affine<C>& p) {
  std::array<std::uint8_t, coord_size<typename C::F>()> out{};
  if (p.is_infinity()) {
    out[0] = kCompressed | kInfinity;
    return out;
  }
  put(p.x, out.data());
  out[0] |= kCompressed;
  if (lexicographically_largest(p.y)) out[0] |= kSort;
  return out;
}

template <class C>
auto encode_uncompressed(const ec::Affine<C>& p) {
  constexpr std::size_t n = coord_size<typename C::F>();
  std::array<std::uint8_t, 2 * n> out{};
  if (p.is_infinity()) {
    out[0] = kInfinity;
    return out;
  }
  put(p.x, out.data());
  put(p.y, out.data() + n);
  return out;
}

template <class C>
PointStatus decode(std::span<const std::uint8_t> in, ec::Affine<C>& out, bool check_subgroup) {
  using F = typename C::F;
  using A = ec::Affine<C>;
  constexpr std::size_t n = coord_size<F>();
  const bool compressed_len = in.size() == n;
  if (!compressed_len && in.size() != 2 * n) return PointStatus::bad_length;

  const std::uint8_t flags = in[0] & kFlagMask;
  const bool compressed = flags & kCompressed, infinity = flags & kInfinity, sort = flags & kSort;
  if (compressed != compressed_len) return PointStatus::bad_flags;
  if (infinity) {
    // Canonical infinity: no sort flag and every other bit zero.
    if (sort || !std::all_of(in.begin() + 1, in.end(), [](std::uint8_t b) { return b == 0; }) ||
        (in[0] & ~kFlagMask) != 0)
      return PointStatus::bad_infinity;
    out = A::infinity();
    return PointStatus::ok;
  }
  if (sort && !compressed) return PointStatus::bad_flags;

  std::uint8_t buf[2 * n];
  std::copy(in.begin(), in.end(), buf);
  buf[0] &= static_cast<std::uint8_t>(~kFlagMask);

  A p;
  if (!get(buf, p.x)) return PointStatus::coordinate_not_reduced;
  if (compressed) {
    const F rhs = p.x.sqr() * p.x + C::b();
    F y;
    if (!rhs.sqrt(y) || y.sqr() != rhs) return PointStatus::x_not_on_curve;
    // y = 0 has no distinct negation, so a set sort flag cannot be honoured (encoders never set it).
    if (y.is_zero() && sort) return PointStatus::bad_flags;
    if (lexicographically_largest(y) != sort) y = -y;
    p.y = y;
  } else {
    if (!get(buf + n, p.y)) return PointStatus::coordinate_not_reduced;
    if (!p.on_curve()) return PointStatus::not_on_curve;
  }
  // A finite point that happens to have x = y = 0 would alias our infinity encoding; (0, 0) is not on
  // either curve (b ≠ 0), so the checks above already reject it.
  if (check_subgroup && !ec::in_prime_subgroup(p)) return PointStatus::not_in_subgroup;
  out = p;
  return PointStatus::ok;
}

}  // namespace

bool lexicographically_largest(const Fq& y) {
  constexpr auto half = ff::bigint_shr(ff::bigint_sub_u64(Fq::modulus(), 1), 1);  // (q−1)/2
  return ff::bigint_less(half, y.to_int());
}

bool lexicographically_largest(const Fq2& y) {
  return lexicographically_largest(y.c1) || (y.c1.is_zero() && lexicographically_largest(y.c0));
}

std::array<std::uint8_t, g1_compressed_size> encode_g1_compressed(const G1& p) {
  return encode_compressed(p);
}
std::array<std::uint8_t, g1_uncompressed_size> encode_g1_uncompressed(const G1& p) {
  return encode_uncompressed(p);
}
std::array<std::uint8_t, g2_compressed_size> encode_g2_compressed(const G2& p) {
  return encode_compressed(p);
}
std::array<std::uint8_t, g2_uncompressed_size> encode_g2_uncompressed(const G2& p) {
  return encode_uncompressed(p);
}

PointStatus decode_g1(std::span<const std::uint8_t> in, G1& out, bool check_subgroup) {
  return decode(in, out, check_subgroup);
}
PointStatus decode_g2(std::span<const std::uint8_t> in, G2& out, bool check_subgroup) {
  return decode(in, out, check_subgroup);
}

}  // namespace cuzk::io::zcash
