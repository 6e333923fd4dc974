// TEST-ONLY Groth16 keys of built-in Filecoin circuits, each made once per process (a random setup of the
// circuit's recorded matrices) and written under its standard parameter file name into one parameter cache
// directory, where a daemon finds them as it finds Filecoin's published ones.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <mutex>
#include <set>
#include <string>

#include "filecoin/circuit_catalog.hpp"
#include "filecoin/porep_synthesis.hpp"
#include "filecoin/post_synthesis.hpp"
#include "filecoin/update_synthesis.hpp"
#include "groth16/bellperson.hpp"
#include "io/bellperson.hpp"

namespace cuzk::test {

inline const std::filesystem::path& test_parameter_cache() {
  static const std::filesystem::path dir = [] {
    const auto d = std::filesystem::temp_directory_path() / ("cuzk-params-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

// The circuit's key in test_parameter_cache(); returns the file.
inline std::filesystem::path ensure_test_key(const std::string& circuit_id) {
  static std::mutex mutex;
  static std::set<std::string> made;
  const filecoin::FilecoinCircuit* c = filecoin::find_filecoin_circuit(circuit_id);
  EXPECT_NE(c, nullptr) << circuit_id;
  const auto file = test_parameter_cache() / c->parameter_file;
  const std::lock_guard lock(mutex);
  if (made.insert(circuit_id).second) {
    const auto record = c->porep    ? filecoin::porep_record(*c->porep)
                        : c->update ? filecoin::update_record(*c->update)
                                    : filecoin::post_record(*c->post);
    const auto key =
        groth16::bellperson::setup(record.system, groth16::random_toxic_waste<groth16::bellperson::Curve>());
    io::bellperson::write_params(file.string(), key);
  }
  return file;
}

}  // namespace cuzk::test
