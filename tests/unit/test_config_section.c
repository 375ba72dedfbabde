/* SPDX-License-Identifier: BSD-3-Clause */
/* An experiment's own config section (config.h: struct nprb_config_section): its keys load from
 * YAML and --set with the same grammar and errors as the global ones, echo after them and load
 * back (in the short echo too, when they differ from their defaults), appear in the reference, and
 * a config without the section hands back NULL. A section's keys of its own enum's names need
 * only its table. */
#include "check.h"
#include "config/config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct demo_config {
    bool enabled;
    uint64_t size_bytes;
    struct nprb_sizes sizes;
    double sample_s;
};

#define OFF(field) offsetof(struct demo_config, field)
static const struct config_key demo_keys[] = {
    {"enabled", KEY_BOOL, OFF(enabled), "true", 0, 0, "measure the demo"},
    {"size", KEY_SIZE, OFF(size_bytes), "256MiB", 4096, (int64_t)1 << 40, "working set"},
    {"sizes", KEY_SIZES, OFF(sizes), "4KiB,2MiB", 4096, (int64_t)1 << 40, "sizes"},
    {"sample_time", KEY_DURATION, OFF(sample_s), "2ms", 0, 0, "sample length"},
};
static const struct nprb_config_section demo = {"demo", demo_keys, 4, sizeof(struct demo_config)};

/* A section's own enum of names, declared here with its table and nothing in config/: a key of
 * one name (KEY_NAME) and lists of them (KEY_NAMES), one that may be none. */
enum shade { SHADE_LIGHT, SHADE_DARK, SHADE_GREY };
static const char *const shade_names[] = {"light", "dark", "grey"};
static const struct nprb_name_table shades = {
    .rows = shade_names,
    .stride = sizeof shade_names[0],
    .count = sizeof shade_names / sizeof shade_names[0],
    .allowed = NPRB_NAMES_ALL,
    .what = "shade",
};
struct shade_list {
    int count;
    enum shade shade[NPRB_MAX_LIST];
};
NPRB_NAME_LIST_LAYOUT(struct shade_list, shade);
struct paint_config {
    enum shade shade;
    struct shade_list some, any;
};
#define PAINT(field) offsetof(struct paint_config, field)
static const struct config_key paint_keys[] = {
    {"shade", KEY_NAME(shades), PAINT(shade), "dark", 0, 0, "one shade"},
    {"some", KEY_NAMES(shades), PAINT(some), "light,grey", 1, 0, "at least one shade"},
    {"any", KEY_NAMES(shades), PAINT(any), "none", 0, 0, "shades, or none"},
};
static const struct nprb_config_section paint = {"paint", paint_keys, 3,
                                                 sizeof(struct paint_config)};

