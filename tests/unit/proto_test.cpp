// Unit tests for proto/cuzk/v1/proving.proto: the wire contract cuzk.v1.ProvingEngine.
//
// The original daemon's contract (filecoin-project/curio extern/cuzk, see docs/grpc.md) is written out
// below as a table of (message, field, number, type, repeated) and checked against the generated
// descriptors, so a renumbered or retyped original field fails here. The added fields must sit at 100 and
// up. A request is also encoded by hand the way an original client encodes it, and a request with added
// fields makes a round trip, through bytes and through an in-process gRPC channel.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuzk/v1/proving.grpc.pb.h"
#include "cuzk/v1/proving.pb.h"

namespace {

namespace pb = cuzk::v1;
using google::protobuf::Descriptor;
using google::protobuf::DescriptorPool;
using google::protobuf::FieldDescriptor;

const Descriptor* message(const std::string& name) {
  return DescriptorPool::generated_pool()->FindMessageTypeByName("cuzk.v1." + name);
}

struct FieldSpec {
  const char* message;
  const char* field;
  int number;
  FieldDescriptor::Type type;
  bool repeated;
  const char* type_name;  // enum or message type (full name) or "" for scalars
};

constexpr auto kString = FieldDescriptor::TYPE_STRING;
constexpr auto kBytes = FieldDescriptor::TYPE_BYTES;
constexpr auto kU64 = FieldDescriptor::TYPE_UINT64;
constexpr auto kU32 = FieldDescriptor::TYPE_UINT32;
constexpr auto kBool = FieldDescriptor::TYPE_BOOL;
constexpr auto kEnum = FieldDescriptor::TYPE_ENUM;
constexpr auto kMsg = FieldDescriptor::TYPE_MESSAGE;

// Every field of the original daemon's proving.proto (curio main: lib/cuzk/proving.pb.go descriptor).
const std::vector<FieldSpec> kOriginalFields = {
    {"SubmitProofRequest", "request_id", 1, kString, false, ""},
    {"SubmitProofRequest", "proof_kind", 2, kEnum, false, "cuzk.v1.ProofKind"},
    {"SubmitProofRequest", "sector_size", 3, kU64, false, ""},
    {"SubmitProofRequest", "registered_proof", 4, kU64, false, ""},
    {"SubmitProofRequest", "priority", 5, kEnum, false, "cuzk.v1.Priority"},
    {"SubmitProofRequest", "vanilla_proof", 10, kBytes, false, ""},
    {"SubmitProofRequest", "vanilla_proofs", 11, kBytes, true, ""},
    {"SubmitProofRequest", "sector_number", 20, kU64, false, ""},
    {"SubmitProofRequest", "miner_id", 21, kU64, false, ""},
    {"SubmitProofRequest", "randomness", 22, kBytes, false, ""},
    {"SubmitProofRequest", "partition_index", 23, kU32, false, ""},
    {"SubmitProofRequest", "comm_r_old", 30, kBytes, false, ""},
    {"SubmitProofRequest", "comm_r_new", 31, kBytes, false, ""},
    {"SubmitProofRequest", "comm_d_new", 32, kBytes, false, ""},
    {"SubmitProofResponse", "job_id", 1, kString, false, ""},
    {"SubmitProofResponse", "queue_position", 2, kU32, false, ""},
    {"SubmitProofResponse", "assigned_gpu", 3, kString, false, ""},
    {"AwaitProofRequest", "job_id", 1, kString, false, ""},
    {"AwaitProofRequest", "timeout_ms", 2, kU64, false, ""},
    {"AwaitProofResponse", "job_id", 1, kString, false, ""},
    {"AwaitProofResponse", "status", 2, kEnum, false, "cuzk.v1.AwaitProofResponse.Status"},
    {"AwaitProofResponse", "proof", 3, kBytes, false, ""},
    {"AwaitProofResponse", "error_message", 4, kString, false, ""},
    {"AwaitProofResponse", "queue_wait_ms", 10, kU64, false, ""},
    {"AwaitProofResponse", "srs_load_ms", 11, kU64, false, ""},
    {"AwaitProofResponse", "synthesis_ms", 12, kU64, false, ""},
    {"AwaitProofResponse", "gpu_compute_ms", 13, kU64, false, ""},
    {"AwaitProofResponse", "total_ms", 14, kU64, false, ""},
    {"ProveRequest", "submit", 1, kMsg, false, "cuzk.v1.SubmitProofRequest"},
    {"ProveResponse", "result", 1, kMsg, false, "cuzk.v1.AwaitProofResponse"},
    {"CancelProofRequest", "job_id", 1, kString, false, ""},
    {"CancelProofResponse", "was_running", 1, kBool, false, ""},
    {"GetStatusResponse", "gpus", 1, kMsg, true, "cuzk.v1.GPUStatus"},
    {"GetStatusResponse", "loaded_srs", 2, kMsg, true, "cuzk.v1.SRSStatus"},
    {"GetStatusResponse", "queues", 3, kMsg, true, "cuzk.v1.QueueStatus"},
    {"GetStatusResponse", "total_proofs_completed", 4, kU64, false, ""},
    {"GetStatusResponse", "total_proofs_failed", 5, kU64, false, ""},
    {"GetStatusResponse", "uptime_seconds", 6, kU64, false, ""},
    {"GetStatusResponse", "pinned_memory_bytes", 7, kU64, false, ""},
    {"GetStatusResponse", "pinned_memory_limit_bytes", 8, kU64, false, ""},
    {"GPUStatus", "ordinal", 1, kU32, false, ""},
    {"GPUStatus", "name", 2, kString, false, ""},
    {"GPUStatus", "vram_total_bytes", 3, kU64, false, ""},
    {"GPUStatus", "vram_free_bytes", 4, kU64, false, ""},
    {"GPUStatus", "current_job_id", 5, kString, false, ""},
    {"GPUStatus", "current_proof_kind", 6, kString, false, ""},
    {"SRSStatus", "circuit_id", 1, kString, false, ""},
    {"SRSStatus", "tier", 2, kEnum, false, "cuzk.v1.SRSStatus.Tier"},
    {"SRSStatus", "size_bytes", 3, kU64, false, ""},
    {"SRSStatus", "ref_count", 4, kU32, false, ""},
    {"QueueStatus", "proof_kind", 1, kString, false, ""},
    {"QueueStatus", "pending", 2, kU32, false, ""},
    {"QueueStatus", "in_progress", 3, kU32, false, ""},
    {"PreloadSrsRequest", "circuit_id", 1, kString, false, ""},
    {"PreloadSrsResponse", "already_loaded", 1, kBool, false, ""},
    {"PreloadSrsResponse", "load_time_ms", 2, kU64, false, ""},
    {"EvictSrsRequest", "circuit_id", 1, kString, false, ""},
    {"EvictSrsResponse", "was_loaded", 1, kBool, false, ""},
    {"EvictSrsResponse", "freed_bytes", 2, kU64, false, ""},
    {"GetMetricsResponse", "prometheus_text", 1, kString, false, ""},
};

// Fields this daemon adds to original messages: all at 100 and up.
const std::vector<FieldSpec> kAddedFields = {
    {"SubmitProofRequest", "circuit_id", 100, kString, false, ""},
    {"SubmitProofRequest", "witness", 101, kBytes, false, ""},
    {"SubmitProofRequest", "partition_witnesses", 102, kBytes, true, ""},
    {"SubmitProofRequest", "witness_paths", 103, kString, true, ""},
    {"AwaitProofResponse", "proof_json", 100, kString, true, ""},
    {"AwaitProofResponse", "public_json", 101, kString, true, ""},
    {"GetStatusResponse", "jobs", 100, kMsg, true, "cuzk.v1.JobStatus"},
};

void expect_field(const FieldSpec& s) {
  SCOPED_TRACE(std::string(s.message) + "." + s.field);
  const Descriptor* m = message(s.message);
  ASSERT_NE(m, nullptr);
  const FieldDescriptor* f = m->FindFieldByName(s.field);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->number(), s.number);
  EXPECT_EQ(f->type(), s.type) << f->type_name();
  EXPECT_EQ(f->is_repeated(), s.repeated);
  if (s.type == kEnum) {
    EXPECT_EQ(f->enum_type()->full_name(), s.type_name);
  }
  if (s.type == kMsg) {
    EXPECT_EQ(f->message_type()->full_name(), s.type_name);
  }
}

