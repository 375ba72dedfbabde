/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/topo.h"

#include "host/cpu_name.h"

#include "build_facts.h"
#include "util/hash.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct nprb_topo {
    hwloc_topology_t hw;
    bool this_system;
    hwloc_bitmap_t usable; /* PUs numaprobe runs its threads on */
    hwloc_bitmap_t bound;  /* PUs the launcher bound the process to (restored after widening) */
    bool widened;          /* usable is the job's allowed CPUs, wider than bound */
    int node_count;
    struct nprb_node_info *nodes;
    hwloc_bitmap_t *node_cpus; /* local PUs of each node */
    unsigned *distances;       /* node_count^2, row-major, 0 = unknown */
    uint64_t *hmat_latency_ns; /* node_count^2 like distances, from ACPI HMAT, 0 = unknown */
    uint64_t *hmat_bandwidth_mibs;
    struct nprb_topo_summary summary;
};

/* A node's own CPUs. hwloc 2 attaches a CPU-less node (CXL memory, HBM exposed separately) to a
 * parent whose cpuset covers other nodes' CPUs, so obj->cpuset alone would call it local to them.
 * On a live system the kernel knows (sysfs cpulist); for XML input, a node keeps only the CPUs
 * that no node with a strictly smaller locality claims. */
static hwloc_bitmap_t own_cpus(struct nprb_topo *t, hwloc_obj_t node)
{
    hwloc_bitmap_t cpus = hwloc_bitmap_dup(node->cpuset);
    if (t->this_system) {
        char path[96], list[4096];
        snprintf(path, sizeof path, "/sys/devices/system/node/node%u/cpulist", node->os_index);
        FILE *f = fopen(path, "r");
        if (f != NULL) {
            if (fgets(list, sizeof list, f) != NULL) {
                list[strcspn(list, "\n")] = '\0';
                hwloc_bitmap_list_sscanf(cpus, list);
            }
            fclose(f);
            return cpus;
        }
    }
    /* A GPU's memory (hwloc 2.11's GPUMemory subtype) sits where its GPU is, with no cores. */
    if (node->subtype != NULL && strcmp(node->subtype, "GPUMemory") == 0) {
        hwloc_bitmap_zero(cpus);
        return cpus;
    }
    hwloc_obj_t other = NULL;
    while ((other = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_NUMANODE, other)) != NULL) {
        if (other != node && hwloc_bitmap_isincluded(other->cpuset, node->cpuset) &&
            !hwloc_bitmap_isequal(other->cpuset, node->cpuset))
            hwloc_bitmap_andnot(cpus, cpus, other->cpuset);
    }
    return cpus;
}

static int package_of(hwloc_topology_t hw, hwloc_const_bitmap_t cpus)
{
    if (hwloc_bitmap_iszero(cpus))
        return -1;
    hwloc_obj_t pkg = hwloc_get_obj_covering_cpuset(hw, cpus);
    while (pkg != NULL && pkg->type != HWLOC_OBJ_PACKAGE)
        pkg = pkg->parent;
    return pkg != NULL ? (int)pkg->os_index : -1;
}

static int count_usable_cores(hwloc_topology_t hw, hwloc_const_bitmap_t cpus,
                              hwloc_const_bitmap_t usable)
{
    int n = 0;
    hwloc_obj_t core = NULL;
    while ((core = hwloc_get_next_obj_by_type(hw, HWLOC_OBJ_CORE, core)) != NULL)
        if (hwloc_bitmap_intersects(core->cpuset, cpus) &&
            hwloc_bitmap_intersects(core->cpuset, usable))
            n++;
    return n;
}

static uint64_t cache_size(hwloc_topology_t hw, hwloc_obj_type_t type)
{
    hwloc_obj_t obj = hwloc_get_obj_by_type(hw, type, 0);
    return obj != NULL ? obj->attr->cache.size : 0;
}

static void read_distances(struct nprb_topo *t)
{
    unsigned nr = 1;
    struct hwloc_distances_s *dist = NULL;
    if (hwloc_distances_get_by_name(t->hw, "NUMALatency", &nr, &dist, 0) != 0 || nr == 0)
        return;
    for (unsigned a = 0; a < dist->nbobjs; a++) {
        for (unsigned b = 0; b < dist->nbobjs; b++) {
            int i = nprb_topo_node_index(t, dist->objs[a]->os_index);
            int j = nprb_topo_node_index(t, dist->objs[b]->os_index);
            if (i >= 0 && j >= 0)
                t->distances[i * t->node_count + j] = (unsigned)dist->values[a * dist->nbobjs + b];
        }
    }
    hwloc_distances_release(t->hw, dist);
}

