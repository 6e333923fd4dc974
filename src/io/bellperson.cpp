#include "io/bellperson.hpp"

#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <fstream>
#include <tuple>
#include <utility>
#include <vector>

#include "io/error.hpp"
#include "io/mapped_file.hpp"
#include "io/parallel_decode.hpp"
#include "io/zcash_codec.hpp"

namespace cuzk::io::bellperson {

namespace {

constexpr std::size_t kG1 = zcash::g1_uncompressed_size, kG2 = zcash::g2_uncompressed_size;

class Reader {
 public:
  explicit Reader(const std::string& path) : path_(path), file_(path), bytes_(file_.bytes()) {}

  std::uint32_t u32(const char* what) {
    need(4, what);
    const std::uint8_t* p = bytes_.data() + pos_;
    pos_ += 4;
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
  }

  template <class P>
  P point(const char* what, bool check_subgroup, bool allow_infinity) {
    std::vector<P> v = points<P>(what, 1, check_subgroup, allow_infinity);
    return v[0];
  }

  // `count` points of one vector, decoded in parallel; the first bad one (lowest index) is reported.
  template <class P>
  std::vector<P> points(const char* what, std::size_t count, bool check_subgroup, bool allow_infinity) {
    const std::size_t size = need_points<P>(what, count);
    std::vector<P> out(count);
    decode_at<P>(out, what, pos_, check_subgroup, allow_infinity);
    pos_ += count * size;
    return out;
  }

  // out.size() points of one vector from offset `at` (checked by need_points when it was stepped over).
  template <class P, class Out>
  void decode_at(Out& out, const char* what, std::size_t at, bool check_subgroup,
                 bool allow_infinity) const {
    constexpr std::size_t size = std::is_same_v<P, G1> ? kG1 : kG2;
    const std::uint8_t* base = bytes_.data() + at;
    auto decode = [&](std::size_t i) {
      const std::span<const std::uint8_t> rec(base + i * size, size);
      PointStatus s;
      if constexpr (std::is_same_v<P, G1>)
        s = zcash::decode_g1(rec, out[i], check_subgroup);
      else
        s = zcash::decode_g2(rec, out[i], check_subgroup);
      return s == PointStatus::ok && !allow_infinity && out[i].is_infinity() ? PointStatus::bad_infinity : s;
    };
    if (const std::size_t i = decode_parallel(
            out.size(), [&](std::size_t k) { return decode(k) == PointStatus::ok; }, 1024);
        i < out.size()) {
      const PointStatus s = decode(i);  // again, for what was wrong with it
      const bool inf = s == PointStatus::bad_infinity;
      fail(std::string(what) + "[" + std::to_string(i) + "] at offset " + std::to_string(at + i * size) +
           ": " + (inf ? "the point at infinity is not allowed here" : describe(s)));
    }
    file_.drop(at, out.size() * size);
  }

  // Steps over `count` points of one vector without decoding them; returns where they start. A file too
  // short for them is still an error.
  template <class P>
  std::size_t skip(const char* what, std::size_t count) {
    const std::size_t at = pos_;
    pos_ += count * need_points<P>(what, count);
    return at;
  }

  // Fails unless `count` points of type P remain; returns the size of one.
  template <class P>
  std::size_t need_points(const char* what, std::size_t count) const {
    constexpr std::size_t size = std::is_same_v<P, G1> ? kG1 : kG2;
    if (count > (bytes_.size() - pos_) / size)
      fail("truncated: " + std::string(what) + " has " + std::to_string(count) + " points (" +
           std::to_string(count * size) + " bytes) at offset " + std::to_string(pos_) + ", but only " +
           std::to_string(bytes_.size() - pos_) + " bytes remain");
    return size;
  }

  std::size_t remaining() const { return bytes_.size() - pos_; }
  std::size_t position() const { return pos_; }
  [[noreturn]] void fail(const std::string& what) const { throw FormatError(path_, what); }

 private:
  void need(std::size_t n, const char* what) {
    if (bytes_.size() - pos_ < n)
      fail("truncated at offset " + std::to_string(pos_) + ": " + what + " needs " + std::to_string(n) +
           " bytes, " + std::to_string(bytes_.size() - pos_) + " remain");
  }

