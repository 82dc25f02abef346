// TargetClones: the attribute that compiles a CPU kernel once per vector ISA.
//
// The project builds for baseline x86-64 (SSE2), so the compiler vectorises a
// plain loop with 128-bit registers only. A kernel marked TEMPO_CLONES is
// compiled three times, for AVX-512, AVX2 and the baseline, and the loader
// picks the best clone the CPU runs (GCC's target_clones, resolved once per
// process through an ifunc). TEMPO_TARGET(isa) compiles one function for one
// ISA, for a caller that dispatches itself. Both are empty on other compilers
// and architectures, where the plain loop remains.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define TEMPO_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#define TEMPO_TARGET(isa) __attribute__((target(isa)))
#else
#define TEMPO_CLONES
#define TEMPO_TARGET(isa)
#endif
