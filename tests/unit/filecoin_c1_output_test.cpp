// The C1 codec (src/filecoin/c1_output.hpp): base64 against RFC 4648's vectors; the writer's JSON checked
// with nlohmann's independent parser (serde_json's compact form and key order, "_h": null, every derived
// value as rust-fil-proofs' prover has it); writer → reader round trips at 2 KiB, 32 GiB and 64 GiB; and
// every kind of malformed input refused with the field path and a message that says what is wrong.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "filecoin/base64.hpp"
#include "filecoin/c1_output.hpp"
#include "filecoin/c1_test_data.hpp"
#include "filecoin/porep_vanilla_verify.hpp"
#include "sanitizer_skip.hpp"

namespace cuzk::filecoin {
namespace {

using ojson = nlohmann::ordered_json;

const char kSource[] = "c1.json";

void expect_same_path(const MerklePath& a, const MerklePath& b, const std::string& what) {
  ASSERT_EQ(a.levels.size(), b.levels.size()) << what;
  for (std::size_t l = 0; l < a.levels.size(); ++l) {
    EXPECT_EQ(a.levels[l].index, b.levels[l].index) << what << " level " << l;
    EXPECT_EQ(a.levels[l].siblings, b.levels[l].siblings) << what << " level " << l;
  }
}

void expect_same_partition(const PorepPartitionProof& a, const PorepPartitionProof& b) {
  EXPECT_EQ(a.replica_id, b.replica_id);
  EXPECT_EQ(a.comm_d, b.comm_d);
  EXPECT_EQ(a.comm_r, b.comm_r);
  EXPECT_EQ(a.comm_c, b.comm_c);
  EXPECT_EQ(a.comm_r_last, b.comm_r_last);
  ASSERT_EQ(a.challenges.size(), b.challenges.size());
  for (std::size_t i = 0; i < a.challenges.size(); ++i) {
    const ChallengeProof &x = a.challenges[i], &y = b.challenges[i];
    EXPECT_EQ(x.challenge, y.challenge);
    EXPECT_EQ(x.data_leaf, y.data_leaf);
    expect_same_path(x.comm_d_path, y.comm_d_path, "tree D");
    expect_same_path(x.comm_r_last_path, y.comm_r_last_path, "tree R_last");
    expect_same_path(x.comm_c_path, y.comm_c_path, "tree C");
    for (unsigned j = 0; j < 14; ++j) {
      const ColumnProof& cx = j < 6 ? x.drg_parents[j] : x.exp_parents[j - 6];
      const ColumnProof& cy = j < 6 ? y.drg_parents[j] : y.exp_parents[j - 6];
      EXPECT_EQ(cx.rows, cy.rows) << "parent " << j;
      expect_same_path(cx.path, cy.path, "parent " + std::to_string(j));
    }
  }
}

void expect_round_trip(const PorepParams& params, const C1Output& c1, const C1Output& back) {
  EXPECT_EQ(back.registered_proof, c1.registered_proof);
  EXPECT_EQ(back.comm_r, c1.comm_r);
  EXPECT_EQ(back.comm_d, c1.comm_d);
  EXPECT_EQ(back.replica_id, c1.replica_id);
  EXPECT_EQ(back.seed, c1.seed);
  EXPECT_EQ(back.ticket, c1.ticket);
  ASSERT_EQ(back.partitions.size(), c1.partitions.size());
  const SdrGraph graph = porep_graph(*back.registered_proof);
  for (std::size_t p = 0; p < c1.partitions.size(); ++p) {
    SCOPED_TRACE("partition " + std::to_string(p));
    expect_same_partition(back.partitions[p], c1.partitions[p]);
    EXPECT_NO_THROW(verify_porep_vanilla(params, graph, back.partitions[p]));
  }
}

// ---- base64 ----

TEST(Base64, Rfc4648Vectors) {
  const std::pair<const char*, const char*> vectors[] = {{"", ""},
                                                         {"f", "Zg=="},
                                                         {"fo", "Zm8="},
                                                         {"foo", "Zm9v"},
                                                         {"foob", "Zm9vYg=="},
                                                         {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(base64_encode(std::string_view(plain)), encoded);
    EXPECT_EQ(base64_decode(encoded), plain);
  }
  std::string all;
  for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
  for (std::size_t n = 0; n <= all.size(); n += 17)
    EXPECT_EQ(base64_decode(base64_encode(all.substr(0, n))), all.substr(0, n));
  EXPECT_EQ(base64_encode(std::string_view("\xfb\xff")), "+/8=");
}

TEST(Base64, RefusesWhatTheStandardEngineRefuses) {
  const std::pair<const char*, const char*> bad[] = {
      {"Zg", "not a multiple of 4"},
      {"Zg=", "not a multiple of 4"},
      {"Zm9", "not a multiple of 4"},
      {"Z===", "'=' padding inside"},
      {"Zg==Zg==", "'=' padding inside"},
      {"=Zm9", "'=' padding inside"},
      {"Zh==", "non-zero bits"},
      {"Zm9=", "non-zero bits"},
      {"Zm9v\nYmF", "byte 0x0a is not a base64 character"},
      {"Zm-v", "'-' is not a base64 character"},
      {"Zm9v YmF", "byte 0x20 is not"},
      {"Zm_v", "'_' is not"},
  };
  for (const auto& [text, needle] : bad) {
    try {
      base64_decode(text);
      ADD_FAILURE() << "accepted " << text;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << text << ": " << e.what();
    }
  }
}

// ---- the writer's JSON ----

class C1Small : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    c1_ = new C1Output(make_test_c1_output(porep_params_for("2KiB"), 17));
    text_ = new std::string(write_seal_commit_phase1_output(*c1_));
  }
  static void TearDownTestSuite() {
    delete c1_;
    delete text_;
  }
  static const PorepParams& params() { return porep_params_for("2KiB"); }
  static ojson doc() { return ojson::parse(*text_); }
  static ojson& challenge(ojson& d, std::size_t p, std::size_t i) {
    return d["vanilla_proofs"]["StackedDrg2KiBV1"][p][i];
  }

