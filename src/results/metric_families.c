/* SPDX-License-Identifier: BSD-3-Clause */
/* The OpenMetrics families of a host's own file (contract.h): the figures and facts one host
 * knows alone. The fleet's verdicts (outlier, degraded, config drift, drift) need every host and
 * are the report's alone (numaprobe-report openmetrics). The help texts are the analysis's word
 * for word, its noise limit (NPRB_NOISY_PCT) written out. */
#include "results/contract.h"

static const struct nprb_metric_family families[NPRB_N_METRIC_FAMILIES] = {
    [NPRB_METRIC_LATENCY] = {"numaprobe_latency_seconds", "gauge", "seconds",
                             "Idle latency of a dependent load from CPUs of cpu_node to memory "
                             "bound to mem_node (median over samples)"},
    [NPRB_METRIC_LATENCY_UNCERTAINTY] = {"numaprobe_latency_uncertainty_ratio", "gauge", "ratio",
                                         "Relative uncertainty of numaprobe_latency_seconds with "
                                         "the same labels (0.03 is 3%; above 0.25 the figure is "
                                         "noisy: shown, not judged)"},
    [NPRB_METRIC_BANDWIDTH] = {"numaprobe_bandwidth_bytes_per_second", "gauge", "bytes_per_second",
                               "Bandwidth of all cores of cpu_node streaming memory bound to "
                               "mem_node (best repetition)"},
    [NPRB_METRIC_BANDWIDTH_UNCERTAINTY] = {"numaprobe_bandwidth_uncertainty_ratio", "gauge",
                                           "ratio",
                                           "Relative uncertainty of "
                                           "numaprobe_bandwidth_bytes_per_second with the same "
                                           "labels (0.03 is 3%; above 0.25 the figure is noisy: "
                                           "shown, not judged)"},
    [NPRB_METRIC_HOST_OK] = {"numaprobe_host_ok", "gauge", NULL,
                             "1 when the host's run ended ok, else 0"},
    [NPRB_METRIC_RUN_START] = {"numaprobe_run_start_timestamp_seconds", "gauge", "seconds",
                               "Start of the run the host's figures come from, seconds since "
                               "the epoch"},
    [NPRB_METRIC_HOST_INFO] = {"numaprobe_host_info", "gauge", NULL,
                               "The host's node type, hardware fingerprint, OS kernel and run "
                               "(value always 1)"},
    [NPRB_METRIC_HOST_NOISY_FIGURES] = {"numaprobe_host_noisy_figures", "gauge", NULL,
                                        "Headline figures a verdict judges (the matrices' "
                                        "metrics) whose spread is above 25% on the host (shown, "
                                        "not judged)"},
    [NPRB_METRIC_NOISY] = {"numaprobe_noisy", "gauge", NULL,
                           "1 for each headline metric a verdict judges whose figure is too noisy "
                           "to judge on this host"},
    [NPRB_METRIC_HOST_NOT_RESTORED] = {"numaprobe_host_not_restored", "gauge", NULL,
                                       "1 when the host's run found kernel.numa_balancing left "
                                       "changed by a killed numaprobe run and could not put it "
                                       "back, or could not tell (numaprobe restore, as root, "
                                       "puts it back), else 0"},
};

const struct nprb_metric_family *nprb_metric_family(enum nprb_metric_family_id id)
{
    return &families[id];
}
