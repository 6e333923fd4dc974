// cuzk prove-bellperson / verify-bellperson: Filecoin-style proofs from bellperson .params
// (docs/filecoin.md).
#include <fstream>
#include <iostream>

#include "cli/commands.hpp"
#include "ff/random.hpp"
#include "groth16/bellperson.hpp"
#include "io/bellperson.hpp"
#include "io/bellperson_json.hpp"
#include "io/error.hpp"
#include "io/whole_file.hpp"

namespace cuzk::cli {

namespace bp = groth16::bellperson;
using bp::Fr;

namespace {

std::pair<Fr, Fr> parse_rs(const std::string& text) {
  const auto comma = text.find(',');
  const auto r =
      comma == std::string::npos ? std::nullopt : io::bellperson_json::parse_value(text.substr(0, comma));
  const auto s =
      comma == std::string::npos ? std::nullopt : io::bellperson_json::parse_value(text.substr(comma + 1));
  if (!r || !s || r->is_zero() || s->is_zero())
    throw std::invalid_argument(
        "--randomness expects r,s: two non-zero field elements (0x-prefixed hex or decimal)");
  return {*r, *s};
}

// Without density bitmaps every variable counts as present; the key must then have a point for each.
void fill_densities(bp::Assignment& w, const io::bellperson::Params& p, std::size_t partition) {
  const bool given = w.a_aux.bits || w.b_inputs.bits || w.b_aux.bits;
  if (given) return;
  const std::size_t vars = w.inputs.size() + w.aux.size();
  if (p.a.size() != vars || p.b_g1.size() != vars)
    throw std::invalid_argument(
        "partition " + std::to_string(partition) + ": the key filters A/B by density (a has " +
        std::to_string(p.a.size()) + " points, b " + std::to_string(p.b_g1.size()) + ", for " +
        std::to_string(vars) + " variables): give a_aux_density, b_input_density and b_aux_density");
  for (auto* d : {&w.a_aux, &w.b_aux}) {
    *d = bp::Density::of_size(w.aux.size());
    for (std::size_t i = 0; i < w.aux.size(); ++i) d->set(i);
  }
  w.b_inputs = bp::Density::of_size(w.inputs.size());
  for (std::size_t i = 0; i < w.inputs.size(); ++i) w.b_inputs.set(i);
}

}  // namespace

int run_prove_bellperson(const ProveBellpersonArgs& args) {
  const auto params = io::bellperson::read_params(args.params, args.check_subgroup);
  auto parts = io::bellperson_json::read_assignments(args.assignment);
  const auto rs = args.randomness ? std::optional(parse_rs(*args.randomness)) : std::nullopt;
  std::vector<std::uint8_t> all;  // written only when every partition proved and verified
  for (std::size_t k = 0; k < parts.size(); ++k) {
    fill_densities(parts[k], params, k);
    const Fr r = rs ? rs->first : ff::random_nonzero_os<Fr>(),
             s = rs ? rs->second : ff::random_nonzero_os<Fr>();
    groth16::Proof<bp::Curve> proof;
    try {
      proof = bp::prove(params, parts[k], r, s);
    } catch (const bp::Error& e) {
      throw std::invalid_argument("partition " + std::to_string(k) + ": " + e.what());
    }
    // Every proof is checked before it is written: an assignment that does not satisfy the circuit
    // produces a proof that does not verify, and nothing is written for it.
    const std::vector<Fr> pub(parts[k].inputs.begin() + 1, parts[k].inputs.end());
    if (const auto v = bp::verify(params.vk, pub, proof); !v.valid)
      throw std::runtime_error("partition " + std::to_string(k) + ": the proof does not verify (" + v.reason +
                               "): the assignment does not satisfy the circuit of " + args.params);
    const auto bytes = bp::encode_proof(proof);
    all.insert(all.end(), bytes.begin(), bytes.end());
  }
  std::ofstream out(args.proof_out, std::ios::binary);
  out.write(reinterpret_cast<const char*>(all.data()), static_cast<std::streamsize>(all.size()));
  out.close();
  if (!out) throw std::runtime_error("writing " + args.proof_out + " failed");
  std::cerr << "cuzk prove-bellperson: " << parts.size() << " partition" << (parts.size() == 1 ? "" : "s")
            << ", " << 192 * parts.size() << " bytes → " << args.proof_out << "\n";
  return kOk;
}

int run_verify_bellperson(const VerifyBellpersonArgs& args) {
  io::bellperson::VerifyingKey vk;
  std::vector<std::vector<Fr>> inputs;
  std::vector<groth16::Proof<bp::Curve>> proofs;
  try {
    vk = io::bellperson::read_vk(args.vk);
    inputs = io::bellperson_json::read_inputs(args.inputs);
    const std::vector<std::uint8_t> bytes = io::read_whole_file_bytes(args.proof);
    if (bytes.empty() || bytes.size() % 192 != 0)
      throw io::FormatError(args.proof,
                            std::to_string(bytes.size()) + " bytes: not a whole number of 192-byte proofs");
    if (bytes.size() / 192 != inputs.size())
      throw io::FormatError(args.proof, std::to_string(bytes.size() / 192) + " proofs but " + args.inputs +
                                            " has " + std::to_string(inputs.size()) + " partitions' inputs");
    for (std::size_t k = 0; k < inputs.size(); ++k)
      proofs.push_back(bp::decode_proof(std::span(bytes).subspan(192 * k, 192), args.proof, k));
  } catch (const std::exception& e) {
    std::cerr << "cuzk verify-bellperson: " << e.what() << "\n";
    return kBadInput;
  }
  for (std::size_t k = 0; k < proofs.size(); ++k) {
    if (inputs[k].size() + 1 != vk.ic.size()) {
      std::cerr << "cuzk verify-bellperson: partition " << k << " has " << inputs[k].size()
                << " public inputs; the key expects " << vk.ic.size() - 1 << "\n";
      return kBadInput;
    }
    if (const auto v = bp::verify(vk, inputs[k], proofs[k]); !v.valid) {
      std::cout << "INVALID: partition " << k << ": " << v.reason << "\n";
      return kFailed;
    }
  }
  std::cout << "OK: " << proofs.size() << " partition proof" << (proofs.size() == 1 ? "" : "s")
            << " verified\n";
  return kOk;
}

}  // namespace cuzk::cli