TEST(ProtoContract, FileAndPackage) {
  const auto* file = pb::SubmitProofRequest::descriptor()->file();
  EXPECT_EQ(file->name(), "cuzk/v1/proving.proto");
  EXPECT_EQ(file->package(), "cuzk.v1");
  EXPECT_EQ(file->syntax(), google::protobuf::FileDescriptor::SYNTAX_PROTO3);
}

TEST(ProtoContract, OriginalFieldNumbersAndTypes) {
  for (const auto& s : kOriginalFields) expect_field(s);
  // The brief's spot checks, spelled out.
  const auto* d = pb::SubmitProofRequest::descriptor();
  EXPECT_EQ(d->FindFieldByName("request_id")->number(), 1);
  EXPECT_EQ(d->FindFieldByName("priority")->number(), 5);
  EXPECT_EQ(d->FindFieldByName("vanilla_proof")->number(), 10);
}

TEST(ProtoContract, OriginalMessagesHaveNoOtherFieldsBelow100) {
  // Each original message: its fields below 100 are exactly the original ones.
  std::vector<std::string> names;
  for (const auto& s : kOriginalFields) {
    if (names.empty() || names.back() != s.message) names.push_back(s.message);
  }
  names.push_back("GetStatusRequest");
  names.push_back("GetMetricsRequest");
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    const Descriptor* m = message(name);
    ASSERT_NE(m, nullptr);
    int original = 0;
    for (const auto& s : kOriginalFields) original += (name == s.message);
    int below_100 = 0;
    for (int i = 0; i < m->field_count(); ++i) below_100 += (m->field(i)->number() < 100);
    EXPECT_EQ(below_100, original);
  }
}

