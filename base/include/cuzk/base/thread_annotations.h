// Clang's thread-safety annotations (-Wthread-safety): which mutex guards a
// member, which functions need it held. They compile to nothing elsewhere
// (g++), so they document under g++ and are checked under Clang
// (scripts/check-clang.sh with -Wthread-safety, run by scripts/test.sh).
// Use them with cuzk::Mutex (base/mutex.h); std::mutex carries none.
// Abseil (under gRPC) defines some of the same names with the same meaning;
// whichever comes first is kept.
#pragma once

#if defined(__clang__)
#define CUZK_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define CUZK_THREAD_ANNOTATION(x)
#endif

#ifndef CAPABILITY
#define CAPABILITY(x) CUZK_THREAD_ANNOTATION(capability(x))
#endif
#ifndef SCOPED_CAPABILITY
#define SCOPED_CAPABILITY CUZK_THREAD_ANNOTATION(scoped_lockable)
#endif
#ifndef GUARDED_BY
#define GUARDED_BY(x) CUZK_THREAD_ANNOTATION(guarded_by(x))
#endif
#ifndef PT_GUARDED_BY
#define PT_GUARDED_BY(x) CUZK_THREAD_ANNOTATION(pt_guarded_by(x))
#endif
#ifndef REQUIRES
#define REQUIRES(...) CUZK_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#endif
#ifndef ACQUIRE
#define ACQUIRE(...) CUZK_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#endif
#ifndef RELEASE
#define RELEASE(...) CUZK_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#endif
#ifndef TRY_ACQUIRE
#define TRY_ACQUIRE(...) CUZK_THREAD_ANNOTATION(try_acquire_capability(__VA_ARGS__))
#endif
#ifndef EXCLUDES
#define EXCLUDES(...) CUZK_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#endif
#ifndef ASSERT_CAPABILITY
#define ASSERT_CAPABILITY(x) CUZK_THREAD_ANNOTATION(assert_capability(x))
#endif
#ifndef RETURN_CAPABILITY
#define RETURN_CAPABILITY(x) CUZK_THREAD_ANNOTATION(lock_returned(x))
#endif
#ifndef NO_THREAD_SAFETY_ANALYSIS
#define NO_THREAD_SAFETY_ANALYSIS CUZK_THREAD_ANNOTATION(no_thread_safety_analysis)
#endif
