#include "engine/repository.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <optional>

#include "filecoin/circuit_catalog.hpp"
#include "io/error.hpp"
#include "io/zkey.hpp"

namespace cuzk::engine {

namespace {

template <class Curve>
std::size_t key_bytes(const groth16::ProvingKey<Curve>& pk) {
  return (pk.a.size() + pk.b1.size() + pk.c.size() + pk.h.size() + pk.ic.size()) *
             sizeof(typename Curve::G1) +
         pk.b2.size() * sizeof(typename Curve::G2) + pk.coefs.size() * sizeof(pk.coefs[0]);
}

std::size_t key_bytes(const io::bellperson::Params& p) {
  return (p.h.size() + p.l.size() + p.a.size() + p.b_g1.size() + p.vk.ic.size()) *
             sizeof(io::bellperson::G1) +
         p.b_g2.size() * sizeof(io::bellperson::G2);
}

// The point vectors worth page-locking, by key kind.
template <class F>
void for_big_vectors(groth16::ProvingKey<Bn254>& pk, F&& f) {
  f(pk.a), f(pk.b1), f(pk.b2), f(pk.c), f(pk.h);
}
template <class F>
void for_big_vectors(groth16::ProvingKey<Bls12_381>& pk, F&& f) {
  f(pk.a), f(pk.b1), f(pk.b2), f(pk.c), f(pk.h);
}
template <class F>
void for_big_vectors(io::bellperson::Params& p, F&& f) {
  f(p.h), f(p.l), f(p.a), f(p.b_g1), f(p.b_g2);
}

CircuitConfig read_config(const std::filesystem::path& file, const std::string& id, const std::string& kind) {
  CircuitConfig c;
  c.kind = kind;
  if (!std::filesystem::exists(file)) return c;
  toml::table t;
  try {
    t = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    throw RepositoryError("circuit '" + id + "': " + file.string() + ": " + std::string(e.description()));
  }
  if (auto kind = t["kind"].value<std::string>()) c.kind = *kind;
  if (c.kind != "groth16" && c.kind != "bellperson")
    throw RepositoryError("circuit '" + id + "': kind \"" + c.kind +
                          "\" is not supported (groth16, bellperson)");
  if (auto p = t["partitions"].value<std::int64_t>()) {
    if (*p < 1 || *p > 1024)
      throw RepositoryError("circuit '" + id + "': partitions must be 1..1024, not " + std::to_string(*p));
    c.partitions = static_cast<std::uint32_t>(*p);
  }
  if (auto p = t["priority"].value<std::string>()) {
    auto parsed = parse_priority(*p);
    if (!parsed) throw RepositoryError("circuit '" + id + "': unknown priority \"" + *p + "\"");
    c.priority = *parsed;
  }
  return c;
}

// Runs a key reader, naming the circuit in its format and key-image errors (the reader knows only the file).
template <class Read>
void reading_key_of(const std::string& id, Read&& read) {
  try {
    read();
  } catch (const io::FormatError& e) {
    throw RepositoryError("circuit '" + id + "': " + e.what());
  } catch (const io::key_image::ImageError& e) {
    throw RepositoryError("circuit '" + id + "': " + e.what());
  }
}

}  // namespace

Repository::Repository(std::filesystem::path root, std::size_t host_budget_bytes)
    : root_(std::move(root)), budget_(host_budget_bytes) {
  if (!std::filesystem::is_directory(root_))
    throw RepositoryError("circuit repository " + root_.string() + " is not a directory");
}

bool Repository::valid_id(const std::string& id) {
  if (id.empty() || id.size() > 128 || id[0] == '.') return false;
  return std::all_of(id.begin(), id.end(),
                     [](unsigned char c) { return std::isalnum(c) || c == '.' || c == '_' || c == '-'; });
}

void Repository::set_pinner(Pinner pin, std::size_t pinned_budget_bytes) {
  std::lock_guard lock(mutex_);
  pinner_ = std::move(pin);
  pinned_budget_ = pinned_budget_bytes;
}

void Repository::set_key_store(std::shared_ptr<KeyStore> store, unsigned sharers) {
  std::lock_guard lock(mutex_);
  key_store_ = std::move(store);
  key_store_sharers_ = std::max(1u, sharers);
}

void Repository::set_verifying_only(bool on) {
  std::lock_guard lock(mutex_);
  verifying_only_ = on;
}

void Repository::set_parameter_cache(std::filesystem::path dir) {
  std::lock_guard lock(mutex_);
  parameter_cache_ = std::move(dir);
}

template <class Key>
Key Repository::load_key(Circuit& c, const std::filesystem::path& key_file,
                         const std::function<Key(io::ArraySource*)>& read) {
  std::shared_ptr<KeyStore> store;
  bool pinned = false;
  {
    std::lock_guard lock(mutex_);
    store = key_store_;
    pinned = static_cast<bool>(pinner_);
  }
  try {
    const auto v = io::key_image::identify(key_file);
    c.key_version = std::to_string(v.size) + "-" + std::to_string(v.mtime_ns) + "-" + std::to_string(v.inode);
  } catch (const io::key_image::ImageError&) {  // the read below says what is wrong with the file
  }
  if (!store || c.verifying_only) {
    ++key_file_reads_;
    return read(nullptr);
  }
  KeyStore::Source how{};
  // A key this process page-locks next has its page tables filled by the locking: not twice.
  Key key = store->load<Key>(c.id, key_file, read, how, !pinned);
  if (how != KeyStore::Source::kMapped) ++key_file_reads_;
  c.shared_image = how != KeyStore::Source::kPrivate;
  return key;
}

io::CurveId Repository::zkey_curve(const std::string& id, const std::filesystem::path& zkey, bool vk_only) {
  std::shared_ptr<KeyStore> store;
  {
    std::lock_guard lock(mutex_);
    store = key_store_;
  }
  // A key in the store says its curve itself: the key file is not opened at all.
  if (store && !vk_only)
    if (const auto kind = store->image_kind(id, zkey))
      return *kind == io::key_image::KeyKind::kZkeyBn254 ? io::CurveId::bn254 : io::CurveId::bls12_381;
  return io::peek_curve(zkey.string());
}

std::shared_ptr<const Circuit> Repository::load(const std::string& id) {
  if (!valid_id(id)) throw RepositoryError("invalid circuit id '" + id + "'");
  const auto dir = root_ / id, zkey = dir / "circuit.zkey";
  auto params = dir / "circuit.params";
  const bool has_zkey = std::filesystem::is_regular_file(zkey);
  bool has_params = std::filesystem::is_regular_file(params);
  const filecoin::FilecoinCircuit* builtin = filecoin::find_filecoin_circuit(id);
  if (!has_zkey && !has_params && builtin && !parameter_cache_.empty()) {
    params = parameter_cache_ / builtin->parameter_file;
    has_params = std::filesystem::is_regular_file(params);
    if (!has_params)
      throw RepositoryError("circuit '" + id + "' (" + builtin->description +
                            "): its Filecoin parameter file " + params.string() +
                            " is missing; fetch the parameters into that cache (e.g. `curio fetch-params " +
                            builtin->sector_size +
                            "`) or point filecoin.parameter_cache (FIL_PROOFS_PARAMETER_CACHE) at yours");
  }
  if (!has_zkey && !has_params)
    throw RepositoryError(
        "unknown circuit '" + id + "': no " + zkey.string() + " or circuit.params" +
        (builtin ? " (and no parameter cache is set for the built-in Filecoin circuits)" : ""));
  std::optional<Mapped> mapped;
  {
    std::lock_guard lock(mutex_);
    if (auto it = mapped_.find(id); it != mapped_.end()) {
      mapped = std::move(it->second);
      mapped_.erase(it);
    }
  }
  // A key file replaced since it was mapped is read afresh: the mapping still shows the old one.
  std::error_code ec;
  if (mapped && (std::filesystem::last_write_time(zkey, ec) != mapped->mtime ||
                 std::filesystem::file_size(zkey, ec) != mapped->file_bytes))
    mapped.reset();
  auto circuit = std::make_shared<Circuit>();
  circuit->id = id;
  {
    std::lock_guard lock(mutex_);
    circuit->verifying_only = verifying_only_;
  }
  const bool vk_only = circuit->verifying_only;
  circuit->config = read_config(dir / "circuit.toml", id, has_zkey ? "groth16" : "bellperson");
  if (builtin && !std::filesystem::exists(dir / "circuit.toml")) {
    circuit->config.partitions = builtin->partitions;
    // Curio's deadlines (the original daemon's defaults): a late WinningPoSt loses the block reward, a late
    // WindowPoSt the sector's power.
    if (builtin->kind == filecoin::CircuitKind::kWinningPost) circuit->config.priority = Priority::kCritical;
    if (builtin->kind == filecoin::CircuitKind::kWindowPost) circuit->config.priority = Priority::kHigh;
  }
  if (circuit->config.kind == "bellperson") {
    if (!has_params)
      throw RepositoryError("circuit '" + id + "': kind \"bellperson\" needs " + params.string());
    reading_key_of(id, [&] {
      using Params = io::bellperson::Params;
      auto p = load_key<Params>(*circuit, params, [&](io::ArraySource* arrays) {
        return io::bellperson::read_params(params.string(), false, vk_only, arrays);
      });
      circuit->curve = io::CurveId::bls12_381;
      circuit->bytes = key_bytes(p);
      circuit->key = std::move(p);
    });
    pin(*circuit);
    return circuit;
  }
  if (!has_zkey) throw RepositoryError("circuit '" + id + "': kind \"groth16\" needs " + zkey.string());
  reading_key_of(id, [&] {
    circuit->curve = mapped ? mapped->curve : zkey_curve(id, zkey, vk_only);
    io::with_curve(circuit->curve, [&]<class C>() {
      auto pk = load_key<groth16::ProvingKey<C>>(*circuit, zkey, [&](io::ArraySource* arrays) {
        return mapped && !arrays
                   ? io::read_zkey<C>(zkey.string(), std::move(*mapped->file), vk_only)
                   : io::read_zkey<C>(zkey.string(), io::MappedFile(zkey.string()), vk_only, arrays);
      });
      circuit->bytes = key_bytes(pk);
      circuit->key = std::move(pk);
    });
  });
  pin(*circuit);
  return circuit;
}

void Repository::pin(Circuit& c) {
  {
    std::lock_guard lock(mutex_);
    if (!pinner_) return;
    const std::size_t used = pinned_bytes_locked() + pinning_;
    if (pinned_budget_ != 0 && used + c.bytes > pinned_budget_)
      return;             // stays pageable: serves, only slower
    pinning_ += c.bytes;  // reserved while registering, so concurrent loads respect the budget
  }
  try {
    std::visit(
        [&](auto& key) {
          for_big_vectors(key, [&](auto& v) {
            if (v.empty()) return;
            const std::size_t n = v.size() * sizeof(v[0]);
            auto handle = pinner_(v.data(), n);
            if (!handle) throw std::runtime_error("the range is locked differently already");
            c.pins.push_back(std::move(handle));
            c.pinned_bytes += n;
          });
        },
        c.key);
  } catch (const std::exception&) {  // e.g. the OS's locked-memory limit: the key stays pageable
    c.pins.clear();
    c.pinned_bytes = 0;
  }
  std::lock_guard lock(mutex_);
  pinning_ -= c.bytes;
}

void Repository::make_room(std::size_t bytes) {
  if (budget_ == 0) return;
  while (loaded_bytes_locked() + bytes > budget_) {
    auto victim = loaded_.end();
    for (auto it = loaded_.begin(); it != loaded_.end(); ++it)
      if (it->second.circuit.use_count() == 1 &&
          (victim == loaded_.end() || it->second.last_used < victim->second.last_used))
        victim = it;
    if (victim == loaded_.end()) return;  // everything loaded is in use: over budget rather than fail
    demote_to_mapped(victim->first, *victim->second.circuit);
    loaded_.erase(victim);
  }
}

void Repository::demote_to_mapped(const std::string& id, const Circuit& c) {
  const auto zkey = root_ / id / "circuit.zkey";
  // .params reload from disk (the mapped tier holds .zkey files); a shared image is mapped again.
  if (c.bellperson() || c.shared_image) return;
  try {
    Mapped m{c.curve, std::filesystem::file_size(zkey), std::filesystem::last_write_time(zkey),
             std::make_unique<io::MappedFile>(zkey.string())};
    mapped_[id] = std::move(m);
  } catch (const std::exception&) {  // the file went away: the key is simply on disk (or gone) now
    mapped_.erase(id);
  }
}

std::size_t Repository::loaded_bytes_locked() const {
  std::size_t total = 0;
  for (const auto& [id, e] : loaded_) total += e.circuit->bytes;
  return total;
}

std::size_t Repository::pinned_bytes_locked() const {
  std::size_t total = 0;
  for (const auto& [id, e] : loaded_) total += e.circuit->pinned_bytes;
  return total;
}

std::size_t Repository::pinned_bytes() const {
  std::lock_guard lock(mutex_);
  return pinned_bytes_locked();
}

std::shared_ptr<const Circuit> Repository::acquire(const std::string& id) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = loaded_.find(id); it != loaded_.end()) {
      it->second.last_used = std::chrono::steady_clock::now();
      return it->second.circuit;
    }
  }
  // Load outside the lock (keys can take seconds); a concurrent load of the same id keeps the first.
  auto circuit = load(id);
  std::lock_guard lock(mutex_);
  if (auto it = loaded_.find(id); it != loaded_.end()) return it->second.circuit;
  make_room(circuit->bytes);
  loaded_[id] = {circuit, std::chrono::steady_clock::now()};
  return circuit;
}

