#include "io/json.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "ff/encoding.hpp"
#include "io/error.hpp"
#include "io/mapped_file.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::io {

namespace {

// snarkjs' key order (pi_a, pi_b, pi_c, protocol, curve), not nlohmann's alphabetical default.
using json = nlohmann::ordered_json;

// Where a JSON value came from, for messages: "<source>: <field>: <what>".
struct Src {
  const std::string& name;
  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw FormatError(name, field.empty() ? what : field + ": " + what);
  }
};

// A short rendering of an offending value for messages.
std::string show(const json& j) {
  std::string s = j.dump();
  if (s.size() > 80) s = s.substr(0, 77) + "...";
  return s;
}

json parse_text(std::string_view text, const Src& src) {
  try {
    return json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {
    src.fail("", std::string("invalid JSON: ") + e.what());
  }
}

std::string read_text(const std::string& path) {
  MappedFile f(path);
  const auto b = f.bytes();
  return std::string(b.begin(), b.end());
}

// Writes through "<path>.partial" and a rename, so readers never see half a file.
void write_text(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".partial";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw std::runtime_error(path + ": cannot create " + tmp + ": " + std::strerror(errno));
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const bool closed = std::fclose(f) == 0;
  if (!ok || !closed || std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    std::remove(tmp.c_str());
    throw std::runtime_error(path + ": write failed: " + std::strerror(e));
  }
}

const json& member(const json& obj, const char* key, const Src& src) {
  auto it = obj.find(key);
  if (it == obj.end()) src.fail("", std::string("missing field \"") + key + "\"");
  return *it;
}

// "[i]" (built without `"literal" + std::string&&`, which trips GCC 12's -Wrestrict false positive).
std::string index_field(std::size_t i) {
  std::string s(1, '[');
  s += std::to_string(i);
  s += ']';
  return s;
}

// ---- numbers ----------------------------------------------------------------------------------------

// A canonical field element from a decimal string; `mod` names the modulus in messages.
template <class F>
F parse_element(const json& j, const Src& src, const std::string& field, const char* mod) {
  if (!j.is_string()) src.fail(field, "expected a decimal string, got " + show(j));
  const std::string& s = j.get_ref<const std::string&>();
  if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    src.fail(field, show(j) + " is not a non-negative decimal integer");
  // Leading zeros are harmless (and BigInt() in JavaScript accepts them); strip so they do not count
  // against the length bound.
  const std::size_t nz = std::min(s.find_first_not_of('0'), s.size() - 1);
  const auto v = ff::bigint_from_decimal(std::string_view(s).substr(nz), F::modulus());
  if (!v) src.fail(field, show(j) + " is not less than the field modulus " + mod);
  return F::from_int(*v);
}

template <class F>
std::string dec(const F& x) {
  return ff::to_decimal(x);
}

// ---- points -----------------------------------------------------------------------------------------

template <class Curve>
typename Curve::Fq2 parse_fq2(const json& j, const Src& src, const std::string& field) {
  using Fq = typename Curve::Fq;
  if (!j.is_array() || j.size() != 2)
    src.fail(field, "expected [c0, c1] (2 decimal strings), got " + show(j));
  return {parse_element<Fq>(j[0], src, field + "[0]", "q"), parse_element<Fq>(j[1], src, field + "[1]", "q")};
}

// Coordinate parsers for F = Fq (a string) and F = Fq2 (a pair).
template <class Curve, class F>
F parse_coord(const json& j, const Src& src, const std::string& field) {
  if constexpr (std::is_same_v<F, typename Curve::Fq>)
    return parse_element<F>(j, src, field, "q");
  else
    return parse_fq2<Curve>(j, src, field);
}

template <class Curve, class A>
A parse_point(const json& j, const Src& src, const std::string& field) {
  using F = typename A::F;
  constexpr bool g1 = std::is_same_v<F, typename Curve::Fq>;
  const char* shape = g1 ? "[x, y, z] of decimal strings" : "[[x.c0, x.c1], [y.c0, y.c1], [z.c0, z.c1]]";
  // snarkjs also reads [x, y] as affine.
  if (!j.is_array() || (j.size() != 3 && j.size() != 2))
    src.fail(field, std::string("expected ") + shape + ", got " + show(j));
  A p{parse_coord<Curve, F>(j[0], src, field + "[0]"), parse_coord<Curve, F>(j[1], src, field + "[1]")};
  if (j.size() == 3) {
    const F z = parse_coord<Curve, F>(j[2], src, field + "[2]");
    if (z.is_zero()) return A::infinity();
    if (z != F::one())
      src.fail(field + "[2]", std::string("z must be ") + (g1 ? "\"1\"" : "[\"1\", \"0\"]") +
                                  " (affine) or zero (infinity); projective points are not supported");
  }
  if (!p.on_curve()) src.fail(field, "point not on curve");
  return p;
}

json coord_json(const auto& x) {
  if constexpr (requires { x.c1; })
    return json::array({dec(x.c0), dec(x.c1)});
  else
    return dec(x);
}

template <class A>
json point_json(const A& p) {
  using F = typename A::F;
  if (p.is_infinity())
    return json::array({coord_json(F::zero()), coord_json(F::one()), coord_json(F::zero())});
  return json::array({coord_json(p.x), coord_json(p.y), coord_json(F::one())});
}

// ffjavascript's final exponentiation computes a fixed power of the reduced pairing (its hard-part
// addition chains skip a constant factor): e^(2z(6z²+3z+1)) on BN254 (z = 4965661367192848881, the
// Fuentes-Castañeda et al. chain) and e^3 on BLS12-381. Verifiers only compare products with 1, so
// this does not matter there, but vk_alphabeta_12 is written as a value; raising ours to the same
// power makes it identical to what snarkjs writes (checked in io_json_test).
template <class Curve>
typename Curve::Fr::Int snarkjs_gt_exponent() {
  using Fr = typename Curve::Fr;
  if constexpr (std::is_same_v<Curve, Bn254>) {
    const Fr z = Fr::from_u64(4965661367192848881ULL);
    return (Fr::from_u64(2) * z * (Fr::from_u64(6) * z.sqr() + Fr::from_u64(3) * z + Fr::one())).to_int();
  } else {
    return ff::bigint_from_u64<Fr::N>(3);
  }
}

// ---- header fields ----------------------------------------------------------------------------------

void check_protocol(const json& obj, const Src& src) {
  auto it = obj.find("protocol");
  if (it == obj.end()) return;
  if (!it->is_string() || it->get_ref<const std::string&>() != "groth16")
    src.fail("protocol", show(*it) + " is not supported: cuzk handles \"groth16\" only");
}

template <class Curve>
void check_curve(const json& obj, const Src& src) {
  auto it = obj.find("curve");
  if (it == obj.end()) return;
  if (!it->is_string()) src.fail("curve", "expected a string, got " + show(*it));
  const auto c = parse_curve_name(it->get_ref<const std::string&>());
  if (!c) src.fail("curve", show(*it) + " is not a supported curve (bn128, bls12381)");
  if (*c != curve_id_of<Curve>)
    src.fail("curve", show(*it) + " but a " + Curve::display_name + " (" + Curve::snarkjs_name +
                          ") file was expected");
}

const json& require_object(const json& j, const Src& src, const char* what) {
  if (!j.is_object()) src.fail("", std::string("expected a JSON object (") + what + "), got " + show(j));
  return j;
}

// Guards against nlohmann exceptions escaping as anything but FormatError.
template <class F>
auto guarded(const std::string& source, F&& f) {
  try {
    return f();
  } catch (const nlohmann::json::exception& e) {
    throw FormatError(source, std::string("unexpected JSON structure: ") + e.what());
  }
}

}  // namespace