uint64_t nprb_topo_round_memory(uint64_t bytes)
{
    const uint64_t gib = UINT64_C(1) << 30;
    uint64_t step = gib / 16;
    if (bytes >= gib) {
        uint64_t octave = gib;
        while (octave <= bytes / 2)
            octave *= 2;
        step = octave / 8;
    }
    return (bytes + step / 2) / step * step;
}

/* Memory is rounded (nprb_topo_round_memory) in the fingerprint: the firmware reserves slightly
 * different amounts on identical nodes, and that must not split one node type into many. The
 * DIMM layout is in it only where every user can read it (EDAC), so that the same machine gets
 * the same fingerprint whoever runs the job. */
static void make_fingerprint(struct nprb_topo *t)
{
    struct nprb_topo_summary *s = &t->summary;
    char canon[2048];
    int n = snprintf(canon, sizeof canon, "%s|p%d|c%d|t%d|l1%" PRIu64 "|l2%" PRIu64 "|l3%" PRIu64,
                     s->cpu_model, s->packages, s->cores, s->pus, s->l1d_bytes, s->l2_bytes,
                     s->l3_bytes);
    for (int i = 0; i < t->node_count && n > 0 && (size_t)n < sizeof canon; i++)
        n +=
            snprintf(canon + n, sizeof canon - (size_t)n, "|n%d:%" PRIu64 "M:%d", i,
                     nprb_topo_round_memory(t->nodes[i].memory_bytes) >> 20, t->nodes[i].cpu_count);
    if (s->dimms.world_readable && n > 0 && (size_t)n < sizeof canon)
        snprintf(canon + n, sizeof canon - (size_t)n, "|d%s", s->dimms.layout);
    snprintf(s->fingerprint, sizeof s->fingerprint, "%016" PRIx64, nprb_fnv1a_text(canon));
    uint64_t mem = nprb_topo_round_memory(s->memory_bytes);
    if (mem >= (UINT64_C(1) << 30))
        snprintf(s->label, sizeof s->label, "%.28s %dS/%dN/%dC %gG", s->cpu_model, s->packages,
                 s->numa_nodes, s->cores, (double)mem / (double)(UINT64_C(1) << 30));
    else
        snprintf(s->label, sizeof s->label, "%.28s %dS/%dN/%dC %" PRIu64 "M", s->cpu_model,
                 s->packages, s->numa_nodes, s->cores, mem >> 20);
}

/* HMAT figures as hwloc's memory attributes expose them: Linux publishes them only for each
 * node's best initiators, so most remote pairs stay 0 (unknown). */
static void read_hmat(struct nprb_topo *t, hwloc_obj_t *objs)
{
    size_t n = (size_t)t->node_count;
    t->hmat_latency_ns = calloc(n * n, sizeof *t->hmat_latency_ns);
    t->hmat_bandwidth_mibs = calloc(n * n, sizeof *t->hmat_bandwidth_mibs);
    if (t->hmat_latency_ns == NULL || t->hmat_bandwidth_mibs == NULL)
        return;
    for (size_t i = 0; i < n; i++) {
        if (hwloc_bitmap_iszero(t->node_cpus[i]))
            continue;
        struct hwloc_location from = {.type = HWLOC_LOCATION_TYPE_CPUSET};
        from.location.cpuset = t->node_cpus[i];
        for (size_t j = 0; j < n; j++) {
            hwloc_uint64_t v;
            if (hwloc_memattr_get_value(t->hw, HWLOC_MEMATTR_ID_LATENCY, objs[j], &from, 0, &v) ==
                0)
                t->hmat_latency_ns[i * n + j] = v;
            if (hwloc_memattr_get_value(t->hw, HWLOC_MEMATTR_ID_BANDWIDTH, objs[j], &from, 0, &v) ==
                0)
                t->hmat_bandwidth_mibs[i * n + j] = v;
        }
    }
}

/* How many of @p cpus the job's cgroup allows. */
static int allowed_weight(hwloc_topology_t hw, hwloc_const_bitmap_t cpus)
{
    hwloc_bitmap_t both = hwloc_bitmap_alloc();
    int weight = 0;
    if (both != NULL && hwloc_bitmap_and(both, cpus, hwloc_topology_get_allowed_cpuset(hw)) == 0)
        weight = hwloc_bitmap_weight(both);
    hwloc_bitmap_free(both);
    return weight > 0 ? weight : 0;
}

