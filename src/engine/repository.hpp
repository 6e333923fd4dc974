// The circuit repository: a directory with one folder per circuit id,
//
//   <root>/<id>/circuit.zkey     the proving key: snarkjs Groth16 (kind "groth16"), or
//   <root>/<id>/circuit.params   a bellperson (Filecoin) key (kind "bellperson"; docs/filecoin.md)
//   <root>/<id>/circuit.toml     optional: kind (default: from the key file), partitions = 1, priority =
//   "normal"
//
// and Filecoin's circuits by their built-in ids (porep-2k … porep-64g, wpost-*, winning-*:
// filecoin/circuit_catalog.hpp), which
// need no folder: their key is the standard parameter file in the parameter cache (set_parameter_cache), as
// filecoin-proofs finds it. A folder of the same id takes precedence (a key kept elsewhere, or a test key).
//
// Keys load on demand (or by preload) and stay in host memory, shared by the jobs that use them
// (shared_ptr reference counts). Residency tiers, fastest first:
//   gpu     a device holds a copy (the engine's workers own those; reported by the engine)
//   pinned  decoded in host memory that is page-locked for the GPU (a Pinner was set: CUDA backend),
//           so uploads and streamed MSMs run at full PCIe speed
//   host    decoded in pageable host memory (CPU backend, or the pinned budget is spent, or pinning
//           failed: the key still serves, only slower to upload)
//   mapped  evicted under the budget, but the key file stays memory-mapped: the next use decodes from the
//           mapping (page cache) instead of opening and reading the file again; the kernel may reclaim
//           those pages at any time, so they do not count against the budget
//   disk    not loaded
// When loading would exceed the host memory budget, the least recently used keys that no job holds are
// demoted to mapped first; a key that every job still needs is kept (the budget is then reported as
// exceeded, never a failed job). evict() takes a key no job holds down to disk and refuses one in use,
// so that an operator's evict either frees the memory or says why not.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "engine/key_store.hpp"
#include "engine/priority.hpp"
#include "groth16/types.hpp"
#include "io/bellperson.hpp"
#include "io/curve_id.hpp"
#include "io/mapped_file.hpp"

namespace cuzk::engine {

// A request naming a circuit the repository cannot serve (unknown id, unreadable key): a clear message.
struct RepositoryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct CircuitConfig {
  std::string kind = "groth16";  // or "bellperson"
  std::uint32_t partitions = 1;  // proofs per job (independent proofs over one key)
  Priority priority = Priority::kNormal;
};

struct Circuit {
  std::string id;
  io::CurveId curve;
  CircuitConfig config;
  std::size_t bytes = 0;  // host memory the key occupies
  std::variant<groth16::ProvingKey<Bn254>, groth16::ProvingKey<Bls12_381>, io::bellperson::Params> key;
  // The key holds its verifying key and counts only, no points (Repository::set_verifying_only): it can
  // check witnesses' shapes and proofs, not prove.
  bool verifying_only = false;
  // Its arrays are views of a shared key image (Repository::set_key_store), not this process's memory.
  bool shared_image = false;
  // The key file's version when it was read (size, modification time, inode): names what a device copy of
  // the key holds, for the device memory a worker process's successor maps again (cuda/kept_array.hpp).
  std::string key_version;
  bool bellperson() const { return std::holds_alternative<io::bellperson::Params>(key); }
  // Page-lock registrations of the key's big vectors; declared after `key` so that they are released
  // before the memory they cover.
  std::vector<std::shared_ptr<void>> pins;
  std::size_t pinned_bytes = 0;
};

// Where a circuit's key is (see the top of this file).
enum class Tier { kDisk, kMapped, kHost, kPinned, kGpu };
constexpr const char* to_string(Tier t) {
  switch (t) {
    case Tier::kGpu:
      return "gpu";
    case Tier::kPinned:
      return "pinned";
    case Tier::kHost:
      return "host";
    case Tier::kMapped:
      return "mapped";
    default:
      return "disk";
  }
}

// Page-locks [data, data + bytes) for the GPU and returns the owner of the registration (released when the
// last copy goes); throws when the range cannot be locked.
using Pinner = std::function<std::shared_ptr<void>(void* data, std::size_t bytes)>;

struct CircuitInfo {
  std::string id;
  Tier tier = Tier::kDisk;
  std::size_t bytes = 0;  // decoded size in host memory; the file's size while mapped; 0 on disk
  std::size_t pinned_bytes = 0;
  long jobs_holding = 0;    // references besides the repository's own
  double idle_seconds = 0;  // since last use, loaded keys only
};

class Repository {
 public:
  // host_budget_bytes = 0: no limit.
  Repository(std::filesystem::path root, std::size_t host_budget_bytes);