TEST(ProtoContract, AddedFieldsStartAt100) {
  for (const auto& s : kAddedFields) expect_field(s);
  for (const char* name : {"SubmitProofRequest", "AwaitProofResponse", "GetStatusResponse"}) {
    const Descriptor* m = message(name);
    int added = 0;
    for (const auto& s : kAddedFields) added += (std::string(name) == s.message);
    int from_100 = 0;
    for (int i = 0; i < m->field_count(); ++i) from_100 += (m->field(i)->number() >= 100);
    EXPECT_EQ(from_100, added) << name;
  }
}

TEST(ProtoContract, EnumValues) {
  EXPECT_EQ(pb::PROOF_KIND_UNSPECIFIED, 0);
  EXPECT_EQ(pb::POREP_SEAL_COMMIT, 1);
  EXPECT_EQ(pb::SNAP_DEALS_UPDATE, 2);
  EXPECT_EQ(pb::WINDOW_POST_PARTITION, 3);
  EXPECT_EQ(pb::WINNING_POST, 4);
  EXPECT_EQ(pb::ProofKind_descriptor()->value_count(), 5);

  EXPECT_EQ(pb::PRIORITY_UNSPECIFIED, 0);
  EXPECT_EQ(pb::LOW, 1);
  EXPECT_EQ(pb::NORMAL, 2);
  EXPECT_EQ(pb::HIGH, 3);
  EXPECT_EQ(pb::CRITICAL, 4);
  EXPECT_EQ(pb::Priority_descriptor()->value_count(), 5);

  EXPECT_EQ(pb::AwaitProofResponse::UNKNOWN, 0);
  EXPECT_EQ(pb::AwaitProofResponse::COMPLETED, 1);
  EXPECT_EQ(pb::AwaitProofResponse::FAILED, 2);
  EXPECT_EQ(pb::AwaitProofResponse::CANCELLED, 3);
  EXPECT_EQ(pb::AwaitProofResponse::TIMEOUT, 4);
  EXPECT_EQ(pb::AwaitProofResponse::Status_descriptor()->value_count(), 5);

  EXPECT_EQ(pb::SRSStatus::HOT, 0);
  EXPECT_EQ(pb::SRSStatus::WARM, 1);
  EXPECT_EQ(pb::SRSStatus::COLD, 2);
  EXPECT_EQ(pb::SRSStatus::Tier_descriptor()->value_count(), 3);
}

