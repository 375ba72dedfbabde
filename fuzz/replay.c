/* SPDX-License-Identifier: BSD-3-Clause */
/* Runs a libFuzzer target over files without libFuzzer: every file named, or every file in a
 * directory named, is one input. Lets the seed corpus run as a plain test in every build
 * (including the ASan+UBSan one, with gcc). Exit 0 when every input was run. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return -1;
    }
    uint8_t *buf = malloc(1 << 20);
    size_t n = buf != NULL ? fread(buf, 1, 1 << 20, f) : 0;
    fclose(f);
    if (buf == NULL)
        return -1;
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int inputs = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            if (run_file(argv[i]) != 0)
                return 1;
            inputs++;
            continue;
        }
        DIR *dir = opendir(argv[i]);
        if (dir == NULL) {
            perror(argv[i]);
            return 1;
        }
        for (struct dirent *e; (e = readdir(dir)) != NULL;) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            if (run_file(path) != 0) {
                closedir(dir);
                return 1;
            }
            inputs++;
        }
        closedir(dir);
    }
    printf("%d input(s) run\n", inputs);
    return inputs > 0 ? 0 : 1;
}
