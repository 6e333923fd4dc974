// A Filecoin job as Curio sends it, as vanilla proofs (PoRep C1 output; WindowPoSt and WinningPoSt sector
// proofs; SnapDeals partition proofs), read and checked when it is submitted: which built-in circuit proves
// it, its partitions, each partition's public inputs as filecoin-proofs computes them from the chain's view
// (challenges from the seed or randomness, commitments), and, when a partition runs, its assignment
// synthesized with every row checked. The engine proves every kind the same way through this interface.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "filecoin/circuit_catalog.hpp"
#include "filecoin/unsatisfied_circuit.hpp"
#include "groth16/bellperson.hpp"
#include "io/bellperson_assignment.hpp"

namespace cuzk::filecoin {

// What a request brings (the gRPC SubmitProofRequest's fields for the kind).
struct VanillaRequest {
  CircuitKind kind = CircuitKind::kPorep;
  std::vector<std::uint8_t> c1;  // PoRep: the C1 envelope or SealCommitPhase1Output JSON
  // PoSt: bincode FallbackPoStSectorProof, one per sector; SnapDeals: bincode PartitionProof per partition
  std::vector<std::vector<std::uint8_t>> proofs;
  std::array<std::uint8_t, 32> randomness{};  // PoSt: the challenge randomness
  std::uint64_t sector_size = 0;              // bytes; 0: from the proof type
  // PoSt: RegisteredPoStProof id, unset: the newest type; SnapDeals: RegisteredUpdateProof id (0 … 4)
  std::optional<std::uint64_t> registered_proof;
  std::uint64_t partition = 0;  // WindowPoSt: the partition's index in the proof
  // SnapDeals: the sector key's comm_r, the new data's comm_d and the new replica's comm_r (32 bytes each,
  // as the chain has them: little-endian field elements).
  std::array<std::uint8_t, 32> comm_r_old{}, comm_d_new{}, comm_r_new{};
};

// A request that cannot be proved (malformed, inconsistent, or for other challenges): the message says what.
struct VanillaRequestError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class VanillaJob {
 public:
  virtual ~VanillaJob() = default;
  virtual const FilecoinCircuit& circuit() const = 0;
  // For logs and errors: "StackedDrg32GiBV1_1 PoRep C2 of sector 7", "StackedDrgWindow32GiBV1_2 …",
  // "StackedDrg32GiBV1 SnapDeals update".
  virtual std::string describe() const = 0;
  virtual std::uint32_t partitions() const = 0;
  // Without ONE (bellperson's verifier order).
  virtual const std::vector<groth16::bellperson::Fr>& public_inputs(std::uint32_t partition) const = 0;
  // The circuit's size as its key must have it: prover rows (input rows included), inputs (ONE
  // included), aux.
  struct Size {
    std::uint64_t prover_rows = 0, inputs = 0, aux = 0;
  };
  virtual Size size() const = 0;
  // The partition's assignment, every row checked (throws UnsatisfiedCircuit naming `what`), and its
  // public inputs compared with public_inputs(partition). `lend` as io::bellperson_assignment's.
  groth16::bellperson::Assignment assignment(std::uint32_t partition, const std::string& what,
                                             const io::bellperson_assignment::Lend& lend) const;

 protected:
  virtual groth16::bellperson::Assignment synthesize(std::uint32_t partition, const std::string& what,
                                                     const io::bellperson_assignment::Lend& lend) const = 0;
};

// Reads and checks the request (throws VanillaRequestError saying what is wrong).
std::shared_ptr<const VanillaJob> read_vanilla_job(const VanillaRequest& request);

// What a circuit's partitions all need and that does not depend on the values (its layout and density
// bitmaps: seconds at 32 GiB), made now: a preload's work, so that the first partitions do not make it.
void prepare_circuit(const FilecoinCircuit& circuit);

}  // namespace cuzk::filecoin
