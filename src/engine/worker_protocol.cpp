#include "engine/worker_protocol.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "filecoin/vanilla_job.hpp"

namespace cuzk::engine::worker_protocol {
namespace {

// Frames hold names, paths, proofs and timings: far below this. A larger length is a broken stream.
constexpr std::uint64_t kMaxFrame = std::uint64_t(64) << 20;

class Writer {
 public:
  void u64(std::uint64_t v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void f64(double v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void str(const std::string& s) {
    u64(s.size());
    out_ += s;
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(const std::string& in) : in_(in) {}
  std::uint64_t u64() {
    std::uint64_t v;
    raw(&v, sizeof v);
    return v;
  }
  double f64() {
    double v;
    raw(&v, sizeof v);
    return v;
  }
  std::string str() {
    const std::uint64_t n = u64();
    if (n > in_.size() - pos_) throw std::runtime_error("worker protocol: a field runs past its frame");
    std::string s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }

 private:
  void raw(void* p, std::size_t n) {
    if (n > in_.size() - pos_) throw std::runtime_error("worker protocol: a frame ends early");
    std::memcpy(p, in_.data() + pos_, n);
    pos_ += n;
  }
  const std::string& in_;
  std::size_t pos_ = 0;
};

void timings(Writer& w, const std::vector<std::pair<std::string, double>>& t) {
  w.u64(t.size());
  for (const auto& [name, ms] : t) {
    w.str(name);
    w.f64(ms);
  }
}

std::vector<std::pair<std::string, double>> timings(Reader& r) {
  const std::uint64_t n = r.u64();
  if (n > 1024) throw std::runtime_error("worker protocol: implausible stage count");
  std::vector<std::pair<std::string, double>> t;
  for (std::uint64_t i = 0; i < n; ++i) {
    std::string name = r.str();
    t.emplace_back(std::move(name), r.f64());
  }
  return t;
}

// The parts of a worker's EngineStatus its parent reports as its own: devices, faults, pinned memory.
void encode_status(Writer& w, const EngineStatus& s) {
  w.u64(s.devices.size());
  for (const auto& d : s.devices) {
    w.u64(static_cast<std::uint64_t>(d.ordinal));
    w.str(d.name);
    for (std::size_t v : {d.vram_total, d.vram_free, d.vram_used, d.vram_peak, d.vram_cached, d.vram_limit})
      w.u64(v);
    w.u64(d.context_resets);
    w.u64(d.lost);
    w.str(d.lost_reason);
    w.u64(d.resident_circuits.size());
    for (const auto& c : d.resident_circuits) w.str(c);
  }
  const auto& f = s.faults;
  for (std::uint64_t v : {f.out_of_memory, f.context_lost, f.self_check, f.retries, f.vram_leaks}) w.u64(v);
  for (std::size_t v :
       {s.pinned_bytes, s.pinned_budget, s.pinned_pool_bytes, s.pinned_pool_budget, s.pinned_staging_bytes})
    w.u64(v);
  w.u64(s.pinned_pool_leases);
  w.u64(s.pinned_pool_refused);
  w.u64(s.pinned_pool_deferred);
}

EngineStatus decode_status(Reader& r) {
  EngineStatus s;
  const std::uint64_t devices = r.u64();
  if (devices > 1024) throw std::runtime_error("worker protocol: implausible device count");
  for (std::uint64_t i = 0; i < devices; ++i) {
    DeviceStatus d;
    d.ordinal = static_cast<int>(r.u64());
    d.name = r.str();
    for (std::size_t* v :
         {&d.vram_total, &d.vram_free, &d.vram_used, &d.vram_peak, &d.vram_cached, &d.vram_limit})
      *v = r.u64();
    d.context_resets = r.u64();
    d.lost = r.u64() != 0;
    d.lost_reason = r.str();
    const std::uint64_t circuits = r.u64();
    if (circuits > (1u << 20)) throw std::runtime_error("worker protocol: implausible circuit count");
    for (std::uint64_t c = 0; c < circuits; ++c) d.resident_circuits.push_back(r.str());
    s.devices.push_back(std::move(d));
  }
  auto& f = s.faults;
  for (std::uint64_t* v : {&f.out_of_memory, &f.context_lost, &f.self_check, &f.retries, &f.vram_leaks})
    *v = r.u64();
  for (std::size_t* v : {&s.pinned_bytes, &s.pinned_budget, &s.pinned_pool_bytes, &s.pinned_pool_budget,
                         &s.pinned_staging_bytes})
    *v = r.u64();
  s.pinned_pool_leases = r.u64();
  s.pinned_pool_refused = r.u64();
  s.pinned_pool_deferred = r.u64();
  return s;
}

}  // namespace

std::string encode(const Request& q) {
  Writer w;
  w.u64(q.id);
  w.u64(static_cast<std::uint64_t>(q.kind));
  w.str(q.circuit_id);
  w.str(q.witness_path);
  w.u64(q.partition);
  w.u64(q.target);
  w.str(q.vanilla_path);
  return w.take();
}

namespace {
constexpr const char* kVanillaTag = "cuzk-vanilla-request-1";

template <class Bytes>
std::string as_string(const Bytes& b) {
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

template <std::size_t N>
std::array<std::uint8_t, N> fixed(const std::string& s, const char* what) {
  std::array<std::uint8_t, N> out{};
  if (s.size() != N)
    throw std::runtime_error(std::string("spooled vanilla request: ") + what + " is not " +
                             std::to_string(N) + " bytes");
  std::memcpy(out.data(), s.data(), N);
  return out;
}
}  // namespace

std::string encode_vanilla(const filecoin::VanillaRequest& v) {
  Writer w;
  w.str(kVanillaTag);
  w.u64(static_cast<std::uint64_t>(v.kind));
  w.str(as_string(v.c1));
  w.u64(v.proofs.size());
  for (const auto& p : v.proofs) w.str(as_string(p));
  w.str(as_string(v.randomness));
  w.u64(v.sector_size);
  w.u64(v.registered_proof.has_value());
  w.u64(v.registered_proof.value_or(0));
  w.u64(v.partition);
  w.str(as_string(v.comm_r_old));
  w.str(as_string(v.comm_d_new));
  w.str(as_string(v.comm_r_new));
  return w.take();
}

filecoin::VanillaRequest decode_vanilla(const std::string& bytes) {
  Reader r(bytes);
  if (r.str() != kVanillaTag)
    throw std::runtime_error("not a spooled vanilla request (or another version's)");
  filecoin::VanillaRequest v;
  const std::uint64_t kind = r.u64();
  if (kind > static_cast<std::uint64_t>(filecoin::CircuitKind::kSnapDeals))
    throw std::runtime_error("spooled vanilla request: unknown kind");
  v.kind = static_cast<filecoin::CircuitKind>(kind);
  const std::string c1 = r.str();
  v.c1.assign(c1.begin(), c1.end());
  const std::uint64_t proofs = r.u64();
  if (proofs > bytes.size() / sizeof(std::uint64_t))
    throw std::runtime_error("spooled vanilla request: implausible proof count");
  for (std::uint64_t i = 0; i < proofs; ++i) {
    const std::string p = r.str();
    v.proofs.emplace_back(p.begin(), p.end());
  }
  v.randomness = fixed<32>(r.str(), "the randomness");
  v.sector_size = r.u64();
  const bool has_registered = r.u64() != 0;
  const std::uint64_t registered = r.u64();
  if (has_registered) v.registered_proof = registered;
  v.partition = r.u64();
  v.comm_r_old = fixed<32>(r.str(), "comm_r_old");
  v.comm_d_new = fixed<32>(r.str(), "comm_d_new");
  v.comm_r_new = fixed<32>(r.str(), "comm_r_new");
  return v;
}

Request decode_request(const std::string& frame) {
  Reader r(frame);
  Request q;
  q.id = r.u64();
  const std::uint64_t kind = r.u64();
  if (kind > static_cast<std::uint64_t>(RequestKind::kEvict))
    throw std::runtime_error("worker protocol: unknown request kind");
  q.kind = static_cast<RequestKind>(kind);
  q.circuit_id = r.str();
  q.witness_path = r.str();
  q.partition = static_cast<std::uint32_t>(r.u64());
  q.target = r.u64();
  q.vanilla_path = r.str();
  return q;
}

std::string encode(const Reply& p) {
  Writer w;
  const auto& r = p.result;
  w.u64(p.id);
  w.u64(static_cast<std::uint64_t>(r.state));
  w.str(r.proof_json);
  w.str(r.public_json);
  w.str(r.proof_bytes);
  w.str(r.error);
  w.str(r.plan);
  w.str(r.prestage);
  w.u64(r.attempts);
  timings(w, r.stages.stages_ms);
  timings(w, r.stages.details_ms);
  w.f64(r.prove_ms);
  w.f64(r.verify_ms);
  w.f64(r.synthesis_ms);
  w.u64(p.status.has_value());
  if (p.status) encode_status(w, *p.status);
  w.u64(p.already);
  w.f64(p.ms);
  w.u64(p.bytes);
  w.u64(static_cast<std::uint64_t>(p.holding));
  return w.take();
}

Reply decode_reply(const std::string& frame) {
  Reader in(frame);
  Reply p;
  auto& r = p.result;
  p.id = in.u64();
  const std::uint64_t state = in.u64();
  if (state > static_cast<std::uint64_t>(PartitionState::kCancelled))
    throw std::runtime_error("worker protocol: unknown partition state");
  r.state = static_cast<PartitionState>(state);
  r.proof_json = in.str();
  r.public_json = in.str();
  r.proof_bytes = in.str();
  r.error = in.str();
  r.plan = in.str();
  r.prestage = in.str();
  r.attempts = static_cast<unsigned>(in.u64());
  r.stages.stages_ms = timings(in);
  r.stages.details_ms = timings(in);
  r.prove_ms = in.f64();
  r.verify_ms = in.f64();
  r.synthesis_ms = in.f64();
  if (in.u64()) p.status = decode_status(in);
  p.already = in.u64() != 0;
  p.ms = in.f64();
  p.bytes = in.u64();
  p.holding = static_cast<std::int64_t>(in.u64());
  return p;
}

bool send_frame(int fd, const std::string& payload) {
  std::string frame(sizeof(std::uint64_t), '\0');
  const std::uint64_t n = payload.size();
  std::memcpy(frame.data(), &n, sizeof n);
  frame += payload;
  std::size_t done = 0;
  while (done < frame.size()) {
    const ssize_t k = ::send(fd, frame.data() + done, frame.size() - done, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    done += static_cast<std::size_t>(k);
  }
  return true;
}

std::optional<std::string> read_frame(int fd) {
  auto read_all = [fd](char* p, std::size_t n) {
    while (n > 0) {
      const ssize_t k = ::read(fd, p, n);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) return false;
      p += k;
      n -= static_cast<std::size_t>(k);
    }
    return true;
  };
  std::uint64_t n = 0;
  if (!read_all(reinterpret_cast<char*>(&n), sizeof n) || n > kMaxFrame) return std::nullopt;
  std::string payload(n, '\0');
  if (!read_all(payload.data(), n)) return std::nullopt;
  return payload;
}

}  // namespace cuzk::engine::worker_protocol