static void summarise(struct nprb_topo *t)
{
    struct nprb_topo_summary *s = &t->summary;
    nprb_cpu_model(t->hw, "/sys/devices/system/cpu/cpu0", s->cpu_model, sizeof s->cpu_model);
    s->packages = hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_PACKAGE);
    s->numa_nodes = t->node_count;
    s->cores = hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_CORE);
    s->pus = hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_PU);
    s->memory_bytes = 0;
    for (int i = 0; i < t->node_count; i++)
        s->memory_bytes += t->nodes[i].memory_bytes;
    s->l1d_bytes = cache_size(t->hw, HWLOC_OBJ_L1CACHE);
    s->l2_bytes = cache_size(t->hw, HWLOC_OBJ_L2CACHE);
    s->l3_bytes = cache_size(t->hw, HWLOC_OBJ_L3CACHE);
    hwloc_bitmap_list_snprintf(s->usable_cpus, sizeof s->usable_cpus, t->usable);
    s->usable_pus = hwloc_bitmap_weight(t->usable);
    hwloc_bitmap_list_snprintf(s->bound_cpus, sizeof s->bound_cpus, t->bound);
    s->bound_pus = hwloc_bitmap_weight(t->bound);
    s->allowed_pus = allowed_weight(t->hw, hwloc_topology_get_topology_cpuset(t->hw));
    if (t->this_system)
        nprb_dimms_read(&s->dimms);
    make_fingerprint(t);
}

static int by_os_index(const void *a, const void *b)
{
    unsigned x = (*(const hwloc_obj_t *)a)->os_index, y = (*(const hwloc_obj_t *)b)->os_index;
    return (x > y) - (x < y);
}

static int fill(struct nprb_topo *t, char *err, size_t errlen)
{
    if (hwloc_topology_load(t->hw) != 0) {
        snprintf(err, errlen, "hwloc cannot load the topology: %s", strerror(errno));
        return -1;
    }
    t->this_system = hwloc_topology_is_thissystem(t->hw);
    t->usable = hwloc_bitmap_alloc();
    if (!t->this_system || hwloc_get_cpubind(t->hw, t->usable, HWLOC_CPUBIND_PROCESS) != 0)
        hwloc_bitmap_copy(t->usable, hwloc_topology_get_allowed_cpuset(t->hw));
    else
        hwloc_bitmap_and(t->usable, t->usable, hwloc_topology_get_allowed_cpuset(t->hw));
    t->bound = hwloc_bitmap_dup(t->usable);

    t->node_count = hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_NUMANODE);
    if (t->node_count <= 0) {
        snprintf(err, errlen, "hwloc found no NUMA node in the topology");
        return -1;
    }
    t->nodes = calloc((size_t)t->node_count, sizeof *t->nodes);
    /* Arrays of handles (pointers): sizeof a pointer is meant. */
    // NOLINTNEXTLINE(bugprone-sizeof-expression)
    t->node_cpus = calloc((size_t)t->node_count, sizeof *t->node_cpus);
    t->distances = calloc((size_t)t->node_count * (size_t)t->node_count, sizeof *t->distances);
    if (t->nodes == NULL || t->node_cpus == NULL || t->distances == NULL) {
        snprintf(err, errlen, "out of memory describing %d NUMA nodes", t->node_count);
        return -1;
    }
    /* Logical order is depth-first (a memory-only node attached at the machine level comes
     * first); tables and matrices read best in Linux node id order. */
    // NOLINTNEXTLINE(bugprone-sizeof-expression)
    hwloc_obj_t *objs = calloc((size_t)t->node_count, sizeof *objs);
    if (objs == NULL) {
        snprintf(err, errlen, "out of memory describing %d NUMA nodes", t->node_count);
        return -1;
    }
    for (int i = 0; i < t->node_count; i++)
        objs[i] = hwloc_get_obj_by_type(t->hw, HWLOC_OBJ_NUMANODE, (unsigned)i);
    // NOLINTNEXTLINE(bugprone-sizeof-expression)
    qsort(objs, (size_t)t->node_count, sizeof *objs, by_os_index);
    for (int i = 0; i < t->node_count; i++) {
        hwloc_obj_t obj = objs[i];
        struct nprb_node_info *n = &t->nodes[i];
        if (obj->os_index >= NPRB_MAX_NODES) {
            snprintf(err, errlen, "NUMA node id %u is above the supported %d", obj->os_index,
                     NPRB_MAX_NODES - 1);
            free(objs);
            return -1;
        }
        t->node_cpus[i] = own_cpus(t, obj);
        n->os_index = obj->os_index;
        n->memory_bytes = obj->attr->numanode.local_memory;
        n->cpu_count = hwloc_bitmap_weight(t->node_cpus[i]);
        if (n->cpu_count < 0)
            n->cpu_count = 0;
        n->usable_cores = count_usable_cores(t->hw, t->node_cpus[i], t->usable);
        n->bound_cores = n->usable_cores;
        n->package = package_of(t->hw, t->node_cpus[i]);
        hwloc_bitmap_list_snprintf(n->cpus, sizeof n->cpus, t->node_cpus[i]);
        n->mem_allowed =
            hwloc_bitmap_isset(hwloc_topology_get_allowed_nodeset(t->hw), obj->os_index);
        n->allowed_pus = allowed_weight(t->hw, t->node_cpus[i]);
        n->cpus_allowed = n->cpu_count == 0 || n->allowed_pus > 0;
    }
    read_distances(t);
    read_hmat(t, objs);
    free(objs);
    summarise(t);
    return 0;
}

