// A vanilla proof that does not satisfy its circuit (a tampered label, path, leaf or commitment, or public
// inputs for other challenges): no proof of it can verify, so none is made.
#pragma once

#include <stdexcept>

namespace cuzk::filecoin {

struct UnsatisfiedCircuit : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace cuzk::filecoin