TEST(ProtoContract, ServiceMethods) {
  const auto* svc = pb::SubmitProofRequest::descriptor()->file()->FindServiceByName("ProvingEngine");
  ASSERT_NE(svc, nullptr);
  EXPECT_EQ(svc->full_name(), "cuzk.v1.ProvingEngine");
  EXPECT_STREQ(pb::ProvingEngine::service_full_name(), "cuzk.v1.ProvingEngine");
  struct M {
    const char* name;
    const char* in;
    const char* out;
  };
  const std::vector<M> methods = {
      {"SubmitProof", "SubmitProofRequest", "SubmitProofResponse"},
      {"AwaitProof", "AwaitProofRequest", "AwaitProofResponse"},
      {"Prove", "ProveRequest", "ProveResponse"},
      {"CancelProof", "CancelProofRequest", "CancelProofResponse"},
      {"GetStatus", "GetStatusRequest", "GetStatusResponse"},
      {"GetMetrics", "GetMetricsRequest", "GetMetricsResponse"},
      {"PreloadSRS", "PreloadSrsRequest", "PreloadSrsResponse"},
      {"EvictSRS", "EvictSrsRequest", "EvictSrsResponse"},
  };
  ASSERT_EQ(svc->method_count(), static_cast<int>(methods.size()));
  for (std::size_t i = 0; i < methods.size(); ++i) {
    const auto* m = svc->method(static_cast<int>(i));
    EXPECT_EQ(m->name(), methods[i].name);
    EXPECT_EQ(m->input_type()->name(), methods[i].in) << m->name();
    EXPECT_EQ(m->output_type()->name(), methods[i].out) << m->name();
    EXPECT_FALSE(m->client_streaming()) << m->name();
    EXPECT_FALSE(m->server_streaming()) << m->name();
  }
}

// The generated stub has a blocking call per RPC, with the original request and response types.
#define CUZK_EXPECT_RPC(method, Req, Resp)                                                               \
  static_assert(std::is_same_v<decltype(std::declval<pb::ProvingEngine::Stub&>().method(                 \
                                   std::declval<grpc::ClientContext*>(), std::declval<const pb::Req&>(), \
                                   std::declval<pb::Resp*>())),                                          \
                               grpc::Status>)
CUZK_EXPECT_RPC(SubmitProof, SubmitProofRequest, SubmitProofResponse);
CUZK_EXPECT_RPC(AwaitProof, AwaitProofRequest, AwaitProofResponse);
CUZK_EXPECT_RPC(Prove, ProveRequest, ProveResponse);
CUZK_EXPECT_RPC(CancelProof, CancelProofRequest, CancelProofResponse);
CUZK_EXPECT_RPC(GetStatus, GetStatusRequest, GetStatusResponse);
CUZK_EXPECT_RPC(GetMetrics, GetMetricsRequest, GetMetricsResponse);
CUZK_EXPECT_RPC(PreloadSRS, PreloadSrsRequest, PreloadSrsResponse);
CUZK_EXPECT_RPC(EvictSRS, EvictSrsRequest, EvictSrsResponse);
#undef CUZK_EXPECT_RPC

pb::SubmitProofRequest sample_request() {
  pb::SubmitProofRequest r;
  r.set_request_id("porep-1000-42");
  r.set_proof_kind(pb::POREP_SEAL_COMMIT);
  r.set_sector_size(34359738368ULL);
  r.set_registered_proof(8);
  r.set_priority(pb::HIGH);
  r.set_vanilla_proof(std::string("{\"SectorNum\":42}"));
  r.add_vanilla_proofs(std::string("\x00\x01\x02", 3));
  r.add_vanilla_proofs("second");
  r.set_sector_number(42);
  r.set_miner_id(1000);
  r.set_randomness(std::string(32, '\x07'));
  r.set_partition_index(3);
  r.set_comm_r_old(std::string(32, '\x01'));
  r.set_comm_r_new(std::string(32, '\x02'));
  r.set_comm_d_new(std::string(32, '\x03'));
  r.set_circuit_id("multiplier-bn254");
  r.set_witness(std::string("wtns\x02\x00\x00\x00", 8));
  r.add_partition_witnesses("wtns-p0");
  r.add_partition_witnesses("wtns-p1");
  return r;
}

