// What the engine and its worker processes (engine.isolation = "process", worker_process.hpp) say to each
// other over their socket: length-prefixed frames of little-endian fields. Requests name a circuit of the
// shared repository and a witness file (inline witnesses are spooled to files first); replies carry the
// partition's result as the child's engine produced it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "engine/engine.hpp"

namespace cuzk::filecoin {
struct VanillaRequest;
}

namespace cuzk::engine::worker_protocol {

// kCancel: stop the proof request `target` at its next stage boundary (its reply says cancelled).
// kPreload, kEvict: the circuit's proving key, in the worker (the daemon holds verifying keys only).
enum class RequestKind : std::uint64_t { kProve = 0, kStatus = 1, kCancel = 2, kPreload = 3, kEvict = 4 };

struct Request {
  std::uint64_t id = 0;
  RequestKind kind = RequestKind::kProve;
  std::string circuit_id;
  std::string witness_path;  // a .wtns file, or a bellperson assignment file
  std::uint32_t partition = 0;
  std::uint64_t target = 0;  // kCancel
  // kProve of a Filecoin vanilla-proof job: the file where the parent spooled the job's vanilla proofs
  // (encode_vanilla), `partition` the job's partition. The worker synthesizes it itself, straight into its
  // own pinned memory as a thread worker does: synthesized by the parent, a 32 GiB PoRep partition's 16 GiB
  // witness was held three times over (the parent's copy, the spool file, the worker's) and the daemon of a
  // 128 GiB host was killed for memory.
  std::string vanilla_path = {};
};

struct Reply {
  std::uint64_t id = 0;
  PartitionResult result;              // kProve
  std::optional<EngineStatus> status;  // kStatus: devices, faults and pinned memory (no jobs, no workers)
  // kPreload: result.state/error, `already` = already loaded, `ms` = load time. kEvict: `already` = was
  // loaded, `bytes` freed, `holding` = jobs holding the key (then it stays).
  bool already = false;
  double ms = 0;
  std::uint64_t bytes = 0;
  std::int64_t holding = 0;
};

// A control request (kPreload, kEvict) for one circuit; the id is the channel's to set.
inline Request control_request(RequestKind kind, std::string circuit_id) {
  Request r;
  r.kind = kind;
  r.circuit_id = std::move(circuit_id);
  return r;
}

// An empty reply to request `id`, every other field at its default.
inline Reply reply_to(std::uint64_t id) {
  Reply r;
  r.id = id;
  return r;
}

// A Filecoin vanilla-proof request as a parent spools it for its worker processes, and back (throws
// std::runtime_error on malformed bytes).
std::string encode_vanilla(const filecoin::VanillaRequest& v);
filecoin::VanillaRequest decode_vanilla(const std::string& bytes);

std::string encode(const Request& r);
std::string encode(const Reply& r);
Request decode_request(const std::string& frame);  // throw std::runtime_error on a malformed frame
Reply decode_reply(const std::string& frame);

// One frame on a stream socket (blocking; EINTR retried). send_frame: false when the peer is gone
// (no SIGPIPE). read_frame: nullopt at end of stream or on an error.
bool send_frame(int fd, const std::string& payload);
std::optional<std::string> read_frame(int fd);

}  // namespace cuzk::engine::worker_protocol
