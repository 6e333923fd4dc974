#include "filecoin/vanilla_job.hpp"

#include <algorithm>

#include "filecoin/porep_assignment.hpp"
#include "filecoin/porep_c2.hpp"
#include "filecoin/porep_synthesis.hpp"
#include "filecoin/post_assignment.hpp"
#include "filecoin/post_job.hpp"
#include "filecoin/update_assignment.hpp"
#include "filecoin/update_job.hpp"
#include "filecoin/update_synthesis.hpp"

namespace cuzk::filecoin {

namespace bp = groth16::bellperson;

bp::Assignment VanillaJob::assignment(std::uint32_t partition, const std::string& what,
                                      const io::bellperson_assignment::Lend& lend) const {
  bp::Assignment w = synthesize(partition, what, lend);
  // Nor can a proof verify whose circuit's public inputs are not the ones the chain computes.
  const auto& expected = public_inputs(partition);
  if (w.inputs.size() != expected.size() + 1 ||
      !std::equal(expected.begin(), expected.end(), w.inputs.begin() + 1))
    throw UnsatisfiedCircuit(what + ": the circuit's public inputs are not the ones its challenges give");
  return w;
}

namespace {

class PorepJob final : public VanillaJob {
 public:
  explicit PorepJob(PorepC2Input in) : in_(std::move(in)), circuit_(&porep_circuit(in_.params())) {}
  const FilecoinCircuit& circuit() const override { return *circuit_; }
  std::string describe() const override {
    return std::string(in_.proof->name) + " PoRep C2" +
           (in_.sector_number ? " of sector " + std::to_string(in_.sector_number) : std::string());
  }
  std::uint32_t partitions() const override { return static_cast<std::uint32_t>(in_.partitions.size()); }
  const std::vector<Fr>& public_inputs(std::uint32_t k) const override { return in_.public_inputs[k]; }
  Size size() const override {
    const PorepLayout& l = porep_layout(in_.params());
    return {l.prover_rows(), l.inputs(), l.aux()};
  }

 protected:
  bp::Assignment synthesize(std::uint32_t k, const std::string& what,
                            const io::bellperson_assignment::Lend& lend) const override {
    return checked_porep_prover_assignment(in_.params(), in_.partitions[k], what, lend);
  }

 private:
  PorepC2Input in_;
  const FilecoinCircuit* circuit_;
};

}  // namespace

std::shared_ptr<const VanillaJob> read_vanilla_job(const VanillaRequest& request) {
  try {
    if (request.kind == CircuitKind::kPorep)
      return std::make_shared<PorepJob>(read_porep_c1(request.c1, "the C1 output", request.sector_size));
    if (request.kind == CircuitKind::kSnapDeals) return read_update_job(request);
    return read_post_job(request);
  } catch (const VanillaRequestError&) {
    throw;
  } catch (
      const std::exception& e) {  // C1Error, Post/UpdateVanillaError, std::invalid_argument: the request's
    throw VanillaRequestError(e.what());
  }
}

void prepare_circuit(const FilecoinCircuit& circuit) {
  if (circuit.porep) {
    porep_layout(*circuit.porep);
    porep_densities(*circuit.porep);
  }
  if (circuit.post) {
    post_layout(*circuit.post);
    post_densities(*circuit.post);
  }
  if (circuit.update) {
    update_layout(*circuit.update);
    update_densities(*circuit.update);
  }
}

}  // namespace cuzk::filecoin
