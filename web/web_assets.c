/* web_assets.c: exact-path lookup in the generated table of compiled-in pages. */
#include "web/web_assets.h"

#include <string.h>

const web_asset_t *web_asset_find(const char *path)
{
    if (!path)
        return NULL;
    for (const web_asset_t *a = web_assets; a->path; a++)
        if (strcmp(a->path, path) == 0)
            return a;
    return NULL;
}
