// The wire between the engine and its worker processes (engine/worker_protocol.hpp): every field survives a
// round trip, and a frame that is cut short or names an unknown request kind is refused, not misread.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "engine/worker_protocol.hpp"
#include "filecoin/vanilla_job.hpp"

namespace cuzk::engine::worker_protocol {
namespace {

Reply sample_reply() {
  Reply p;
  p.id = 42;
  p.result.state = PartitionState::kDone;
  p.result.proof_json = "{\"pi_a\": []}";
  p.result.public_json = "[\"7\"]";
  p.result.proof_bytes = std::string(192, '\x05');
  p.result.plan = "lean";
  p.result.prestage = "fallback";
  p.result.attempts = 2;
  p.result.stages.stages_ms = {{"abc", 1.5}, {"h", 2.25}};
  p.result.stages.details_ms = {{"batch_add", 0.5}};
  p.result.prove_ms = 9.75;
  p.result.verify_ms = 3.5;
  p.result.synthesis_ms = 1250.5;
  EngineStatus s;
  DeviceStatus d;
  d.ordinal = 1;
  d.name = "H200";
  d.vram_total = 1ull << 40;
  d.vram_used = 12345;
  d.vram_cached = 6789;
  d.vram_limit = 1ull << 39;
  d.context_resets = 3;
  d.lost = true;
  d.lost_reason = "gone";
  d.resident_circuits = {"a", "b"};
  s.devices.push_back(d);
  s.faults.out_of_memory = 4;
  s.faults.context_lost = 5;
  s.pinned_pool_bytes = 77;
  s.pinned_staging_bytes = 128;
  s.pinned_pool_leases = 9;
  s.pinned_pool_refused = 10;
  s.pinned_pool_deferred = 11;
  p.status = s;
  p.already = true;
  p.ms = 12.5;
  p.bytes = 999;
  p.holding = 2;
  return p;
}

TEST(WorkerProtocol, RequestsAndRepliesSurviveTheWire) {
  const Request q{7, RequestKind::kCancel, "porep-32g", "/dev/shm/w.witness", 9, 5, "/dev/shm/j.vanilla"};
  const Request back = decode_request(encode(q));
  EXPECT_EQ(back.id, 7u);
  EXPECT_EQ(back.kind, RequestKind::kCancel);
  EXPECT_EQ(back.circuit_id, "porep-32g");
  EXPECT_EQ(back.witness_path, "/dev/shm/w.witness");
  EXPECT_EQ(back.partition, 9u);
  EXPECT_EQ(back.target, 5u);
  EXPECT_EQ(back.vanilla_path, "/dev/shm/j.vanilla");

  const Reply p = sample_reply();
  const Reply r = decode_reply(encode(p));
  EXPECT_EQ(r.id, 42u);
  EXPECT_EQ(r.result.state, PartitionState::kDone);
  EXPECT_EQ(r.result.proof_json, p.result.proof_json);
  EXPECT_EQ(r.result.proof_bytes, p.result.proof_bytes);
  EXPECT_EQ(r.result.plan, "lean");
  EXPECT_EQ(r.result.prestage, "fallback");
  EXPECT_EQ(r.result.attempts, 2u);
  EXPECT_EQ(r.result.stages.stages_ms, p.result.stages.stages_ms);
  EXPECT_EQ(r.result.stages.details_ms, p.result.stages.details_ms);
  EXPECT_EQ(r.result.prove_ms, 9.75);
  EXPECT_EQ(r.result.synthesis_ms, 1250.5);
  ASSERT_TRUE(r.status);
  ASSERT_EQ(r.status->devices.size(), 1u);
  EXPECT_EQ(r.status->devices[0].name, "H200");
  EXPECT_EQ(r.status->devices[0].vram_total, 1ull << 40);
  EXPECT_EQ(r.status->devices[0].vram_used, 12345u);
  EXPECT_EQ(r.status->devices[0].vram_cached, 6789u);
  EXPECT_EQ(r.status->devices[0].vram_limit, 1ull << 39);
  EXPECT_EQ(r.status->devices[0].resident_circuits, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(r.status->devices[0].lost);
  EXPECT_EQ(r.status->faults.context_lost, 5u);
  EXPECT_EQ(r.status->pinned_pool_bytes, 77u);
  EXPECT_EQ(r.status->pinned_staging_bytes, 128u);
  EXPECT_EQ(r.status->pinned_pool_leases, 9u);
  EXPECT_EQ(r.status->pinned_pool_refused, 10u);
  EXPECT_EQ(r.status->pinned_pool_deferred, 11u);
  EXPECT_TRUE(r.already);
  EXPECT_EQ(r.bytes, 999u);
  EXPECT_EQ(r.holding, 2);
}

// A vanilla-proof request as the parent spools it for its worker processes: every field back as it was
// (a PoRep's C1 bytes, PoSt sector proofs with their randomness, SnapDeals' commitments), and bytes cut
// short or of another kind refused.
TEST(WorkerProtocol, SpooledVanillaRequestsComeBackWhole) {
  filecoin::VanillaRequest v;
  v.kind = filecoin::CircuitKind::kSnapDeals;
  v.c1 = {'{', '}', 0, 255};
  v.proofs = {{1, 2, 3}, {}, std::vector<std::uint8_t>(1000, 7)};
  for (std::uint8_t i = 0; i < 32; ++i) {
    v.randomness[i] = i;
    v.comm_r_old[i] = static_cast<std::uint8_t>(100 + i);
    v.comm_d_new[i] = static_cast<std::uint8_t>(200 + i);
    v.comm_r_new[i] = static_cast<std::uint8_t>(255 - i);
  }
  v.sector_size = std::uint64_t(32) << 30;
  v.registered_proof = 3;
  v.partition = 11;
  const std::string bytes = encode_vanilla(v);
  const filecoin::VanillaRequest w = decode_vanilla(bytes);
  EXPECT_EQ(w.kind, v.kind);
  EXPECT_EQ(w.c1, v.c1);
  EXPECT_EQ(w.proofs, v.proofs);
  EXPECT_EQ(w.randomness, v.randomness);
  EXPECT_EQ(w.sector_size, v.sector_size);
  EXPECT_EQ(w.registered_proof, v.registered_proof);
  EXPECT_EQ(w.partition, 11u);
  EXPECT_EQ(w.comm_r_old, v.comm_r_old);
  EXPECT_EQ(w.comm_d_new, v.comm_d_new);
  EXPECT_EQ(w.comm_r_new, v.comm_r_new);
  v.registered_proof.reset();
  EXPECT_FALSE(decode_vanilla(encode_vanilla(v)).registered_proof.has_value());

  for (std::size_t cut : {std::size_t(0), std::size_t(12), bytes.size() / 2, bytes.size() - 1})
    EXPECT_THROW(decode_vanilla(bytes.substr(0, cut)), std::runtime_error) << "cut at " << cut;
  EXPECT_THROW(decode_vanilla(encode(Request{})), std::runtime_error) << "a request frame";
}

TEST(WorkerProtocol, ShortOrUnknownFramesAreRefused) {
  const std::string reply = encode(sample_reply());
  for (std::size_t cut : {std::size_t(0), std::size_t(5), reply.size() / 2, reply.size() - 1})
    EXPECT_THROW(decode_reply(reply.substr(0, cut)), std::runtime_error) << "cut at " << cut;
  std::string request = encode(Request{1, RequestKind::kProve, "c", "w", 0, 0});
  request[8] = 9;  // the kind: no such request
  EXPECT_THROW(decode_request(request), std::runtime_error);
}

TEST(WorkerProtocol, FramesCrossASocketWhole) {
  int sv[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  const std::string big(3 << 20, 'x');  // larger than a socket buffer: written and read in pieces
  std::thread writer([&] {
    EXPECT_TRUE(send_frame(sv[0], "first"));
    EXPECT_TRUE(send_frame(sv[0], big));
    ::close(sv[0]);
  });
  EXPECT_EQ(read_frame(sv[1]), std::optional<std::string>("first"));
  EXPECT_EQ(read_frame(sv[1]), std::optional<std::string>(big));
  EXPECT_EQ(read_frame(sv[1]), std::nullopt);  // end of stream
  writer.join();
  EXPECT_FALSE(send_frame(sv[1], "to nobody"));  // the peer is gone: false, and no SIGPIPE kills the test
  ::close(sv[1]);
}

}  // namespace
}  // namespace cuzk::engine::worker_protocol