// ---- curve names ------------------------------------------------------------------------------------

std::optional<CurveId> parse_curve_name(std::string_view name) {
  std::string s(name);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  if (s == "bn128" || s == "bn254" || s == "altbn128" || s == "alt_bn128") return CurveId::bn254;
  if (s == "bls12381" || s == "bls12-381" || s == "bls12_381") return CurveId::bls12_381;
  return std::nullopt;
}

CurveId peek_json_curve(const std::string& path) {
  const Src src{path};
  return guarded(path, [&] {
    const json j = parse_text(read_text(path), src);
    require_object(j, src, "a proof or verification key");
    const json& c = member(j, "curve", src);
    if (!c.is_string()) src.fail("curve", "expected a string, got " + show(c));
    const auto id = parse_curve_name(c.get_ref<const std::string&>());
    if (!id) src.fail("curve", show(c) + " is not a supported curve (bn128, bls12381)");
    return *id;
  });
}

// ---- proof ------------------------------------------------------------------------------------------

template <class Curve>
groth16::Proof<Curve> proof_from_json(std::string_view text, const std::string& source) {
  const Src src{source};
  return guarded(source, [&] {
    const json j = parse_text(text, src);
    require_object(j, src, "a Groth16 proof");
    check_protocol(j, src);
    check_curve<Curve>(j, src);
    groth16::Proof<Curve> p;
    p.a = parse_point<Curve, typename Curve::G1>(member(j, "pi_a", src), src, "pi_a");
    p.b = parse_point<Curve, typename Curve::G2>(member(j, "pi_b", src), src, "pi_b");
    p.c = parse_point<Curve, typename Curve::G1>(member(j, "pi_c", src), src, "pi_c");
    return p;
  });
}

