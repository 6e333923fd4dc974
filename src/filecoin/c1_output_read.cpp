// The C1 reader (c1_output.hpp): one pass of a JsonCursor over the text, schema-driven, converting to the
// circuit's structs as it goes; the checks that need values from elsewhere in the document (the
// registered proof, the top-level commitments, which may come in any order) run after the pass.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "ff/encoding.hpp"
#include "filecoin/base64.hpp"
#include "filecoin/c1_output.hpp"
#include "filecoin/challenges.hpp"
#include "filecoin/porep_vanilla_verify.hpp"
#include "filecoin/poseidon.hpp"
#include "filecoin/sdr_graph.hpp"

namespace cuzk::filecoin {
namespace {

std::string quoted_list(std::span<const std::string_view> names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) out += i + 1 == names.size() ? " and " : ", ";
    out += '"' + std::string(names[i]) + '"';
  }
  return out;
}

// An object of exactly the given members (each required, each once), any order: on(i) reads member i's
// value with the cursor's path at that member. Unknown members are refused, or skipped when allowed.
template <std::size_t N, class F>
void read_object(JsonCursor& cur, bool allow_unknown, const std::array<std::string_view, N>& names, F&& on) {
  static_assert(N <= 32);
  cur.begin_object();
  std::uint32_t seen = 0;
  std::string_view key;
  for (std::size_t n = 0; cur.next_key(n, key); ++n) {
    std::size_t i = 0;
    while (i < N && names[i] != key) ++i;
    if (i == N) {
      if (allow_unknown) {
        cur.skip_value();
        continue;
      }
      cur.fail("unknown key \"" + std::string(key) + "\" (the keys here are " + quoted_list(names) + ")");
    }
    if (seen & (1u << i)) cur.fail("the key \"" + std::string(key) + "\" a second time");
    seen |= 1u << i;
    cur.push_key(names[i]);
    on(i);
    cur.pop();
  }
  for (std::size_t i = 0; i < N; ++i)
    if (!(seen & (1u << i)))
      cur.fail_at(cur.offset() - 1, "the key \"" + std::string(names[i]) + "\" is missing");
}

// A serde externally tagged enum value: an object with exactly one key, the variant's name.
template <std::size_t N, class F>
void read_enum(JsonCursor& cur, std::string_view what, const std::array<std::string_view, N>& names, F&& on) {
  cur.begin_object();
  std::string_view key;
  if (!cur.next_key(0, key))
    cur.fail_at(cur.offset() - 1,
                "an empty object, expected " + std::string(what) + ": one of " + quoted_list(names));
  std::size_t i = 0;
  while (i < N && names[i] != key) ++i;
  if (i == N)
    cur.fail("unknown " + std::string(what) + " \"" + std::string(key) + "\" (the known ones are " +
             quoted_list(names) + ")");
  cur.push_key(names[i]);
  on(i);
  cur.pop();
  if (cur.next_key(1, key))
    cur.fail("a second key \"" + std::string(key) + "\": " + std::string(what) + " is an enum, one key");
}

std::string size_name(const PorepParams& params) {
  return params.name;
}

bool all_zero(const Bytes32& b) {
  return std::all_of(b.begin(), b.end(), [](std::uint8_t x) { return x == 0; });
}

// What one challenge's proof carries besides the circuit's ChallengeProof, for the checks after it.
struct ChallengeRecord {
  std::array<std::uint32_t, kDrgParents + kExpanderParents> parent_index{};
};

class Reader {
 public:
  Reader(std::string_view text, const std::string& source, const C1ReadOptions& options)
      : cur_(text, source), opt_(options) {}

