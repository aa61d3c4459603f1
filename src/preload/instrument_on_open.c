/* Loaded (LD_PRELOAD) into a benchmark process that Callgrind runs with --instr-atstart=no:
 * turns Callgrind's instrumentation on when the process opens the file named by
 * BENCHPR_INSTRUMENT_ON_OPEN, which benchpr passes as --benchmark_out. Google Benchmark opens
 * that file in RunSpecifiedBenchmarks, after the suite's own main has set up (CRoaring's loads
 * data for 13 s) and before any benchmark runs, so the start-up runs under Valgrind without
 * instrumentation (about 4x natively instead of 20x) and every benchmark is counted whole.
 * Outside Valgrind the request is a no-op. Nothing else changes: each call goes on to the C
 * library's function. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <valgrind/callgrind.h>

static void instrument_if_output(const char* path) {
  static int done = 0;
  if (done || path == NULL) return;
  const char* wanted = getenv("BENCHPR_INSTRUMENT_ON_OPEN");
  if (wanted == NULL || *wanted == '\0' || strcmp(path, wanted) != 0) return;
  done = 1;
  CALLGRIND_START_INSTRUMENTATION;
}

/* O_CREAT and O_TMPFILE take a mode. */
static mode_t mode_of(int flags, va_list args) {
  if ((flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE) return (mode_t)va_arg(args, int);
  return 0;
}

typedef FILE* (*fopen_fn)(const char*, const char*);
typedef int (*open_fn)(const char*, int, ...);
typedef int (*openat_fn)(int, const char*, int, ...);

/* The C library's function of that name (dlsym's object pointer copied into a function
 * pointer, which ISO C does not let a cast do). */
#define DEFINE_NEXT(fn_type)                        \
  static fn_type next_##fn_type(const char* name) { \
    void* symbol = dlsym(RTLD_NEXT, name);          \
    fn_type fn;                                     \
    memcpy(&fn, &symbol, sizeof fn);                \
    return fn;                                      \
  }
DEFINE_NEXT(fopen_fn)
DEFINE_NEXT(open_fn)
DEFINE_NEXT(openat_fn)
#define NEXT(name, type) next_##type(name)

FILE* fopen(const char* path, const char* mode) {
  instrument_if_output(path);
  return NEXT("fopen", fopen_fn)(path, mode);
}

FILE* fopen64(const char* path, const char* mode) {
  instrument_if_output(path);
  return NEXT("fopen64", fopen_fn)(path, mode);
}

int open(const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = mode_of(flags, args);
  va_end(args);
  instrument_if_output(path);
  return NEXT("open", open_fn)(path, flags, mode);
}

int open64(const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = mode_of(flags, args);
  va_end(args);
  instrument_if_output(path);
  return NEXT("open64", open_fn)(path, flags, mode);
}

int openat(int dir, const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = mode_of(flags, args);
  va_end(args);
  instrument_if_output(path);
  return NEXT("openat", openat_fn)(dir, path, flags, mode);
}

int openat64(int dir, const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = mode_of(flags, args);
  va_end(args);
  instrument_if_output(path);
  return NEXT("openat64", openat_fn)(dir, path, flags, mode);
}
