// The circuit repository: a directory with one folder per circuit id,
//
//   <root>/<id>/circuit.zkey     the proving key (snarkjs Groth16; bellperson .params later)
//   <root>/<id>/circuit.toml     optional: kind = "groth16", partitions = 1, priority = "normal"
//
// Keys load on demand (or by preload) and stay in host memory, shared by the jobs that use them
// (shared_ptr reference counts). When loading would exceed the host memory budget, the least recently
// used keys that no job holds are evicted first; a key that every job still needs is kept (the budget
// is then reported as exceeded, never a failed job). evict() frees a key no job holds and refuses one
// in use, so that an operator's evict either frees the memory or says why not.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "engine/priority.hpp"
#include "groth16/types.hpp"
#include "io/curve_id.hpp"

namespace cuzk::engine {

// A request naming a circuit the repository cannot serve (unknown id, unreadable key): a clear message.
struct RepositoryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct CircuitConfig {
  std::string kind = "groth16";
  std::uint32_t partitions = 1;  // proofs per job (independent proofs over one key)
  Priority priority = Priority::kNormal;
};

struct Circuit {
  std::string id;
  io::CurveId curve;
  CircuitConfig config;
  std::size_t bytes = 0;  // host memory the key occupies
  std::variant<groth16::ProvingKey<Bn254>, groth16::ProvingKey<Bls12_381>> key;
};

// Where a circuit's key is: on disk only, or loaded in host memory (device copies are the workers').
enum class Tier { kDisk, kHost };
constexpr const char* to_string(Tier t) {
  return t == Tier::kHost ? "host" : "disk";
}

struct CircuitInfo {
  std::string id;
  Tier tier = Tier::kDisk;
  std::size_t bytes = 0;    // 0 while on disk
  long jobs_holding = 0;    // references besides the repository's own
  double idle_seconds = 0;  // since last use, loaded keys only
};

class Repository {
 public:
  // host_budget_bytes = 0: no limit.
  Repository(std::filesystem::path root, std::size_t host_budget_bytes);

  const std::filesystem::path& root() const { return root_; }

  // The loaded circuit, loading it first if needed. Throws RepositoryError.
  std::shared_ptr<const Circuit> acquire(const std::string& id);

  struct PreloadResult {
    bool already_loaded = false;
    double load_ms = 0;
  };
  PreloadResult preload(const std::string& id);

  struct EvictResult {
    bool was_loaded = false;
    std::size_t freed_bytes = 0;
    long jobs_holding = 0;  // > 0: the key is in use and was not evicted
  };
  // Unloads the key unless jobs hold it (then nothing changes and jobs_holding says how many).
  // `other_owners` references are not jobs (the engine's device copies), and are expected to be dropped by
  // the caller once this succeeds.
  EvictResult evict(const std::string& id, long other_owners = 0);

  // Every circuit folder under the root, loaded or not, sorted by id.
  std::vector<CircuitInfo> list() const;
  std::size_t loaded_bytes() const;
  std::size_t budget_bytes() const { return budget_; }

  // Ids are folder names: letters, digits, '.', '_', '-', not starting with '.'; at most 128 characters.
  static bool valid_id(const std::string& id);

 private:
  struct Entry {
    std::shared_ptr<const Circuit> circuit;
    std::chrono::steady_clock::time_point last_used;
  };
  std::shared_ptr<const Circuit> load(const std::string& id) const;
  void make_room(std::size_t bytes);  // with mutex_ held
  std::size_t loaded_bytes_locked() const;

  std::filesystem::path root_;
  std::size_t budget_;
  mutable std::mutex mutex_;
  std::map<std::string, Entry> loaded_;
};

}  // namespace cuzk::engine