  C1Output run() {
    static constexpr std::array<std::string_view, 7> kKeys = {
        "registered_proof", "vanilla_proofs", "comm_r", "comm_d", "replica_id", "seed", "ticket"};
    read_object(cur_, opt_.allow_unknown_keys, kKeys, [&](std::size_t key) {
      switch (key) {
        case 0: {
          const std::size_t at = cur_.value_start();
          const std::string name = cur_.read_string();
          out_.registered_proof = find_registered_seal_proof(name);
          if (!out_.registered_proof) {
            try {
              registered_seal_proof_by_name(name);
            } catch (const std::invalid_argument& e) {
              cur_.fail_at(at, e.what());
            }
          }
          break;
        }
        case 1:
          read_vanilla_proofs();
          break;
        case 2:
          read_domain_bytes(out_.comm_r, true);
          break;
        case 3:
          read_domain_bytes(out_.comm_d, true);
          break;
        case 4:
          read_domain_bytes(out_.replica_id, true);
          break;
        case 5:
          cur_.read_bytes32(out_.seed);
          break;
        case 6:
          cur_.read_bytes32(out_.ticket);
          break;
      }
    });
    cur_.finish();
    check_document();
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail_path(const std::string& path, const std::string& what) const {
    throw JsonInputError(cur_.source(), path, std::nullopt, what);
  }

  std::string challenge_path(std::size_t p, std::size_t i) const {
    return "vanilla_proofs." + std::string(variant_) + "[" + std::to_string(p) + "][" + std::to_string(i) +
           "]";
  }

  // ---- values ----

  void read_domain_bytes(Bytes32& out, bool field_element) {
    const std::size_t at = cur_.value_start();
    cur_.read_bytes32(out);
    if (field_element && !ff::from_bytes_le<Fr>(out.data()))
      cur_.fail_at(at, "not a canonical field element (≥ r, the BLS12-381 scalar modulus)");
  }

  Fr read_fr() {
    const std::size_t at = cur_.value_start();
    Bytes32 b;
    cur_.read_bytes32(b);
    const auto x = ff::from_bytes_le<Fr>(b.data());
    if (!x) cur_.fail_at(at, "not a canonical field element (≥ r, the BLS12-381 scalar modulus)");
    return *x;
  }

  // An array of exactly `count` field elements.
  void read_fr_array(std::span<Fr> out, const std::string& what) {
    cur_.begin_array();
    std::size_t n = 0;
    for (; cur_.next_element(n); ++n) {
      if (n == out.size())
        cur_.fail("more than " + std::to_string(out.size()) + " values: " + what + " has " +
                  std::to_string(out.size()));
      cur_.push_index(n);
      out[n] = read_fr();
      cur_.pop();
    }
    if (n != out.size())
      cur_.fail_at(cur_.offset() - 1,
                   std::to_string(n) + " values: " + what + " has " + std::to_string(out.size()));
  }

  std::uint64_t read_u64_max(std::uint64_t max, const char* type) {
    const std::size_t at = cur_.value_start();
    const std::uint64_t v = cur_.read_u64();
    if (v > max) cur_.fail_at(at, std::to_string(v) + " does not fit a " + type);
    return v;
  }

  // ---- Merkle proofs (§3.6) ----

  struct TreeSpec {
    const char* name;  // "tree D", "tree C", "tree R_last"
    TreeShape shape;   // tree D: binary, tree_d_levels, no sub or top
  };

  TreeSpec tree_d() const { return {"tree D", TreeShape{2, 0, 0, params_->tree_d_levels}}; }
  TreeSpec tree_c() const { return {"tree C", params_->tree}; }
  TreeSpec tree_r() const { return {"tree R_last", params_->tree}; }

  // InclusionPath {"path": [PathElement…]}: `count` elements of one arity into levels[first, first+count).
  void read_inclusion_path(MerklePath& path, std::size_t first, unsigned count, unsigned arity,
                           const std::string& what) {
    static constexpr std::array<std::string_view, 1> kPath = {"path"};
    static constexpr std::array<std::string_view, 2> kElement = {"hashes", "index"};
    read_object(cur_, opt_.allow_unknown_keys, kPath, [&](std::size_t) {
      cur_.begin_array();
      std::size_t n = 0;
      for (; cur_.next_element(n); ++n) {
        if (n == count)
          cur_.fail("more than " + std::to_string(count) + " elements: " + what + " has " +
                    std::to_string(count) + (count == 1 ? " level" : " levels"));
        cur_.push_index(n);
        MerklePath::Level& level = path.levels[first + n];
        level.siblings.resize(arity - 1);
        read_object(cur_, opt_.allow_unknown_keys, kElement, [&](std::size_t key) {
          if (key == 0) {
            read_fr_array(level.siblings, "a level of arity " + std::to_string(arity));
          } else {
            const std::size_t at = cur_.value_start();
            const std::uint64_t index = cur_.read_u64();
            if (index >= arity)
              cur_.fail_at(at, "index " + std::to_string(index) + " is not below the level's arity " +
                                   std::to_string(arity));
            level.index = static_cast<std::uint32_t>(index);
          }
        });
        cur_.pop();
      }
      if (n != count)
        cur_.fail_at(cur_.offset() - 1, std::to_string(n) + " elements: " + what + " has " +
                                            std::to_string(count) + (count == 1 ? " level" : " levels"));
    });
  }

  struct ProofValues {
    Fr root, leaf;
    std::uint64_t node = 0;  // the path's indices composed
  };

  // MerkleProof {"data": {"Single"|"Sub"|"Top": …}} of the tree's shape.
  ProofValues read_merkle_proof(MerklePath& path, const TreeSpec& tree) {
    static constexpr std::array<std::string_view, 1> kData = {"data"};
    static constexpr std::array<std::string_view, 3> kVariants = {"Single", "Sub", "Top"};
    static constexpr std::array<std::string_view, 3> kSingle = {"root", "leaf", "path"};
    static constexpr std::array<std::string_view, 4> kSub = {"base_proof", "sub_proof", "root", "leaf"};
    static constexpr std::array<std::string_view, 5> kTop = {"base_proof", "sub_proof", "top_proof", "root",
                                                             "leaf"};
    const TreeShape& s = tree.shape;
    const std::size_t expected = s.top ? 2 : s.sub ? 1 : 0;
    path.levels.resize(s.levels());
    const std::string base = "the " + size_name(*params_) + " " + tree.name + "'s base tree";
    ProofValues v;
    read_object(cur_, opt_.allow_unknown_keys, kData, [&](std::size_t) {
      read_enum(cur_, "a Merkle proof variant", kVariants, [&](std::size_t variant) {
        if (variant != expected)
          cur_.fail("a " + std::string(kVariants[variant]) + " proof: the " + size_name(*params_) + " " +
                    tree.name + " (arities " + std::to_string(s.base) + ", " + std::to_string(s.sub) + ", " +
                    std::to_string(s.top) + ") has " + std::string(kVariants[expected]) + " proofs");
        auto member = [&](std::string_view key) {
          if (key == "root") {
            v.root = read_fr();
          } else if (key == "leaf") {
            v.leaf = read_fr();
          } else if (key == "path" || key == "base_proof") {
            read_inclusion_path(path, 0, s.base_levels, s.base, base);
          } else if (key == "sub_proof") {
            read_inclusion_path(path, s.base_levels, 1, s.sub, "a sub-tree proof");
          } else {
            read_inclusion_path(path, s.base_levels + 1, 1, s.top, "a top-tree proof");
          }
        };
        if (variant == 0)
          read_object(cur_, opt_.allow_unknown_keys, kSingle, [&](std::size_t k) { member(kSingle[k]); });
        if (variant == 1)
          read_object(cur_, opt_.allow_unknown_keys, kSub, [&](std::size_t k) { member(kSub[k]); });
        if (variant == 2)
          read_object(cur_, opt_.allow_unknown_keys, kTop, [&](std::size_t k) { member(kTop[k]); });
      });
    });
    // The node: the indices as mixed-radix digits, leaf side first (path_index, proof.rs; Sub and Top
    // scale their digits by the base tree's leaves).
    std::uint64_t scale = 1;
    for (std::size_t l = 0; l < path.levels.size(); ++l) {
      const unsigned arity = l < s.base_levels ? s.base : l == s.base_levels ? s.sub : s.top;
      v.node += path.levels[l].index * scale;
      scale *= arity;
    }
    return v;
  }

  // All roots of one tree are equal across the document: the first one is kept with its path.
  void check_root(std::optional<Fr>& first, std::string& first_path, const Fr& root, std::size_t at,
                  const char* tree) {
    if (!first) {
      first = root;
      first_path = cur_.path();
      return;
    }
    if (!(*first == root))
      cur_.fail_at(at, std::string("the ") + tree + " root differs from the one at " + first_path +
                           " (one sector has one " + tree + ")");
  }

  // ColumnProof {"column": {"index", "rows", "_h"}, "inclusion_proof"}: returns the column's index.
  std::uint32_t read_column_proof(ColumnProof& column, const char* role) {
    static constexpr std::array<std::string_view, 2> kKeys = {"column", "inclusion_proof"};
    static constexpr std::array<std::string_view, 3> kColumn = {"index", "rows", "_h"};
    std::uint32_t index = 0;
    std::size_t index_at = 0;
    ProofValues proof;
    column.rows.resize(params_->layers);
    read_object(cur_, opt_.allow_unknown_keys, kKeys, [&](std::size_t key) {
      if (key == 0) {
        read_object(cur_, opt_.allow_unknown_keys, kColumn, [&](std::size_t k) {
          if (k == 0) {
            index_at = cur_.value_start();
            index = static_cast<std::uint32_t>(read_u64_max(UINT32_MAX, "u32"));
          } else if (k == 1) {
            read_fr_array(column.rows, "a " + size_name(*params_) + " column (" +
                                           std::to_string(params_->layers) + " layers)");
          } else {
            cur_.read_null();  // Column's PhantomData: serde writes and expects null
          }
        });
      } else {
        const std::size_t at = cur_.offset();
        proof = read_merkle_proof(column.path, tree_c());
        check_root(root_c_, root_c_path_, proof.root, at, "tree C");
      }
    });
    if (proof.node != index) {
      cur_.push_key("inclusion_proof");
      cur_.fail_at(index_at, std::string("the path leads to node ") + std::to_string(proof.node) + ", the " +
                                 role + " column's index is " + std::to_string(index));
    }
    return index;
  }

  // LabelingProof / EncodingProof {"parents": [37], "layer_index", "node"}.
  struct LabelValues {
    std::uint64_t layer_index = 0, node = 0;
    std::size_t node_at = 0, layer_at = 0;
  };
  LabelValues read_labeling_proof(std::span<Fr> parents) {
    static constexpr std::array<std::string_view, 3> kKeys = {"parents", "layer_index", "node"};
    LabelValues v;
    read_object(cur_, opt_.allow_unknown_keys, kKeys, [&](std::size_t key) {
      const std::size_t at = cur_.value_start();
      if (key == 0) {
        read_fr_array(parents, "a label hash (TOTAL_PARENTS = 37)");
      } else if (key == 1) {
        v.layer_at = at;
        v.layer_index = read_u64_max(UINT32_MAX, "u32");
      } else {
        v.node_at = at;
        v.node = cur_.read_u64();
      }
    });
    return v;
  }

  // ---- one challenge (§3.1) ----

  void read_challenge(ChallengeProof& ch, ChallengeRecord& record) {
    static constexpr std::array<std::string_view, 5> kKeys = {
        "comm_d_proofs", "comm_r_last_proof", "replica_column_proofs", "labeling_proofs", "encoding_proof"};
    static constexpr std::array<std::string_view, 3> kColumns = {"c_x", "drg_parents", "exp_parents"};
    const unsigned layers = params_->layers;
    labels_.resize(std::size_t{layers + 1} *
                   kTotalParents);  // layers labeling proofs, then the encoding proof
    std::vector<LabelValues> label_values(layers);
    LabelValues encoding;
    std::uint64_t d_node = 0, r_node = 0;
    std::uint32_t c_x_index = 0;
    std::size_t d_at = 0, r_at = 0, c_x_at = 0, labeling_at = 0, encoding_at = 0;
    const std::size_t depth = cur_.depth();

    read_object(cur_, opt_.allow_unknown_keys, kKeys, [&](std::size_t key) {
      const std::size_t at = cur_.value_start();
      switch (key) {
        case 0: {
          d_at = at;
          const ProofValues d = read_merkle_proof(ch.comm_d_path, tree_d());
          check_root(root_d_, root_d_path_, d.root, at, "tree D");
          ch.data_leaf = d.leaf;
          d_node = d.node;
          break;
        }
        case 1: {
          r_at = at;
          const ProofValues r = read_merkle_proof(ch.comm_r_last_path, tree_r());
          check_root(root_r_, root_r_path_, r.root, at, "tree R_last");
          r_node = r.node;
          break;
        }
        case 2:
          read_object(cur_, opt_.allow_unknown_keys, kColumns, [&](std::size_t k) {
            if (k == 0) {
              c_x_at = cur_.value_start();
              c_x_index = read_column_proof(c_x_scratch_, "challenged node's");
              ch.comm_c_path = std::move(c_x_scratch_.path);
              return;
            }
            const bool drg = k == 1;
            const std::size_t count = drg ? kDrgParents : kExpanderParents;
            cur_.begin_array();
            std::size_t n = 0;
            for (; cur_.next_element(n); ++n) {
              if (n == count)
                cur_.fail("more than " + std::to_string(count) + (drg ? " DRG" : " expander") +
                          " parents (there are " + std::to_string(count) + ")");
              cur_.push_index(n);
              ColumnProof& column = drg ? ch.drg_parents[n] : ch.exp_parents[n];
              record.parent_index[drg ? n : kDrgParents + n] =
                  read_column_proof(column, drg ? "DRG parent's" : "expander parent's");
              cur_.pop();
            }
            if (n != count)
              cur_.fail_at(cur_.offset() - 1, std::to_string(n) + (drg ? " DRG" : " expander") +
                                                  " parents, there are " + std::to_string(count));
          });
          break;
        case 3: {
          labeling_at = at;
          cur_.begin_array();
          std::size_t n = 0;
          for (; cur_.next_element(n); ++n) {
            if (n == layers)
              cur_.fail("more than " + std::to_string(layers) + " labeling proofs: a " + size_name(*params_) +
                        " sector has " + std::to_string(layers) + " layers");
            cur_.push_index(n);
            label_values[n] =
                read_labeling_proof(std::span(labels_).subspan(n * kTotalParents, kTotalParents));
            if (label_values[n].layer_index != n + 1) {
              cur_.push_key("layer_index");
              cur_.fail_at(label_values[n].layer_at, "layer_index is " +
                                                         std::to_string(label_values[n].layer_index) +
                                                         ", labeling proof " + std::to_string(n) +
                                                         " is layer " + std::to_string(n + 1));
            }
            if (label_values[n].node != label_values[0].node) {
              cur_.push_key("node");
              cur_.fail_at(label_values[n].node_at, "node " + std::to_string(label_values[n].node) +
                                                        ", labeling_proofs[0].node is " +
                                                        std::to_string(label_values[0].node));
            }
            cur_.pop();
          }
          if (n != layers)
            cur_.fail_at(cur_.offset() - 1, std::to_string(n) + " labeling proofs: a " + size_name(*params_) +
                                                " sector has " + std::to_string(layers) + " layers");
          break;
        }
        case 4:
          encoding_at = at;
          encoding = read_labeling_proof(
              std::span(labels_).subspan(std::size_t{layers} * kTotalParents, kTotalParents));
          break;
      }
    });

    // Every copy of the challenged node agrees (proves_challenge for trees D and R_last; the column's
    // index; the labeling proofs').
    const std::uint64_t node = label_values[0].node;
    ch.challenge = node;
    auto fail_in = [&](std::initializer_list<std::string_view> keys, std::size_t at,
                       const std::string& what) {
      for (std::string_view k : keys) cur_.push_key(k);
      cur_.fail_at(at, what);
    };
    if (node == 0) {
      cur_.push_key("labeling_proofs");
      cur_.push_index(0);
      cur_.push_key("node");
      cur_.fail_at(label_values[0].node_at,
                   "node 0 is never challenged (challenges are 1 + h mod (nodes - 1))");
    }
    const std::string challenge = "the challenge (labeling_proofs[0].node) is " + std::to_string(node);
    if (d_node != node)
      fail_in({"comm_d_proofs"}, d_at, "the path leads to node " + std::to_string(d_node) + ", " + challenge);
    if (r_node != node)
      fail_in({"comm_r_last_proof"}, r_at,
              "the path leads to node " + std::to_string(r_node) + ", " + challenge);
    if (c_x_index != node)
      fail_in({"replica_column_proofs", "c_x", "column", "index"}, c_x_at,
              "the challenged column's index is " + std::to_string(c_x_index) + ", " + challenge);

    // The labeling proofs' parents are the parent columns' labels the label hash takes: layer 1 the DRG
    // parents' layer-1 labels, layer l > 1 the DRG parents' layer-l and the expander parents' layer l-1
    // labels, repeated to 37 (§3.5; proof.rs prove_layers).
    for (unsigned layer = 1; layer <= layers; ++layer) {
      const unsigned count = layer == 1 ? kDrgParents : kDrgParents + kExpanderParents;
      for (unsigned k = 0; k < kTotalParents; ++k) {
        const unsigned j = k % count;
        const bool drg = j < kDrgParents;
        const ColumnProof& column = drg ? ch.drg_parents[j] : ch.exp_parents[j - kDrgParents];
        const Fr& expected = column.rows[drg ? layer - 1 : layer - 2];
        if (!(labels_[std::size_t{layer - 1} * kTotalParents + k] == expected)) {
          cur_.push_key("labeling_proofs");
          cur_.push_index(layer - 1);
          cur_.push_key("parents");
          cur_.push_index(k);
          cur_.fail_at(labeling_at, std::string("differs from the ") + (drg ? "DRG" : "expander") +
                                        " parent " + std::to_string(drg ? j : j - kDrgParents) + "'s layer " +
                                        std::to_string(drg ? layer : layer - 1) +
                                        " label in replica_column_proofs (the label hash's parent " +
                                        std::to_string(k) + ")");
        }
      }
    }
    // The encoding proof is the last labeling proof again.
    if (encoding.layer_index != layers || encoding.node != node ||
        !std::equal(labels_.begin() + std::size_t{layers - 1} * kTotalParents,
                    labels_.begin() + std::size_t{layers} * kTotalParents,
                    labels_.begin() + std::size_t{layers} * kTotalParents))
      fail_in({"encoding_proof"}, encoding_at,
              "is not the last labeling proof (layer " + std::to_string(layers) + ", node " +
                  std::to_string(node) + ", its 37 parents); it has layer " +
                  std::to_string(encoding.layer_index) + ", node " + std::to_string(encoding.node));
    cur_.truncate(depth);
  }

  // ---- vanilla_proofs (§2) ----

  void read_vanilla_proofs() {
    std::array<std::string_view, 5> variants;
    const auto sizes = production_porep_params();
    for (std::size_t s = 0; s < sizes.size(); ++s) variants[s] = vanilla_seal_proof_variant(sizes[s]);
    read_enum(cur_, "a VanillaSealProof variant", variants, [&](std::size_t s) {
      params_ = &sizes[s];
      variant_ = variants[s];
      cur_.begin_array();
      for (std::size_t p = 0; cur_.next_element(p); ++p) {
        cur_.push_index(p);
        PorepPartitionProof& partition = out_.partitions.emplace_back();
        std::vector<ChallengeRecord>& records = records_.emplace_back();
        cur_.begin_array();
        std::size_t i = 0;
        for (; cur_.next_element(i); ++i) {
          if (i == params_->challenges_per_partition)
            cur_.fail("more than " + std::to_string(i) + " challenge proofs: a " + size_name(*params_) +
                      " partition has " + std::to_string(i));
          cur_.push_index(i);
          read_challenge(partition.challenges.emplace_back(), records.emplace_back());
          cur_.pop();
        }
        if (i != params_->challenges_per_partition)
          cur_.fail_at(cur_.offset() - 1, std::to_string(i) + " challenge proofs: a " + size_name(*params_) +
                                              " partition has " +
                                              std::to_string(params_->challenges_per_partition));
        cur_.pop();
      }
    });
  }

  // ---- after the pass ----

  void check_document() {
    const RegisteredSealProof& proof = *out_.registered_proof;
    if (proof.sector_bytes != params_->sector_bytes)
      fail_path("vanilla_proofs", "the " + std::string(variant_) + " variant holds " + size_name(*params_) +
                                      " proofs, registered_proof " + std::string(proof.name) + " is for " +
                                      proof.params().name + " sectors");
    if (out_.partitions.size() != proof.partitions)
      fail_path("vanilla_proofs." + std::string(variant_), std::to_string(out_.partitions.size()) +
                                                               " partitions, " + std::string(proof.name) +
                                                               " has " + std::to_string(proof.partitions));
    // seal_commit_phase2's checks (filecoin-proofs api/seal.rs).
    if (all_zero(out_.comm_r)) fail_path("comm_r", "all zero (an invalid commitment)");
    if (all_zero(out_.comm_d)) fail_path("comm_d", "all zero (an invalid commitment)");
    if (all_zero(out_.seed)) fail_path("seed", "all zero (an invalid PoRep challenge seed)");
    const Fr comm_d = fr_from_repr(out_.comm_d);
    if (!(*root_d_ == comm_d)) fail_path(root_d_path_, "the tree D root is not comm_d");

    const Fr replica_id = fr_from_repr(out_.replica_id), comm_r = fr_from_repr(out_.comm_r);
    for (PorepPartitionProof& partition : out_.partitions) {
      partition.replica_id = replica_id;
      partition.comm_d = comm_d;
      partition.comm_r = comm_r;
      partition.comm_c = *root_c_;
      partition.comm_r_last = *root_r_;
    }
    if (!opt_.check_derivations) return;

    const Fr pair[2] = {*root_c_, *root_r_};
    if (!(poseidon_hash(pair) == comm_r))
      fail_path("comm_r",
                "is not Poseidon(comm_c, comm_r_last) of the vanilla proofs' tree C and R_last roots");
    const SdrGraph graph = porep_graph(proof);
    for (std::size_t p = 0; p < out_.partitions.size(); ++p) {
      const auto expected =
          c1_partition_challenges(proof, out_.replica_id, out_.seed, out_.comm_r, static_cast<unsigned>(p));
      const auto& challenges = out_.partitions[p].challenges;
      for (std::size_t i = 0; i < challenges.size(); ++i) {
        const std::uint64_t node = challenges[i].challenge;
        if (node != expected[i])
          fail_path(challenge_path(p, i) + ".labeling_proofs[0].node",
                    "node " + std::to_string(node) + " is not the challenge: " + std::string(proof.name) +
                        "'s challenge " + std::to_string(i) + " of partition " + std::to_string(p) + " is " +
                        std::to_string(expected[i]) + " (" + challenge_source(proof) + ")");
        const auto parents = graph.parents(node);
        const auto& index = records_[p][i].parent_index;
        for (unsigned j = 0; j < kDrgParents + kExpanderParents; ++j)
          if (index[j] != parents[j]) {
            const bool drg = j < kDrgParents;
            const unsigned n = drg ? j : j - kDrgParents;
            fail_path(challenge_path(p, i) + ".replica_column_proofs." +
                          (drg ? "drg_parents[" : "exp_parents[") + std::to_string(n) + "].column.index",
                      "column " + std::to_string(index[j]) + ", the SDR graph's " +
                          (drg ? "DRG" : "expander") + " parent " + std::to_string(n) + " of node " +
                          std::to_string(node) + " is " + std::to_string(parents[j]));
          }
      }
    }
  }

  static std::string challenge_source(const RegisteredSealProof& proof) {
    switch (proof.feature) {
      case PorepFeature::kNone:
        return "interactive, from replica_id and seed";
      case PorepFeature::kSyntheticPoRep:
        return "synthetic, selected by seed from replica_id and comm_r's";
      case PorepFeature::kNonInteractivePoRep:
        return "non-interactive, from replica_id and comm_r";
    }
    return "";
  }

  JsonCursor cur_;
  const C1ReadOptions& opt_;
  C1Output out_;
  const PorepParams* params_ = nullptr;
  std::string_view variant_;
  std::vector<std::vector<ChallengeRecord>> records_;
  std::optional<Fr> root_d_, root_c_, root_r_;
  std::string root_d_path_, root_c_path_, root_r_path_;
  std::vector<Fr> labels_;   // one challenge's labeling proofs' parents, then the encoding proof's
  ColumnProof c_x_scratch_;  // the challenged node's column (its rows are dropped)
};

}  // namespace

