/*
 * golden_report.c - the HTML page and the JUnit XML of a golden check (golden_report.h).
 *
 * The page is one static file: a summary with the counts (each in an element with an id, so a
 * test reads them from the DOM), then for every failing, XPASS and xfail frame a row with the
 * expected, actual and diff images side by side, then every scene with its time. No script:
 * it opens from the file system in any browser and in CI artefact viewers.
 *
 * JUnit XML as Jenkins, GitLab and GitHub reporters read it (the Ant junit task's format):
 * testsuites > testsuite (one per manifest directory) > testcase (one per frame), a <failure>
 * for FAIL and XPASS, <skipped> for a known deviation (xfail).
 */
#include "tools/golden_report.h"

#include <string.h>

static const char *const VERDICT[GOLDEN_NVERDICTS] = {"pass", "FAIL", "xfail", "XPASS"};

/* Length of the valid UTF-8 sequence at s (1..4), or 0. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    return n;
}

void golden_put_escaped(FILE *f, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            if (*p < 0x20 && *p != '\t' && *p != '\n') {
                fputc('?', f); /* not allowed in XML 1.0 */
            } else if (*p >= 0x80) {
                size_t n = utf8_len(p);
                if (n) {
                    fwrite(p, 1, n, f);
                    p += n - 1;
                } else {
                    fputc('?', f);
                }
            } else {
                fputc(*p, f);
            }
        }
    }
}

static void put_detail(FILE *f, const golden_frame_result *r)
{
    golden_put_escaped(f, r->why);
    if (r->compared && r->differing)
        fprintf(f, "; %u pixels differ in (%d,%d)-(%d,%d)", r->differing, r->x0, r->y0, r->x1,
                r->y1);
    else if (r->compared)
        fputs("; no pixel differs from the expected PNG", f);
}

/* ---- HTML ---- */

static const char STYLE[] =
    "body{font:14px/1.4 sans-serif;margin:1.5em;color:#222}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.5em}"
    "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;"
    "vertical-align:top;text-align:left}"
    "img{image-rendering:pixelated;display:block;background:#888}"
    ".pass{color:#17702b}.FAIL,.XPASS{color:#b00020;font-weight:bold}.xfail{color:#8a6100}"
    ".summary span{font-weight:bold}code{font-size:12px}";

static void html_frame_row(FILE *f, const golden_scene_result *s, const golden_frame_result *r)
{
    static const char *const what[3] = {"expected", "actual", "diff"};
    fprintf(f, "<tr class=\"frame-row\" data-verdict=\"%s\"><td><span class=\"%s\">%s</span> ",
            VERDICT[r->verdict], VERDICT[r->verdict], VERDICT[r->verdict]);
    golden_put_escaped(f, s->dir);
    fputs("/<b>", f);
    golden_put_escaped(f, s->name);
    fprintf(f, "</b> frame %03ld<br><code>expected %s<br>actual&nbsp;&nbsp; %s</code><br>",
            r->frame, *r->expected ? r->expected : "(none)", *r->actual ? r->actual : "(none)");
    put_detail(f, r);
    if (*r->xfail) {
        fputs("<br>xfail: ", f);
        golden_put_escaped(f, r->xfail);
    }
    fputs("</td>", f);
    for (int k = 0; k < 3; k++) {
        if (!*r->img[k]) {
            fprintf(f, "<td>no %s image</td>", what[k]);
            continue;
        }
        fputs("<td><img src=\"", f);
        golden_put_escaped(f, r->img[k]);
        fprintf(f, "\" width=\"256\" height=\"192\" alt=\"%s\" class=\"%s\"></td>", what[k],
                what[k]);
    }
    fputs("</tr>\n", f);
}

