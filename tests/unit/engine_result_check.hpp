// A partition the engine proved from a test repository's circuit: done, and its proof verifies against the
// circuit's .zkey with the public inputs it returned (the engine tests' common check).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "engine/engine.hpp"
#include "groth16/verifier.hpp"
#include "io/json.hpp"
#include "io/zkey.hpp"

namespace cuzk::engine {

template <class Curve>
void expect_valid(const std::filesystem::path& root, const std::string& circuit, const PartitionResult& p) {
  ASSERT_EQ(p.state, PartitionState::kDone) << p.error;
  const auto pk = io::read_zkey<Curve>((root / circuit / "circuit.zkey").string());
  EXPECT_TRUE(groth16::verify(pk.verifying_key(), io::public_from_json<Curve>(p.public_json, "public"),
                              io::proof_from_json<Curve>(p.proof_json, "proof"))
                  .valid);
}

}  // namespace cuzk::engine