std::vector<std::uint64_t> c1_partition_challenges(const RegisteredSealProof& proof,
                                                   const Bytes32& replica_id, const Bytes32& seed,
                                                   const Bytes32& comm_r, unsigned k) {
  if (k >= proof.partitions)
    throw std::invalid_argument("partition " + std::to_string(k) + " of " + std::string(proof.name) + " (" +
                                std::to_string(proof.partitions) + " partitions)");
  const PorepParams& params = proof.params();
  const std::size_t count = params.challenges_per_partition;
  switch (proof.feature) {
    case PorepFeature::kNone:
      return interactive_challenges(params.nodes, replica_id, seed, count, static_cast<std::uint8_t>(k));
    case PorepFeature::kSyntheticPoRep:
      return SynthChallenges(params.nodes, replica_id, comm_r).partition_challenges(count, seed, k);
    case PorepFeature::kNonInteractivePoRep:
      return non_interactive_challenges(params.nodes, replica_id, comm_r, count,
                                        static_cast<std::uint8_t>(k));
  }
  throw std::logic_error("unknown PoRep feature");
}

C1Output parse_seal_commit_phase1_output(std::string_view json, const std::string& source,
                                         const C1ReadOptions& options) {
  if (json.size() > options.max_bytes)
    throw C1Error(source, "", std::nullopt,
                  std::to_string(json.size()) + " bytes of JSON, more than the limit of " +
                      std::to_string(options.max_bytes) + " (C1ReadOptions::max_bytes)");
  try {
    return Reader(json, source, options).run();
  } catch (const C1Error&) {
    throw;
  } catch (const JsonInputError& e) {
    throw C1Error(e);
  }
}

