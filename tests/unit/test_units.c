/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "util/hash.h"
#include "util/list.h"
#include "util/units.h"
#include "util/utf8.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* The items of @p list, each in brackets: "[a][][b]". */
static const char *items(const char *list)
{
    static char out[128];
    const char *item;
    size_t n, used = 0;
    out[0] = '\0';
    for (const char *cursor = list; nprb_list_next(&cursor, &item, &n);)
        used += (size_t)snprintf(out + used, sizeof out - used, "[%.*s]", (int)n, item);
    return out;
}

static int size_is(const char *text, uint64_t want)
{
    uint64_t got = 0;
    return nprb_parse_size(text, &got) == 0 && got == want;
}

static int size_rejected(const char *text, int err)
{
    uint64_t got = 12345;
    errno = 0;
    return nprb_parse_size(text, &got) == -1 && errno == err && got == 12345;
}

/* Whether @p text escapes to @p want: each expected value is what Python's
 * bytes.decode("utf-8", "backslashreplace") gives, the analysis's decoding. */
static int escapes_to(const char *text, const char *want)
{
    char *got = nprb_utf8_escaped(text);
    int same = got != NULL && strcmp(got, want) == 0;
    if (!same)
        fprintf(stderr, "escaped: '%s', expected '%s'\n", got ? got : "(null)", want);
    free(got);
    return same;
}

