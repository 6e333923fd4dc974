#include "filecoin/post_vanilla.hpp"

#include <cstring>

#include "filecoin/porep_vanilla_verify.hpp"
#include "filecoin/poseidon.hpp"
#include "filecoin/registered_post_proof.hpp"
#include "filecoin/sha256.hpp"

namespace cuzk::filecoin {

namespace {

// bincode's fixed-width little-endian reads over a byte span, each failure naming the field and offset.
class Reader {
 public:
  Reader(std::span<const std::uint8_t> b, const std::string& what) : b_(b), what_(what) {}
  std::uint64_t u64(const char* field) { return le(8, field); }
  std::uint32_t u32(const char* field) { return static_cast<std::uint32_t>(le(4, field)); }
  // A length that must fit in what is left, `min_item` bytes per item at least.
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
    throw PostVanillaError(what_ + ": " + msg + " (byte " + std::to_string(at) + " of " +
                           std::to_string(b_.size()) + ")");
  }
  std::size_t pos() const { return pos_; }

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

// The MerkleProof variant of a tree shape: single (base levels only), sub, top.
std::uint32_t variant_of(const TreeShape& t) {
  return t.top ? 2 : t.sub ? 1 : 0;
}

// `levels` path elements of arity `arity` into `out`, leaf side first.
void read_path(Reader& r, unsigned levels, unsigned arity, const char* part, MerklePath& out) {
  const std::size_t at = r.pos();
  const std::uint64_t n = r.count("path length", 16, levels);
  if (n != levels)
    r.fail(std::string(part) + " path of " + std::to_string(n) + " levels, the sector's tree has " +
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

void write_path(Writer& w, const MerklePath& p, std::size_t from, std::size_t count) {
  w.u64(count);
  for (std::size_t l = from; l < from + count; ++l) {
    w.u64(p.levels[l].siblings.size());
    for (const Fr& h : p.levels[l].siblings) w.domain(h);
    w.u64(p.levels[l].index);
  }
}

// Root of a path from its leaf (the circuit's computation, outside it).
Fr root_of(const Fr& leaf, const MerklePath& path) {
  Fr cur = leaf;
  for (std::size_t l = 0; l < path.levels.size(); ++l) {
    std::vector<Fr> children(path.levels[l].siblings);
    children.insert(children.begin() + path.levels[l].index, cur);
    cur = tree_poseidon_hash(children);
  }
  return cur;
}

std::uint64_t leaf_index(const TreeShape& shape, const MerklePath& path) {
  const auto arities = tree_arities(shape);
  std::uint64_t index = 0, scale = 1;
  for (std::size_t l = 0; l < path.levels.size(); ++l) {
    index += scale * path.levels[l].index;
    scale *= arities[l];
  }
  return index;
}

}  // namespace

PostVanillaProof decode_post_vanilla_proof(std::span<const std::uint8_t> bytes, const PostParams& params,
                                           const std::string& what) {
  Reader r(bytes, what);
  PostVanillaProof out;
  out.sector_id = r.u64("sector_id");
  out.comm_r = r.domain("comm_r");
  const TreeShape& t = params.tree;
  const std::uint64_t sectors = r.count("sectors", 8 + 64, 1u << 16);
  if (sectors == 0) r.fail("no sector proofs", r.pos());
  for (std::uint64_t s = 0; s < sectors; ++s) {
    PostSectorProof sp;
    std::vector<std::uint64_t> leaves;
    const std::uint64_t proofs = r.count("inclusion_proofs", 4 + 64, 1u << 20);
    std::vector<Fr> roots;
    for (std::uint64_t i = 0; i < proofs; ++i) {
      const std::size_t vat = r.pos();
      const std::uint32_t variant = r.u32("MerkleProof variant");
      if (variant > 2) r.fail("unknown MerkleProof variant " + std::to_string(variant), vat);
      if (variant != variant_of(t))
        r.fail("MerkleProof variant " + std::to_string(variant) + " for a " + params.name +
                   " sector, whose tree needs " + std::to_string(variant_of(t)),
               vat);
      MerklePath path;
      Fr root, leaf;
      if (variant == 0) {
        root = r.domain("root");
        leaf = r.domain("leaf");
        read_path(r, t.base_levels, t.base, "base", path);
      } else {
        read_path(r, t.base_levels, t.base, "base", path);
        read_path(r, 1, t.sub, "sub", path);
        if (variant == 2) read_path(r, 1, t.top, "top", path);
        root = r.domain("root");
        leaf = r.domain("leaf");
      }
      roots.push_back(root);
      sp.leafs.push_back(leaf);
      leaves.push_back(leaf_index(t, path));
      sp.paths.push_back(std::move(path));
    }
    sp.comm_c = r.domain("comm_c");
    sp.comm_r_last = r.domain("comm_r_last");
    sp.comm_r = out.comm_r;
    for (std::size_t i = 0; i < roots.size(); ++i) {
      if (roots[i] != sp.comm_r_last)
        throw PostVanillaError(what + ": sector proof " + std::to_string(s) + ", inclusion proof " +
                               std::to_string(i) + ": its root is not comm_r_last");
      if (root_of(sp.leafs[i], sp.paths[i]) != sp.comm_r_last)
        throw PostVanillaError(what + ": sector proof " + std::to_string(s) + ", inclusion proof " +
                               std::to_string(i) + ": the path does not lead from its leaf to comm_r_last");
    }
    const std::array<Fr, 2> preimage{sp.comm_c, sp.comm_r_last};
    if (poseidon_hash(preimage) != sp.comm_r)
      throw PostVanillaError(what + ": sector proof " + std::to_string(s) +
                             ": comm_r is not Poseidon(comm_c, comm_r_last)");
    out.sectors.push_back(std::move(sp));
    out.challenged_leaves.push_back(std::move(leaves));
  }
  r.end();
  return out;
}

std::vector<std::uint8_t> encode_post_vanilla_proof(const PostVanillaProof& proof, const PostParams& params) {
  const TreeShape& t = params.tree;
  Writer w;
  w.u64(proof.sector_id);
  w.domain(proof.comm_r);
  w.u64(proof.sectors.size());
  for (const PostSectorProof& s : proof.sectors) {
    w.u64(s.paths.size());
    for (std::size_t i = 0; i < s.paths.size(); ++i) {
      const std::uint32_t variant = variant_of(t);
      w.u32(variant);
      if (variant == 0) {
        w.domain(s.comm_r_last);
        w.domain(s.leafs[i]);
        write_path(w, s.paths[i], 0, t.base_levels);
      } else {
        write_path(w, s.paths[i], 0, t.base_levels);
        write_path(w, s.paths[i], t.base_levels, 1);
        if (variant == 2) write_path(w, s.paths[i], t.base_levels + 1, 1);
        w.domain(s.comm_r_last);
        w.domain(s.leafs[i]);
      }
    }
    w.domain(s.comm_c);
    w.domain(s.comm_r_last);
  }
  return std::move(w.out);
}

std::vector<PostSectorProof> post_circuit_sectors(const PostParams& params,
                                                  std::span<const PostVanillaProof> proofs,
                                                  const std::array<std::uint8_t, 32>& randomness,
                                                  ApiVersion version, std::uint64_t partition) {
  const char* kind = params.kind == PostKind::kWindow ? "WindowPoSt" : "WinningPoSt";
  if (proofs.empty()) throw PostVanillaError(std::string(kind) + ": no vanilla proofs");
  // Per sector, its challenges as the chain's randomness gives them.
  const unsigned per_sector = params.kind == PostKind::kWindow ? params.challenges : params.sectors;
  std::uint64_t sector_in_partition = 0;
  for (std::size_t i = 0; i < proofs.size(); ++i)
    for (std::size_t s = 0; s < proofs[i].sectors.size(); ++s, ++sector_in_partition) {
      const auto expected =
          post_challenges(randomness, proofs[i].sector_id, params.nodes, per_sector,
                          post_challenge_index(version, params, partition, sector_in_partition, 0));
      if (proofs[i].challenged_leaves[s] != expected)
        throw PostVanillaError(std::string(kind) + ": vanilla proof " + std::to_string(i) + " (sector " +
                               std::to_string(proofs[i].sector_id) +
                               "): its leaves are not the ones the randomness challenges (" +
                               std::to_string(proofs[i].challenged_leaves[s].size()) + " of " +
                               std::to_string(per_sector) + " expected)");
    }
  std::vector<PostSectorProof> out;
  if (params.kind == PostKind::kWinning) {
    if (proofs.size() != 1 || proofs[0].sectors.size() != 1)
      throw PostVanillaError("WinningPoSt: one vanilla proof of one sector, not " +
                             std::to_string(proofs.size()));
    const PostSectorProof& one = proofs[0].sectors[0];
    for (std::size_t c = 0; c < one.leafs.size(); ++c)
      out.push_back({one.comm_r, one.comm_c, one.comm_r_last, {one.leafs[c]}, {one.paths[c]}});
    return out;
  }
  for (const PostVanillaProof& p : proofs) out.insert(out.end(), p.sectors.begin(), p.sectors.end());
  if (out.size() > params.sectors)
    throw PostVanillaError("WindowPoSt: " + std::to_string(out.size()) + " sector proofs, a " + params.name +
                           " partition holds " + std::to_string(params.sectors));
  while (out.size() < params.sectors) out.push_back(out.back());
  return out;
}

std::vector<Fr> post_public_inputs(const PostParams& params, std::span<const PostVanillaProof> proofs,
                                   const std::array<std::uint8_t, 32>& randomness, ApiVersion version,
                                   std::uint64_t partition) {
  std::vector<Fr> inputs;
  if (params.kind == PostKind::kWinning) {
    for (const PostVanillaProof& p : proofs)
      for (std::uint64_t c : post_challenges(randomness, p.sector_id, params.nodes, params.sectors)) {
        inputs.push_back(p.comm_r);
        inputs.push_back(Fr::from_u64(c));
      }
    return inputs;
  }
  const std::size_t per_sector = 1 + params.challenges;
  std::uint64_t sector = 0;
  for (const PostVanillaProof& p : proofs)
    for (std::size_t s = 0; s < p.sectors.size(); ++s, ++sector) {
      inputs.push_back(p.comm_r);
      for (std::uint64_t c : post_challenges(randomness, p.sector_id, params.nodes, params.challenges,
                                             post_challenge_index(version, params, partition, sector, 0)))
        inputs.push_back(Fr::from_u64(c));
    }
  while (!inputs.empty() && inputs.size() < params.sectors * per_sector)
    inputs.insert(inputs.end(), inputs.end() - static_cast<std::ptrdiff_t>(per_sector), inputs.end());
  return inputs;
}

std::vector<std::uint64_t> post_challenges(const std::array<std::uint8_t, 32>& randomness,
                                           std::uint64_t sector_id, std::uint64_t sector_nodes,
                                           unsigned count, std::uint64_t first) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t i = first; i < first + count; ++i) {
    std::array<std::uint8_t, 48> message{};
    std::memcpy(message.data(), randomness.data(), 32);
    for (unsigned b = 0; b < 8; ++b) {
      message[32 + b] = static_cast<std::uint8_t>(sector_id >> (8 * b));
      message[40 + b] = static_cast<std::uint8_t>(i >> (8 * b));
    }
    const Sha256Digest h = Sha256::hash(message);
    std::uint64_t v = 0;
    for (unsigned b = 0; b < 8; ++b) v |= std::uint64_t{h[b]} << (8 * b);
    out.push_back(v % sector_nodes);
  }
  return out;
}

}  // namespace cuzk::filecoin
