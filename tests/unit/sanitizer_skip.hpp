// Tests whose Release run already covers them at a size too slow for the AddressSanitizer build (CI runs the
// unit tests twice on two cores): they skip there, saying why.
#pragma once

#include <gtest/gtest.h>

#if defined(__SANITIZE_ADDRESS__)
#define CUZK_SKIP_UNDER_SANITIZER(why) GTEST_SKIP() << "skipped under AddressSanitizer: " << (why)
#else
#define CUZK_SKIP_UNDER_SANITIZER(why) static_cast<void>(0)
#endif
