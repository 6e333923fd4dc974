#include "cuda/error.hpp"
#include "cuda/fault_injection.hpp"

namespace cuzk::cuda {

namespace {

__global__ void trap_kernel() {
  __trap();
}

}  // namespace

FaultPlan& allocation_faults() {
  static FaultPlan plan(fault_spec_from_env("CUZK_FAULT_ALLOC", {}));
  return plan;
}

FaultPlan& sticky_faults() {
  static FaultPlan plan(fault_spec_from_env("CUZK_FAULT_STICKY", {}));
  return plan;
}

void configure_faults(FaultSpec alloc, FaultSpec sticky) {
  allocation_faults().configure(fault_spec_from_env("CUZK_FAULT_ALLOC", alloc));
  sticky_faults().configure(fault_spec_from_env("CUZK_FAULT_STICKY", sticky));
}

bool maybe_inject_sticky_fault(cudaStream_t stream) {
  if (!sticky_faults().fire()) return false;
  trap_kernel<<<1, 1, 0, stream>>>();
  check_last_launch("injected trap_kernel");
  return true;
}

}  // namespace cuzk::cuda
