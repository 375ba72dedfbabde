/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file dimms.h
 * The memory modules of a host, for its fingerprint and for peak-bandwidth arithmetic: from the
 * kernel's EDAC driver (world-readable) or from SMBIOS type 17 records in
 * /sys/firmware/dmi/entries (readable by root only). Nothing here needs dmidecode.
 */
#ifndef NPRB_DIMMS_H
#define NPRB_DIMMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nprb_dimms {
    int count;            /**< populated modules; 0 when nothing could be read */
    uint64_t total_bytes; /**< their sum */
    int speed_mts;        /**< configured (else rated) transfer rate of the slowest, 0 unknown */
    char layout[96];      /**< e.g. "16x32GiB DDR4-3200", "" when unknown */
    char source[16];      /**< edac | smbios | none */
    bool world_readable;  /**< from a source every user can read: then it is in the fingerprint */
    /* The first kind of module seen, and whether others differ: what the layout describes. */
    uint64_t first_bytes;
    char first_type[16];
    int first_speed_mts;
    bool mixed;
};

/** Reads this host's modules (EDAC first, then SMBIOS). Never fails: count 0 says unknown. */
void nprb_dimms_read(struct nprb_dimms *dimms);

/**
 * Adds one SMBIOS type 17 record (@p raw, @p len bytes as in .../entries/17-N/raw: formatted
 * area then strings) to @p dimms. Records of empty slots are skipped. Exposed for unit tests.
 * @return 0, or -1 when it is not a type 17 record.
 */
int nprb_dimms_add_smbios17(struct nprb_dimms *dimms, const unsigned char *raw, size_t len);

/** Builds @p dimms->layout from what was added. */
void nprb_dimms_finish(struct nprb_dimms *dimms);

#endif
