/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file sole_node.h
 * Hosts where the NUMA policy calls (mbind, get_mempolicy, move_pages) answer ENOSYS: a kernel
 * built without NUMA support, or QEMU's user-mode emulation, which does not pass those calls on.
 * With one memory node every page is on it, so a policy has nothing to choose and a page's node
 * is known without asking; with several, nothing can be placed or verified.
 */
#ifndef NPRB_SOLE_NODE_H
#define NPRB_SOLE_NODE_H

/**
 * The os index of the machine's one memory node when the NUMA policy calls are missing, else -1
 * (they work, or there are several nodes and so placement cannot be had). Asked once; safe from
 * any thread.
 */
int nprb_sole_node(void);

#endif
