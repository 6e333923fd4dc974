#include "filecoin/update_job.hpp"

#include <tbb/parallel_for.h>

#include <array>

#include "ff/encoding.hpp"
#include "filecoin/update_assignment.hpp"
#include "filecoin/update_synthesis.hpp"
#include "filecoin/update_vanilla.hpp"

namespace cuzk::filecoin {

namespace bp = groth16::bellperson;

namespace {

struct UpdateProofType {
  const char* name;
  std::uint64_t sector_bytes;
};
// go-state-types abi.RegisteredUpdateProof, filecoin-proofs-api RegisteredUpdateProof: by id.
constexpr std::array<UpdateProofType, 5> kUpdateProofTypes{{
    {"StackedDrg2KiBV1", std::uint64_t{2} << 10},
    {"StackedDrg8MiBV1", std::uint64_t{8} << 20},
    {"StackedDrg512MiBV1", std::uint64_t{512} << 20},
    {"StackedDrg32GiBV1", std::uint64_t{32} << 30},
    {"StackedDrg64GiBV1", std::uint64_t{64} << 30},
}};

class UpdateJob final : public VanillaJob {
 public:
  UpdateJob(std::uint64_t type, const FilecoinCircuit& circuit, std::vector<UpdatePartitionProof> partitions,
            std::vector<std::vector<Fr>> inputs)
      : type_(type), circuit_(&circuit), partitions_(std::move(partitions)), inputs_(std::move(inputs)) {}
  const FilecoinCircuit& circuit() const override { return *circuit_; }
  std::string describe() const override {
    return std::string(kUpdateProofTypes[type_].name) + " SnapDeals update";
  }
  std::uint32_t partitions() const override { return static_cast<std::uint32_t>(partitions_.size()); }
  const std::vector<Fr>& public_inputs(std::uint32_t k) const override { return inputs_[k]; }
  Size size() const override {
    const UpdateLayout& l = update_layout(*circuit_->update);
    return {l.prover_rows(), l.inputs(), l.aux()};
  }

 protected:
  bp::Assignment synthesize(std::uint32_t k, const std::string& what,
                            const io::bellperson_assignment::Lend& lend) const override {
    return checked_update_prover_assignment(*circuit_->update, partitions_[k], what, lend);
  }

 private:
  std::uint64_t type_;
  const FilecoinCircuit* circuit_;
  std::vector<UpdatePartitionProof> partitions_;
  std::vector<std::vector<Fr>> inputs_;
};

// The proof type: registered_proof when it is set and not 0 (0, StackedDrg2KiBV1, is also "unset" on the
// wire), else the sector size's.
std::uint64_t proof_type(const VanillaRequest& r) {
  if (r.registered_proof && *r.registered_proof != 0) {
    const std::uint64_t id = *r.registered_proof;
    if (id >= kUpdateProofTypes.size())
      throw VanillaRequestError(
          "registered_proof " + std::to_string(id) +
          " is no RegisteredUpdateProof (0 … 4: StackedDrg2KiBV1, 8MiB, 512MiB, 32GiB, 64GiB)");
    if (r.sector_size != 0 && r.sector_size != kUpdateProofTypes[id].sector_bytes)
      throw VanillaRequestError(std::string(kUpdateProofTypes[id].name) + " is for sectors of " +
                                std::to_string(kUpdateProofTypes[id].sector_bytes) +
                                " bytes, but the request's sector_size is " + std::to_string(r.sector_size));
    return id;
  }
  if (r.sector_size == 0) {
    if (r.registered_proof) return 0;
    throw VanillaRequestError(
        "a SnapDeals request needs its sector_size or registered_proof (a RegisteredUpdateProof)");
  }
  for (std::uint64_t id = 0; id < kUpdateProofTypes.size(); ++id)
    if (kUpdateProofTypes[id].sector_bytes == r.sector_size) return id;
  throw VanillaRequestError("no SnapDeals proof type for sectors of " + std::to_string(r.sector_size) +
                            " bytes (2KiB, 8MiB, 512MiB, 32GiB and 64GiB have one)");
}

Fr commitment(const std::array<std::uint8_t, 32>& bytes, const char* name) {
  const std::optional<Fr> x = ff::from_bytes_le<Fr>(bytes.data());
  if (!x)
    throw VanillaRequestError(
        std::string(name) +
        " is not a canonical BLS12-381 scalar (32 bytes little-endian, below the modulus)");
  return *x;
}

}  // namespace

const char* registered_update_proof_name(std::uint64_t id) {
  return id < kUpdateProofTypes.size() ? kUpdateProofTypes[id].name : nullptr;
}

std::uint64_t registered_update_proof_sector_bytes(std::uint64_t id) {
  return id < kUpdateProofTypes.size() ? kUpdateProofTypes[id].sector_bytes : 0;
}

std::shared_ptr<const VanillaJob> read_update_job(const VanillaRequest& r) {
  if (r.kind != CircuitKind::kSnapDeals) throw VanillaRequestError("not a SnapDeals request");
  const std::uint64_t type = proof_type(r);
  const std::string name = kUpdateProofTypes[type].name;
  const FilecoinCircuit& circuit = update_circuit(kUpdateProofTypes[type].sector_bytes);
  const UpdateParams& params = *circuit.update;
  const UpdateCommitments commitments{commitment(r.comm_r_old, "comm_r_old"),
                                      commitment(r.comm_d_new, "comm_d_new"),
                                      commitment(r.comm_r_new, "comm_r_new")};
  if (r.proofs.size() != params.partitions)
    throw VanillaRequestError(name + ": " + std::to_string(r.proofs.size()) +
                              " partition proofs in the request; a " + params.name + " sector update has " +
                              std::to_string(params.partitions));
  std::vector<UpdatePartitionProof> partitions(r.proofs.size());
  std::vector<std::string> errors(r.proofs.size());
  tbb::parallel_for(std::size_t(0), r.proofs.size(), [&](std::size_t k) {
    try {
      const std::string what = "partition proof " + std::to_string(k);
      const UpdateVanillaProof proof = decode_update_vanilla_proof(r.proofs[k], params, what);
      partitions[k] = update_circuit_proof(params, k, params.h_default, commitments, proof, what);
    } catch (const std::exception& e) {
      errors[k] = e.what();
    }
  });
  for (const std::string& e : errors)
    if (!e.empty()) throw VanillaRequestError(name + ": " + e);
  std::vector<std::vector<Fr>> inputs;
  for (std::uint64_t k = 0; k < params.partitions; ++k)
    inputs.push_back(update_public_inputs(params, k, params.h_default, commitments));
  return std::make_shared<UpdateJob>(type, circuit, std::move(partitions), std::move(inputs));
}

}  // namespace cuzk::filecoin
