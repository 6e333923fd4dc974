// bincode 1's `serialize` as filecoin-proofs writes its vanilla proofs (fixed-width little-endian integers,
// u64 lengths before sequences, a u32 variant before an enum's fields), and the one compound type every
// Filecoin vanilla proof carries: storage-proofs-core's MerkleProof.
//
//   MerkleProof: u32 variant (0 single, 1 sub, 2 top), then
//     single: root, leaf, path | sub: base path, sub path, root, leaf | top: base, sub, top paths, root, leaf
//   a path: u64 count of elements, each a u64 count of hashes (32 bytes each) and a u64 index.
//
// Domain values (Sha256Domain, PoseidonDomain) are canonical little-endian field elements. Every failure
// throws the caller's error type (`Error`, constructed from a message) naming the field and its offset.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "filecoin/porep_params.hpp"
#include "filecoin/porep_vanilla.hpp"
#include "filecoin/porep_vanilla_verify.hpp"

namespace cuzk::filecoin::bincode {

template <class Error>
class Reader {
 public:
  // `what` names the proof in messages; it must outlive the reader.
  Reader(std::span<const std::uint8_t> b, const std::string& what) : b_(b), what_(what) {}
  std::uint64_t u64(const char* field) { return le(8, field); }
  std::uint32_t u32(const char* field) { return static_cast<std::uint32_t>(le(4, field)); }
  // A length that must fit in what is left, `min_item` bytes per item at least, and be at most `most`.
  std::uint64_t count(const char* field, std::size_t min_item, std::uint64_t most) {
    const std::size_t at = pos_;
    const std::uint64_t n = u64(field);
    if (n > most || (min_item && n > (b_.size() - pos_) / min_item))
      fail(std::string(field) + ": " + std::to_string(n) +
               " is more than this proof can hold (truncated or damaged)",
           at);
    return n;
  }
  Fr domain(const char* field) {
    const std::size_t at = pos_;
    need(32, field);
    std::array<std::uint8_t, 32> bytes;
    std::memcpy(bytes.data(), b_.data() + pos_, 32);
    pos_ += 32;
    try {
      return fr_from_repr(bytes);
    } catch (const std::invalid_argument&) {
      fail(std::string(field) + " is not a canonical field element", at);
    }
  }
  void end() const {
    if (pos_ != b_.size()) fail(std::to_string(b_.size() - pos_) + " bytes after the proof", pos_);
  }
  [[noreturn]] void fail(const std::string& msg, std::size_t at) const {
    throw Error(what_ + ": " + msg + " (byte " + std::to_string(at) + " of " + std::to_string(b_.size()) +
                ")");
  }
  std::size_t pos() const { return pos_; }
  const std::string& what() const { return what_; }

 private:
  void need(std::size_t n, const char* field) const {
    if (b_.size() - pos_ < n) fail(std::string("truncated in ") + field, pos_);
  }
  std::uint64_t le(std::size_t n, const char* field) {
    need(n, field);
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{b_[pos_ + i]} << (8 * i);
    pos_ += n;
    return v;
  }
  std::span<const std::uint8_t> b_;
  const std::string& what_;
  std::size_t pos_ = 0;
};

class Writer {
 public:
  void u64(std::uint64_t v) { le(v, 8); }
  void u32(std::uint32_t v) { le(v, 4); }
  void domain(const Fr& x) {
    const auto r = fr_to_repr(x);
    out.insert(out.end(), r.begin(), r.end());
  }
  std::vector<std::uint8_t> out;