Repository::PreloadResult Repository::preload(const std::string& id) {
  {
    std::lock_guard lock(mutex_);
    if (loaded_.count(id)) return {true, 0};
  }
  const auto t0 = std::chrono::steady_clock::now();
  acquire(id);
  return {false, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count()};
}

Repository::EvictResult Repository::evict(const std::string& id, long other_owners) {
  std::shared_ptr<const Circuit> dropped;
  {
    std::lock_guard lock(mutex_);
    mapped_.erase(id);  // down to disk
    auto it = loaded_.find(id);
    if (it == loaded_.end()) return {};
    const long holders = it->second.circuit.use_count() - 1 - other_owners;
    if (holders > 0) return {true, 0, holders};
    dropped = std::move(it->second.circuit);
    loaded_.erase(it);
  }
  return {true, dropped->bytes, 0};  // freed when `dropped` (and the caller's other owners) go
}

std::vector<CircuitInfo> Repository::list() const {
  std::vector<CircuitInfo> out;
  std::error_code ec;
  for (const auto& d : std::filesystem::directory_iterator(root_, ec)) {
    const std::string id = d.path().filename().string();
    if (d.is_directory() && valid_id(id) &&
        (std::filesystem::exists(d.path() / "circuit.zkey") ||
         std::filesystem::exists(d.path() / "circuit.params")))
      out.push_back({id, Tier::kDisk, 0, 0, 0});
  }
  for (const filecoin::FilecoinCircuit& c : filecoin::filecoin_circuits())  // the cache's, when present
    if (!parameter_cache_.empty() &&
        std::filesystem::is_regular_file(parameter_cache_ / c.parameter_file, ec) &&
        std::none_of(out.begin(), out.end(), [&](const CircuitInfo& i) { return i.id == c.id; }))
      out.push_back({c.id, Tier::kDisk, 0, 0, 0});
  std::lock_guard lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  const auto entry = [&](const std::string& id) {
    auto it = std::find_if(out.begin(), out.end(), [&](const CircuitInfo& c) { return c.id == id; });
    return it == out.end() ? out.insert(out.end(), CircuitInfo{id}) : it;
  };
  for (const auto& [id, m] : mapped_) {
    auto it = entry(id);
    it->tier = Tier::kMapped;
    it->bytes = m.file_bytes;
  }
  for (const auto& [id, e] : loaded_) {
    auto it = entry(id);
    it->tier = e.circuit->pinned_bytes > 0 ? Tier::kPinned : Tier::kHost;
    it->bytes = e.circuit->bytes;
    it->pinned_bytes = e.circuit->pinned_bytes;
    it->jobs_holding = e.circuit.use_count() - 1;
    it->idle_seconds = std::chrono::duration<double>(now - e.last_used).count();
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return out;
}

std::size_t Repository::host_bytes() const {
  std::lock_guard lock(mutex_);
  std::size_t total = 0;
  for (const auto& [id, e] : loaded_)
    total += e.circuit->shared_image ? e.circuit->bytes / key_store_sharers_ : e.circuit->bytes;
  return total;
}

std::size_t Repository::loaded_bytes() const {
  std::lock_guard lock(mutex_);
  return loaded_bytes_locked();
}

}  // namespace cuzk::engine
