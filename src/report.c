#include "report.h"

#include <math.h>
#include <string.h>

void nprb_report_header(FILE *out)
{
    fprintf(out, "%-20s %4s %4s | %-26s | %-26s | %7s %s\n", "", "", "", "idle latency, ns",
            "read bandwidth, GB/s", "", "");
    fprintf(out, "%-20s %4s %4s | %8s %8s %8s | %8s %8s %8s | %7s %s\n", "host", "rank", "node",
            "median", "p99", "on-node", "best", "median", "threads", "on-node", "status");
}

static const struct nprb_bandwidth_row *bandwidth_for(const struct nprb_results *rows, int node)
{
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *b =
            (const struct nprb_bandwidth_row *)(bw->data + i * bw->row_bytes);
        if (strcmp(b->experiment, "bandwidth_matrix") == 0 && b->cpu_node == node &&
            b->mem_node == node)
            return b;
    }
    return NULL;
}

static void pct(char *buf, size_t len, double frac)
{
    if (isnan(frac))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.1f%%", 100 * frac);
}

static const char *worse_status(const char *a, const char *b)
{
    return strcmp(a, "ok") != 0 ? a : b;
}

void nprb_report_rank(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *lat = &rows->tables[NPRB_TABLE_LATENCY];
    const struct nprb_rows *hosts = &rows->tables[NPRB_TABLE_HOSTS];
    const struct nprb_host_row *host =
        hosts->count ? (const struct nprb_host_row *)hosts->data : NULL;
    if (host != NULL && strcmp(host->status, "ok") != 0)
        fprintf(out, "%-20.20s %4d      | host %s: %s\n", host->hostname, host->rank, host->status,
                host->error);
    for (size_t i = 0; i < lat->count; i++) {
        const struct nprb_latency_row *l =
            (const struct nprb_latency_row *)(lat->data + i * lat->row_bytes);
        if (strcmp(l->experiment, "latency_matrix") != 0)
            continue;
        const struct nprb_bandwidth_row *b =
            l->cpu_node == l->mem_node ? bandwidth_for(rows, l->cpu_node) : NULL;
        char node[16], lp[16], bp[16];
        if (l->cpu_node == l->mem_node)
            snprintf(node, sizeof node, "%d", l->cpu_node);
        else if (l->mem_node < 0)
            snprintf(node, sizeof node, "%d>il", l->cpu_node);
        else
            snprintf(node, sizeof node, "%d>%d", l->cpu_node, l->mem_node);
        pct(lp, sizeof lp, l->pages_on_target_frac);
        pct(bp, sizeof bp, b ? b->pages_on_target_frac : NAN);
        const char *status = b ? worse_status(l->status, b->status) : l->status;
        fprintf(out, "%-20.20s %4d %4s | %8.1f %8.1f %8s | %8.2f %8.2f %8d | %7s %s\n", l->hostname,
                l->rank, node, l->latency_ns_median, l->latency_ns_p99, lp, b ? b->gbs_best : NAN,
                b ? b->gbs_median : NAN, b ? b->threads : 0, bp, status);
        if (l->note[0] != '\0')
            fprintf(out, "%-20s %4s %4s   latency: %s\n", "", "", "", l->note);
        if (b != NULL && b->note[0] != '\0')
            fprintf(out, "%-20s %4s %4s   bandwidth: %s\n", "", "", "", b->note);
    }
}

void nprb_report_footer(FILE *out, const char *path, int hosts, int ranks, int failed_hosts)
{
    fprintf(out,
            "\nLatency: one thread chases a random cycle of 256-byte slots (random within 256 KiB\n"
            "  windows, as multichase does) through memory bound to its own node; ns per\n"
            "  dependent load over samples (median and 99th percentile).\n"
            "Bandwidth: one pinned thread per usable core reads its own chunk (read kernel);\n"
            "  GB/s = 1e9 bytes/s of bytes the program reads (STREAM's count; for read, bus bytes\n"
            "  are the same). on-node: share of the buffer's pages verified on the node\n"
            "  (move_pages); below 99%% the row is marked invalid. Node \"0>il\": CPUs of node 0,\n"
            "  memory interleaved over every node.\n");
    fprintf(out, "\n%d host(s), %d rank(s), %d host(s) failed. Results: %s\n", hosts, ranks,
            failed_hosts, path);
}