static void html_frames(FILE *f, const golden_scene_result *s, size_t n, bool xfail, unsigned count,
                        const char *title, const char *id)
{
    fprintf(f, "<h2 id=\"%s\">%s (%u)</h2>\n", id, title, count);
    if (!count) {
        fputs("<p>none</p>\n", f);
        return;
    }
    fputs("<table><tr><th>frame</th><th>expected</th><th>actual</th><th>diff (differing "
          "pixels in colour)</th></tr>\n",
          f);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < s[i].nframes; k++) {
            enum golden_verdict v = s[i].frames[k].verdict;
            if (xfail ? v == GOLDEN_XFAIL : (v == GOLDEN_FAIL || v == GOLDEN_XPASS))
                html_frame_row(f, &s[i], &s[i].frames[k]);
        }
    fputs("</table>\n", f);
}

int golden_write_html(const char *dir, const golden_scene_result *s, size_t n,
                      const golden_totals *t, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/index.html", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot create", path);
        return -1;
    }
    const unsigned *sc = t->scenes, *fr = t->frames;
    size_t nframes = 0;
    for (size_t i = 0; i < n; i++) nframes += s[i].nframes;
    fprintf(f,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            "<title>dsgx golden check: %u passed, %u failed</title>\n<style>%s</style>"
            "</head><body>\n<h1>dsgx golden check</h1>\n",
            sc[GOLDEN_PASS], sc[GOLDEN_FAIL] + sc[GOLDEN_XPASS], STYLE);
    fprintf(f,
            "<p class=\"summary\">Scenes: <span id=\"passed\">%u</span> passed, "
            "<span id=\"failed\">%u</span> failed, <span id=\"xfail\">%u</span> xfail, "
            "<span id=\"xpass\">%u</span> XPASS (counted as failed), "
            "<span id=\"scenes\">%zu</span> in all.<br>\n"
            "Frames: <span id=\"frames-passed\">%u</span> passed, "
            "<span id=\"frames-failed\">%u</span> failed, "
            "<span id=\"frames-xfail\">%u</span> xfail, "
            "<span id=\"frames-xpass\">%u</span> XPASS, <span id=\"frames\">%zu</span> in all."
            "<br>\nTime: <span id=\"seconds\">%.2f</span> s on %u worker thread%s",
            sc[GOLDEN_PASS], sc[GOLDEN_FAIL], sc[GOLDEN_XFAIL], sc[GOLDEN_XPASS], n,
            fr[GOLDEN_PASS], fr[GOLDEN_FAIL], fr[GOLDEN_XFAIL], fr[GOLDEN_XPASS], nframes,
            t->seconds, t->jobs, t->jobs == 1 ? "" : "s");
    if (t->nshards) fprintf(f, "; shard %u of %u", t->shard, t->nshards);
    fputs(".</p>\n", f);
    html_frames(f, s, n, false, fr[GOLDEN_FAIL] + fr[GOLDEN_XPASS], "Failing frames", "failing");
    html_frames(f, s, n, true, fr[GOLDEN_XFAIL], "Known deviations (xfail)", "known");
    fputs("<h2 id=\"all\">Every scene</h2>\n<details><summary>show</summary><table>"
          "<tr><th>verdict</th><th>scene</th><th>frames</th><th>seconds</th></tr>\n",
          f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "<tr><td class=\"%s\">%s</td><td>", VERDICT[s[i].verdict],
                VERDICT[s[i].verdict]);
        golden_put_escaped(f, s[i].dir);
        fputc('/', f);
        golden_put_escaped(f, s[i].name);
        fprintf(f, "</td><td>%zu</td><td>%.3f</td></tr>\n", s[i].nframes, s[i].seconds);
    }
    fputs("</table></details>\n</body></html>\n", f);
    bool ok = !ferror(f);
    ok = !fclose(f) && ok;
    if (!ok) snprintf(err, errlen, "%s: write error", path);
    return ok ? 0 : -1;
}

/* ---- JUnit XML ---- */

