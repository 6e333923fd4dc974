// Host buffers in transparent huge pages, for the whole process.
//
// A PoRep partition's host vectors are gigabytes (a 2^27 bellperson assignment is 16.7 GB), and filling a
// fresh one costs a page fault per 4 KiB: reading an assignment ran at ~5 GB/s, most of it in those faults.
// glibc's malloc asks the kernel for transparent huge pages (2 MiB, 512 times fewer faults) when its
// tunable glibc.malloc.hugetlb=1 is set, and tunables are read only when a process starts, so the binaries
// re-execute themselves once with it set (same PID, same arguments). Measured on a 2-core host: an
// assignment read 2.7x faster, a .zkey 1.5x, a .params 1.2x (bench/RESULTS.md).
#pragma once

namespace cuzk::io {

// Call first in main, before any thread starts. Re-executes the process with glibc.malloc.hugetlb=1 added
// to GLIBC_TUNABLES, unless the tunable is already there (set by the operator, or by this re-execution), the
// environment says CUZK_MALLOC_HUGEPAGES=0, the kernel has transparent huge pages off ("never"), or glibc is
// older than 2.35 (no such tunable). Returns when it does not re-execute, or when execv fails (nothing lost:
// the process goes on with ordinary pages).
void use_huge_pages_for_malloc(char** argv);

}  // namespace cuzk::io
