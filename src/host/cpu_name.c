/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/cpu_name.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__aarch64__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

/* The parts a fleet meets: server cores first (Grace is Neoverse-V2, Graviton 2/3/4 are
 * Neoverse-N1/V1/V2, Ampere Altra is Neoverse-N1), then the common Cortex cores of build and
 * test machines. The numbers are those the kernel's cputype.h and the vendors' manuals give. */
struct midr_part {
    unsigned implementer, part;
    const char *name;
};

static const struct midr_part parts[] = {
    {0x41, 0xd0c, "ARM Neoverse-N1"},  {0x41, 0xd40, "ARM Neoverse-V1"},
    {0x41, 0xd49, "ARM Neoverse-N2"},  {0x41, 0xd4f, "ARM Neoverse-V2"},
    {0x41, 0xd84, "ARM Neoverse-V3"},  {0x41, 0xd8e, "ARM Neoverse-N3"},
    {0x41, 0xd4a, "ARM Neoverse-E1"},  {0x41, 0xd03, "ARM Cortex-A53"},
    {0x41, 0xd05, "ARM Cortex-A55"},   {0x41, 0xd07, "ARM Cortex-A57"},
    {0x41, 0xd08, "ARM Cortex-A72"},   {0x41, 0xd0b, "ARM Cortex-A76"},
    {0x41, 0xd41, "ARM Cortex-A78"},   {0x41, 0xd44, "ARM Cortex-X1"},
    {0x46, 0x001, "Fujitsu A64FX"},    {0x48, 0xd01, "HiSilicon Kunpeng-920"},
    {0x43, 0x0af, "Cavium ThunderX2"}, {0xc0, 0xac3, "Ampere-1"},
    {0xc0, 0xac4, "Ampere-1a"},        {0x4e, 0x004, "NVIDIA Carmel"},
};

struct midr_implementer {
    unsigned id;
    const char *name;
};

static const struct midr_implementer implementers[] = {
    {0x41, "ARM"},    {0x42, "Broadcom"}, {0x43, "Cavium"}, {0x46, "Fujitsu"}, {0x48, "HiSilicon"},
    {0x4e, "NVIDIA"}, {0x51, "Qualcomm"}, {0x61, "Apple"},  {0xc0, "Ampere"},
};

int nprb_cpu_name_from_midr(unsigned implementer, unsigned part, char *buf, size_t len)
{
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (parts[i].implementer == implementer && parts[i].part == part) {
            snprintf(buf, len, "%s", parts[i].name);
            return 0;
        }
    for (size_t i = 0; i < sizeof implementers / sizeof implementers[0]; i++)
        if (implementers[i].id == implementer) {
            snprintf(buf, len, "%s part 0x%03x", implementers[i].name, part);
            return -1;
        }
    snprintf(buf, len, "Arm implementer 0x%02x part 0x%03x", implementer, part);
    return -1;
}

/* hwloc's values are the cpuinfo text ("0x41", "0xd4f"); anything else is no value. */
static int parse_hex(const char *text, unsigned *value)
{
    if (text == NULL)
        return -1;
    char *end = NULL;
    unsigned long v = strtoul(text, &end, 16);
    if (end == text || *end != '\0' || v > 0xfff)
        return -1;
    *value = (unsigned)v;
    return 0;
}

/* hwloc puts cpuinfo's fields on the packages, or on the root object when every package has
 * the same; the first package is the one the summary describes. */
static const char *info_of(hwloc_topology_t hw, const char *name)
{
    hwloc_obj_t pkg = hwloc_get_obj_by_type(hw, HWLOC_OBJ_PACKAGE, 0);
    const char *value = pkg != NULL ? hwloc_obj_get_info_by_name(pkg, name) : NULL;
    return value != NULL ? value : hwloc_obj_get_info_by_name(hwloc_get_root_obj(hw), name);
}

int nprb_cpu_midr_read(const char *sysfs_cpu, unsigned *implementer, unsigned *part)
{
    char path[512];
    snprintf(path, sizeof path, "%s/regs/identification/midr_el1", sysfs_cpu);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    unsigned long long midr = 0;
    int got = fscanf(f, "%llx", &midr);
    fclose(f);
    if (got != 1)
        return -1;
    /* Implementer in bits 31:24, part number in bits 15:4. */
    *implementer = (unsigned)((midr >> 24) & 0xff);
    *part = (unsigned)((midr >> 4) & 0xfff);
    return 0;
}

#if defined(__aarch64__)
/* Linux lets user space read MIDR_EL1 (it emulates the access) where HWCAP_CPUID says so; so
 * does QEMU's user-mode emulation, which gives the emulated core's register. */
static int midr_from_register(unsigned *implementer, unsigned *part)
{
    if (!(getauxval(AT_HWCAP) & HWCAP_CPUID))
        return -1;
    uint64_t midr = 0;
    __asm__ volatile("mrs %0, midr_el1" : "=r"(midr));
    *implementer = (unsigned)((midr >> 24) & 0xff);
    *part = (unsigned)((midr >> 4) & 0xfff);
    return 0;
}
#else
static int midr_from_register(unsigned *implementer, unsigned *part)
{
    (void)implementer;
    (void)part;
    return -1;
}
#endif

/* On this machine the MIDR comes first: it is what the cores say they are, where hwloc reads
 * /proc/cpuinfo, which under user-mode emulation describes the build machine's x86 CPU. */
void nprb_cpu_model(hwloc_topology_t hw, const char *sysfs_cpu0, char *buf, size_t len)
{
    unsigned implementer = 0, part = 0;
    if (hwloc_topology_is_thissystem(hw) &&
        (nprb_cpu_midr_read(sysfs_cpu0, &implementer, &part) == 0 ||
         midr_from_register(&implementer, &part) == 0)) {
        nprb_cpu_name_from_midr(implementer, part, buf, len);
        return;
    }
    const char *model = info_of(hw, "CPUModel");
    if (model != NULL && model[0] != '\0') {
        snprintf(buf, len, "%s", model);
        return;
    }
    if (parse_hex(info_of(hw, "CPUImplementer"), &implementer) == 0 &&
        parse_hex(info_of(hw, "CPUPartNumber"), &part) == 0) {
        nprb_cpu_name_from_midr(implementer, part, buf, len);
        return;
    }
    snprintf(buf, len, "unknown");
}