static int create_with(struct nprb_topo **out, const char *xml, const char *synthetic, char *err,
                       size_t errlen)
{
    struct nprb_topo *t = calloc(1, sizeof *t);
    if (t == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    /* hwloc before 2.11 hides an NVIDIA GPU's memory node (Grace Hopper's HBM) unless asked;
     * it is memory the CPUs reach, a CPU-less node to measure like any other. A user's own
     * setting stands. */
    setenv("HWLOC_KEEP_NVIDIA_GPU_NUMA_NODES", "1", 0);
    if (hwloc_topology_init(&t->hw) != 0) {
        snprintf(err, errlen, "hwloc_topology_init failed: %s", strerror(errno));
        free(t);
        return -1;
    }
    if (xml != NULL && hwloc_topology_set_xml(t->hw, xml) != 0) {
        snprintf(err, errlen, "cannot read hwloc XML %s: %s", xml, strerror(errno));
        goto fail;
    }
    if (synthetic != NULL && hwloc_topology_set_synthetic(t->hw, synthetic) != 0) {
        snprintf(err, errlen, "bad synthetic topology '%s'", synthetic);
        goto fail;
    }
    /* Keep what the job's cgroup hides: a Slurm job confined to one socket still describes the
     * whole machine, and lists the other nodes as not allowed rather than not there. An XML
     * topology keeps the allowed sets it was saved with, so a confined host's shape reads back
     * the same way. */
    if (hwloc_topology_set_flags(t->hw, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED) != 0) {
        snprintf(err, errlen, "hwloc cannot include disallowed resources: %s", strerror(errno));
        goto fail;
    }
    if (fill(t, err, errlen) != 0)
        goto fail;
    *out = t;
    return 0;
fail:
    nprb_topo_destroy(t);
    return -1;
}

int nprb_topo_create(struct nprb_topo **topo, const char *xml_path, char *err, size_t errlen)
{
    return create_with(topo, xml_path, NULL, err, errlen);
}

int nprb_topo_create_synthetic(struct nprb_topo **topo, const char *description, char *err,
                               size_t errlen)
{
    return create_with(topo, NULL, description, err, errlen);
}

void nprb_topo_destroy(struct nprb_topo *t)
{
    if (t == NULL)
        return;
    for (int i = 0; t->node_cpus != NULL && i < t->node_count; i++)
        hwloc_bitmap_free(t->node_cpus[i]);
    free(t->node_cpus);
    free(t->nodes);
    free(t->distances);
    free(t->hmat_latency_ns);
    free(t->hmat_bandwidth_mibs);
    hwloc_bitmap_free(t->usable);
    hwloc_bitmap_free(t->bound);
    hwloc_topology_destroy(t->hw);
    free(t);
}

int nprb_topo_widen(struct nprb_topo *t, char *err, size_t errlen)
{
    hwloc_const_bitmap_t allowed = hwloc_topology_get_allowed_cpuset(t->hw);
    /* The whole process, every thread it has: MPI's progress threads too. OpenMP threads are
     * started later and pin themselves (place.c), so nothing else needs telling. */
    if (t->this_system && hwloc_set_cpubind(t->hw, allowed, HWLOC_CPUBIND_PROCESS) != 0) {
        char list[128];
        hwloc_bitmap_list_snprintf(list, sizeof list, allowed);
        snprintf(err, errlen, "cannot bind this rank to CPUs %s: %s", list, strerror(errno));
        return -1;
    }
    hwloc_bitmap_copy(t->usable, allowed);
    for (int i = 0; i < t->node_count; i++)
        t->nodes[i].usable_cores = count_usable_cores(t->hw, t->node_cpus[i], t->usable);
    hwloc_bitmap_list_snprintf(t->summary.usable_cpus, sizeof t->summary.usable_cpus, t->usable);
    t->summary.usable_pus = hwloc_bitmap_weight(t->usable);
    t->widened = true;
    return 0;
}

void nprb_topo_restore_binding(struct nprb_topo *t)
{
    if (t != NULL && t->widened && t->this_system)
        hwloc_set_cpubind(t->hw, t->bound, HWLOC_CPUBIND_PROCESS);
}

hwloc_topology_t nprb_topo_hwloc(const struct nprb_topo *t)
{
    return t->hw;
}

int nprb_topo_node_count(const struct nprb_topo *t)
{
    return t->node_count;
}

const struct nprb_node_info *nprb_topo_node(const struct nprb_topo *t, int index)
{
    return index >= 0 && index < t->node_count ? &t->nodes[index] : NULL;
}

int nprb_topo_node_index(const struct nprb_topo *t, unsigned os_index)
{
    for (int i = 0; i < t->node_count; i++)
        if (t->nodes[i].os_index == os_index)
            return i;
    return -1;
}

int nprb_topo_node_pus(const struct nprb_topo *t, int index, unsigned *pus, int max)
{
    if (index < 0 || index >= t->node_count)
        return 0;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    int n = 0;
    hwloc_obj_t core = NULL;
    while (n < max && (core = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_CORE, core)) != NULL) {
        hwloc_bitmap_and(set, core->cpuset, t->node_cpus[index]);
        hwloc_bitmap_and(set, set, t->usable);
        int pu = hwloc_bitmap_first(set);
        if (pu >= 0)
            pus[n++] = (unsigned)pu;
    }
    hwloc_bitmap_free(set);
    return n;
}

