#include "check.h"
#include "kernels/stream.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    const struct nprb_kernel *read = nprb_kernel_find("read");
    CHECK(read != NULL);
    CHECK(read == nprb_kernel_get(NPRB_KERNEL_READ));
    CHECK(nprb_kernel_find("nonsense") == NULL);
    CHECK(read->program_bytes == 8 && read->bus_bytes == 8);

    /* Tiny sizes, including ones that are not a multiple of the unroll. */
    static const size_t sizes[] = {0, 1, 31, 32, 33, 1000, 4099};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i];
        double *a = malloc((n + 1) * sizeof *a);
        nprb_stream_init(a, NULL, NULL, n);
        CHECK(read->run(a, NULL, NULL, n) == read->expected(n));
        if (n > 0) {
            /* One stale element must break validation. */
            a[n / 2] = 0.0;
            CHECK(read->run(a, NULL, NULL, n) != read->expected(n));
        }
        free(a);
    }

    /* On 1 and 2 threads, each thread validating its own chunk. */
    size_t n = 1 << 16;
    double *a = malloc(n * sizeof *a);
    nprb_stream_init(a, NULL, NULL, n);
    for (int threads = 1; threads <= 2; threads++) {
        int bad = 0;
#pragma omp parallel num_threads(threads) reduction(+ : bad)
        {
            int t = omp_get_thread_num(), nt = omp_get_num_threads();
            size_t chunk = n / (size_t)nt;
            bad += read->run(a + (size_t)t * chunk, NULL, NULL, chunk) != read->expected(chunk);
        }
        CHECK(bad == 0);
    }
    free(a);

    const char *path = nprb_simd_path();
    CHECK(strcmp(path, "avx512f") == 0 || strcmp(path, "avx2") == 0 || strcmp(path, "sse2") == 0);
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        CHECK(strcmp(path, "avx512f") == 0);
    return CHECK_DONE();
}
