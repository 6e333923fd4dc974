// Fault injection for the GPU layer (docs/config.md, [faults]): refused device allocations and sticky
// kernel faults on demand, so the engine's recovery (release, smaller plan, context reset, retry) is
// exercised by tests rather than discovered in production.
//
// Environment variables override the configuration, so a running test binary can be steered without a
// config file: CUZK_FAULT_ALLOC_EVERY / CUZK_FAULT_ALLOC_RATE (fail that device allocation),
// CUZK_FAULT_STICKY_EVERY / CUZK_FAULT_STICKY_RATE (poison the context in that proof), CUZK_FAULT_SEED.
#pragma once

#include <cuda_runtime_api.h>

#include "cuda/fault_plan.hpp"

namespace cuzk::cuda {

// Consulted by every device allocation (cuda/vram.cpp).
FaultPlan& allocation_faults();
// Consulted once per GPU proof, between its H stage and its MSMs.
FaultPlan& sticky_faults();

// Applies `alloc` and `sticky` after the CUZK_FAULT_* environment variables have overridden them.
void configure_faults(FaultSpec alloc, FaultSpec sticky);

// When sticky_faults() fires: launches a kernel that traps on `stream`, which poisons the context exactly as
// a faulting kernel would (cudaErrorLaunchFailure at the next synchronisation). Returns whether it did.
bool maybe_inject_sticky_fault(cudaStream_t stream);

}  // namespace cuzk::cuda
