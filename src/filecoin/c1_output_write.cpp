// The C1 writer (c1_output.hpp): serde_json's compact form of filecoin-proofs-api's
// SealCommitPhase1Output, struct fields in declaration order (c1-format.md §2-§3), filled in from the
// circuit's values as rust-fil-proofs' prover builds them (stacked/vanilla/proof.rs prove_layers).
#include <stdexcept>

#include "filecoin/base64.hpp"
#include "filecoin/c1_output.hpp"
#include "filecoin/porep_vanilla_verify.hpp"

namespace cuzk::filecoin {
namespace {

class JsonOut {
 public:
  explicit JsonOut(std::size_t reserve) { s_.reserve(reserve); }

  JsonOut& raw(std::string_view text) {
    s_.append(text);
    return *this;
  }
  JsonOut& u64(std::uint64_t v) {
    char buf[20];
    int n = 0;
    do {
      buf[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v);
    while (n) s_ += buf[--n];
    return *this;
  }
  // [u8; 32] and the Domain newtypes: an array of 32 decimal integers.
  JsonOut& bytes(const Bytes32& b) {
    s_ += '[';
    for (std::size_t i = 0; i < 32; ++i) {
      if (i) s_ += ',';
      const std::uint8_t v = b[i];
      if (v >= 100) s_ += static_cast<char>('0' + v / 100);
      if (v >= 10) s_ += static_cast<char>('0' + v / 10 % 10);
      s_ += static_cast<char>('0' + v % 10);
    }
    s_ += ']';
    return *this;
  }
  JsonOut& fr(const Fr& x) { return bytes(fr_to_repr(x)); }
  template <class Range>
  JsonOut& frs(const Range& values) {
    s_ += '[';
    bool first = true;
    for (const Fr& x : values) {
      if (!first) s_ += ',';
      first = false;
      fr(x);
    }
    s_ += ']';
    return *this;
  }
  std::string take() { return std::move(s_); }

 private:
  std::string s_;
};

class Writer {
 public:
  explicit Writer(const C1Output& c1)
      : c1_(c1),
        proof_(*c1.registered_proof),
        params_(proof_.params()),
        graph_(porep_graph(proof_)),
        out_(estimate(c1)) {}

  std::string run() {
    out_.raw("{\"registered_proof\":\"").raw(proof_.name).raw("\",\"vanilla_proofs\":{\"");
    out_.raw(proof_.vanilla_proof_variant()).raw("\":[");
    for (std::size_t p = 0; p < c1_.partitions.size(); ++p) {
      const PorepPartitionProof& partition = c1_.partitions[p];
      check_partition(partition, p);
      if (p) out_.raw(",");
      out_.raw("[");
      for (std::size_t i = 0; i < partition.challenges.size(); ++i) {
        if (i) out_.raw(",");
        challenge(partition, partition.challenges[i]);
      }
      out_.raw("]");
    }
    out_.raw("]},\"comm_r\":").bytes(c1_.comm_r);
    out_.raw(",\"comm_d\":").bytes(c1_.comm_d);
    out_.raw(",\"replica_id\":").bytes(c1_.replica_id);
    out_.raw(",\"seed\":").bytes(c1_.seed);
    out_.raw(",\"ticket\":").bytes(c1_.ticket);
    out_.raw("}");
    return out_.take();
  }

 private:
  // About 210 KB per 32 GiB challenge, 14 KB at the test sizes.
  static std::size_t estimate(const C1Output& c1) {
    std::size_t challenges = 0;
    for (const PorepPartitionProof& p : c1.partitions) challenges += p.challenges.size();
    return challenges * (c1.registered_proof->params().layers > 2 ? 220000 : 16000) + 1024;
  }

  void check_partition(const PorepPartitionProof& partition, std::size_t p) const {
    auto fail = [&](const std::string& what) {
      throw std::invalid_argument("C1 writer: partition " + std::to_string(p) + ": " + what);
    };
    if (!(partition.replica_id == fr_from_repr(c1_.replica_id))) fail("replica_id differs from the output's");
    if (!(partition.comm_d == fr_from_repr(c1_.comm_d))) fail("comm_d differs from the output's");
    if (!(partition.comm_r == fr_from_repr(c1_.comm_r))) fail("comm_r differs from the output's");
  }

  void check_path(const MerklePath& path, const TreeShape& shape, const char* what) const {
    if (path.levels.size() != shape.levels())
      throw std::invalid_argument(std::string("C1 writer: a ") + what + " path of " +
                                  std::to_string(path.levels.size()) + " levels, the " + params_.name +
                                  " tree has " + std::to_string(shape.levels()));
  }

  // InclusionPath {"path":[{"hashes":[…],"index":i},…]} of levels [first, first + count).
  void inclusion_path(const MerklePath& path, std::size_t first, std::size_t count) {
    out_.raw("{\"path\":[");
    for (std::size_t l = first; l < first + count; ++l) {
      if (l != first) out_.raw(",");
      out_.raw("{\"hashes\":")
          .frs(path.levels[l].siblings)
          .raw(",\"index\":")
          .u64(path.levels[l].index)
          .raw("}");
    }
    out_.raw("]}");
  }