hwloc_const_bitmap_t nprb_topo_usable(const struct nprb_topo *t)
{
    return t->usable;
}

int nprb_topo_pu_node(const struct nprb_topo *t, unsigned pu)
{
    for (int i = 0; i < t->node_count; i++)
        if (hwloc_bitmap_isset(t->node_cpus[i], pu))
            return i;
    /* A topology read from XML on another machine keeps that machine's node cpulists only in
     * hwloc's objects. */
    for (int i = 0; i < t->node_count; i++) {
        hwloc_obj_t node = hwloc_get_numanode_obj_by_os_index(t->hw, t->nodes[i].os_index);
        if (node != NULL && hwloc_bitmap_isset(node->cpuset, pu))
            return i;
    }
    return -1;
}

enum nprb_pair_class nprb_topo_pair_class(const struct nprb_topo *t, int from, int to)
{
    if (from == to)
        return NPRB_PAIR_LOCAL;
    if (to < 0 || to >= t->node_count || from < 0 || from >= t->node_count)
        return NPRB_PAIR_UNKNOWN;
    if (t->nodes[to].cpu_count == 0)
        return NPRB_PAIR_MEMORY_ONLY;
    if (t->nodes[from].package >= 0 && t->nodes[from].package == t->nodes[to].package)
        return NPRB_PAIR_SAME_PACKAGE;
    return NPRB_PAIR_CROSS_PACKAGE;
}

unsigned nprb_topo_distance(const struct nprb_topo *t, int from, int to)
{
    if (from < 0 || to < 0 || from >= t->node_count || to >= t->node_count)
        return 0;
    return t->distances[from * t->node_count + to];
}

void nprb_topo_hmat(const struct nprb_topo *t, int from, int to, uint64_t *latency_ns,
                    uint64_t *bandwidth_mibs)
{
    *latency_ns = *bandwidth_mibs = 0;
    if (from < 0 || to < 0 || from >= t->node_count || to >= t->node_count ||
        t->hmat_latency_ns == NULL || t->hmat_bandwidth_mibs == NULL)
        return;
    *latency_ns = t->hmat_latency_ns[from * t->node_count + to];
    *bandwidth_mibs = t->hmat_bandwidth_mibs[from * t->node_count + to];
}

const struct nprb_topo_summary *nprb_topo_summary(const struct nprb_topo *t)
{
    return &t->summary;
}

