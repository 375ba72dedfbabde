/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/dimms.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Modules are summarised as "COUNTxSIZE TYPE-SPEED"; a host with mixed modules is rare and is
 * described by its first kind plus a "+mixed" mark (the fingerprint then differs, as it should). */

static const char *smbios_memory_type(unsigned code)
{
    switch (code) {
    case 0x12:
        return "DDR";
    case 0x13:
        return "DDR2";
    case 0x18:
        return "DDR3";
    case 0x1A:
        return "DDR4";
    case 0x1B:
        return "LPDDR";
    case 0x1D:
        return "LPDDR3";
    case 0x1E:
        return "LPDDR4";
    case 0x1F:
        return "HBM";
    case 0x20:
        return "HBM2";
    case 0x22:
        return "DDR5";
    case 0x23:
        return "LPDDR5";
    case 0x24:
        return "HBM3";
    default:
        return "RAM";
    }
}

static unsigned word(const unsigned char *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}

static void add_module(struct nprb_dimms *d, uint64_t bytes, const char *type, int speed_mts)
{
    if (d->count == 0) {
        d->first_bytes = bytes;
        d->first_speed_mts = speed_mts;
        snprintf(d->first_type, sizeof d->first_type, "%s", type);
    } else if (bytes != d->first_bytes || strcmp(type, d->first_type) != 0 ||
               speed_mts != d->first_speed_mts) {
        d->mixed = true;
    }
    d->count++;
    d->total_bytes += bytes;
    if (speed_mts > 0 && (d->speed_mts == 0 || speed_mts < d->speed_mts))
        d->speed_mts = speed_mts;
}

int nprb_dimms_add_smbios17(struct nprb_dimms *d, const unsigned char *raw, size_t len)
{
    if (len < 0x15 || raw[0] != 17 || raw[1] > len)
        return -1;
    size_t formatted = raw[1];
    unsigned size = word(raw + 0x0C);
    if (size == 0 || size == 0xFFFF)
        return 0; /* empty slot, or size unknown */
    uint64_t bytes;
    if (size == 0x7FFF && formatted >= 0x20)
        bytes = (uint64_t)(word(raw + 0x1C) | (uint64_t)word(raw + 0x1E) << 16) << 20;
    else if (size & 0x8000)
        bytes = (uint64_t)(size & 0x7FFF) << 10;
    else
        bytes = (uint64_t)size << 20;
    int speed = formatted >= 0x17 ? (int)word(raw + 0x15) : 0;
    if (formatted >= 0x22 && word(raw + 0x20) != 0)
        speed = (int)word(raw + 0x20); /* configured speed: what the controller runs them at */
    add_module(d, bytes, smbios_memory_type(raw[0x12]), speed);
    return 0;
}

void nprb_dimms_finish(struct nprb_dimms *d)
{
    d->layout[0] = '\0';
    if (d->count == 0)
        return;
    char speed[16] = "";
    if (d->first_speed_mts > 0)
        snprintf(speed, sizeof speed, "-%d", d->first_speed_mts);
    bool gib = d->first_bytes >= (UINT64_C(1) << 30);
    snprintf(d->layout, sizeof d->layout, "%dx%llu%s %s%s%s", d->count,
             (unsigned long long)(d->first_bytes >> (gib ? 30 : 20)), gib ? "GiB" : "MiB",
             d->first_type, speed, d->mixed ? " +mixed" : "");
}

/* EDAC: /sys/devices/system/edac/mc/mcN/dimmM/{size (MiB), dimm_mem_type}; no speed there. */
static void read_edac(struct nprb_dimms *d)
{
    const char *base = "/sys/devices/system/edac/mc";
    DIR *mcs = opendir(base);
    if (mcs == NULL)
        return;
    struct dirent *mc;
    while ((mc = readdir(mcs)) != NULL) {
        if (strncmp(mc->d_name, "mc", 2) != 0)
            continue;
        char dir[300];
        snprintf(dir, sizeof dir, "%s/%s", base, mc->d_name);
        DIR *dimms = opendir(dir);
        if (dimms == NULL)
            continue;
        struct dirent *e;
        while ((e = readdir(dimms)) != NULL) {
            if (strncmp(e->d_name, "dimm", 4) != 0 && strncmp(e->d_name, "rank", 4) != 0)
                continue;
            char path[600], type[32] = "RAM";
            unsigned long long mib = 0;
            snprintf(path, sizeof path, "%s/%s/size", dir, e->d_name);
            FILE *f = fopen(path, "r");
            if (f == NULL)
                continue;
            int got = fscanf(f, "%llu", &mib);
            fclose(f);
            snprintf(path, sizeof path, "%s/%s/dimm_mem_type", dir, e->d_name);
            f = fopen(path, "r");
            if (f != NULL) {
                if (fscanf(f, "%31s", type) != 1)
                    snprintf(type, sizeof type, "RAM");
                fclose(f);
            }
            if (got == 1 && mib > 0)
                add_module(d, (uint64_t)mib << 20, type, 0);
        }
        closedir(dimms);
    }
    closedir(mcs);
}

static void read_smbios(struct nprb_dimms *d)
{
    for (int i = 0; i < 4096; i++) {
        char path[96];
        snprintf(path, sizeof path, "/sys/firmware/dmi/entries/17-%d/raw", i);
        FILE *f = fopen(path, "rb");
        if (f == NULL)
            break; /* entries are numbered without gaps; a missing one ends the list */
        unsigned char raw[512];
        size_t len = fread(raw, 1, sizeof raw, f);
        fclose(f);
        nprb_dimms_add_smbios17(d, raw, len);
    }
}

void nprb_dimms_read(struct nprb_dimms *d)
{
    memset(d, 0, sizeof *d);
    read_edac(d);
    if (d->count > 0) {
        snprintf(d->source, sizeof d->source, "edac");
        d->world_readable = true;
    } else {
        read_smbios(d);
        snprintf(d->source, sizeof d->source, "%s", d->count > 0 ? "smbios" : "none");
    }
    nprb_dimms_finish(d);
}