TEST(ProtoContract, SubmitProofRequestRoundTrip) {
  const pb::SubmitProofRequest in = sample_request();
  std::string bytes;
  ASSERT_TRUE(in.SerializeToString(&bytes));
  pb::SubmitProofRequest out;
  ASSERT_TRUE(out.ParseFromString(bytes));
  EXPECT_EQ(out.request_id(), "porep-1000-42");
  EXPECT_EQ(out.proof_kind(), pb::POREP_SEAL_COMMIT);
  EXPECT_EQ(out.sector_size(), 34359738368ULL);
  EXPECT_EQ(out.registered_proof(), 8u);
  EXPECT_EQ(out.priority(), pb::HIGH);
  EXPECT_EQ(out.vanilla_proof(), "{\"SectorNum\":42}");
  ASSERT_EQ(out.vanilla_proofs_size(), 2);
  EXPECT_EQ(out.vanilla_proofs(0), std::string("\x00\x01\x02", 3));
  EXPECT_EQ(out.vanilla_proofs(1), "second");
  EXPECT_EQ(out.sector_number(), 42u);
  EXPECT_EQ(out.miner_id(), 1000u);
  EXPECT_EQ(out.randomness(), std::string(32, '\x07'));
  EXPECT_EQ(out.partition_index(), 3u);
  EXPECT_EQ(out.comm_r_old(), std::string(32, '\x01'));
  EXPECT_EQ(out.comm_r_new(), std::string(32, '\x02'));
  EXPECT_EQ(out.comm_d_new(), std::string(32, '\x03'));
  EXPECT_EQ(out.circuit_id(), "multiplier-bn254");
  EXPECT_EQ(out.witness(), std::string("wtns\x02\x00\x00\x00", 8));
  ASSERT_EQ(out.partition_witnesses_size(), 2);
  EXPECT_EQ(out.partition_witnesses(1), "wtns-p1");
  EXPECT_EQ(out.SerializeAsString(), bytes);

  // Inside ProveRequest (Prove's request) too.
  pb::ProveRequest prove;
  *prove.mutable_submit() = in;
  pb::ProveRequest prove_out;
  ASSERT_TRUE(prove_out.ParseFromString(prove.SerializeAsString()));
  EXPECT_EQ(prove_out.submit().circuit_id(), "multiplier-bn254");
}

// Bytes as an original client writes them (tag = number << 3 | wire type), parsed by our messages.
TEST(ProtoContract, ParsesOriginalClientBytes) {
  std::string w;
  auto tag = [&](int number, int wire_type) {
    unsigned v = static_cast<unsigned>(number << 3 | wire_type);
    while (v >= 0x80) {
      w.push_back(static_cast<char>(v | 0x80));
      v >>= 7;
    }
    w.push_back(static_cast<char>(v));
  };
  auto len_field = [&](int number, const std::string& s) {
    tag(number, 2);
    w.push_back(static_cast<char>(s.size()));  // short payloads only
    w += s;
  };
  len_field(1, "wdpost-1000-0-abcd");
  tag(2, 0);
  w.push_back(3);  // WINDOW_POST_PARTITION
  tag(5, 0);
  w.push_back(4);  // CRITICAL
  len_field(11, "sector-a");
  len_field(11, "sector-b");
  tag(21, 0);
  w.push_back(0x64);  // miner 100
  tag(23, 0);
  w.push_back(2);
  len_field(32, std::string(32, '\x09'));

  pb::SubmitProofRequest r;
  ASSERT_TRUE(r.ParseFromString(w));
  EXPECT_EQ(r.request_id(), "wdpost-1000-0-abcd");
  EXPECT_EQ(r.proof_kind(), pb::WINDOW_POST_PARTITION);
  EXPECT_EQ(r.priority(), pb::CRITICAL);
  ASSERT_EQ(r.vanilla_proofs_size(), 2);
  EXPECT_EQ(r.vanilla_proofs(1), "sector-b");
  EXPECT_EQ(r.miner_id(), 100u);
  EXPECT_EQ(r.partition_index(), 2u);
  EXPECT_EQ(r.comm_d_new(), std::string(32, '\x09'));
  EXPECT_TRUE(r.circuit_id().empty());
  EXPECT_TRUE(r.witness().empty());
  EXPECT_EQ(r.partition_witnesses_size(), 0);
}