bool nprb_topo_is_this_system(const struct nprb_topo *t)
{
    return t->this_system;
}

/* The variables that make hwloc describe another machine, as "NAME=value; ..." (empty if none). */
static void hwloc_overrides(char *buf, size_t len)
{
    static const char *const vars[] = {"HWLOC_XMLFILE", "HWLOC_SYNTHETIC", "HWLOC_FSROOT",
                                       "HWLOC_COMPONENTS", "HWLOC_THISSYSTEM"};
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof vars / sizeof vars[0] && used < len; i++) {
        const char *v = getenv(vars[i]);
        if (v != NULL) {
            int n = snprintf(buf + used, len - used, "%s%s=%.80s", used ? ", " : "", vars[i], v);
            used += n > 0 ? (size_t)n : 0;
        }
    }
}

static bool sysfs_has(const char *what, unsigned index)
{
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/%s%u", what, index);
    return access(path, F_OK) == 0;
}

static bool sysfs_node_has_memory(unsigned node)
{
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/node/node%u/meminfo", node);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return false;
    char line[160];
    unsigned long long kib = 0;
    while (fgets(line, sizeof line, f) != NULL &&
           sscanf(line, "Node %*u MemTotal: %llu", &kib) != 1)
        continue;
    fclose(f);
    return kib > 0;
}

/* Something this machine lacks that the topology has, or the reverse, in @p why. */
static bool differs_from_here(const struct nprb_topo *t, char *why, size_t len)
{
    cpu_set_t mask;
    hwloc_const_bitmap_t pus = hwloc_topology_get_complete_cpuset(t->hw);
    if (sched_getaffinity(0, sizeof mask, &mask) == 0) {
        for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
            if (CPU_ISSET(cpu, &mask) && !hwloc_bitmap_isset(pus, (unsigned)cpu)) {
                snprintf(why, len, "CPU %d, where this process may run, is not in it", cpu);
                return true;
            }
        }
    }
    bool sysfs = access("/sys/devices/system/cpu/cpu0", F_OK) == 0;
    int pu;
    hwloc_bitmap_foreach_begin(pu, pus)
    {
        if (sysfs && !sysfs_has("cpu/cpu", (unsigned)pu)) {
            snprintf(why, len, "it has CPU %d, which this machine has not", pu);
            return true;
        }
    }
    hwloc_bitmap_foreach_end();
    bool node_sysfs = access("/sys/devices/system/node", F_OK) == 0;
    for (int i = 0; node_sysfs && i < t->node_count; i++) {
        if (!sysfs_has("node/node", t->nodes[i].os_index)) {
            snprintf(why, len, "it has NUMA node %u, which this machine has not",
                     t->nodes[i].os_index);
            return true;
        }
    }
    /* HWLOC_COMPONENTS=-linux leaves hwloc a bare machine: no nodes' memory, no cores. (A node
     * without memory may be left out by hwloc, so only nodes with memory are looked for.) */
    for (unsigned node = 0; node_sysfs && node < NPRB_MAX_NODES; node++) {
        if (sysfs_node_has_memory(node) && nprb_topo_node_index(t, node) < 0) {
            snprintf(why, len, "this machine's NUMA node %u is not in it", node);
            return true;
        }
    }
    if (t->summary.memory_bytes == 0 || t->summary.cores == 0) {
        snprintf(why, len, "it has %s", t->summary.cores == 0 ? "no cores" : "no memory");
        return true;
    }
    return false;
}

int nprb_topo_check_here(const struct nprb_topo *t, char *err, size_t errlen)
{
    char vars[256], why[128] = "";
    if (t->this_system && !differs_from_here(t, why, sizeof why))
        return 0;
    hwloc_overrides(vars, sizeof vars);
    snprintf(err, errlen,
             "hwloc's topology is not this machine's%s%s (%s): numaprobe would pin threads to CPUs "
             "and bind memory to nodes that are not here; unset %s to measure (--dry-run plans "
             "with it)",
             why[0] ? ": " : "", why, vars[0] ? vars : "no HWLOC_* variable set",
             vars[0] ? "it" : "what points hwloc elsewhere");
    return -1;
}

void nprb_topo_print_version(FILE *out)
{
    unsigned api = hwloc_get_api_version();
    fprintf(out, "hwloc:    %s (API %u.%u at run time)\n", NPRB_BUILD_HWLOC, api >> 16,
            (api >> 8) & 0xffu);
}
