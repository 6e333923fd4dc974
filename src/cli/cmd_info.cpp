#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "cli/commands.hpp"
#include "groth16/bellperson_plan.hpp"
#include "groth16/gpu_plan.hpp"
#include "io/bellperson.hpp"
#include "io/curve_id.hpp"
#include "io/json.hpp"
#include "io/precompiled_circuit.hpp"
#include "io/r1cs_file.hpp"
#include "io/wtns.hpp"
#include "io/zkey.hpp"

namespace cuzk::cli {

namespace {

std::string read_magic(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open file");
  char m[4] = {};
  in.read(m, 4);
  return std::string(m, static_cast<std::size_t>(in.gcount()));
}

int describe_json(const std::string& path) {
  std::ifstream in(path);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path + ": neither a snarkjs binary file (.zkey/.wtns/.r1cs) nor valid JSON (" +
                             e.what() + ")");
  }
  if (j.is_array()) {
    // public.json carries no curve; its values are checked against r when a verifier reads them.
    std::cout << path << ": public inputs (public.json), " << j.size() << " values\n";
    return kOk;
  }
  const auto curve = io::peek_json_curve(path);
  return io::with_curve(curve, [&]<class C>() {
    if (j.contains("pi_a")) {
      io::read_proof<C>(path);
      std::cout << path << ": Groth16 proof (" << C::display_name << "), points on the curve\n";
    } else if (j.contains("IC")) {
      auto vk = io::read_vk<C>(path);
      std::cout << path << ": Groth16 verification key (" << C::display_name << "), nPublic " << vk.n_public()
                << "\n";
    } else {
      throw std::runtime_error(path + ": JSON that is neither a proof nor a verification key");
    }
    return static_cast<int>(kOk);
  });
}

// A bellperson .params key (no magic: known by its name), read without its points: its shape and what each
// GPU plan would hold in device memory.
int describe_params(const std::string& path) {
  const auto p = io::bellperson::read_params(path, false, true);
  const auto n = p.lengths();
  std::cout << path << ": bellperson Groth16 parameters (BLS12-381), " << p.vk.ic.size()
            << " public inputs (ONE included), h " << n.h << " (FFT domain " << n.h + 1 << "), l " << n.l
            << ", a " << n.a << ", b " << n.b << ", " << std::filesystem::file_size(path) << " bytes\n";
  std::cout << "GPU plans (device memory, estimated): "
            << groth16::gpu::describe_needs(groth16::bellperson::gpu_footprint(p)) << "\n";
  return kOk;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

int run_info(const std::string& path) {
  if (ends_with(path, ".params")) return describe_params(path);
  const std::string magic = read_magic(path);
  if (magic == "zkey") {
    const auto info = io::describe_zkey(path);
    std::cout << info.to_string();
    // What each GPU plan would hold in device memory (docs/config.md, "GPU memory and faults"): how an
    // operator sizes engine.vram_limit, or sees which plan a card of a given size gets.
    const auto f = io::with_curve(info.curve, [&]<class C>() {
      return groth16::gpu::footprint_of_shape<C>(info.domain_size, info.n_vars, info.n_public, info.n_coefs);
    });
    std::cout << "GPU plans (device memory, estimated): " << groth16::gpu::describe_needs(f) << "\n";
    return kOk;
  }
  if (magic == "wtns" || magic == "r1cs") {
    const auto curve = io::peek_curve(path);
    return io::with_curve(curve, [&]<class C>() {
      if (magic == "wtns") {
        auto w = io::read_wtns<C>(path);
        std::cout << path << ": witness (" << C::display_name << "), " << w.size() << " values\n";
      } else {
        auto cs = io::read_r1cs<C>(path);
        std::size_t terms = 0;
        for (const auto& c : cs.constraints) terms += c.a.size() + c.b.size() + c.c.size();
        std::cout << path << ": R1CS (" << C::display_name << "), " << cs.constraints.size()
                  << " constraints, " << cs.n_wires << " wires, " << cs.n_pub_out << " public outputs, "
                  << cs.n_pub_in << " public inputs, " << cs.n_prv_in << " private inputs, " << terms
                  << " terms\n";
      }
      return static_cast<int>(kOk);
    });
  }
  if (magic == "cpce") {
    // The whole file is read and checked (matrices, values, densities against the matrices).
    io::PrecompiledCircuitHeader h;
    const auto pc = io::read_precompiled_circuit(path, h);
    std::cout << path << ": pre-compiled circuit \"" << h.circuit_id << "\" (BLS12-381), " << h.constraints
              << " constraints + " << h.inputs << " implied input rows = " << h.prover_constraints() << ", "
              << h.inputs << " inputs (ONE included), " << h.aux << " aux, non-zeros A " << h.nnz_a << " (+ "
              << h.inputs << " = " << h.prover_nnz_a() << ") B " << h.nnz_b << " C " << h.nnz_c
              << ", density a_aux " << h.popcount_a_aux << "/" << h.aux << " b_input " << h.popcount_b_input
              << "/" << h.inputs << " b_aux " << h.popcount_b_aux << "/" << h.aux
              << ", all sections checked\n";
    return kOk;
  }
  return describe_json(path);
}

}  // namespace cuzk::cli