template <class Curve>
std::string proof_to_json(const groth16::Proof<Curve>& proof) {
  json j;
  j["pi_a"] = point_json(proof.a);
  j["pi_b"] = point_json(proof.b);
  j["pi_c"] = point_json(proof.c);
  j["protocol"] = "groth16";
  j["curve"] = Curve::snarkjs_name;
  return j.dump(1) + "\n";
}

// ---- public inputs ----------------------------------------------------------------------------------

template <class Curve>
std::vector<typename Curve::Fr> public_from_json(std::string_view text, const std::string& source) {
  const Src src{source};
  return guarded(source, [&] {
    const json j = parse_text(text, src);
    if (!j.is_array()) src.fail("", "expected an array of decimal strings, got " + show(j));
    std::vector<typename Curve::Fr> out;
    out.reserve(j.size());
    for (std::size_t i = 0; i < j.size(); ++i)
      out.push_back(parse_element<typename Curve::Fr>(j[i], src, index_field(i), "r"));
    return out;
  });
}

template <class Curve>
std::string public_to_json(std::span<const typename Curve::Fr> inputs) {
  json j = json::array();
  for (const auto& x : inputs) j.push_back(dec(x));
  return j.dump(1) + "\n";
}

// ---- verification key -------------------------------------------------------------------------------

template <class Curve>
groth16::VerifyingKey<Curve> vk_from_json(std::string_view text, const std::string& source) {
  using G1 = typename Curve::G1;
  using G2 = typename Curve::G2;
  const Src src{source};
  return guarded(source, [&] {
    const json j = parse_text(text, src);
    require_object(j, src, "a Groth16 verification key");
    check_protocol(j, src);
    check_curve<Curve>(j, src);
    groth16::VerifyingKey<Curve> vk;
    vk.alpha1 = parse_point<Curve, G1>(member(j, "vk_alpha_1", src), src, "vk_alpha_1");
    vk.beta2 = parse_point<Curve, G2>(member(j, "vk_beta_2", src), src, "vk_beta_2");
    vk.gamma2 = parse_point<Curve, G2>(member(j, "vk_gamma_2", src), src, "vk_gamma_2");
    vk.delta2 = parse_point<Curve, G2>(member(j, "vk_delta_2", src), src, "vk_delta_2");
    const json& ic = member(j, "IC", src);
    if (!ic.is_array() || ic.empty())
      src.fail("IC", "expected a non-empty array of G1 points, got " + show(ic));
    for (std::size_t i = 0; i < ic.size(); ++i)
      vk.ic.push_back(parse_point<Curve, G1>(ic[i], src, "IC[" + std::to_string(i) + "]"));
    if (auto it = j.find("nPublic"); it != j.end()) {
      if (!it->is_number_unsigned() || it->get<std::uint64_t>() != ic.size() - 1)
        src.fail("nPublic", show(*it) + " does not match IC, which has " + std::to_string(ic.size()) +
                                " points (expected nPublic = " + std::to_string(ic.size() - 1) + ")");
    }
    // vk_alphabeta_12 is informational (e(α1, β2)); verifiers recompute it, so it is not read.
    return vk;
  });
}

