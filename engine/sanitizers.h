// CNNX_ASAN: 1 when this translation unit is built with AddressSanitizer (GCC or Clang), else 0. Code that
// packs allocations or reads RSS takes another path under it.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define CNNX_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CNNX_ASAN 1
#endif
#endif
#ifndef CNNX_ASAN
#define CNNX_ASAN 0
#endif