TEST(ProtoContract, AwaitProofResponseAndStatusRoundTrip) {
  pb::AwaitProofResponse a;
  a.set_job_id("7-porep-1000-42");
  a.set_status(pb::AwaitProofResponse::COMPLETED);
  a.set_proof(std::string(384, '\x05'));
  a.set_total_ms(1234);
  a.add_proof_json("{\"protocol\":\"groth16\"}");
  a.add_proof_json("{\"protocol\":\"groth16\",\"curve\":\"bn128\"}");
  a.add_public_json("[\"33\"]");
  a.add_public_json("[\"35\"]");
  pb::AwaitProofResponse b;
  ASSERT_TRUE(b.ParseFromString(a.SerializeAsString()));
  EXPECT_EQ(b.job_id(), "7-porep-1000-42");
  EXPECT_EQ(b.status(), pb::AwaitProofResponse::COMPLETED);
  EXPECT_EQ(b.proof().size(), 384u);
  EXPECT_EQ(b.total_ms(), 1234u);
  ASSERT_EQ(b.proof_json_size(), 2);
  EXPECT_EQ(b.public_json(1), "[\"35\"]");

  pb::GetStatusResponse s;
  s.set_uptime_seconds(9);
  auto* job = s.add_jobs();
  job->set_job_id("7-x");
  job->set_state(pb::JobStatus::RUNNING);
  job->set_partitions_total(2);
  auto* part = job->add_partitions();
  part->set_index(1);
  part->set_state(pb::PartitionStatus::PROVING);
  pb::GetStatusResponse t;
  ASSERT_TRUE(t.ParseFromString(s.SerializeAsString()));
  ASSERT_EQ(t.jobs_size(), 1);
  EXPECT_EQ(t.jobs(0).state(), pb::JobStatus::RUNNING);
  EXPECT_EQ(t.jobs(0).partitions(0).state(), pb::PartitionStatus::PROVING);
  EXPECT_EQ(t.uptime_seconds(), 9u);
}

// A minimal service behind an in-process channel: the generated server and client code link and agree on
// the method paths.
class EchoEngine final : public pb::ProvingEngine::Service {
 public:
  grpc::Status SubmitProof(grpc::ServerContext*, const pb::SubmitProofRequest* req,
                           pb::SubmitProofResponse* resp) override {
    resp->set_job_id("1-" + req->request_id());
    resp->set_queue_position(static_cast<std::uint32_t>(req->partition_witnesses_size()));
    return grpc::Status::OK;
  }
  grpc::Status Prove(grpc::ServerContext*, const pb::ProveRequest* req, pb::ProveResponse* resp) override {
    auto* r = resp->mutable_result();
    r->set_job_id("2-" + req->submit().request_id());
    r->set_status(pb::AwaitProofResponse::COMPLETED);
    for (int i = 0; i < req->submit().partition_witnesses_size(); ++i) r->add_proof_json("{}");
    return grpc::Status::OK;
  }
};

TEST(ProtoContract, InProcessServiceCall) {
  EchoEngine service;
  grpc::ServerBuilder builder;
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  ASSERT_NE(server, nullptr);
  auto stub = pb::ProvingEngine::NewStub(server->InProcessChannel(grpc::ChannelArguments()));

  {
    grpc::ClientContext ctx;
    pb::SubmitProofResponse resp;
    grpc::Status st = stub->SubmitProof(&ctx, sample_request(), &resp);
    ASSERT_TRUE(st.ok()) << st.error_message();
    EXPECT_EQ(resp.job_id(), "1-porep-1000-42");
    EXPECT_EQ(resp.queue_position(), 2u);
  }
  {
    grpc::ClientContext ctx;
    pb::ProveRequest req;
    *req.mutable_submit() = sample_request();
    pb::ProveResponse resp;
    grpc::Status st = stub->Prove(&ctx, req, &resp);
    ASSERT_TRUE(st.ok()) << st.error_message();
    EXPECT_EQ(resp.result().job_id(), "2-porep-1000-42");
    EXPECT_EQ(resp.result().proof_json_size(), 2);
  }
  {
    // Not overridden: the generated base answers UNIMPLEMENTED.
    grpc::ClientContext ctx;
    pb::CancelProofRequest req;
    req.set_job_id("1-x");
    pb::CancelProofResponse resp;
    EXPECT_EQ(stub->CancelProof(&ctx, req, &resp).error_code(), grpc::StatusCode::UNIMPLEMENTED);
  }
  server->Shutdown();
}

}  // namespace