static void junit_suite(FILE *f, const golden_scene_result *s, size_t n, const char *dir)
{
    unsigned tests = 0, failures = 0, skipped = 0;
    double secs = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(s[i].dir, dir)) continue;
        secs += s[i].seconds;
        for (size_t k = 0; k < s[i].nframes; k++) {
            enum golden_verdict v = s[i].frames[k].verdict;
            tests++;
            failures += v == GOLDEN_FAIL || v == GOLDEN_XPASS;
            skipped += v == GOLDEN_XFAIL;
        }
    }
    fputs("  <testsuite name=\"", f);
    golden_put_escaped(f, dir);
    fprintf(f, "\" tests=\"%u\" failures=\"%u\" errors=\"0\" skipped=\"%u\" time=\"%.3f\">\n",
            tests, failures, skipped, secs);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(s[i].dir, dir)) continue;
        double per = s[i].nframes ? s[i].seconds / (double)s[i].nframes : 0;
        for (size_t k = 0; k < s[i].nframes; k++) {
            const golden_frame_result *r = &s[i].frames[k];
            fputs("    <testcase classname=\"", f);
            golden_put_escaped(f, dir);
            fputs("\" name=\"", f);
            golden_put_escaped(f, s[i].name);
            fprintf(f, ".frame%03ld\" time=\"%.3f\"", r->frame, per);
            if (r->verdict == GOLDEN_PASS) {
                fputs("/>\n", f);
                continue;
            }
            fputs(">\n      ", f);
            if (r->verdict == GOLDEN_XFAIL) {
                fputs("<skipped message=\"xfail: ", f);
                golden_put_escaped(f, r->xfail);
                fputs("\"/>\n", f);
            } else {
                fprintf(f, "<failure type=\"%s\" message=\"",
                        r->verdict == GOLDEN_XPASS ? "xpass" : "mismatch");
                if (r->verdict == GOLDEN_XPASS) fputs("XPASS: matches but is marked xfail: ", f);
                put_detail(f, r);
                fputs("\">", f);
                fprintf(f, "expected %s\nactual %s\n", *r->expected ? r->expected : "(none)",
                        *r->actual ? r->actual : "(none)");
                if (r->compared)
                    fprintf(f, "differing pixels %u\nbounding box %d %d %d %d\n", r->differing,
                            r->x0, r->y0, r->x1, r->y1);
                for (int m = 0; m < 3; m++)
                    if (*r->img[m]) {
                        fputs(m == 0   ? "expected image "
                              : m == 1 ? "actual image "
                                       : "diff image ",
                              f);
                        golden_put_escaped(f, r->img[m]);
                        fputc('\n', f);
                    }
                fputs("</failure>\n", f);
            }
            fputs("    </testcase>\n", f);
        }
    }
    fputs("  </testsuite>\n", f);
}

int golden_write_junit(const char *path, const golden_scene_result *s, size_t n,
                       const golden_totals *t, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot create", path);
        return -1;
    }
    const unsigned *fr = t->frames;
    unsigned tests = 0;
    for (int v = 0; v < GOLDEN_NVERDICTS; v++) tests += fr[v];
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites name=\"dsgx golden check\" tests=\"%u\" failures=\"%u\" errors=\"0\" "
            "skipped=\"%u\" time=\"%.3f\">\n",
            tests, fr[GOLDEN_FAIL] + fr[GOLDEN_XPASS], fr[GOLDEN_XFAIL], t->seconds);
    for (size_t i = 0; i < n; i++) {
        bool first = true; /* one suite per directory, in the order of the run */
        for (size_t k = 0; k < i && first; k++) first = strcmp(s[k].dir, s[i].dir) != 0;
        if (first) junit_suite(f, s, n, s[i].dir);
    }
    fputs("</testsuites>\n", f);
    bool ok = !ferror(f);
    ok = !fclose(f) && ok;
    if (!ok) snprintf(err, errlen, "%s: write error", path);
    return ok ? 0 : -1;
}
