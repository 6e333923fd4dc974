// The C1 output: filecoin-proofs-api's SealCommitPhase1Output as serde_json writes it (what Curio's
// GeneratePoRepVanillaProof returns), and Curio's envelope around it (the ProveRequest's vanilla_proof
// bytes). docs/porting/c1-format.md is the specification; section numbers below refer to it.
//
// Reading gives the registered proof, the top-level values, and every partition as the circuit takes it
// (PorepPartitionProof, §3.7). The reader validates the format completely and throws C1Error naming the
// field path and byte offset of the first problem:
//   - JSON syntax (strict, serde_json's: truncation, trailing commas, text after the value, …);
//   - every key: required ones present, none twice, unknown ones rejected (C1ReadOptions::
//     allow_unknown_keys ignores them as serde's derive does; rejecting is the default because this is
//     a prover's input: a field we do not know of would be a format change we should hear about);
//   - registered_proof one of the 20 names; the one vanilla_proofs variant the registered proof's sector
//     size has; as many partitions as the proof type has and challenges_per_partition proofs in each;
//   - every Merkle proof: the variant of its tree's shape (tree D: Single, binary, tree_d_levels levels;
//     trees C and R_last: Single / Sub / Top per TreeShape, with base_levels base elements and one sub and
//     one top element), arity − 1 hashes per element and index < arity; the indices composing to the
//     challenged node (tree D, R_last, c_x) or to the column's index (parents);
//   - all roots of one tree equal across the whole output (one sector: tree D's = comm_d; tree C's give
//     comm_c, tree R_last's comm_r_last);
//   - columns of `layers` rows ("_h": null accepted, as serde writes the PhantomData), 6 DRG and 8
//     expander parents; `layers` labeling proofs with layer_index 1..layers, the same node, 37 parents
//     that are the parent columns' labels the label hash takes (§3.5); the encoding proof equal to the
//     last labeling proof; the node non-zero and the same in labeling proofs, tree D, tree R_last and c_x;
//   - bytes 0..255, 32 per value; every domain value (comm_r, comm_d, replica_id, roots, leaves, hashes,
//     rows, parents) a canonical field element (< r); comm_r and comm_d non-zero, seed non-zero
//     (filecoin-proofs seal_commit_phase2 checks). seed and ticket are raw bytes (Ticket = [u8; 32]: the
//     chain's randomness, not a field element), so they are not range-checked;
//   - with C1ReadOptions::check_derivations (the default), what C2's public inputs are derived from
//     independently: each partition's challenges as the proof type derives them (interactive from the
//     seed, synthetic from the seed's selection of SynthChallenges, non-interactive from comm_r), each
//     parent column's index equal to the SDR graph's parent, and comm_r = Poseidon(comm_c, comm_r_last).
// The reader hashes nothing else: the tree paths, leaves and labels are the circuit's (and
// verify_porep_vanilla's) to check. Values the circuit does not use (c_x's rows, leaves other than tree
// D's, labeling and encoding proofs) are checked for format and consistency and then dropped.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "filecoin/json_cursor.hpp"
#include "filecoin/porep_vanilla.hpp"
#include "filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

// Malformed C1 input (JSON, base64, values or consistency). A JsonInputError, so an io::FormatError.
class C1Error : public JsonInputError {
 public:
  using JsonInputError::JsonInputError;
  explicit C1Error(const JsonInputError& e) : JsonInputError(e) {}
};

using Bytes32 = std::array<std::uint8_t, 32>;

// SealCommitPhase1Output in circuit terms.
struct C1Output {
  const RegisteredSealProof* registered_proof = nullptr;
  Bytes32 comm_r{}, comm_d{}, replica_id{}, seed{},
      ticket{};  // as in the JSON (canonical LE for the first 3)
  // vanilla_proofs[p] as the circuit takes it: replica_id, comm_d, comm_r from the top level, comm_c and
  // comm_r_last from the roots; challenges[i].challenge = labeling_proofs[0].node.
  std::vector<PorepPartitionProof> partitions;
};