  // The document (changed) must be refused with `needle` in the message and `path` as the field path.
  static void expect_refused(const std::string& text, const std::string& path, const std::string& needle,
                             const C1ReadOptions& options = {}) {
    try {
      parse_seal_commit_phase1_output(text, kSource, options);
      ADD_FAILURE() << "accepted; expected " << path << ": " << needle;
    } catch (const C1Error& e) {
      EXPECT_EQ(e.path(), path) << e.what();
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
          << "'" << e.what() << "' lacks '" << needle << "'";
      EXPECT_EQ(std::string(e.what()).rfind(std::string(kSource) + ": ", 0), 0u) << e.what();
    }
  }
  static void expect_refused(const ojson& d, const std::string& path, const std::string& needle,
                             const C1ReadOptions& options = {}) {
    expect_refused(d.dump(), path, needle, options);
  }

  static C1Output* c1_;
  static std::string* text_;
};
C1Output* C1Small::c1_ = nullptr;
std::string* C1Small::text_ = nullptr;

std::vector<std::string> keys(const ojson& object) {
  std::vector<std::string> out;
  for (auto it = object.begin(); it != object.end(); ++it) out.push_back(it.key());
  return out;
}

using Keys = std::vector<std::string>;

Bytes32 bytes_of(const ojson& domain) {
  EXPECT_TRUE(domain.is_array());
  EXPECT_EQ(domain.size(), 32u);
  Bytes32 b{};
  for (std::size_t i = 0; i < 32 && i < domain.size(); ++i) {
    EXPECT_TRUE(domain[i].is_number_unsigned());
    b[i] = domain[i].get<std::uint8_t>();
  }
  return b;
}
Fr fr_of(const ojson& domain) {
  return fr_from_repr(bytes_of(domain));
}

TEST_F(C1Small, SerdeJsonCompactFormAndKeyOrder) {
  const std::string& text = *text_;
  // Compact: what nlohmann writes back from its own parse is byte for byte the same (no whitespace,
  // integers in decimal, null, keys kept in order).
  const ojson d = doc();
  EXPECT_EQ(d.dump(), text);
  EXPECT_EQ(text.find_first_of(" \n\t"), std::string::npos);
  EXPECT_EQ(
      text.rfind("{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"vanilla_proofs\":{\"StackedDrg2KiBV1\":[[{"
                 "\"comm_d_proofs\":{\"data\":{\"Single\":{\"root\":[",
                 0),
      0u);

  EXPECT_EQ(keys(d),
            (Keys{"registered_proof", "vanilla_proofs", "comm_r", "comm_d", "replica_id", "seed", "ticket"}));
  EXPECT_EQ(keys(d["vanilla_proofs"]), Keys{"StackedDrg2KiBV1"});
  EXPECT_EQ(bytes_of(d["comm_r"]), c1_->comm_r);
  EXPECT_EQ(bytes_of(d["comm_d"]), c1_->comm_d);
  EXPECT_EQ(bytes_of(d["replica_id"]), c1_->replica_id);
  EXPECT_EQ(bytes_of(d["seed"]), c1_->seed);
  EXPECT_EQ(bytes_of(d["ticket"]), c1_->ticket);
  const ojson& partitions = d["vanilla_proofs"]["StackedDrg2KiBV1"];
  ASSERT_EQ(partitions.size(), 1u);
  ASSERT_EQ(partitions[0].size(), 2u);

  const PorepParams& p = params();
  const SdrGraph graph = porep_graph(*c1_->registered_proof);
  const PorepPartitionProof& partition = c1_->partitions[0];
  for (std::size_t i = 0; i < 2; ++i) {
    SCOPED_TRACE("challenge " + std::to_string(i));
    const ChallengeProof& ch = partition.challenges[i];
    const ojson& proof = partitions[0][i];
    EXPECT_EQ(keys(proof), (Keys{"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs",
                                 "labeling_proofs", "encoding_proof"}));
    // Tree D: Single, binary, 6 levels; root comm_d, leaf the data node.
    const ojson& d_proof = proof["comm_d_proofs"];
    EXPECT_EQ(keys(d_proof), Keys{"data"});
    EXPECT_EQ(keys(d_proof["data"]), Keys{"Single"});
    const ojson& single = d_proof["data"]["Single"];
    EXPECT_EQ(keys(single), (Keys{"root", "leaf", "path"}));
    EXPECT_EQ(fr_of(single["root"]), partition.comm_d);
    EXPECT_EQ(fr_of(single["leaf"]), ch.data_leaf);
    EXPECT_EQ(keys(single["path"]), Keys{"path"});
    ASSERT_EQ(single["path"]["path"].size(), p.tree_d_levels);
    for (std::size_t l = 0; l < p.tree_d_levels; ++l) {
      const ojson& element = single["path"]["path"][l];
      EXPECT_EQ(keys(element), (Keys{"hashes", "index"}));
      ASSERT_EQ(element["hashes"].size(), 1u);
      EXPECT_EQ(fr_of(element["hashes"][0]), ch.comm_d_path.levels[l].siblings[0]);
      EXPECT_EQ(element["index"].get<std::uint64_t>(), ch.comm_d_path.levels[l].index);
    }
    // Tree R_last: root comm_r_last, leaf the encoded node.
    const ojson& r = proof["comm_r_last_proof"]["data"]["Single"];
    const std::vector<Fr> labels = recompute_challenge_labels(p, partition.replica_id, ch);
    EXPECT_EQ(fr_of(r["root"]), partition.comm_r_last);
    EXPECT_EQ(fr_of(r["leaf"]), labels.back() + ch.data_leaf);
    EXPECT_EQ(r["path"]["path"].size(), 2u);
    EXPECT_EQ(r["path"]["path"][1]["hashes"].size(), 7u);
    // Columns: the challenge's own (its labels), then the graph's parents in order.
    const ojson& columns = proof["replica_column_proofs"];
    EXPECT_EQ(keys(columns), (Keys{"c_x", "drg_parents", "exp_parents"}));
    EXPECT_EQ(keys(columns["c_x"]), (Keys{"column", "inclusion_proof"}));
    EXPECT_EQ(keys(columns["c_x"]["column"]), (Keys{"index", "rows", "_h"}));
    EXPECT_TRUE(columns["c_x"]["column"]["_h"].is_null());
    EXPECT_EQ(columns["c_x"]["column"]["index"].get<std::uint64_t>(), ch.challenge);
    ASSERT_EQ(columns["c_x"]["column"]["rows"].size(), 2u);
    EXPECT_EQ(fr_of(columns["c_x"]["column"]["rows"][0]), labels[0]);
    EXPECT_EQ(fr_of(columns["c_x"]["column"]["rows"][1]), labels[1]);
    const ojson& c_x_proof = columns["c_x"]["inclusion_proof"]["data"]["Single"];
    EXPECT_EQ(fr_of(c_x_proof["root"]), partition.comm_c);
    EXPECT_EQ(fr_of(c_x_proof["leaf"]), column_hash(labels));
    const auto parents = graph.parents(ch.challenge);
    ASSERT_EQ(columns["drg_parents"].size(), 6u);
    ASSERT_EQ(columns["exp_parents"].size(), 8u);
    for (unsigned j = 0; j < 14; ++j) {
      const ojson& column = j < 6 ? columns["drg_parents"][j] : columns["exp_parents"][j - 6];
      const ColumnProof& expected = j < 6 ? ch.drg_parents[j] : ch.exp_parents[j - 6];
      EXPECT_EQ(column["column"]["index"].get<std::uint64_t>(), parents[j]);
      EXPECT_EQ(fr_of(column["column"]["rows"][1]), expected.rows[1]);
      EXPECT_EQ(fr_of(column["inclusion_proof"]["data"]["Single"]["leaf"]), column_hash(expected.rows));
      EXPECT_EQ(column["inclusion_proof"]["data"]["Single"]["path"]["path"][0]["index"].get<unsigned>(),
                parents[j] % 8);
    }
    // Labeling proofs: layer 1 the 6 DRG parents' layer-1 labels, layer 2 the DRG parents' layer-2 and the
    // expander parents' layer-1 labels, cyclically to 37; the encoding proof is the last one.
    ASSERT_EQ(proof["labeling_proofs"].size(), 2u);
    for (unsigned layer = 1; layer <= 2; ++layer) {
      const ojson& lp = proof["labeling_proofs"][layer - 1];
      EXPECT_EQ(keys(lp), (Keys{"parents", "layer_index", "node"}));
      EXPECT_EQ(lp["layer_index"].get<unsigned>(), layer);
      EXPECT_EQ(lp["node"].get<std::uint64_t>(), ch.challenge);
      ASSERT_EQ(lp["parents"].size(), 37u);
      std::vector<Label> hashed;  // what the label hash takes, first pass
      for (unsigned k = 0; k < 37; ++k) {
        const unsigned j = layer == 1 ? k % 6 : k % 14;
        const Fr expected = j < 6 ? ch.drg_parents[j].rows[layer - 1] : ch.exp_parents[j - 6].rows[layer - 2];
        EXPECT_EQ(fr_of(lp["parents"][k]), expected) << "layer " << layer << " parent " << k;
        if (k < (layer == 1 ? 6u : 14u)) hashed.push_back(bytes_of(lp["parents"][k]));
      }
      EXPECT_EQ(fr_from_repr(label_from_parents(c1_->replica_id, layer, ch.challenge, hashed)),
                labels[layer - 1]);
    }
    EXPECT_EQ(proof["encoding_proof"], proof["labeling_proofs"][1]);
  }
}

TEST_F(C1Small, ReadsBackWhatItWrote) {
  const C1Output back = parse_seal_commit_phase1_output(*text_, kSource);
  expect_round_trip(params(), *c1_, back);
  // The same document pretty-printed, and with every object's keys sorted (a different order), reads the
  // same.
  expect_round_trip(params(), *c1_, parse_seal_commit_phase1_output(doc().dump(2), kSource));
  expect_round_trip(params(), *c1_,
                    parse_seal_commit_phase1_output(nlohmann::json::parse(*text_).dump(), kSource));
  // Keys spelled with escapes are the same keys.
  std::string escaped = *text_;
  escaped.replace(escaped.find("\"comm_r\""), 8, "\"comm\\u005fr\"");
  expect_round_trip(params(), *c1_, parse_seal_commit_phase1_output(escaped, kSource));
}

TEST_F(C1Small, CurioEnvelope) {
  const std::string envelope = write_curio_c1_envelope(4242, 2048, *text_);
  EXPECT_EQ(envelope.rfind("{\"SectorNum\":4242,\"Phase1Out\":\"eyJyZWdpc3RlcmVkX3Byb29mIjoi", 0), 0u);
  EXPECT_EQ(envelope.substr(envelope.size() - 20), "\",\"SectorSize\":2048}");
  const CurioC1Envelope e = parse_curio_c1_envelope(envelope, "request");
  EXPECT_EQ(e.sector_num, 4242u);
  EXPECT_EQ(e.sector_size, 2048u);
  EXPECT_EQ(e.phase1_out, *text_);
  // Any key order, whitespace.
  const std::string reordered =
      "{ \"SectorSize\" : 2048, \"Phase1Out\": \"" + base64_encode(*text_) + "\",\n \"SectorNum\": 7 }";
  const CurioC1Request request = parse_curio_c1_request(reordered, "request");
  EXPECT_EQ(request.sector_num, 7u);
  expect_round_trip(params(), *c1_, request.output);

  auto refused = [](const std::string& text, const std::string& path, const std::string& needle) {
    try {
      parse_curio_c1_request(text, "request");
      ADD_FAILURE() << "accepted; expected " << needle;
    } catch (const C1Error& e) {
      EXPECT_EQ(e.path(), path) << e.what();
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  refused(
      write_curio_c1_envelope(1, 34359738368ull, *text_), "SectorSize",
      "34359738368, but the C1 output's registered_proof StackedDrg2KiBV1_1 is for sectors of 2048 bytes");
  std::string bad = envelope;
  bad[40] = '!';
  refused(bad, "Phase1Out", "invalid base64 at character");
  refused("{\"SectorNum\":1,\"Phase1Out\":\"e30=\",\"SectorSize\":-2048}", "SectorSize", "negative");
  refused("{\"SectorNum\":1,\"Phase1Out\":\"e30=\"}", "", "the key \"SectorSize\" is missing");
  refused("{\"SectorNum\":1,\"Phase1Out\":\"e30=\",\"SectorSize\":2048,\"Extra\":0}", "",
          "unknown key \"Extra\" (the keys here are \"SectorNum\", \"Phase1Out\" and \"SectorSize\")");
  refused("{\"SectorNum\":1,\"Phase1Out\":null,\"SectorSize\":2048}", "Phase1Out",
          "expected a string, found null");
  // The decoded JSON's errors name it as the envelope's Phase1Out.
  try {
    parse_curio_c1_request(write_curio_c1_envelope(1, 2048, "{}"), "request");
    ADD_FAILURE();
  } catch (const C1Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("request Phase1Out: ", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("the key \"registered_proof\" is missing"), std::string::npos)
        << e.what();
  }
  // Oversized.
  try {
    parse_curio_c1_envelope(envelope, "request", 1000);
    ADD_FAILURE();
  } catch (const C1Error& e) {
    EXPECT_NE(std::string(e.what()).find("more than the limit of 1000"), std::string::npos) << e.what();
  }
}

TEST_F(C1Small, RefusesBrokenJson) {
  const std::string& text = *text_;
  // Truncated anywhere: a clear error with the position.
  for (std::size_t cut :
       {std::size_t{0}, std::size_t{1}, std::size_t{30}, text.size() / 3, text.size() / 2, text.size() - 1}) {
    try {
      parse_seal_commit_phase1_output(text.substr(0, cut), kSource);
      ADD_FAILURE() << "accepted a truncation at " << cut;
    } catch (const C1Error& e) {
      EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << cut << ": " << e.what();
      ASSERT_TRUE(e.byte_offset().has_value());
      EXPECT_LE(*e.byte_offset(), cut);
    }
  }
  expect_refused(text + "x", "", "unexpected text after the JSON value: the character 'x'");
  expect_refused(text + "{}", "", "unexpected text after the JSON value");
  EXPECT_NO_THROW(parse_seal_commit_phase1_output(text + " \n", kSource));
  expect_refused("\xef\xbb\xbf" + text, "", "expected an object, found the byte 0xef");
  std::string trailing = text;
  trailing.insert(trailing.size() - 1, ",");
  expect_refused(trailing, "", "a trailing comma before '}'");
  std::string dup = text;
  dup.insert(dup.size() - 1, ",\"seed\":" + doc()["seed"].dump());
  expect_refused(dup, "", "the key \"seed\" a second time");
  std::string zero = text;
  const std::size_t seed_at = zero.find("\"seed\":[") + 8;
  zero.insert(seed_at, "0");  // "07": a leading zero
  expect_refused(zero, "seed[0]", "a leading zero");
  std::string float_index = text;
  const std::size_t index_at = float_index.find("\"index\":") + 8;
  float_index.insert(float_index.find_first_of(",}", index_at), ".0");
  expect_refused(float_index,
                 "vanilla_proofs.StackedDrg2KiBV1[0][0].comm_d_proofs.data.Single.path.path[0].index",
                 "a fraction or an exponent");
  // Oversize: refused before parsing.
  C1ReadOptions small;
  small.max_bytes = 1000;
  try {
    parse_seal_commit_phase1_output(text, kSource, small);
    ADD_FAILURE();
  } catch (const C1Error& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(text.size()) +
                                         " bytes of JSON, more than the limit of 1000"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(C1Small, RefusesBadValues) {
  const std::string at = "vanilla_proofs.StackedDrg2KiBV1[0][1]";
  {
    ojson d = doc();
    challenge(d, 0, 1)["replica_column_proofs"]["drg_parents"][2]["inclusion_proof"]["data"]["Single"]["path"]
                      ["path"][1]["hashes"][3][5] = 256;
    expect_refused(
        d, at + ".replica_column_proofs.drg_parents[2].inclusion_proof.data.Single.path.path[1].hashes[3][5]",
        "256 is not a byte (0..255)");
  }
  {
    ojson d = doc();
    challenge(d, 0, 1)["replica_column_proofs"]["exp_parents"][7]["column"]["rows"][1] = ojson::array();
    for (int i = 0; i < 32; ++i)
      challenge(d, 0, 1)["replica_column_proofs"]["exp_parents"][7]["column"]["rows"][1].push_back(255);
    expect_refused(d, at + ".replica_column_proofs.exp_parents[7].column.rows[1]",
                   "not a canonical field element (≥ r");
  }
  {
    ojson d = doc();  // r itself: the smallest non-canonical value
    d["comm_r"] = ojson::parse(
        "[1,0,0,0,255,255,255,255,254,91,254,255,2,164,189,83,5,216,161,9,8,216,57,51,72,125,157,41,83,167,"
        "237,115]");
    expect_refused(d, "comm_r", "not a canonical field element");
  }
  {
    ojson d = doc();
    d["seed"][7] = -1;
    expect_refused(d, "seed[7]", "a negative number");
  }
  {
    ojson d = doc();
    d["ticket"].erase(d["ticket"].size() - 1);
    expect_refused(d, "ticket", "an array of 31 numbers, a 32-byte value has 32");
  }
  {
    ojson d = doc();
    d["replica_id"].push_back(0);
    expect_refused(d, "replica_id", "more than 32 numbers");
  }
  {
    ojson d = doc();
    d["comm_d"] = "00ff";
    expect_refused(d, "comm_d", "expected an array, found a string");
  }
  // seed and ticket are raw bytes, not field elements.
  {
    ojson d = doc();
    for (int i = 0; i < 32; ++i) d["ticket"][i] = 255;
    EXPECT_NO_THROW(parse_seal_commit_phase1_output(d.dump(), kSource));
  }
  // All-zero commitments and seed (seal_commit_phase2's checks).
  for (const char* key : {"comm_r", "comm_d", "seed"}) {
    ojson d = doc();
    for (int i = 0; i < 32; ++i) d[key][i] = 0;
    expect_refused(d, key, "all zero");
  }
}

TEST_F(C1Small, RefusesWrongProofTypesAndCounts) {
  const std::string at = "vanilla_proofs.StackedDrg2KiBV1[0][1]";
  {
    ojson d = doc();
    d["registered_proof"] = "StackedDrg4KiBV1_1";
    expect_refused(
        d, "registered_proof",
        "unknown registered seal proof \"StackedDrg4KiBV1_1\": the known ones are StackedDrg2KiBV1 (0)");
  }
  {
    ojson d = doc();
    d["registered_proof"] = "StackedDrg8MiBV1_1";
    expect_refused(d, "vanilla_proofs",
                   "the StackedDrg2KiBV1 variant holds 2KiB proofs, registered_proof StackedDrg8MiBV1_1 is "
                   "for 8MiB sectors");
  }
  {
    ojson d = doc();
    d["registered_proof"] = "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep";  // 13 partitions
    expect_refused(d, "vanilla_proofs.StackedDrg2KiBV1",
                   "1 partitions, StackedDrg2KiBV1_2_Feat_NonInteractivePoRep has 13");
  }
  {
    ojson d = doc();
    d["vanilla_proofs"] = ojson{{"StackedDrg16KiBV1", ojson::array()}};
    expect_refused(d, "vanilla_proofs", "unknown a VanillaSealProof variant \"StackedDrg16KiBV1\"");
  }
  {
    ojson d = doc();
    d["vanilla_proofs"]["StackedDrg8MiBV1"] = d["vanilla_proofs"]["StackedDrg2KiBV1"];
    expect_refused(d, "vanilla_proofs", "a second key \"StackedDrg8MiBV1\"");
  }
  {
    ojson d = doc();
    d["vanilla_proofs"]["StackedDrg2KiBV1"] = ojson::array();
    expect_refused(d, "vanilla_proofs.StackedDrg2KiBV1", "0 partitions, StackedDrg2KiBV1_1 has 1");
  }
  {
    ojson d = doc();
    d["vanilla_proofs"]["StackedDrg2KiBV1"].push_back(d["vanilla_proofs"]["StackedDrg2KiBV1"][0]);
    expect_refused(d, "vanilla_proofs.StackedDrg2KiBV1", "2 partitions, StackedDrg2KiBV1_1 has 1");
  }
  {
    ojson d = doc();
    d["vanilla_proofs"]["StackedDrg2KiBV1"][0].erase(1);
    expect_refused(d, "vanilla_proofs.StackedDrg2KiBV1[0]", "1 challenge proofs: a 2KiB partition has 2");
  }
  {
    ojson d = doc();
    d["vanilla_proofs"]["StackedDrg2KiBV1"][0].push_back(challenge(d, 0, 0));
    expect_refused(d, "vanilla_proofs.StackedDrg2KiBV1[0]", "more than 2 challenge proofs");
  }
  {
    ojson d = doc();
    challenge(d, 0, 1)["replica_column_proofs"]["drg_parents"].erase(5);
    expect_refused(d, at + ".replica_column_proofs.drg_parents", "5 DRG parents, there are 6");
  }
  {
    ojson d = doc();
    challenge(d, 0, 1)["replica_column_proofs"]["exp_parents"].push_back(
        challenge(d, 0, 1)["replica_column_proofs"]["exp_parents"][0]);
    expect_refused(d, at + ".replica_column_proofs.exp_parents", "more than 8 expander parents");
  }
  {
    ojson d = doc();
    challenge(d, 0, 1)["labeling_proofs"].erase(1);
    expect_refused(d, at + ".labeling_proofs", "1 labeling proofs: a 2KiB sector has 2 layers");
  }
  {
    ojson d = doc();
    challenge(d, 0, 0)["replica_column_proofs"]["c_x"]["column"]["rows"].erase(0);
    expect_refused(d, "vanilla_proofs.StackedDrg2KiBV1[0][0].replica_column_proofs.c_x.column.rows",
                   "1 values: a 2KiB column (2 layers) has 2");
  }
  {
    ojson d = doc();
    challenge(d, 0, 1)["labeling_proofs"][1]["parents"].erase(36);
    expect_refused(d, at + ".labeling_proofs[1].parents",
                   "36 values: a label hash (TOTAL_PARENTS = 37) has 37");
  }
}

TEST_F(C1Small, RefusesMalformedMerkleProofs) {
  const std::string at = "vanilla_proofs.StackedDrg2KiBV1[0][1]";
  auto c_path = [](ojson& d) -> ojson& {
    return challenge(
        d, 0,
        1)["replica_column_proofs"]["exp_parents"][3]["inclusion_proof"]["data"]["Single"]["path"]["path"];
  };
  const std::string c_at = at + ".replica_column_proofs.exp_parents[3].inclusion_proof.data.Single.path.path";
  {
    ojson d = doc();
    c_path(d)[1]["index"] = 8;
    expect_refused(d, c_at + "[1].index", "index 8 is not below the level's arity 8");
  }
  {
    ojson d = doc();
    challenge(d, 0, 1)["comm_d_proofs"]["data"]["Single"]["path"]["path"][4]["index"] = 2;
    expect_refused(d, at + ".comm_d_proofs.data.Single.path.path[4].index",
                   "index 2 is not below the level's arity 2");
  }
  {
    ojson d = doc();
    c_path(d)[0]["hashes"].erase(0);
    expect_refused(d, c_at + "[0].hashes", "6 values: a level of arity 8 has 7");
  }
  {
    ojson d = doc();
    c_path(d).erase(1);
    expect_refused(d, c_at, "1 elements: the 2KiB tree C's base tree has 2 levels");
  }
  {
    ojson d = doc();
    challenge(d, 0, 1)["comm_d_proofs"]["data"]["Single"]["path"]["path"].push_back(
        challenge(d, 0, 1)["comm_d_proofs"]["data"]["Single"]["path"]["path"][0]);
    expect_refused(d, at + ".comm_d_proofs.data.Single.path.path",
                   "more than 6 elements: the 2KiB tree D's base tree has 6");
  }
  {
    ojson d = doc();  // a Sub proof where the 2 KiB tree has Single ones
    ojson& data = challenge(d, 0, 1)["comm_r_last_proof"]["data"];
    data = ojson{{"Sub", data["Single"]}};
    expect_refused(d, at + ".comm_r_last_proof.data.Sub",
                   "a Sub proof: the 2KiB tree R_last (arities 8, 0, 0) has Single proofs");
  }
  {
    ojson d = doc();
    ojson& data = challenge(d, 0, 1)["comm_r_last_proof"]["data"];
    data = ojson{{"Double", data["Single"]}};
    expect_refused(d, at + ".comm_r_last_proof.data", "unknown a Merkle proof variant \"Double\"");
  }
  {
    ojson d = doc();
    challenge(d, 0, 1)["comm_r_last_proof"]["data"]["Single"].erase("leaf");
    expect_refused(d, at + ".comm_r_last_proof.data.Single", "the key \"leaf\" is missing");
  }
  {
    ojson d = doc();  // a path that leads elsewhere than the column's index
    c_path(d)[0]["index"] = (c_path(d)[0]["index"].get<unsigned>() + 1) % 8;
    expect_refused(d, at + ".replica_column_proofs.exp_parents[3].inclusion_proof", "the path leads to node");
  }
  {
    ojson d = doc();  // another root of tree R_last than the first challenge's
    challenge(d, 0, 1)["comm_r_last_proof"]["data"]["Single"]["root"][0] =
        challenge(d, 0, 1)["comm_r_last_proof"]["data"]["Single"]["root"][0].get<int>() ^ 1;
    expect_refused(d, at + ".comm_r_last_proof",
                   "the tree R_last root differs from the one at "
                   "vanilla_proofs.StackedDrg2KiBV1[0][0].comm_r_last_proof");
  }
  {
    ojson d = doc();
    challenge(d, 0,
              1)["replica_column_proofs"]["drg_parents"][0]["inclusion_proof"]["data"]["Single"]["root"][3] =
        0;
    expect_refused(d, at + ".replica_column_proofs.drg_parents[0].inclusion_proof",
                   "the tree C root differs");
  }
  {
    ojson d = doc();  // every tree D root agrees, but not with comm_d
    d["comm_d"][0] = d["comm_d"][0].get<int>() ^ 1;
    expect_refused(d, "vanilla_proofs.StackedDrg2KiBV1[0][0].comm_d_proofs", "the tree D root is not comm_d");
  }
}

TEST_F(C1Small, RefusesInconsistentChallenges) {
  const std::string at = "vanilla_proofs.StackedDrg2KiBV1[0][1]";
  const std::uint64_t node = c1_->partitions[0].challenges[1].challenge;
  {
    ojson d = doc();
    challenge(d, 0, 1)["labeling_proofs"][1]["node"] = node + 1;
    expect_refused(
        d, at + ".labeling_proofs[1].node",
        "node " + std::to_string(node + 1) + ", labeling_proofs[0].node is " + std::to_string(node));
  }
  {
    ojson d = doc();  // every labeling proof and the encoding proof agree on another node
    const std::uint64_t other = node % 63 + 1;
    for (auto& lp : challenge(d, 0, 1)["labeling_proofs"]) lp["node"] = other;
    challenge(d, 0, 1)["encoding_proof"]["node"] = other;
    expect_refused(d, at + ".comm_d_proofs",
                   "the path leads to node " + std::to_string(node) +
                       ", the challenge (labeling_proofs[0].node) is " + std::to_string(other));
  }
  {
    ojson d = doc();
    for (auto& lp : challenge(d, 0, 1)["labeling_proofs"]) lp["node"] = 0;
    challenge(d, 0, 1)["encoding_proof"]["node"] = 0;
    expect_refused(d, at + ".labeling_proofs[0].node", "node 0 is never challenged");
  }
  {
    ojson d = doc();
    challenge(d, 0, 1)["replica_column_proofs"]["c_x"]["column"]["index"] = node + 1;
    expect_refused(d, at + ".replica_column_proofs.c_x.inclusion_proof",
                   "the path leads to node " + std::to_string(node));
  }
  {
    ojson d = doc();
    challenge(d, 0, 1)["labeling_proofs"][1]["layer_index"] = 3;
    expect_refused(d, at + ".labeling_proofs[1].layer_index",
                   "layer_index is 3, labeling proof 1 is layer 2");
  }
  {
    ojson d = doc();
    std::swap(challenge(d, 0, 1)["labeling_proofs"][1]["parents"][6],
              challenge(d, 0, 1)["labeling_proofs"][1]["parents"][7]);
    expect_refused(d, at + ".labeling_proofs[1].parents[6]",
                   "differs from the expander parent 0's layer 1 label in replica_column_proofs");
  }
  {
    ojson d = doc();
    challenge(d, 0, 1)["encoding_proof"]["layer_index"] = 1;
    expect_refused(d, at + ".encoding_proof", "is not the last labeling proof (layer 2");
  }
  {
    ojson d = doc();
    std::swap(challenge(d, 0, 1)["encoding_proof"]["parents"][0],
              challenge(d, 0, 1)["encoding_proof"]["parents"][36]);
    if (challenge(d, 0, 1)["encoding_proof"] != challenge(d, 0, 1)["labeling_proofs"][1])
      expect_refused(d, at + ".encoding_proof", "is not the last labeling proof");
  }
}

TEST_F(C1Small, RefusesKeysThatAreNotThere) {
  const std::string at = "vanilla_proofs.StackedDrg2KiBV1[0][1]";
  {
    ojson d = doc();
    challenge(d, 0, 1)["replica_column_proofs"]["drg_parents"][1]["column"]["extra"] = 1;
    expect_refused(d, at + ".replica_column_proofs.drg_parents[1].column",
                   "unknown key \"extra\" (the keys here are \"index\", \"rows\" and \"_h\")");
    // serde's default (unknown keys ignored) on request: any value, nested.
    d["new_field"] = ojson::parse(R"({"a":[1,2.5e3,-0.1,true,false,null,"x\"y"]})");
    C1ReadOptions lenient;
    lenient.allow_unknown_keys = true;
    expect_round_trip(params(), *c1_, parse_seal_commit_phase1_output(d.dump(), kSource, lenient));
  }
  {
    ojson d = doc();
    challenge(d, 0, 1)["replica_column_proofs"]["c_x"]["column"].erase("_h");
    expect_refused(d, at + ".replica_column_proofs.c_x.column", "the key \"_h\" is missing");
  }
  {
    ojson d = doc();
    challenge(d, 0, 1)["replica_column_proofs"]["c_x"]["column"]["_h"] = 0;
    expect_refused(d, at + ".replica_column_proofs.c_x.column._h", "expected null, found a number");
  }
  {
    ojson d = doc();
    d.erase("ticket");
    expect_refused(d, "", "the key \"ticket\" is missing");
  }
}

TEST_F(C1Small, ChecksWhatC2DerivesIndependently) {
  {
    ojson d = doc();  // another seed: the challenges are not this seed's
    d["seed"][0] = d["seed"][0].get<int>() ^ 1;
    expect_refused(d, "vanilla_proofs.StackedDrg2KiBV1[0][0].labeling_proofs[0].node",
                   "is not the challenge: StackedDrg2KiBV1_1's challenge 0 of partition 0 is");
    C1ReadOptions unchecked;
    unchecked.check_derivations = false;
    EXPECT_NO_THROW(parse_seal_commit_phase1_output(d.dump(), kSource, unchecked));
  }
  {
    ojson d = doc();  // the legacy graph (V1, porep_id 0) has other parents; the challenges are the same
    d["registered_proof"] = "StackedDrg2KiBV1";
    expect_refused(d,
                   "vanilla_proofs.StackedDrg2KiBV1[0][0].replica_column_proofs.drg_parents[0].column.index",
                   "the SDR graph's DRG parent 0 of node");
  }
  {
    ojson d = doc();  // the synthetic challenges are others
    d["registered_proof"] = "StackedDrg2KiBV1_1_Feat_SyntheticPoRep";
    expect_refused(d, "vanilla_proofs.StackedDrg2KiBV1[0][0].labeling_proofs[0].node",
                   "(synthetic, selected by seed from replica_id and comm_r's)");
  }
  {
    ojson d = doc();  // a canonical comm_r that is not the roots'
    d["comm_r"][0] = d["comm_r"][0].get<int>() ^ 1;
    expect_refused(d, "comm_r", "is not Poseidon(comm_c, comm_r_last)");
  }
  // The expected challenges per feature.
  const RegisteredSealProof& ni =
      registered_seal_proof_by_name("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep");
  EXPECT_EQ(c1_partition_challenges(ni, c1_->replica_id, c1_->seed, c1_->comm_r, 12),
            non_interactive_challenges(64, c1_->replica_id, c1_->comm_r, 2, 12));
  EXPECT_THROW(c1_partition_challenges(ni, c1_->replica_id, c1_->seed, c1_->comm_r, 13),
               std::invalid_argument);
  EXPECT_EQ(c1_partition_challenges(*c1_->registered_proof, c1_->replica_id, c1_->seed, c1_->comm_r, 0),
            (std::vector<std::uint64_t>{c1_->partitions[0].challenges[0].challenge,
                                        c1_->partitions[0].challenges[1].challenge}));
}

TEST(C1Writer, RefusesDataThatIsNotOneSector) {
  C1Output c1 = make_test_c1_output(porep_params_for("2KiB"), 3);
  C1Output other = c1;
  other.partitions[0].comm_r += Fr::one();
  EXPECT_THROW(write_seal_commit_phase1_output(other), std::invalid_argument);
  other = c1;
  other.partitions[0].challenges[0].comm_c_path.levels.pop_back();
  EXPECT_THROW(write_seal_commit_phase1_output(other), std::invalid_argument);
  other = c1;
  other.registered_proof = nullptr;
  EXPECT_THROW(write_seal_commit_phase1_output(other), std::invalid_argument);
}

// ---- production sizes: Sub and Top proofs, 10 partitions ----

void round_trip_production(const char* size, std::uint64_t seed, std::string* text_out = nullptr) {
  const PorepParams& params = porep_params_for(size);
  auto now = [] { return std::chrono::steady_clock::now(); };
  auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  const auto t0 = now();
  const C1Output c1 = make_test_c1_output(params, seed);
  const auto t1 = now();
  const std::string text = write_seal_commit_phase1_output(c1);
  const auto t2 = now();
  const C1Output back = parse_seal_commit_phase1_output(text, kSource);
  const auto t3 = now();
  const std::string envelope = write_curio_c1_envelope(1, params.sector_bytes, text);
  const auto t4 = now();
  const CurioC1Request request = parse_curio_c1_request(envelope, "request");
  const auto t5 = now();
  std::printf(
      "%s C1 (%zu x %u challenges): %zu bytes of JSON (envelope %zu); generate %.0f ms, write %.0f ms, read "
      "%.0f ms, "
      "envelope write %.0f ms, envelope read %.0f ms\n",
      size, c1.partitions.size(), params.challenges_per_partition, text.size(), envelope.size(), ms(t0, t1),
      ms(t1, t2), ms(t2, t3), ms(t3, t4), ms(t4, t5));
  ASSERT_EQ(back.partitions.size(), params.partitions);
  expect_round_trip(params, c1, back);
  EXPECT_EQ(request.output.partitions.size(), params.partitions);
  if (text_out) *text_out = text;
}

TEST(C1Production, RoundTrip32GiB) {
  CUZK_SKIP_UNDER_SANITIZER("a 32 GiB sector: 10 x 18 challenges, 38.7 MB of JSON");
  std::string text;
  round_trip_production("32GiB", 8, &text);
  ASSERT_FALSE(text.empty());
  EXPECT_NE(text.find("{\"data\":{\"Sub\":{\"base_proof\":{\"path\":[{\"hashes\":["), std::string::npos);
  EXPECT_EQ(
      text.find("\"Single\":{\"root\":[", text.find("\"comm_r_last_proof\"")),
      text.find("\"Single\":{\"root\":[", text.find("\"comm_d_proofs\"", 100)));  // Single only for tree D
  // A sub-tree element's index must be below the sub arity, and it has exactly one element.
  auto refused = [&](std::string changed, const std::string& needle) {
    try {
      parse_seal_commit_phase1_output(changed, kSource);
      ADD_FAILURE() << "accepted; expected " << needle;
    } catch (const C1Error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  const std::size_t sub = text.find("\"sub_proof\":{\"path\":[{\"hashes\":[");
  ASSERT_NE(sub, std::string::npos);
  const std::size_t index = text.find("\"index\":", sub) + 8;
  std::string changed = text;
  changed.replace(index, text.find('}', index) - index, "8");
  refused(changed, "sub_proof.path[0].index: index 8 is not below the level's arity 8");
  changed = text;
  const std::size_t element_end = text.find("]}", index);  // the end of the sub proof's path array
  changed.insert(element_end, "," + text.substr(sub + 21, element_end - sub - 21));
  refused(changed, "more than 1 elements: a sub-tree proof has 1 level");
}

TEST(C1Production, RoundTrip64GiB) {
  CUZK_SKIP_UNDER_SANITIZER("a 64 GiB sector: 10 x 18 challenges, ~39 MB of JSON");
  std::string text;
  round_trip_production("64GiB", 9, &text);
  EXPECT_NE(text.find("{\"data\":{\"Top\":{\"base_proof\":{\"path\":[{\"hashes\":["), std::string::npos);
  EXPECT_NE(text.find("\"top_proof\":{\"path\":[{\"hashes\":[["), std::string::npos);
}

}  // namespace
}  // namespace cuzk::filecoin
