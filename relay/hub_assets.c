/* hub_assets.c: exact-path lookup in the generated table of the hub's pages. */
#include "relay/hub_assets.h"

#include <string.h>

const web_asset_t *hub_asset_find(const char *path)
{
    if (!path)
        return NULL;
    for (const web_asset_t *a = hub_assets; a->path; a++)
        if (strcmp(a->path, path) == 0)
            return a;
    return NULL;
}
