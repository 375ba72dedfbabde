/* SPDX-License-Identifier: BSD-3-Clause */
/* The config module's sections: an experiment's own keys and struct, declared in its file and
 * added to a config by the job (experiments/registry.c), so that config/ never names an
 * experiment. Also the numbering of every key of a config (the global table's, then each
 * section's), by which the key engine, the YAML walk, the echo and the reference reach a key,
 * its full name and its value. */
#include "config/config.h"

#include "config/config_keys.h"

#include <stdio.h>
#include <string.h>

size_t nprb_config_key_total(const struct nprb_config *cfg)
{
    size_t n = nprb_config_key_count;
    for (int s = 0; s < cfg->section_count; s++)
        n += cfg->section[s]->key_count;
    return n;
}

/* The section key number @p i falls in (-1: the global table) and its index there. */
static int section_of(const struct nprb_config *cfg, size_t i, size_t *at)
{
    *at = i;
    if (i < nprb_config_key_count)
        return -1;
    *at -= nprb_config_key_count;
    for (int s = 0; s < cfg->section_count; s++) {
        if (*at < cfg->section[s]->key_count)
            return s;
        *at -= cfg->section[s]->key_count;
    }
    return -2; /* past the last key: a caller's bug */
}

const struct config_key *nprb_config_key_at(const struct nprb_config *cfg, size_t i, char *name,
                                            size_t len)
{
    size_t at;
    int s = section_of(cfg, i, &at);
    const struct config_key *key = s == -1 ? &nprb_config_keys[at] : &cfg->section[s]->keys[at];
    if (s == -1)
        snprintf(name, len, "%s", key->key);
    else
        snprintf(name, len, "%s.%s", cfg->section[s]->name, key->key);
    return key;
}

void *nprb_config_key_field(const struct nprb_config *cfg, size_t i)
{
    size_t at;
    int s = section_of(cfg, i, &at);
    const unsigned char *base =
        s == -1 ? (const unsigned char *)cfg : (const unsigned char *)cfg->section_data[s];
    const struct config_key *key = s == -1 ? &nprb_config_keys[at] : &cfg->section[s]->keys[at];
    return (void *)(base + key->offset); /* const for the echo, written by the key engine */
}

long nprb_config_key_index(const struct nprb_config *cfg, const char *name)
{
    char full[128];
    size_t total = nprb_config_key_total(cfg);
    for (size_t i = 0; i < total; i++) {
        nprb_config_key_at(cfg, i, full, sizeof full);
        if (strcmp(full, name) == 0)
            return (long)i;
    }
    return -1;
}

int nprb_config_add_section(struct nprb_config *cfg, const struct nprb_config_section *section,
                            char *err, size_t errlen)
{
    size_t name_len = strlen(section->name);
    size_t total = nprb_config_key_total(cfg);
    if (cfg->section_count == NPRB_CONFIG_MAX_SECTIONS ||
        total + section->key_count > NPRB_CONFIG_MAX_KEYS ||
        section->size > NPRB_CONFIG_SECTION_BYTES) {
        nprb_config_fmt_err(err, errlen,
                            "config section %s: too large (raise NPRB_CONFIG_MAX_SECTIONS, "
                            "NPRB_CONFIG_MAX_KEYS or NPRB_CONFIG_SECTION_BYTES in config.h)",
                            section->name);
        return -1;
    }
    char full[128];
    for (size_t i = 0; i < total; i++) {
        nprb_config_key_at(cfg, i, full, sizeof full);
        if (strncmp(full, section->name, name_len) == 0 &&
            (full[name_len] == '.' || full[name_len] == '\0')) {
            nprb_config_fmt_err(err, errlen, "config section %s: the name is taken by key %s",
                                section->name, full);
            return -1;
        }
    }
    int s = cfg->section_count++;
    cfg->section[s] = section;
    memset(cfg->section_data[s], 0, sizeof cfg->section_data[s]);
    for (size_t k = 0; k < section->key_count; k++) {
        char why[192];
        if (nprb_config_key_assign(cfg, total + k, section->keys[k].initial, why, sizeof why) !=
            0) {
            nprb_config_fmt_err(err, errlen, "config section %s: default of %s: %s", section->name,
                                section->keys[k].key, why);
            cfg->section_count--;
            return -1;
        }
    }
    return 0;
}

const void *nprb_config_section(const struct nprb_config *cfg,
                                const struct nprb_config_section *section)
{
    for (int s = 0; s < cfg->section_count; s++)
        if (cfg->section[s] == section)
            return cfg->section_data[s];
    return NULL;
}

const void *nprb_config_value(const struct nprb_config *cfg, const char *name)
{
    long i = nprb_config_key_index(cfg, name);
    return i < 0 ? NULL : nprb_config_key_field(cfg, (size_t)i);
}
