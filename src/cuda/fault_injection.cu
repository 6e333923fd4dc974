#include "cuda/error.hpp"
#include "cuda/fault_injection.hpp"

namespace cuzk::cuda {

namespace {

__global__ void trap_kernel() {
  __trap();
}

FaultPlan& from_env_once(FaultPlan& plan, const char* prefix) {
  plan.configure(fault_spec_from_env(prefix, {}));
  return plan;
}

}  // namespace

FaultPlan& allocation_faults() {
  static FaultPlan plan;
  static FaultPlan& configured = from_env_once(plan, "CUZK_FAULT_ALLOC");
  return configured;
}

FaultPlan& sticky_faults() {
  static FaultPlan plan;
  static FaultPlan& configured = from_env_once(plan, "CUZK_FAULT_STICKY");
  return configured;
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
