/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file cpu_name.h
 * A readable CPU model for hosts whose hwloc gives none: Arm64 Linux publishes no model name, only
 * the MIDR's implementer and part numbers, which this names ("ARM Neoverse-V2", "Ampere-1").
 */
#ifndef NPRB_CPU_NAME_H
#define NPRB_CPU_NAME_H

#include <hwloc.h>
#include <stddef.h>

/**
 * Writes the name of MIDR implementer @p implementer and part @p part into @p buf: the core's
 * name where the table knows it, else the implementer's name (or its number) and the part
 * number in hex, so two different unknown parts never share a name. Returns 0 when the table
 * knew the part, -1 otherwise.
 */
int nprb_cpu_name_from_midr(unsigned implementer, unsigned part, char *buf, size_t len);

/**
 * Reads the implementer and part numbers from the MIDR_EL1 register Linux publishes for Arm64
 * CPUs under @p sysfs_cpu (e.g. "/sys/devices/system/cpu/cpu0"). Returns 0, or -1 where there is
 * no such file (x86, older kernels) or it holds no number.
 */
int nprb_cpu_midr_read(const char *sysfs_cpu, unsigned *implementer, unsigned *part);

/**
 * The CPU model of @p hw. When @p hw describes this machine (not a topology read from XML), the
 * MIDR's name where the CPU has one (Arm64: @p sysfs_cpu0/regs/identification/midr_el1, else
 * the register itself); then hwloc's CPUModel (x86); then the MIDR name from hwloc's
 * CPUImplementer and CPUPartNumber (an Arm64 host's XML); else "unknown". @p sysfs_cpu0 is
 * "/sys/devices/system/cpu/cpu0" outside tests.
 */
void nprb_cpu_model(hwloc_topology_t hw, const char *sysfs_cpu0, char *buf, size_t len);

#endif
