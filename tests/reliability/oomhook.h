/* oomhook.h: the allocation hook of the fault-injection tests (header only; include in
 * exactly one source of a test binary linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup).
 *
 * Calls from the project's static libraries reach __wrap_*; they forward to __real_*
 * unless the countdown armed with oom_arm(n) reaches its n-th call, which fails (NULL)
 * and sets oom_hit. Only the n-th call fails (later ones succeed), so that the code's
 * error path itself runs with working allocations, as after a transient failure.
 * Allocations made inside libc, jansson, iconv... are not wrapped.
 */
#ifndef KIFUCAM_OOMHOOK_H
#define KIFUCAM_OOMHOOK_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);

static long oom_fail_at, oom_calls;
static int oom_hit;

static int oom_should_fail(void)
{
    if (oom_fail_at && ++oom_calls == oom_fail_at) {
        oom_hit = 1;
        return 1;
    }
    return 0;
}
void *__wrap_malloc(size_t n) { return oom_should_fail() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t m) { return oom_should_fail() ? NULL : __real_calloc(n, m); }
void *__wrap_realloc(void *p, size_t n) { return oom_should_fail() ? NULL : __real_realloc(p, n); }
char *__wrap_strdup(const char *s) { return oom_should_fail() ? NULL : __real_strdup(s); }

/* Fail the n-th wrapped allocation from now on (n >= 1). */
static inline void oom_arm(long n)
{
    oom_fail_at = n;
    oom_calls = 0;
    oom_hit = 0;
}

/* Stop failing; returns the number of wrapped calls since oom_arm. */
static inline long oom_disarm(void)
{
    oom_fail_at = 0;
    return oom_calls;
}

#endif
