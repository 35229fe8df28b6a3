/* web_assets.h: the pages, script and style compiled into the binary (internal to web/).
 * The table is generated from web/pages/ by web/embed.cmake; it ends with a NULL path.
 * Paths are matched exactly: nothing here ever maps a request onto the file system. */
#ifndef KIFUCAM_WEB_ASSETS_H
#define KIFUCAM_WEB_ASSETS_H

#include <stddef.h>

typedef struct web_asset {
    const char *path;           /* "/overlay" */
    const char *type;           /* Content-Type */
    const unsigned char *data;  /* len bytes (plus a NUL) */
    size_t len;
} web_asset_t;

extern const web_asset_t web_assets[];

/* The asset served at exactly this path, or NULL. */
const web_asset_t *web_asset_find(const char *path);

#endif