  // Keys loaded from now on have their point vectors page-locked through `pin`, while the pinned total stays
  // within `pinned_budget_bytes` (0: only the host budget limits it). Set once, before the first load.
  void set_pinner(Pinner pin, std::size_t pinned_budget_bytes);

  // Keys loaded from now on hold only their verifying key and shape (Circuit::verifying_only): for a process
  // that hands the proving to worker processes (engine.isolation = "process") and only checks witnesses
  // and proofs, so the keys are not held twice in host memory. Set once, before the first load.
  void set_verifying_only(bool on);

  // Where Filecoin's built-in circuits find their parameter files (the operator's parameter cache). Set once,
  // before the first load; empty: built-in ids are unknown.
  void set_parameter_cache(std::filesystem::path dir);

  // Proving keys loaded from now on come from `store` (engine/key_store.hpp): mapped from a shared image
  // when one of the same key file is there, else decoded into a new one. For the worker processes of an
  // engine with isolation = "process". Set once, before the first load.
  // `sharers`: the processes that map the store's keys; host_bytes() counts each shared key at that share.
  void set_key_store(std::shared_ptr<KeyStore> store, unsigned sharers = 1);
  // Key files read and decoded so far (a key mapped from the store reads none).
  std::uint64_t key_file_reads() const { return key_file_reads_.load(); }
  const std::filesystem::path& parameter_cache() const { return parameter_cache_; }

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
  // This process's share of the host memory the loaded keys hold: loaded_bytes(), with a key mapped from
  // the key store counted at 1/sharers (its other shares are the other worker processes').
  std::size_t host_bytes() const;
  std::size_t pinned_bytes() const;
  std::size_t budget_bytes() const { return budget_; }
  std::size_t pinned_budget_bytes() const { return pinned_budget_; }

  // Ids are folder names: letters, digits, '.', '_', '-', not starting with '.'; at most 128 characters.
  static bool valid_id(const std::string& id);

 private:
  struct Entry {
    std::shared_ptr<const Circuit> circuit;
    std::chrono::steady_clock::time_point last_used;
  };
  struct Mapped {
    io::CurveId curve;
    std::size_t file_bytes = 0;
    std::filesystem::file_time_type mtime;
    std::unique_ptr<io::MappedFile> file;
  };
  std::shared_ptr<const Circuit> load(const std::string& id);
  // The curve of a .zkey: from its image in the key store when there is one, else from the file.
  io::CurveId zkey_curve(const std::string& id, const std::filesystem::path& zkey, bool vk_only);
  // read(arrays) through the key store when there is one (and the circuit proves), else read(nullptr).
  template <class Key>
  Key load_key(Circuit& c, const std::filesystem::path& key_file,
               const std::function<Key(io::ArraySource*)>& read);
  void pin(Circuit& c);
  void make_room(std::size_t bytes);                               // with mutex_ held
  void demote_to_mapped(const std::string& id, const Circuit& c);  // with mutex_ held
  std::size_t loaded_bytes_locked() const;
  std::size_t pinned_bytes_locked() const;

  std::filesystem::path root_;
  std::filesystem::path parameter_cache_;
  std::size_t budget_;
  Pinner pinner_;
  bool verifying_only_ = false;
  std::size_t pinned_budget_ = 0;
  std::size_t pinning_ = 0;  // bytes being registered by loads in progress
  std::shared_ptr<KeyStore> key_store_;
  unsigned key_store_sharers_ = 1;
  std::atomic<std::uint64_t> key_file_reads_{0};
  mutable std::mutex mutex_;
  std::map<std::string, Entry> loaded_;
  std::map<std::string, Mapped> mapped_;
};

}  // namespace cuzk::engine