 private:
  void le(std::uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
};

// The MerkleProof variant of a tree shape: single (base levels only), sub, top. A binary tree D is the
// shape {base 2, no sub, no top}.
inline std::uint32_t merkle_variant(const TreeShape& t) {
  return t.top ? 2 : t.sub ? 1 : 0;
}

// `levels` path elements of arity `arity` appended to `out`, leaf side first; `part` names them.
template <class Error>
void read_path(Reader<Error>& r, unsigned levels, unsigned arity, const char* part, MerklePath& out) {
  const std::size_t at = r.pos();
  const std::uint64_t n = r.count("path length", 16, levels);
  if (n != levels)
    r.fail(std::string(part) + " path of " + std::to_string(n) + " levels, the tree has " +
               std::to_string(levels),
           at);
  for (std::uint64_t l = 0; l < n; ++l) {
    MerklePath::Level level;
    const std::size_t hat = r.pos();
    const std::uint64_t h = r.count("path element hashes", 32, arity);
    if (h + 1 != arity)
      r.fail(std::string(part) + " path level " + std::to_string(l) + " has " + std::to_string(h) +
                 " siblings, arity " + std::to_string(arity) + " needs " + std::to_string(arity - 1),
             hat);
    for (std::uint64_t i = 0; i < h; ++i) level.siblings.push_back(r.domain("path element hash"));
    const std::size_t iat = r.pos();
    const std::uint64_t index = r.u64("path element index");
    if (index >= arity)
      r.fail(std::string(part) + " path level " + std::to_string(l) + ": index " + std::to_string(index) +
                 " ≥ arity " + std::to_string(arity),
             iat);
    level.index = static_cast<std::uint32_t>(index);
    out.levels.push_back(std::move(level));
  }
}

inline void write_path(Writer& w, const MerklePath& p, std::size_t from, std::size_t count) {
  w.u64(count);
  for (std::size_t l = from; l < from + count; ++l) {
    w.u64(p.levels[l].siblings.size());
    for (const Fr& h : p.levels[l].siblings) w.domain(h);
    w.u64(p.levels[l].index);
  }
}

struct MerkleProofValues {
  Fr root, leaf;
  MerklePath path;
};

// One MerkleProof of a tree of shape `t` (its variant must be the shape's); `tree` names the tree.
template <class Error>
MerkleProofValues read_merkle_proof(Reader<Error>& r, const TreeShape& t, const std::string& tree) {
  const std::size_t at = r.pos();
  const std::uint32_t variant = r.u32("MerkleProof variant");
  if (variant > 2) r.fail("unknown MerkleProof variant " + std::to_string(variant), at);
  if (variant != merkle_variant(t))
    r.fail("MerkleProof variant " + std::to_string(variant) + " for " + tree + ", whose shape needs " +
               std::to_string(merkle_variant(t)),
           at);
  MerkleProofValues p;
  if (variant == 0) {
    p.root = r.domain("root");
    p.leaf = r.domain("leaf");
    read_path(r, t.base_levels, t.base, "base", p.path);
  } else {
    read_path(r, t.base_levels, t.base, "base", p.path);
    read_path(r, 1, t.sub, "sub", p.path);
    if (variant == 2) read_path(r, 1, t.top, "top", p.path);
    p.root = r.domain("root");
    p.leaf = r.domain("leaf");
  }
  return p;
}

inline void write_merkle_proof(Writer& w, const TreeShape& t, const Fr& root, const Fr& leaf,
                               const MerklePath& path) {
  const std::uint32_t variant = merkle_variant(t);
  w.u32(variant);
  if (variant == 0) {
    w.domain(root);
    w.domain(leaf);
    write_path(w, path, 0, t.base_levels);
  } else {
    write_path(w, path, 0, t.base_levels);
    write_path(w, path, t.base_levels, 1);
    if (variant == 2) write_path(w, path, t.base_levels + 1, 1);
    w.domain(root);
    w.domain(leaf);
  }
}

// The node a path's indices give (mixed radix, leaf side first).
inline std::uint64_t path_leaf_index(std::span<const unsigned> arities, const MerklePath& path) {
  std::uint64_t index = 0, scale = 1;
  for (std::size_t l = 0; l < path.levels.size() && l < arities.size(); ++l) {
    index += scale * path.levels[l].index;
    scale *= arities[l];
  }
  return index;
}

}  // namespace cuzk::filecoin::bincode
