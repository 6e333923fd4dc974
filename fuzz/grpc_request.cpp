// Fuzz harness: the daemon's request validation. The bytes parsed as a SubmitProofRequest (as gRPC does),
// then translated and checked by the service's own code (service::to_engine, over TCP's witness-path policy),
// and for Filecoin kinds read as the engine reads them at submit (filecoin::read_vanilla_job: every vanilla
// proof decoded and checked). No key, engine or file is touched.
#include <google/protobuf/stubs/logging.h>

#include "cuzk/v1/proving.pb.h"
#include "filecoin/vanilla_job.hpp"
#include "fuzz/fuzz_input.hpp"
#include "service/submit_request.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cuzk;
  // Invalid UTF-8 in a string field is refused by the parser, which logs each one: a finding of nothing.
  static const bool quiet = (google::protobuf::SetLogHandler(nullptr), true);
  (void)quiet;
  v1::SubmitProofRequest request;
  if (!request.ParseFromArray(data, static_cast<int>(size))) return 0;
  engine::SubmitRequest out;
  if (!service::to_engine(request, {}, out).ok()) return 0;
  if (out.vanilla) fuzz::refusal_is_fine([&] { filecoin::read_vanilla_job(*out.vanilla); });
  return 0;
}
