#include "io/bellperson_json.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ff/encoding.hpp"
#include "io/error.hpp"

namespace cuzk::io::bellperson_json {

namespace {

using json = nlohmann::json;
using groth16::bellperson::Assignment;
using groth16::bellperson::Density;

json load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw FormatError(path, "cannot open");
  try {
    return json::parse(in);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for a number past a double's range
    throw FormatError(path, std::string("not JSON: ") + e.what());
  }
}

std::string hex(const Fr& x) {
  const auto v = x.to_int();
  std::string s = "0x";
  char buf[17];
  for (std::size_t i = Fr::N; i-- > 0;) {
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v.v[i]));
    s += buf;
  }
  return s;
}

std::vector<Fr> values(const json& j, const std::string& path, const std::string& where) {
  if (!j.is_array()) throw FormatError(path, where + " must be an array of field elements");
  std::vector<Fr> out;
  out.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) {
    const auto v = j[i].is_string() ? parse_value(j[i].get<std::string>()) : std::nullopt;
    if (!v)
      throw FormatError(path, where + "[" + std::to_string(i) +
                                  "] is not a canonical field element (0x-prefixed hex or decimal string)");
    out.push_back(*v);
  }
  return out;
}

Density density(const json& obj, const char* key, const std::string& path, const std::string& where) {
  if (!obj.contains(key)) return {};
  const auto& j = obj[key];
  if (!j.is_string()) throw FormatError(path, where + "." + key + " must be a string of 0s and 1s");
  const auto s = j.get<std::string>();
  Density d = Density::of_size(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '1')
      d.set(i);
    else if (s[i] != '0')
      throw FormatError(path, where + "." + key + ": character " + std::to_string(i) + " is not 0 or 1");
  }
  return d;
}

std::string bits(const Density& d) {
  std::string s(d.bits, '0');
  for (std::size_t i = 0; i < d.bits; ++i)
    if (d.test(i)) s[i] = '1';
  return s;
}

json array_of(std::span<const Fr> v) {
  json a = json::array();
  for (const Fr& x : v) a.push_back(hex(x));
  return a;
}

}  // namespace

std::optional<Fr> parse_value(const std::string& text) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    const std::string digits = text.substr(2);
    if (digits.size() > Fr::N * 16) return std::nullopt;
    ff::BigInt<Fr::N> v{};
    for (char c : digits) {
      int d = (c >= '0' && c <= '9')   ? c - '0'
              : (c >= 'a' && c <= 'f') ? c - 'a' + 10
              : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                       : -1;
      if (d < 0) return std::nullopt;
      for (std::size_t i = Fr::N; i-- > 1;) v.v[i] = (v.v[i] << 4) | (v.v[i - 1] >> 60);
      v.v[0] = (v.v[0] << 4) | static_cast<std::uint64_t>(d);
    }
    if (!ff::bigint_less(v, Fr::modulus())) return std::nullopt;
    return Fr::from_int(v);
  }
  return ff::from_decimal<Fr>(text);
}

std::vector<Assignment> read_assignments(const std::string& path) {
  const json root = load(path);
  const bool many = root.is_array();
  if (!many && !root.is_object())
    throw FormatError(path, "expected an assignment object or an array of them");
  std::vector<Assignment> out;
  for (std::size_t k = 0; k < (many ? root.size() : 1); ++k) {
    const json& o = many ? root[k] : root;
    const std::string where = many ? "partition " + std::to_string(k) : "assignment";
    if (!o.is_object()) throw FormatError(path, where + " is not an object");
    for (const char* key : {"a", "b", "c", "inputs", "aux"})
      if (!o.contains(key)) throw FormatError(path, where + " has no \"" + key + "\"");
    Assignment w;
    w.a = values(o["a"], path, where + ".a");
    w.b = values(o["b"], path, where + ".b");
    w.c = values(o["c"], path, where + ".c");
    w.inputs = values(o["inputs"], path, where + ".inputs");
    w.aux = values(o["aux"], path, where + ".aux");
    w.a_aux = density(o, "a_aux_density", path, where);
    w.b_inputs = density(o, "b_input_density", path, where);
    w.b_aux = density(o, "b_aux_density", path, where);
    out.push_back(std::move(w));
  }
  if (out.empty()) throw FormatError(path, "no partitions");
  return out;
}

void write_assignments(const std::string& path, const std::vector<Assignment>& parts) {
  json root = json::array();
  for (const auto& w : parts)
    root.push_back({{"a", array_of(w.a)},
                    {"b", array_of(w.b)},
                    {"c", array_of(w.c)},
                    {"inputs", array_of(w.inputs)},
                    {"aux", array_of(w.aux)},
                    {"a_aux_density", bits(w.a_aux)},
                    {"b_input_density", bits(w.b_inputs)},
                    {"b_aux_density", bits(w.b_aux)}});
  std::ofstream(path) << root.dump() << "\n";
}

std::vector<std::vector<Fr>> read_inputs(const std::string& path) {
  const json root = load(path);
  if (!root.is_array()) throw FormatError(path, "expected an array of public inputs (or of arrays)");
  if (!root.empty() && root[0].is_array()) {
    std::vector<std::vector<Fr>> out;
    for (std::size_t k = 0; k < root.size(); ++k)
      out.push_back(values(root[k], path, "partition " + std::to_string(k)));
    return out;
  }
  return {values(root, path, "inputs")};
}

void write_inputs(const std::string& path, const std::vector<std::vector<Fr>>& parts) {
  json root = json::array();
  for (const auto& p : parts) root.push_back(array_of(p));
  std::ofstream(path) << root.dump() << "\n";
}

}  // namespace cuzk::io::bellperson_json