CurioC1Envelope parse_curio_c1_envelope(std::string_view bytes, const std::string& source,
                                        std::size_t max_bytes, bool allow_unknown_keys) {
  if (bytes.size() > max_bytes)
    throw C1Error(source, "", std::nullopt,
                  std::to_string(bytes.size()) + " bytes, more than the limit of " +
                      std::to_string(max_bytes) + " for a C1 envelope");
  static constexpr std::array<std::string_view, 3> kKeys = {"SectorNum", "Phase1Out", "SectorSize"};
  CurioC1Envelope out;
  try {
    JsonCursor cur(bytes, source);
    read_object(cur, allow_unknown_keys, kKeys, [&](std::size_t key) {
      if (key == 0) {
        out.sector_num = cur.read_u64();
      } else if (key == 2) {
        out.sector_size = cur.read_u64();
      } else {
        const std::size_t at = cur.value_start();
        const std::string text = cur.read_string();
        try {
          out.phase1_out = base64_decode(text);
        } catch (const std::invalid_argument& e) {
          cur.fail_at(at, e.what());
        }
      }
    });
    cur.finish();
  } catch (const C1Error&) {
    throw;
  } catch (const JsonInputError& e) {
    throw C1Error(e);
  }
  return out;
}

CurioC1Request parse_curio_c1_request(std::string_view bytes, const std::string& source,
                                      const C1ReadOptions& options) {
  // base64 takes 4 characters per 3 bytes; the rest of the envelope is a few dozen.
  const std::size_t envelope_limit =
      options.max_bytes > (SIZE_MAX - 4096) / 4 * 3 ? SIZE_MAX : options.max_bytes / 3 * 4 + 4096;
  CurioC1Envelope envelope =
      parse_curio_c1_envelope(bytes, source, envelope_limit, options.allow_unknown_keys);
  CurioC1Request out;
  out.sector_num = envelope.sector_num;
  out.output = parse_seal_commit_phase1_output(envelope.phase1_out, source + " Phase1Out", options);
  const RegisteredSealProof& proof = *out.output.registered_proof;
  if (envelope.sector_size != proof.sector_bytes)
    throw C1Error(source, "SectorSize", std::nullopt,
                  std::to_string(envelope.sector_size) + ", but the C1 output's registered_proof " +
                      std::string(proof.name) + " is for sectors of " + std::to_string(proof.sector_bytes) +
                      " bytes");
  return out;
}

}  // namespace cuzk::filecoin