  // MerkleProof {"data":{"Single"|"Sub"|"Top":{…}}} (storage-proofs-core merkle/proof.rs).
  void merkle_proof(const MerklePath& path, const TreeShape& shape, const Fr& root, const Fr& leaf,
                    const char* what) {
    check_path(path, shape, what);
    const std::size_t base = shape.base_levels;
    if (!shape.sub) {
      out_.raw("{\"data\":{\"Single\":{\"root\":").fr(root).raw(",\"leaf\":").fr(leaf).raw(",\"path\":");
      inclusion_path(path, 0, base);
      out_.raw("}}}");
      return;
    }
    out_.raw(shape.top ? "{\"data\":{\"Top\":{\"base_proof\":" : "{\"data\":{\"Sub\":{\"base_proof\":");
    inclusion_path(path, 0, base);
    out_.raw(",\"sub_proof\":");
    inclusion_path(path, base, 1);
    if (shape.top) {
      out_.raw(",\"top_proof\":");
      inclusion_path(path, base + 1, 1);
    }
    out_.raw(",\"root\":").fr(root).raw(",\"leaf\":").fr(leaf).raw("}}}");
  }

  // ColumnProof {"column":{"index":n,"rows":[…],"_h":null},"inclusion_proof":…}.
  void column_proof(std::uint64_t index, std::span<const Fr> rows, const MerklePath& path, const Fr& comm_c) {
    if (rows.size() != params_.layers)
      throw std::invalid_argument("C1 writer: a column of " + std::to_string(rows.size()) + " rows, the " +
                                  params_.name + " sector has " + std::to_string(params_.layers) + " layers");
    out_.raw("{\"column\":{\"index\":").u64(index).raw(",\"rows\":").frs(rows).raw(",\"_h\":null},");
    out_.raw("\"inclusion_proof\":");
    merkle_proof(path, params_.tree, comm_c, column_hash(rows), "tree C");
    out_.raw("}");
  }

  // LabelingProof / EncodingProof {"parents":[37],"layer_index":l,"node":n}.
  void labeling_proof(const ChallengeProof& ch, unsigned layer) {
    const unsigned count = layer == 1 ? kDrgParents : kDrgParents + kExpanderParents;
    out_.raw("{\"parents\":[");
    for (unsigned k = 0; k < kTotalParents; ++k) {
      if (k) out_.raw(",");
      const unsigned j = k % count;
      const bool drg = j < kDrgParents;
      const ColumnProof& column = drg ? ch.drg_parents[j] : ch.exp_parents[j - kDrgParents];
      out_.fr(column.rows[drg ? layer - 1 : layer - 2]);
    }
    out_.raw("],\"layer_index\":").u64(layer).raw(",\"node\":").u64(ch.challenge).raw("}");
  }

  void challenge(const PorepPartitionProof& partition, const ChallengeProof& ch) {
    const std::vector<Fr> labels = recompute_challenge_labels(params_, partition.replica_id, ch);
    const auto parents = graph_.parents(ch.challenge);
    const TreeShape tree_d{2, 0, 0, params_.tree_d_levels};

    out_.raw("{\"comm_d_proofs\":");
    merkle_proof(ch.comm_d_path, tree_d, partition.comm_d, ch.data_leaf, "tree D");
    out_.raw(",\"comm_r_last_proof\":");
    merkle_proof(ch.comm_r_last_path, params_.tree, partition.comm_r_last, labels.back() + ch.data_leaf,
                 "tree R_last");
    out_.raw(",\"replica_column_proofs\":{\"c_x\":");
    column_proof(ch.challenge, labels, ch.comm_c_path, partition.comm_c);
    out_.raw(",\"drg_parents\":[");
    for (unsigned j = 0; j < kDrgParents; ++j) {
      if (j) out_.raw(",");
      column_proof(parents[j], ch.drg_parents[j].rows, ch.drg_parents[j].path, partition.comm_c);
    }
    out_.raw("],\"exp_parents\":[");
    for (unsigned j = 0; j < kExpanderParents; ++j) {
      if (j) out_.raw(",");
      column_proof(parents[kDrgParents + j], ch.exp_parents[j].rows, ch.exp_parents[j].path,
                   partition.comm_c);
    }
    out_.raw("]},\"labeling_proofs\":[");
    for (unsigned layer = 1; layer <= params_.layers; ++layer) {
      if (layer > 1) out_.raw(",");
      labeling_proof(ch, layer);
    }
    out_.raw("],\"encoding_proof\":");
    labeling_proof(ch, params_.layers);
    out_.raw("}");
  }

  const C1Output& c1_;
  const RegisteredSealProof& proof_;
  const PorepParams& params_;
  SdrGraph graph_;
  JsonOut out_;
};

}  // namespace

std::string write_seal_commit_phase1_output(const C1Output& c1) {
  if (!c1.registered_proof) throw std::invalid_argument("C1 writer: no registered proof");
  return Writer(c1).run();
}

std::string write_curio_c1_envelope(std::uint64_t sector_num, std::uint64_t sector_size,
                                    std::string_view phase1_out) {
  // Go's encoding/json: struct fields in declaration order, []byte as standard base64 (whose alphabet has
  // nothing Go would escape).
  JsonOut out(phase1_out.size() / 3 * 4 + 96);
  out.raw("{\"SectorNum\":").u64(sector_num).raw(",\"Phase1Out\":\"").raw(base64_encode(phase1_out));
  out.raw("\",\"SectorSize\":").u64(sector_size).raw("}");
  return out.take();
}

}  // namespace cuzk::filecoin
