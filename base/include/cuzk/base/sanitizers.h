// Whether this translation unit is built with AddressSanitizer (the
// debug-asan preset, CUZK_SANITIZE): a few tests check what the sanitizer
// changes on purpose (its SIGBUS report, its quarantine of freed memory).
#pragma once

namespace cuzk {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kUnderAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kUnderAddressSanitizer = true;
#else
inline constexpr bool kUnderAddressSanitizer = false;
#endif
#else
inline constexpr bool kUnderAddressSanitizer = false;
#endif

}  // namespace cuzk
