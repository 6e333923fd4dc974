#include <iostream>

#include "cli/commands.hpp"
#include "groth16/verifier.hpp"
#include "io/curve_id.hpp"
#include "io/json.hpp"

namespace cuzk::cli {

int run_verify(const VerifyArgs& args) {
  const auto curve = io::peek_json_curve(args.vk);
  return io::with_curve(curve, [&]<class C>() {
    const auto vk = io::read_vk<C>(args.vk);
    const auto public_inputs = io::read_public<C>(args.public_inputs);
    const auto proof = io::read_proof<C>(args.proof);
    const auto result = groth16::verify(vk, public_inputs, proof);
    if (result.valid) {
      std::cout << "OK!\n";
      return static_cast<int>(kOk);
    }
    std::cerr << "Invalid proof: " << result.reason << "\n";
    return static_cast<int>(kFailed);
  });
}

}  // namespace cuzk::cli
