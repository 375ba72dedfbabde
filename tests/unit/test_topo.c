/* SPDX-License-Identifier: BSD-3-Clause */
/* Topology discovery on XML shapes of real machines (tests/topologies), and on this host. */
#include "check.h"
#include "host/cpu_name.h"
#include "host/topo.h"

#include <sys/stat.h>
#include <unistd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct nprb_topo *load(const char *dir, const char *name)
{
    char path[1024], err[256];
    snprintf(path, sizeof path, "%s/%s.xml", dir, name);
    struct nprb_topo *t = NULL;
    if (nprb_topo_create(&t, path, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", path, err);
        exit(1);
    }
    return t;
}

static void intel_2s(const char *dir)
{
    struct nprb_topo *t = load(dir, "intel-2s");
    const struct nprb_topo_summary *s = nprb_topo_summary(t);
    CHECK(!nprb_topo_is_this_system(t));
    CHECK(nprb_topo_node_count(t) == 2);
    CHECK(s->packages == 2 && s->cores == 36 && s->pus == 72);
    CHECK(s->l3_bytes == 47185920 && s->l2_bytes == 1048576 && s->l1d_bytes == 32768);
    CHECK(nprb_topo_node(t, 0)->cpu_count == 36);
    CHECK(nprb_topo_node(t, 1)->usable_cores == 18);
    CHECK(nprb_topo_node(t, 0)->package == 0 && nprb_topo_node(t, 1)->package == 1);
    CHECK(nprb_topo_node(t, 1)->memory_bytes == 103079215104ULL);
    CHECK(nprb_topo_distance(t, 0, 0) == 10 && nprb_topo_distance(t, 0, 1) == 21);
    /* One PU per core (the first hyperthread), in core order. */
    unsigned pus[64];
    int n = nprb_topo_node_pus(t, 1, pus, 64);
    CHECK(n == 18);
    CHECK(pus[0] == 36 && pus[1] == 38);
    nprb_topo_destroy(t);
}

static void epyc_8n(const char *dir)
{
    struct nprb_topo *t = load(dir, "epyc-8n");
    CHECK(nprb_topo_node_count(t) == 8);
    for (int i = 0; i < 8; i++) {
        CHECK(nprb_topo_node(t, i)->os_index == (unsigned)i);
        CHECK(nprb_topo_node(t, i)->cpu_count == 16);
        CHECK(nprb_topo_node(t, i)->package == i / 4);
    }
    CHECK(nprb_topo_distance(t, 0, 3) == 12);
    CHECK(nprb_topo_distance(t, 3, 4) == 32);
    CHECK(nprb_topo_distance(t, 7, 7) == 10);
    nprb_topo_destroy(t);
}

static void cxl(const char *dir)
{
    struct nprb_topo *t = load(dir, "cxl");
    CHECK(nprb_topo_node_count(t) == 3);
    const struct nprb_node_info *mem_only = nprb_topo_node(t, 2);
    CHECK(mem_only->os_index == 2);
    CHECK(mem_only->cpu_count == 0);
    CHECK(mem_only->usable_cores == 0);
    CHECK(mem_only->package == -1);
    CHECK(mem_only->memory_bytes == 274877906944ULL);
    CHECK(nprb_topo_node(t, 0)->cpu_count == 16);
    unsigned pus[8];
    CHECK(nprb_topo_node_pus(t, 2, pus, 8) == 0);
    CHECK(nprb_topo_distance(t, 0, 2) == 24);
    nprb_topo_destroy(t);
}

/* Grace Hopper: an Arm64 host whose GPU memory is a NUMA node without CPUs, and whose hwloc names
 * no model, only the MIDR fields. */
static void grace_hopper(const char *dir)
{
    struct nprb_topo *t = load(dir, "grace-hopper");
    const struct nprb_topo_summary *s = nprb_topo_summary(t);
    CHECK(nprb_topo_node_count(t) == 2);
    CHECK(strcmp(s->cpu_model, "ARM Neoverse-V2") == 0);
    CHECK(s->packages == 1 && s->cores == 72 && s->pus == 72);
    const struct nprb_node_info *cpu = nprb_topo_node(t, 0), *gpu = nprb_topo_node(t, 1);
    CHECK(cpu->cpu_count == 72 && cpu->usable_cores == 72 && cpu->package == 0);
    CHECK(cpu->memory_bytes == 515396075520ULL);
    CHECK(gpu->os_index == 1 && gpu->cpu_count == 0 && gpu->usable_cores == 0);
    CHECK(gpu->package == -1);
    CHECK(gpu->memory_bytes == 103079215104ULL);
    unsigned pus[8];
    CHECK(nprb_topo_node_pus(t, 1, pus, 8) == 0);
    CHECK(nprb_topo_distance(t, 0, 1) == 80);
    /* The model names the node type, as on x86. */
    CHECK(strcmp(s->label, "ARM Neoverse-V2 1S/2N/72C 576G") == 0);
    nprb_topo_destroy(t);
}

/* The MIDR table names known parts and never gives two unknown parts one name. */
static void midr_names(void)
{
    char name[64];
    CHECK(nprb_cpu_name_from_midr(0x41, 0xd4f, name, sizeof name) == 0);
    CHECK(strcmp(name, "ARM Neoverse-V2") == 0);
    CHECK(nprb_cpu_name_from_midr(0xc0, 0xac3, name, sizeof name) == 0);
    CHECK(strcmp(name, "Ampere-1") == 0);
    CHECK(nprb_cpu_name_from_midr(0x46, 0x001, name, sizeof name) == 0);
    CHECK(strcmp(name, "Fujitsu A64FX") == 0);
    CHECK(nprb_cpu_name_from_midr(0x41, 0xfff, name, sizeof name) == -1);
    CHECK(strcmp(name, "ARM part 0xfff") == 0);
    CHECK(nprb_cpu_name_from_midr(0x99, 0x123, name, sizeof name) == -1);
    CHECK(strcmp(name, "Arm implementer 0x99 part 0x123") == 0);
}

/* midr_el1 as a Graviton 3 (Neoverse-V1, r1p1) publishes it; no file and junk are no value. */
static void midr_sysfs(void)
{
    char dir[] = "/tmp/nprb-midr-XXXXXX", path[256];
    CHECK(mkdtemp(dir) != NULL);
    unsigned implementer = 0, part = 0;
    CHECK(nprb_cpu_midr_read(dir, &implementer, &part) == -1);
    snprintf(path, sizeof path, "%s/regs", dir);
    CHECK(mkdir(path, 0700) == 0);
    snprintf(path, sizeof path, "%s/regs/identification", dir);
    CHECK(mkdir(path, 0700) == 0);
    snprintf(path, sizeof path, "%s/regs/identification/midr_el1", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fputs("0x00000000411fd401\n", f);
    fclose(f);
    CHECK(nprb_cpu_midr_read(dir, &implementer, &part) == 0);
    CHECK(implementer == 0x41 && part == 0xd40);
    f = fopen(path, "w");
    fputs("none\n", f);
    fclose(f);
    CHECK(nprb_cpu_midr_read(dir, &implementer, &part) == -1);
    unlink(path);
    snprintf(path, sizeof path, "%s/regs/identification", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/regs", dir);
    rmdir(path);
    rmdir(dir);
}

static void sparse(const char *dir)
{
    struct nprb_topo *t = load(dir, "sparse");
    CHECK(nprb_topo_node_count(t) == 2);
    CHECK(nprb_topo_node(t, 0)->os_index == 0);
    CHECK(nprb_topo_node(t, 1)->os_index == 2);
    CHECK(nprb_topo_node_index(t, 2) == 1);
    CHECK(nprb_topo_node_index(t, 1) == -1);
    CHECK(nprb_topo_distance(t, 1, 0) == 20);
    nprb_topo_destroy(t);
}

/* Identical hardware, identical fingerprint; different hardware, different fingerprint. */
static void fingerprints(const char *dir)
{
    struct nprb_topo *a = load(dir, "intel-2s"), *b = load(dir, "intel-2s");
    struct nprb_topo *c = load(dir, "epyc-8n");
    CHECK(strcmp(nprb_topo_summary(a)->fingerprint, nprb_topo_summary(b)->fingerprint) == 0);
    CHECK(strcmp(nprb_topo_summary(a)->fingerprint, nprb_topo_summary(c)->fingerprint) != 0);
    CHECK(strlen(nprb_topo_summary(a)->fingerprint) == 16);
    /* The value FNV-1a from its published offset basis gives for this fixture (hash.h); one
     * started a digit short, as before schema 0.10.0, reads otherwise. */
    CHECK(strcmp(nprb_topo_summary(a)->fingerprint, "f29e5b064f39ffb8") == 0);
    nprb_topo_destroy(a);
    nprb_topo_destroy(b);
    nprb_topo_destroy(c);
}

static void this_host(void)
{
    struct nprb_topo *t = NULL;
    char err[256];
    CHECK(nprb_topo_create(&t, NULL, err, sizeof err) == 0);
    if (t == NULL)
        return;
    CHECK(nprb_topo_is_this_system(t));
    CHECK(nprb_topo_node_count(t) >= 1);
    int usable = 0;
    for (int i = 0; i < nprb_topo_node_count(t); i++)
        usable += nprb_topo_node(t, i)->usable_cores;
    CHECK(usable >= 1);
    nprb_topo_destroy(t);
}

/* Firmware reserving a little more on one node than another must not split a node type;
 * different memory must. */
static void memory_rounding(void)
{
    const uint64_t gib = UINT64_C(1) << 30, mib = UINT64_C(1) << 20;
    CHECK(nprb_topo_round_memory(192 * gib) == 192 * gib);
    CHECK(nprb_topo_round_memory(187 * gib + 600 * mib) == 192 * gib);
    CHECK(nprb_topo_round_memory(251 * gib) == 256 * gib);
    CHECK(nprb_topo_round_memory(503 * gib) == 512 * gib);
    CHECK(nprb_topo_round_memory(94 * gib) == 96 * gib);
    CHECK(nprb_topo_round_memory(62 * gib + 800 * mib) == 64 * gib);
    CHECK(nprb_topo_round_memory(128 * gib) != nprb_topo_round_memory(96 * gib));
    CHECK(nprb_topo_round_memory(1000 * mib) == gib);
    CHECK(nprb_topo_round_memory(500 * mib) == 512 * mib);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s TOPOLOGY_DIR\n", argv[0]);
        return 1;
    }
    intel_2s(argv[1]);
    epyc_8n(argv[1]);
    cxl(argv[1]);
    grace_hopper(argv[1]);
    midr_names();
    midr_sysfs();
    sparse(argv[1]);
    fingerprints(argv[1]);
    memory_rounding();
    this_host();
    char err[256];
    struct nprb_topo *t = NULL;
    CHECK(nprb_topo_create(&t, "/nonexistent/topo.xml", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "/nonexistent/topo.xml");
    return CHECK_DONE();
}
