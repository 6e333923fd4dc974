#include "filecoin/post_job.hpp"

#include <tbb/parallel_for.h>

#include "ff/encoding.hpp"
#include "filecoin/post_assignment.hpp"
#include "filecoin/post_vanilla.hpp"
#include "filecoin/registered_post_proof.hpp"

namespace cuzk::filecoin {

namespace bp = groth16::bellperson;

namespace {

class PostJob final : public VanillaJob {
 public:
  PostJob(const RegisteredPostProof& type, const FilecoinCircuit& circuit,
          std::vector<PostSectorProof> sectors, std::vector<Fr> inputs, std::uint64_t partition,
          std::size_t proofs)
      : type_(&type),
        circuit_(&circuit),
        sectors_(std::move(sectors)),
        partition_(partition),
        proofs_(proofs),
        inputs_(std::move(inputs)) {}
  const FilecoinCircuit& circuit() const override { return *circuit_; }
  std::string describe() const override {
    std::string s =
        std::string(type_->name) + " of " + std::to_string(proofs_) + " sector" + (proofs_ == 1 ? "" : "s");
    if (type_->kind == PostKind::kWindow) s += ", partition " + std::to_string(partition_);
    return s;
  }
  std::uint32_t partitions() const override { return 1; }
  const std::vector<Fr>& public_inputs(std::uint32_t) const override { return inputs_; }
  Size size() const override {
    const PostLayout& l = post_layout(*circuit_->post);
    return {l.prover_rows(), l.inputs(), l.aux()};
  }

 protected:
  bp::Assignment synthesize(std::uint32_t, const std::string& what,
                            const io::bellperson_assignment::Lend& lend) const override {
    return checked_post_prover_assignment(*circuit_->post, sectors_, what, lend);
  }

 private:
  const RegisteredPostProof* type_;
  const FilecoinCircuit* circuit_;
  std::vector<PostSectorProof> sectors_;
  std::uint64_t partition_;
  std::size_t proofs_;
  std::vector<Fr> inputs_;
};

const RegisteredPostProof& proof_type(const VanillaRequest& r, PostKind kind) {
  const char* kind_name = kind == PostKind::kWindow ? "WindowPoSt" : "WinningPoSt";
  if (!r.registered_proof) {
    if (r.sector_size == 0)
      throw VanillaRequestError(std::string("a ") + kind_name +
                                " request needs its sector_size or registered_proof (a RegisteredPoStProof)");
    try {
      return latest_registered_post_proof(kind, r.sector_size);
    } catch (const std::invalid_argument& e) {
      throw VanillaRequestError(e.what());
    }
  }
  const RegisteredPostProof* type = find_registered_post_proof(*r.registered_proof);
  if (!type)
    throw VanillaRequestError(
        "registered_proof " + std::to_string(*r.registered_proof) +
        " is no RegisteredPoStProof (0..14: Winning V1, Window V1, Window V1_2 per size)");
  if (type->kind != kind)
    throw VanillaRequestError("registered_proof " + std::to_string(type->id) + " is " +
                              std::string(type->name) + ", not a " + kind_name + " proof type");
  if (r.sector_size != 0 && r.sector_size != type->sector_bytes)
    throw VanillaRequestError(std::string(type->name) + " is for sectors of " +
                              std::to_string(type->sector_bytes) +
                              " bytes, but the request's sector_size is " + std::to_string(r.sector_size));
  return *type;
}

}  // namespace

std::shared_ptr<const VanillaJob> read_post_job(const VanillaRequest& r) {
  const PostKind kind = r.kind == CircuitKind::kWinningPost ? PostKind::kWinning : PostKind::kWindow;
  if (r.kind != CircuitKind::kWindowPost && r.kind != CircuitKind::kWinningPost)
    throw VanillaRequestError("not a PoSt request");
  const RegisteredPostProof& type = proof_type(r, kind);
  const FilecoinCircuit& circuit = post_circuit(kind, type.sector_bytes);
  const PostParams& params = *circuit.post;
  // filecoin-proofs takes the randomness as a field element (as_safe_commitment) and refuses any other.
  if (!ff::from_bytes_le<Fr>(r.randomness.data()))
    throw VanillaRequestError(
        "randomness is not a canonical BLS12-381 scalar (32 bytes little-endian, below "
        "the modulus: the chain's randomness has its top two bits cleared)");
  if (r.proofs.empty())
    throw VanillaRequestError(std::string(type.name) + ": no vanilla proofs in the request");
  if (kind == PostKind::kWinning && r.partition != 0)
    throw VanillaRequestError("WinningPoSt has one partition; the request's partition_index is " +
                              std::to_string(r.partition));
  // The vanilla proof of a WinningPoSt sector has all 66 challenges (the circuit's one-challenge sectors).
  PostParams proof_params = params;
  if (kind == PostKind::kWinning) proof_params.challenges = params.sectors * params.challenges;
  std::vector<PostVanillaProof> proofs(r.proofs.size());
  std::vector<std::string> errors(r.proofs.size());
  tbb::parallel_for(std::size_t(0), r.proofs.size(), [&](std::size_t i) {
    try {
      proofs[i] = decode_post_vanilla_proof(r.proofs[i], proof_params, "vanilla proof " + std::to_string(i));
    } catch (const std::exception& e) {
      errors[i] = e.what();
    }
  });
  for (const std::string& e : errors)
    if (!e.empty()) throw VanillaRequestError(std::string(type.name) + ": " + e);
  auto sectors = post_circuit_sectors(params, proofs, r.randomness, type.api_version, r.partition);
  auto inputs = post_public_inputs(params, proofs, r.randomness, type.api_version, r.partition);
  return std::make_shared<PostJob>(type, circuit, std::move(sectors), std::move(inputs), r.partition,
                                   proofs.size());
}

}  // namespace cuzk::filecoin