  std::string path_;
  MappedFile file_;
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
};

VerifyingKey read_vk_part(Reader& r) {
  VerifyingKey vk;
  // The verifying key is small and decides every proof: always subgroup-checked.
  vk.alpha1 = r.point<G1>("alpha_g1", true, true);
  vk.beta1 = r.point<G1>("beta_g1", true, true);
  vk.beta2 = r.point<G2>("beta_g2", true, true);
  vk.gamma2 = r.point<G2>("gamma_g2", true, true);
  vk.delta1 = r.point<G1>("delta_g1", true, true);
  vk.delta2 = r.point<G2>("delta_g2", true, true);
  const std::uint32_t ic = r.u32("ic_len");
  if (ic == 0) r.fail("ic_len is 0: a key has at least the ONE input");
  vk.ic = r.points<G1>("ic", ic, true, false);
  return vk;
}

void put_u32(std::ofstream& out, std::uint32_t v) {
  const char b[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
  out.write(b, 4);
}

template <class P>
auto encode_uncompressed(const P& p) {
  if constexpr (std::is_same_v<P, G1>)
    return zcash::encode_g1_uncompressed(p);
  else
    return zcash::encode_g2_uncompressed(p);
}

// Points encoded in parallel, a chunk at a time, then written in order: a 32 GiB PoRep key has ~460 M
// points, each leaving Montgomery form on one core before. Chunks of 4,096 points (393 KB of G1): with
// 2^18-point chunks a fresh file was written slower than point by point on this machine's file system
// (K = 20: 1,050 against 580 ms; with 4,096, 235 ms).
template <class P>
void put_points(std::ofstream& out, std::span<const P> v, bool with_count = true) {
  if (with_count) put_u32(out, static_cast<std::uint32_t>(v.size()));
  constexpr std::size_t kSize = std::tuple_size_v<decltype(encode_uncompressed(std::declval<P>()))>;
  constexpr std::size_t kChunk = std::size_t(1) << 12;
  std::vector<std::uint8_t> buffer(std::min(v.size(), kChunk) * kSize);
  for (std::size_t begin = 0; begin < v.size(); begin += kChunk) {
    const std::size_t end = std::min(v.size(), begin + kChunk);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(begin, end, 512), [&](const auto& range) {
      for (std::size_t i = range.begin(); i != range.end(); ++i) {
        const auto e = encode_uncompressed(v[i]);
        std::copy(e.begin(), e.end(), buffer.begin() + static_cast<std::ptrdiff_t>((i - begin) * kSize));
      }
    });
    out.write(reinterpret_cast<const char*>(buffer.data()),
              static_cast<std::streamsize>((end - begin) * kSize));
  }
}

void write_vk_part(std::ofstream& out, const VerifyingKey& vk) {
  const G1 alpha_beta[] = {vk.alpha1, vk.beta1}, delta1[] = {vk.delta1};
  const G2 beta_gamma[] = {vk.beta2, vk.gamma2}, delta2[] = {vk.delta2};
  put_points<G1>(out, alpha_beta, false);
  put_points<G2>(out, beta_gamma, false);
  put_points<G1>(out, delta1, false);
  put_points<G2>(out, delta2, false);
  put_points<G1>(out, vk.ic);
}

std::ofstream open_out(const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw FormatError(path, "cannot open for writing");
  return out;
}

}  // namespace

Params read_params(const std::string& path, bool check_subgroup, bool verifying_only, ArraySource* arrays) {
  Reader r(path);
  Params p;
  p.vk = read_vk_part(r);
  // The counts are read and the points stepped over first: the file's shape is checked before anything is
  // decoded, and every vector's place is known.
  Params::Lengths n;
  n.h = r.u32("h_len");
  if (((std::uint64_t(n.h) + 1) & std::uint64_t(n.h)) != 0)
    r.fail("h_len " + std::to_string(n.h) + " is not 2^k − 1 (the FFT domain minus one)");
  const std::size_t h_at = r.skip<G1>("h", n.h);
  n.l = r.u32("l_len");
  const std::size_t l_at = r.skip<G1>("l", n.l);
  n.a = r.u32("a_len");
  const std::size_t a_at = r.skip<G1>("a", n.a);
  if (n.a < p.vk.ic.size())
    r.fail("a has " + std::to_string(n.a) + " points, fewer than the " + std::to_string(p.vk.ic.size()) +
           " inputs it starts with");
  n.b = r.u32("b_g1_len");
  const std::size_t b1_at = r.skip<G1>("b_g1", n.b);
  const std::uint32_t b2 = r.u32("b_g2_len");
  if (b2 != n.b) r.fail("b_g2_len " + std::to_string(b2) + " differs from b_g1_len " + std::to_string(n.b));
  const std::size_t b2_at = r.skip<G2>("b_g2", b2);
  if (verifying_only) {
    p.lengths_only = n;
    return p;
  }
  // Sizing an array zeroes it on one core; the five at once (47 GB at 32 GiB PoRep, where zeroing them one
  // after another would take longer than decoding them on every core).
  tbb::parallel_invoke([&] { p.h = HostArray<G1>::make(n.h, arrays); },
                       [&] { p.l = HostArray<G1>::make(n.l, arrays); },
                       [&] { p.a = HostArray<G1>::make(n.a, arrays); },
                       [&] { p.b_g1 = HostArray<G1>::make(n.b, arrays); },
                       [&] { p.b_g2 = HostArray<G2>::make(n.b, arrays); });
  r.decode_at<G1>(p.h, "h", h_at, check_subgroup, false);
  r.decode_at<G1>(p.l, "l", l_at, check_subgroup, false);
  r.decode_at<G1>(p.a, "a", a_at, check_subgroup, false);
  r.decode_at<G1>(p.b_g1, "b_g1", b1_at, check_subgroup, false);
  r.decode_at<G2>(p.b_g2, "b_g2", b2_at, check_subgroup, false);
  return p;
}

VerifyingKey read_vk(const std::string& path) {
  Reader r(path);
  return read_vk_part(r);
}

void write_params(const std::string& path, const Params& p) {
  auto out = open_out(path);
  write_vk_part(out, p.vk);
  put_points<G1>(out, p.h);
  put_points<G1>(out, p.l);
  put_points<G1>(out, p.a);
  put_points<G1>(out, p.b_g1);
  put_points<G2>(out, p.b_g2);
  if (!out) throw FormatError(path, "write failed");
}

void write_vk(const std::string& path, const VerifyingKey& vk) {
  auto out = open_out(path);
  write_vk_part(out, vk);
  if (!out) throw FormatError(path, "write failed");
}

std::size_t params_size(const Params& p) {
  return 888 + kG1 * (p.vk.ic.size() + p.h.size() + p.l.size() + p.a.size() + p.b_g1.size()) +
         kG2 * p.b_g2.size();
}

}  // namespace cuzk::io::bellperson