int main(void)
{
    /* FNV-1a's published 64-bit test vectors: the basis is the hash of nothing. */
    CHECK(nprb_fnv1a_text("") == UINT64_C(0xcbf29ce484222325));
    CHECK(nprb_fnv1a_text("a") == UINT64_C(0xaf63dc4c8601ec8c));
    CHECK(nprb_fnv1a_text("foobar") == UINT64_C(0x85944171f73967e8));
    CHECK(strcmp(items("4KiB, 1MiB ,2G"), "[4KiB][1MiB][2G]") == 0);
    CHECK(strcmp(items("a,,b,"), "[a][][b][]") == 0);
    CHECK(strcmp(items(""), "[]") == 0);
    CHECK(strcmp(items(" x "), "[x]") == 0);
    CHECK(nprb_list_has("0,12,all", "12") && nprb_list_has("0,12,all", "all"));
    CHECK(!nprb_list_has("0,12", "1") && !nprb_list_has("", "0"));
    CHECK(nprb_fnv1a(nprb_fnv1a(NPRB_FNV1A_BASIS, "foo", 3), "bar", 3) ==
          nprb_fnv1a_text("foobar"));

    CHECK(size_is("4096", 4096));
    CHECK(size_is("64k", 64 << 10));
    CHECK(size_is("64K", 64 << 10));
    CHECK(size_is("64KiB", 64 << 10));
    CHECK(size_is("512MiB", 512ULL << 20));
    CHECK(size_is("512 MiB", 512ULL << 20));
    CHECK(size_is(" 2G ", 2ULL << 30));
    CHECK(size_is("2gb", 2ULL << 30));
    CHECK(size_is("1TiB", 1ULL << 40));
    CHECK(size_is("0", 0));
    CHECK(size_is("100B", 100));

    CHECK(size_rejected("", EINVAL));
    CHECK(size_rejected("abc", EINVAL));
    CHECK(size_rejected("-1G", EINVAL));
    CHECK(size_rejected("1.5G", EINVAL));
    CHECK(size_rejected("12X", EINVAL));
    CHECK(size_rejected("12 GiBs", EINVAL));
    CHECK(size_rejected("16777216T", ERANGE));
    CHECK(size_rejected("99999999999999999999999", ERANGE));

    double s = 0;
    CHECK(nprb_parse_duration("10ms", &s) == 0 && fabs(s - 0.010) < 1e-12);
    CHECK(nprb_parse_duration("2", &s) == 0 && s == 2.0);
    CHECK(nprb_parse_duration("1.5s", &s) == 0 && s == 1.5);
    CHECK(nprb_parse_duration("250us", &s) == 0 && fabs(s - 250e-6) < 1e-15);
    CHECK(nprb_parse_duration("1min", &s) == 0 && s == 60.0);
    CHECK(nprb_parse_duration("2h", &s) == 0 && s == 7200.0);
    {
        char range[80];
        nprb_format_duration_range(130, 250, range, sizeof range);
        CHECK(strcmp(range, "about 2 min 10 s to 4 min 10 s") == 0);
        nprb_format_duration_range(0.2, 0.4, range, sizeof range);
        CHECK(strcmp(range, "under 1 s") == 0);
    }
    CHECK(nprb_parse_duration("ms", &s) == -1);
    CHECK(nprb_parse_duration("10 parsecs", &s) == -1);
    CHECK(nprb_parse_duration("-1s", &s) == -1);
    CHECK(nprb_parse_duration(".5", &s) == 0 && s == 0.5);
    /* Durations follow the rules of sizes and whole numbers: decimal digits only. */
    CHECK(nprb_parse_duration("0x10", &s) == -1);
    CHECK(nprb_parse_duration("0x1p3s", &s) == -1);
    CHECK(nprb_parse_duration("1e3", &s) == -1);
    CHECK(nprb_parse_duration("1e-320", &s) == -1);
    CHECK(nprb_parse_duration("+1s", &s) == -1);
    CHECK(nprb_parse_duration("1_000ms", &s) == -1);
    CHECK(nprb_parse_duration("inf", &s) == -1);
    CHECK(nprb_parse_duration("nan", &s) == -1);
    CHECK(nprb_parse_duration("infs", &s) == -1);
    CHECK(nprb_parse_duration("5.s", &s) == -1);
    CHECK(nprb_parse_duration("1.5.2s", &s) == -1);
    CHECK(nprb_parse_duration("1 ms", &s) == 0 && fabs(s - 1e-3) < 1e-15);
    CHECK(size_rejected("0x10", EINVAL));
    CHECK(size_rejected("+1G", EINVAL));
    CHECK(size_rejected("1e3", EINVAL));
    CHECK(size_rejected("1_024", EINVAL));
    CHECK(size_rejected("inf", EINVAL));

    int64_t whole = 0;
    CHECK(nprb_parse_integer("31", &whole) == 0 && whole == 31);
    CHECK(nprb_parse_integer(" 7 ", &whole) == 0 && whole == 7);
    CHECK(nprb_parse_integer("-2", &whole) == 0 && whole == -2);
    CHECK(nprb_parse_integer("+5", &whole) == -1 && errno == EINVAL);
    CHECK(nprb_parse_integer("1e3", &whole) == -1 && errno == EINVAL);
    CHECK(nprb_parse_integer("0x10", &whole) == -1 && errno == EINVAL);
    CHECK(nprb_parse_integer("1_000", &whole) == -1 && errno == EINVAL);
    CHECK(nprb_parse_integer("1.0", &whole) == -1 && errno == EINVAL);
    CHECK(nprb_parse_integer("-", &whole) == -1 && errno == EINVAL);
    CHECK(nprb_parse_integer("", &whole) == -1 && errno == EINVAL);
    CHECK(nprb_parse_integer("99999999999999999999", &whole) == -1 && errno == ERANGE);

    char buf[32];
    nprb_format_size(1ULL << 30, buf, sizeof buf);
    CHECK(strcmp(buf, "1GiB") == 0);
    nprb_format_size(1536ULL << 10, buf, sizeof buf);
    CHECK(strcmp(buf, "1536KiB") == 0);
    nprb_format_size(100, buf, sizeof buf);
    CHECK(strcmp(buf, "100B") == 0);
    /* Text that is not UTF-8, escaped byte by byte as the analysis decodes it. */
    CHECK(nprb_utf8_valid("caf\xc3\xa9") && nprb_utf8_valid(""));
    CHECK(!nprb_utf8_valid("caf\xe9"));
    CHECK(escapes_to("caf\xe9", "caf\\xe9"));
    CHECK(escapes_to("caf\xc3\xa9", "caf\xc3\xa9"));
    CHECK(escapes_to("\xe2\x82\x41", "\\xe2\\x82A"));              /* cut short, then an ASCII A */
    CHECK(escapes_to("\xed\xa0\x80", "\\xed\\xa0\\x80"));          /* a surrogate */
    CHECK(escapes_to("\xc0\xaf", "\\xc0\\xaf"));                   /* overlong */
    CHECK(escapes_to("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80")); /* past U+10FFFF */
    CHECK(escapes_to("\xf0\x9f\x98\x80\xff", "\xf0\x9f\x98\x80\\xff"));
    CHECK(escapes_to("\x80\xbf", "\\x80\\xbf"));
    return CHECK_DONE();
}
