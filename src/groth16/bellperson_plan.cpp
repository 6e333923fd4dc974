#include "groth16/bellperson_plan.hpp"

#include <algorithm>
#include <cstdint>

#include "groth16/bellperson.hpp"

namespace cuzk::groth16::bellperson {

gpu::Footprint gpu_footprint(const io::bellperson::Params& params) {
  const auto n = params.lengths();
  const std::size_t m = n.h + 1;  // the FFT domain: h holds m − 1 points
  gpu::Footprint f;
  f.tables = m * sizeof(Fr);
  f.points = (n.h + n.l + n.a + n.b) * sizeof(io::bellperson::G1) + n.b * sizeof(io::bellperson::G2);
  // The H stage holds a, b, c on the device and writes the plain quotient beside them; the MSMs then hold
  // that quotient (the H MSM's scalars) and, one MSM at a time, the largest of the other scalar vectors.
  const std::size_t plain = sizeof(Fr);  // a plain scalar has the size of a Montgomery one
  const std::size_t h_stage = 3 * m * sizeof(Fr) + m * plain;
  const std::size_t msm_stage = m * plain + std::max({n.l, n.a, n.b}) * plain;
  // With resident points the witness-side MSMs take the split form: [inputs, aux] and the A and B queries
  // gathered from it on the device, each classified (two 4-byte positions per value, and per value being
  // classified two flag bytes beside the one of the gather).
  const std::size_t inputs = params.vk.ic.size(), queries = n.a + n.b;
  const std::size_t split_stage = (inputs + n.l + queries) * plain +
                                  (queries + n.l) * 2 * sizeof(std::uint32_t) +
                                  3 * std::max(inputs + n.l, n.a);
  f.proof = std::max({h_stage, msm_stage, split_stage}) + gpu::msm_workspace(std::max(m, n.l));
  return f;
}

}  // namespace cuzk::groth16::bellperson