// A 32 GiB C1 output (10 × 18 challenges) is 38.7 MB of JSON, a 64 GiB one 39.1 MB (the test sizes
// 100 KB); the non-interactive ones (126 × 18) 12.6 times that, about 490 MB. The default limit takes
// those with room. Reading a 32 GiB one takes ~0.14 s on one core (Release), writing ~0.25 s.
inline constexpr std::size_t kDefaultC1MaxBytes = std::size_t{1} << 30;

struct C1ReadOptions {
  std::size_t max_bytes = kDefaultC1MaxBytes;  // of JSON text; larger input is refused before parsing
  bool allow_unknown_keys = false;
  bool check_derivations = true;
};

C1Output parse_seal_commit_phase1_output(std::string_view json, const std::string& source,
                                         const C1ReadOptions& options = {});

// The challenges partition k of this output proves, derived as the registered proof's feature does it
// (§5; challenges.hpp): interactive from replica_id and seed, synthetic (a selection of the synthetic
// challenges, by seed) and non-interactive from replica_id and comm_r.
std::vector<std::uint64_t> c1_partition_challenges(const RegisteredSealProof& proof,
                                                   const Bytes32& replica_id, const Bytes32& seed,
                                                   const Bytes32& comm_r, unsigned k);

// Curio's envelope (§1): {"SectorNum": u64, "Phase1Out": base64 of the C1 JSON, "SectorSize": u64}, keys
// in any order. Unknown keys are refused unless allowed.
struct CurioC1Envelope {
  std::uint64_t sector_num = 0;
  std::uint64_t sector_size = 0;
  std::string phase1_out;  // the decoded bytes: the C1 JSON text
};

inline constexpr std::size_t kDefaultC1EnvelopeMaxBytes = kDefaultC1MaxBytes / 3 * 4 + 4096;

CurioC1Envelope parse_curio_c1_envelope(std::string_view bytes, const std::string& source,
                                        std::size_t max_bytes = kDefaultC1EnvelopeMaxBytes,
                                        bool allow_unknown_keys = false);

// The envelope and the C1 output in it, SectorSize checked against the registered proof's sector size
// (C1Error at "SectorSize" otherwise). The C1 output's messages name "<source> Phase1Out" as the source.
struct CurioC1Request {
  std::uint64_t sector_num = 0;
  C1Output output;
};
CurioC1Request parse_curio_c1_request(std::string_view bytes, const std::string& source,
                                      const C1ReadOptions& options = {});

// ---- writing (test data and the test-only generator) ----------------------------------------------

// Byte for byte what serde_json::to_vec writes for this SealCommitPhase1Output (compact, keys in
// declaration order, domains as arrays of 32 decimal integers). Everything the circuit does not carry is
// filled in as Rust has it: c_x's rows (the challenged node's labels, recomputed from the parents'
// columns), every leaf (tree D's data leaf, tree R_last's encoded node = last label + data leaf, tree C's
// column hashes), every root (comm_d, comm_c, comm_r_last), each column's index (the challenge, or the
// SDR graph's parents: DRG then expander), labeling proofs per layer (the parent labels repeated to 37,
// layer_index, node), the encoding proof (the last labeling proof), and the paths split into base, sub and
// top proofs. Throws std::invalid_argument when the partitions disagree with the top-level values or
// with the registered proof's shape (it writes data, it does not verify it).
std::string write_seal_commit_phase1_output(const C1Output& c1);

// Go's json.Marshal of Curio's struct: {"SectorNum":…,"Phase1Out":"<base64>","SectorSize":…}.
std::string write_curio_c1_envelope(std::uint64_t sector_num, std::uint64_t sector_size,
                                    std::string_view phase1_out);

}  // namespace cuzk::filecoin
