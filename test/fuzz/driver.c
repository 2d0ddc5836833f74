/*
 * driver.c - runs a fuzz target without libFuzzer: every file of the corpus directory given on
 * the command line, then a fixed number of deterministic mutations of each (byte flips,
 * truncations, insertions), so CTest exercises the parser on malformed input on every run.
 * A crash, hang or sanitizer report fails the test; the target itself never "fails".
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int run_file(const char *path, unsigned mutations)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (n < 0 || n > (16l << 20)) {
        fclose(f);
        return 0;
    }
    uint8_t *buf = malloc((size_t)n + 64);
    size_t got = fread(buf, 1, (size_t)n, f);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, got);
    uint8_t *mut = malloc(got + 64);
    for (unsigned i = 0; i < mutations; i++) {
        size_t len = got;
        memcpy(mut, buf, got);
        switch (rng() % 4) {
        case 0: /* flip a few bytes */
            for (unsigned k = 0; k < 1 + rng() % 8 && len; k++) mut[rng() % len] ^= (uint8_t)rng();
            break;
        case 1: /* truncate */ len = len ? rng() % len : 0; break;
        case 2: /* overwrite a 32-bit field with an extreme value */
            if (len >= 4) {
                size_t at = rng() % (len - 3);
                uint32_t v = (rng() & 1) ? 0xFFFFFFFFu : (uint32_t)rng();
                memcpy(mut + at, &v, 4);
            }
            break;
        default: /* insert random bytes */
            for (unsigned k = 0; k < 1 + rng() % 16; k++) mut[len++] = (uint8_t)rng();
            break;
        }
        LLVMFuzzerTestOneInput(mut, len);
    }
    free(mut);
    free(buf);
    return 1;
}

int main(int argc, char **argv)
{
    unsigned files = 0, mutations = 200;
    const char *env = getenv("DSGX_FUZZ_MUTATIONS");
    if (env) mutations = (unsigned)strtoul(env, NULL, 10);
    for (int i = 1; i < argc; i++) {
        DIR *d = opendir(argv[i]);
        if (!d) {
            files += (unsigned)run_file(argv[i], mutations);
            continue;
        }
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            files += (unsigned)run_file(path, mutations);
        }
        closedir(d);
    }
    /* plus pure noise of assorted sizes */
    uint8_t noise[4096];
    for (unsigned i = 0; i < 200; i++) {
        size_t len = rng() % sizeof noise;
        for (size_t k = 0; k < len; k++) noise[k] = (uint8_t)rng();
        LLVMFuzzerTestOneInput(noise, len);
    }
    printf("fuzz replay: %u corpus files, %u mutations each, 200 noise inputs: no crash\n", files,
           mutations);
    return 0;
}
