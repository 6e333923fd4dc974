#include "filecoin/c1_test_data.hpp"

#include <stdexcept>
#include <string>

#include "filecoin/porep_vanilla_verify.hpp"

namespace cuzk::filecoin {

C1Output c1_output_of(const PorepParams& params, const PorepTestSector& sector) {
  if (sector.partitions.empty()) throw std::invalid_argument("C1 test data: a sector without partitions");
  C1Output out;
  out.registered_proof =
      sector.proof ? sector.proof : &registered_seal_proof_by_id(registered_seal_proof_v1_1(params));
  if (out.registered_proof->sector_bytes != params.sector_bytes)
    throw std::invalid_argument("C1 test data: a " + std::string(out.registered_proof->name) +
                                " sector for the parameters of another size");
  const PorepPartitionProof& first = sector.partitions.front().proof;
  out.comm_r = fr_to_repr(first.comm_r);
  out.comm_d = fr_to_repr(first.comm_d);
  out.replica_id = sector.replica_id;
  out.seed = sector.interactive_seed;
  out.ticket = sector.ticket;
  for (const PorepTestPartition& partition : sector.partitions) out.partitions.push_back(partition.proof);
  return out;
}

C1Output make_test_c1_output(const PorepParams& params, std::uint64_t seed) {
  return c1_output_of(params, make_test_porep_sector(params, seed));
}

C1Output make_test_c1_output(const RegisteredSealProof& proof, std::uint64_t seed) {
  return c1_output_of(proof.params(), make_test_porep_sector(proof, seed));
}

}  // namespace cuzk::filecoin
