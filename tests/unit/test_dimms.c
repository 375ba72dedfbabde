/* SPDX-License-Identifier: BSD-3-Clause */
/* SMBIOS type 17 records as the kernel exposes them (/sys/firmware/dmi/entries/17-N/raw). */
#include "check.h"
#include "host/dimms.h"

#include <string.h>

/* A type 17 record of SMBIOS 3.x: 0x28 formatted bytes, then its strings. */
static size_t record(unsigned char *raw, unsigned size_word, unsigned ext_mib, unsigned type,
                     unsigned speed, unsigned configured)
{
    memset(raw, 0, 64);
    raw[0] = 17;
    raw[1] = 0x28;
    raw[0x0C] = size_word & 0xFF;
    raw[0x0D] = size_word >> 8;
    raw[0x12] = (unsigned char)type;
    raw[0x15] = speed & 0xFF;
    raw[0x16] = speed >> 8;
    raw[0x1C] = ext_mib & 0xFF;
    raw[0x1D] = (ext_mib >> 8) & 0xFF;
    raw[0x1E] = (ext_mib >> 16) & 0xFF;
    raw[0x20] = configured & 0xFF;
    raw[0x21] = configured >> 8;
    memcpy(raw + 0x28, "DIMM_A1\0\0", 9);
    return 0x28 + 9;
}

int main(void)
{
    unsigned char raw[64];
    struct nprb_dimms d = {0};
    /* 8 x 16 GiB DDR4 rated 3200, configured 2933: the configured speed counts. (The size word
     * holds MiB below 32 GiB; bit 15 would mean KiB.) */
    for (int i = 0; i < 8; i++)
        CHECK(nprb_dimms_add_smbios17(&d, raw, record(raw, 16384, 0, 0x1A, 3200, 2933)) == 0);
    /* Empty slots are not modules. */
    CHECK(nprb_dimms_add_smbios17(&d, raw, record(raw, 0, 0, 0x02, 0, 0)) == 0);
    nprb_dimms_finish(&d);
    CHECK(d.count == 8);
    CHECK(d.total_bytes == (UINT64_C(128) << 30));
    CHECK(d.speed_mts == 2933);
    CHECK_STR_CONTAINS(d.layout, "8x16GiB DDR4-2933");
    /* Bit 15 of the size word: KiB. */
    struct nprb_dimms k = {0};
    CHECK(nprb_dimms_add_smbios17(&k, raw, record(raw, 0x8000 | 512, 0, 0x1A, 0, 0)) == 0);
    CHECK(k.total_bytes == 512 * 1024);

    /* Extended size (0x7FFF: the size is at 0x1C in MiB), DDR5; a different module marks it. */
    struct nprb_dimms e = {0};
    CHECK(nprb_dimms_add_smbios17(&e, raw, record(raw, 0x7FFF, 65536, 0x22, 4800, 0)) == 0);
    CHECK(nprb_dimms_add_smbios17(&e, raw, record(raw, 0x7FFF, 65536, 0x22, 4800, 0)) == 0);
    CHECK(nprb_dimms_add_smbios17(&e, raw, record(raw, 16384, 0, 0x22, 4800, 0)) == 0);
    nprb_dimms_finish(&e);
    CHECK(e.count == 3 && e.speed_mts == 4800);
    CHECK_STR_CONTAINS(e.layout, "3x64GiB DDR5-4800 +mixed");

    /* Not type 17, or cut short: refused. */
    record(raw, 16384, 0, 0x1A, 3200, 0);
    raw[0] = 16;
    CHECK(nprb_dimms_add_smbios17(&e, raw, 0x28) == -1);
    raw[0] = 17;
    CHECK(nprb_dimms_add_smbios17(&e, raw, 8) == -1);

    /* This host: never fails; says where it read from. */
    struct nprb_dimms host;
    nprb_dimms_read(&host);
    CHECK(strcmp(host.source, "edac") == 0 || strcmp(host.source, "smbios") == 0 ||
          strcmp(host.source, "none") == 0);
    CHECK((host.count == 0) == (host.layout[0] == '\0'));
    return CHECK_DONE();
}
