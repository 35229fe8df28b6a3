/* testutil.h: small helpers shared by the cmocka tests (header only).
 * Include after <cmocka.h>. */
#ifndef KIFUCAM_TESTUTIL_H
#define KIFUCAM_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The folder of ../shared/data, or NULL when it is absent. The path is static storage. */
static inline const char *kc_shared_data(void)
{
    static char path[4096];
    const char *cands[2] = { getenv("KIFUCAM_SHARED"), getenv("KIFUCAM_SHARED_DEFAULT") };
    for (int i = 0; i < 2; i++) {
        struct stat st;
        if (!cands[i] || !*cands[i])
            continue;
        snprintf(path, sizeof path, "%s/data", cands[i]);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            return path;
    }
    return NULL;
}

/* Skip the current cmocka test, visibly, when ../shared/data is absent. */
#define KC_REQUIRE_SHARED_DATA(var)                                                  \
    const char *var = kc_shared_data();                                              \
    if (!var) {                                                                      \
        print_message("SKIP: ../shared/data is absent (set KIFUCAM_SHARED)\n");      \
        skip();                                                                      \
    }

/* The source tree's root (for samples/), from the environment ctest sets. */
static inline const char *kc_source_dir(void)
{
    const char *s = getenv("KIFUCAM_SOURCE");
    return s && *s ? s : ".";
}

#endif
