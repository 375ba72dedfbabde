#include "fault.h"

#include <stdlib.h>
#include <string.h>

bool nprb_fault(const char *name)
{
    const char *list = getenv("NUMAPROBE_FAULT");
    size_t len = strlen(name);
    for (const char *p = list; p != NULL && *p != '\0';) {
        const char *end = strchr(p, ',');
        size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, name, len) == 0)
            return true;
        p = end != NULL ? end + 1 : NULL;
    }
    return false;
}