template <class Curve>
std::string vk_to_json(const groth16::VerifyingKey<Curve>& vk, bool with_alphabeta) {
  json j;
  j["protocol"] = "groth16";
  j["curve"] = Curve::snarkjs_name;
  j["nPublic"] = vk.ic.empty() ? 0 : vk.ic.size() - 1;
  j["vk_alpha_1"] = point_json(vk.alpha1);
  j["vk_beta_2"] = point_json(vk.beta2);
  j["vk_gamma_2"] = point_json(vk.gamma2);
  j["vk_delta_2"] = point_json(vk.delta2);
  if (with_alphabeta) {
    // ffjavascript's Gt.toObject: Fq12 = [c0, c1] over Fq6 = [c0, c1, c2] over Fq2 = [c0, c1], the same
    // tower as ours (checked against snarkjs verification_key.json files in io_json_test).
    const auto ab = pairing::pairing<Curve>(vk.alpha1, vk.beta2).pow(snarkjs_gt_exponent<Curve>());
    json f12 = json::array();
    for (const auto* f6 : {&ab.c0, &ab.c1})
      f12.push_back(json::array({coord_json(f6->c0), coord_json(f6->c1), coord_json(f6->c2)}));
    j["vk_alphabeta_12"] = f12;
  }
  json ic = json::array();
  for (const auto& p : vk.ic) ic.push_back(point_json(p));
  j["IC"] = ic;
  return j.dump(1) + "\n";
}

// ---- file wrappers ----------------------------------------------------------------------------------

template <class Curve>
groth16::Proof<Curve> read_proof(const std::string& path) {
  return proof_from_json<Curve>(read_text(path), path);
}
template <class Curve>
void write_proof(const std::string& path, const groth16::Proof<Curve>& proof) {
  write_text(path, proof_to_json<Curve>(proof));
}
template <class Curve>
std::vector<typename Curve::Fr> read_public(const std::string& path) {
  return public_from_json<Curve>(read_text(path), path);
}
template <class Curve>
void write_public(const std::string& path, std::span<const typename Curve::Fr> inputs) {
  write_text(path, public_to_json<Curve>(inputs));
}
template <class Curve>
groth16::VerifyingKey<Curve> read_vk(const std::string& path) {
  return vk_from_json<Curve>(read_text(path), path);
}
template <class Curve>
void write_vk(const std::string& path, const groth16::VerifyingKey<Curve>& vk, bool with_alphabeta) {
  write_text(path, vk_to_json<Curve>(vk, with_alphabeta));
}

#define CUZK_IO_JSON_INSTANTIATE(C)                                                        \
  template groth16::Proof<C> read_proof<C>(const std::string&);                            \
  template void write_proof<C>(const std::string&, const groth16::Proof<C>&);              \
  template std::vector<C::Fr> read_public<C>(const std::string&);                          \
  template void write_public<C>(const std::string&, std::span<const C::Fr>);               \
  template groth16::VerifyingKey<C> read_vk<C>(const std::string&);                        \
  template void write_vk<C>(const std::string&, const groth16::VerifyingKey<C>&, bool);    \
  template groth16::Proof<C> proof_from_json<C>(std::string_view, const std::string&);     \
  template std::string proof_to_json<C>(const groth16::Proof<C>&);                         \
  template std::vector<C::Fr> public_from_json<C>(std::string_view, const std::string&);   \
  template std::string public_to_json<C>(std::span<const C::Fr>);                          \
  template groth16::VerifyingKey<C> vk_from_json<C>(std::string_view, const std::string&); \
  template std::string vk_to_json<C>(const groth16::VerifyingKey<C>&, bool);

CUZK_IO_JSON_INSTANTIATE(Bn254)
CUZK_IO_JSON_INSTANTIATE(Bls12_381)

#undef CUZK_IO_JSON_INSTANTIATE

}  // namespace cuzk::io
