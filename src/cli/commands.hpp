// The cuzk command-line subcommands. Each returns the process exit status; errors that the user can
// fix (bad files, wrong curve, unsatisfied witness) are thrown as exceptions and reported by main().
#pragma once

#include <optional>
#include <string>

#include "groth16/timings.hpp"

namespace cuzk::cli {

// Exit statuses shared by all subcommands.
enum Exit : int {
  kOk = 0,
  kFailed = 1,    // the operation failed: bad input, invalid proof (verify), unsatisfied witness
  kBadInput = 2,  // verify only: the files could not be read, as opposed to a proof that is wrong
};

using groth16::seconds_since;

// "auto" → cuda when this build has the CUDA backend and a device is present, else cpu; throws for "cuda"
// without one.
std::string resolve_backend(const std::string& requested);

struct ProveArgs {
  std::string zkey, wtns, proof_out, public_out;
  std::optional<std::string> randomness;  // "r,s" in decimal
  std::string backend = "auto";           // cpu | cuda | auto
  bool verbose = false;
  bool self_verify = true;
};
int run_prove(const ProveArgs& args);

struct VerifyArgs {
  std::string vk, public_inputs, proof;
};
int run_verify(const VerifyArgs& args);

struct SetupArgs {
  std::string r1cs, zkey_out;
  std::optional<std::string> vk_out;
  bool gamma_one = false;
};
int run_setup(const SetupArgs& args);

int run_info(const std::string& path);
// Every GPU and the code it runs of this build (cuzk info --devices).
int run_info_devices();

struct ProveBellpersonArgs {
  std::string params, assignment, proof_out;
  std::optional<std::string> randomness;  // "r,s", 0x-hex or decimal
  bool check_subgroup = false;
};
int run_prove_bellperson(const ProveBellpersonArgs& args);

struct VerifyBellpersonArgs {
  std::string vk, inputs, proof;
};
int run_verify_bellperson(const VerifyBellpersonArgs& args);

// cuzk circuit porep: the PoRep partition circuit's counts at a sector size (shape mode), or with
// `record_dir` a record-mode synthesis that also writes record_dir/porep-<size>.cpce.
struct CircuitPorepArgs {
  std::string sector_size;
  bool json = false;
  std::optional<std::string> record_dir;
};
int run_circuit_porep(const CircuitPorepArgs& args);

// cuzk circuit post | winning: the fallback PoSt circuit's size (one WindowPoSt partition, or WinningPoSt).
struct CircuitPostArgs {
  std::string sector_size;
  bool winning = false;
  bool json = false;
};
int run_circuit_post(const CircuitPostArgs& args);

// cuzk circuit update: Filecoin's SnapDeals (empty sector update) partition circuit.
struct CircuitUpdateArgs {
  std::string sector_size;
  bool json = false;
};
int run_circuit_update(const CircuitUpdateArgs& args);

// cuzk prove-porep / verify-porep: Filecoin PoRep C2 from a C1 output (Curio's envelope or the bare
// SealCommitPhase1Output JSON), as the daemon proves it, and its check (docs/filecoin.md).
struct ProvePorepArgs {
  std::string params, c1, proof_out;
  std::string backend = "auto";
};
int run_prove_porep(const ProvePorepArgs& args);

struct VerifyPorepArgs {
  std::string vk, c1, proof;
};
int run_verify_porep(const VerifyPorepArgs& args);

}  // namespace cuzk::cli
