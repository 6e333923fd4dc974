#include <iostream>

#include "cli/commands.hpp"
#include "groth16/setup.hpp"
#include "io/curve_id.hpp"
#include "io/json.hpp"
#include "io/r1cs_file.hpp"
#include "io/zkey.hpp"

namespace cuzk::cli {

int run_setup(const SetupArgs& args) {
  return io::with_curve(io::peek_curve(args.r1cs), [&]<class C>() {
    const auto cs = io::read_r1cs<C>(args.r1cs);
    std::cerr << "cuzk setup: TEST ONLY — the toxic waste is random and discarded, but anyone who ran this "
                 "could have kept it. Never use these keys for anything of value.\n";
    const auto pk = groth16::setup(cs, groth16::random_toxic_waste<C>(args.gamma_one));
    io::write_zkey<C>(args.zkey_out, pk);
    if (args.vk_out) io::write_vk<C>(*args.vk_out, pk.verifying_key());
    std::cerr << "cuzk setup: " << C::display_name << ", " << cs.constraints.size() << " constraints, "
              << pk.n_vars << " signals, domain " << pk.domain_size << " → " << args.zkey_out << "\n";
    return static_cast<int>(kOk);
  });
}

}  // namespace cuzk::cli