static void names_of_a_section(void)
{
    static struct nprb_config cfg;
    static char echo[NPRB_CONFIG_TEXT_MAX];
    char err[512] = "";
    nprb_config_defaults(&cfg);
    CHECK(nprb_config_add_section(&cfg, &paint, err, sizeof err) == 0);
    const struct paint_config *p = nprb_config_section(&cfg, &paint);
    if (p == NULL)
        return;
    CHECK(p->shade == SHADE_DARK && p->some.count == 2 && p->some.shade[1] == SHADE_GREY &&
          p->any.count == 0);
    CHECK(nprb_config_load_text(&cfg, "paint:\n  shade: grey\n  any: [dark, light]\n", "t.yaml",
                                err, sizeof err) == 0);
    CHECK(p->shade == SHADE_GREY && p->any.count == 2 && p->any.shade[0] == SHADE_DARK);
    CHECK(nprb_config_set(&cfg, "paint.shade=pink", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err,
                       "--set paint.shade: unknown shade 'pink' (expected light, dark or grey)");
    CHECK(nprb_config_set(&cfg, "paint.some=dark,dark", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "'dark' repeats an earlier item");
    CHECK(nprb_config_set(&cfg, "paint.some=none", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "unknown shade 'none'");
    CHECK(p->some.count == 2); /* a refused list leaves the value as it was */
    nprb_config_to_yaml(&cfg, echo, sizeof echo);
    CHECK_STR_CONTAINS(echo,
                       "paint:\n  shade: grey\n  some: [light, grey]\n  any: [dark, light]\n");
    CHECK(nprb_config_set(&cfg, "paint.any=none", err, sizeof err) == 0 && p->any.count == 0);
    nprb_config_to_yaml(&cfg, echo, sizeof echo);
    CHECK_STR_CONTAINS(echo, "  any: none\n");
    char *ref = NULL;
    size_t ref_len = 0;
    FILE *out = open_memstream(&ref, &ref_len);
    nprb_config_print_reference(out, &cfg);
    fclose(out);
    CHECK_STR_CONTAINS(ref, "allowed: light | dark | grey\n");
    CHECK_STR_CONTAINS(ref, "allowed: list of: light, dark, grey\n");
    CHECK_STR_CONTAINS(ref, "allowed: none | list of: light, dark, grey\n");
    free(ref);
}

/* The global keys, then the config's own memory.* section, then the demo's. */
static int demo_defaults(struct nprb_config *cfg, char *err, size_t len)
{
    nprb_config_defaults(cfg);
    if (nprb_config_add_section(cfg, &nprb_config_memory, err, len) != 0)
        return -1;
    return nprb_config_add_section(cfg, &demo, err, len);
}

int main(void)
{
    static struct nprb_config cfg, again;
    static char echo[NPRB_CONFIG_TEXT_MAX], echo2[NPRB_CONFIG_TEXT_MAX];
    char err[512] = "";

    nprb_config_defaults(&cfg);
    CHECK(nprb_config_section(&cfg, &demo) == NULL);
    CHECK(nprb_config_set(&cfg, "demo.size=1GiB", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "unknown key 'demo.size'");

    CHECK(demo_defaults(&cfg, err, sizeof err) == 0);
    const struct demo_config *d = nprb_config_section(&cfg, &demo);
    if (d == NULL)
        return 1;
    CHECK(d->enabled && d->size_bytes == 256ULL << 20 && d->sizes.count == 2 &&
          d->sample_s == 2e-3);
    /* The same section twice is refused. */
    CHECK(nprb_config_add_section(&cfg, &demo, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "taken");

    /* YAML, nested and dotted, with the global keys' errors. */
    CHECK(nprb_config_load_text(&cfg, "seed: 3\ndemo:\n  size: 64MiB\n  sizes: [8KiB, 1MiB]\n",
                                "t.yaml", err, sizeof err) == 0);
    CHECK(d->size_bytes == 64ULL << 20 && d->sizes.count == 2 && d->sizes.bytes[0] == 8192);
    CHECK(cfg.seed == 3);
    char origin[300];
    CHECK(strcmp(nprb_config_origin(&cfg, "demo.size", origin, sizeof origin), "t.yaml:3: ") == 0);
    CHECK(demo_defaults(&again, err, sizeof err) == 0);
    CHECK(nprb_config_load_text(&again, "demo:\n  size: lots\n", "t.yaml", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "t.yaml:2: demo.size: expected a size like 512MiB or 2G, got 'lots'");
    CHECK(demo_defaults(&again, err, sizeof err) == 0);
    CHECK(nprb_config_load_text(&again, "demo:\n  nope: 1\n", "t.yaml", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "demo.nope: unknown key");
    CHECK(demo_defaults(&again, err, sizeof err) == 0);
    CHECK(nprb_config_load_text(&again, "dmeo:\n  size: 1\n", "t.yaml", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "unknown experiment (expected memory or demo)");
    CHECK(demo_defaults(&again, err, sizeof err) == 0);
    CHECK(nprb_config_load_text(&again, "demo.size: 1MiB\ndemo:\n  size: 2MiB\n", "t.yaml", err,
                                sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "given twice (first on line 1)");

    /* --set */
    CHECK(nprb_config_set(&cfg, "demo.enabled=false", err, sizeof err) == 0);
    CHECK(!d->enabled);
    CHECK(strcmp(nprb_config_origin(&cfg, "demo.enabled", origin, sizeof origin), "--set ") == 0);
    CHECK(nprb_config_set(&cfg, "demo.size=1B", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "--set demo.size: size 1B is out of range (4KiB to 1TiB)");

    /* The echo: the sections after the global keys, in the order they were added, loading back
     * as the same values. */
    nprb_config_to_yaml(&cfg, echo, sizeof echo);
    CHECK_STR_CONTAINS(echo, "time_budget: 0s\nmemory:\n  dimm_speed: 0\n  channels: 0\ndemo:\n"
                             "  enabled: false\n  size: 64MiB\n  sizes: [8KiB, 1MiB]\n"
                             "  sample_time: 2ms\n");
    CHECK(demo_defaults(&again, err, sizeof err) == 0);
    CHECK(nprb_config_load_text(&again, echo, "echo", err, sizeof err) == 0);
    const struct demo_config *d2 = nprb_config_section(&again, &demo);
    if (d2 == NULL)
        return 1;
    CHECK(d2->enabled == d->enabled && d2->size_bytes == d->size_bytes &&
          d2->sizes.count == d->sizes.count && d2->sizes.bytes[1] == d->sizes.bytes[1] &&
          d2->sample_s == d->sample_s);
    nprb_config_to_yaml(&again, echo2, sizeof echo2);
    CHECK(strcmp(echo, echo2) == 0);

    /* The echo at job start: only the keys that differ from their defaults, global and
     * section keys alike, a section's heading before its first; none at the defaults, and none
     * for a key set to its own default. */
    CHECK(nprb_config_changed_yaml(&cfg, echo2, sizeof echo2) == 4);
    CHECK(strcmp(echo2, "seed: 3\ndemo:\n  enabled: false\n  size: 64MiB\n"
                        "  sizes: [8KiB, 1MiB]\n") == 0);
    CHECK(demo_defaults(&again, err, sizeof err) == 0);
    CHECK(nprb_config_changed_yaml(&again, echo2, sizeof echo2) == 0 && echo2[0] == '\0');
    CHECK(nprb_config_set(&again, "demo.size=256MiB", err, sizeof err) == 0);
    CHECK(nprb_config_set(&again, "report_hosts=4", err, sizeof err) == 0);
    CHECK(nprb_config_changed_yaml(&again, echo2, sizeof echo2) == 1);
    CHECK(strcmp(echo2, "report_hosts: 4\n") == 0);

    /* The reference lists the section's keys by their full names. */
    char *ref = NULL;
    size_t ref_len = 0;
    FILE *out = open_memstream(&ref, &ref_len);
    nprb_config_print_reference(out, &cfg);
    fclose(out);
    CHECK_STR_CONTAINS(ref, "\ndemo.size                        256MiB     working set\n");
    free(ref);
    names_of_a_section();
    return CHECK_DONE();
}
