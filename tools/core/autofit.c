/*
 * autofit.c - the default camera of `dsgx render` (see autofit.h for the rule).
 *
 * In the view basis (z toward the eye, x = up x z, y = z x x, as nitro_camera_lookat builds
 * it), a point (px, py, pz) seen from an eye at (sx, sy, ez) lands at the image-plane
 * coordinate (px - sx) / (ez - pz), which must stay within +-T (T = fill * tan(half-angle) of
 * that axis). Both bounds are linear in (sx, ez): px + T pz <= sx + T ez and
 * -px + T pz <= -sx + T ez, so the nearest eye is ez = (A + B) / (2T) with
 * A = max(px + T pz), B = max(-px + T pz), per axis; the larger of the two axes' distances wins.
 * At that distance each axis is centred by bisection on its shift: the largest and smallest
 * image coordinates are decreasing in the shift, and are opposite at the centred shift.
 */
#include "tools/core/autofit.h"

#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

double dsgx_fit_sqrt(double x)
{
    if (x <= 0) return 0;
    double r = x > 1 ? x : 1;
    for (int i = 0; i < 200; i++) {
        double n = 0.5 * (r + x / r);
        if (n >= r) break;
        r = n;
    }
    return r;
}

double dsgx_fit_sin(double x)
{
    while (x > PI) x -= 2 * PI;
    while (x < -PI) x += 2 * PI;
    double term = x, sum = x;
    for (int n = 1; n < 12; n++) {
        term *= -x * x / ((2 * n) * (2 * n + 1));
        sum += term;
    }
    return sum;
}

double dsgx_fit_cos(double x)
{
    return dsgx_fit_sin(x + PI / 2);
}

void dsgx_fit_points_init(dsgx_fit_points *pts)
{
    memset(pts, 0, sizeof *pts);
}

void dsgx_fit_points_free(dsgx_fit_points *pts)
{
    free(pts->p);
    memset(pts, 0, sizeof *pts);
}

bool dsgx_fit_points_add(dsgx_fit_points *pts, double x, double y, double z)
{
    if (pts->n == pts->cap) {
        if (pts->cap >= DSGX_FIT_MAX_POINTS) return false;
        unsigned cap = pts->cap ? pts->cap * 2 : 256;
        double(*p)[3] = realloc(pts->p, cap * sizeof *p);
        if (!p) return false;
        pts->p = p;
        pts->cap = cap;
    }
    const double v[3] = {x, y, z};
    for (int k = 0; k < 3; k++) {
        pts->p[pts->n][k] = v[k];
        if (!pts->n || v[k] < pts->lo[k]) pts->lo[k] = v[k];
        if (!pts->n || v[k] > pts->hi[k]) pts->hi[k] = v[k];
    }
    pts->n++;
    return true;
}

void dsgx_fit_vertex_hook(void *user, gx_engine *gx, const int32_t clip[4], const int32_t color5[3],
                          const int16_t texcoord[2])
{
    (void)gx;
    (void)color5;
    (void)texcoord;
    if (clip[3] == 0) return;
    double w = clip[3];
    dsgx_fit_points_add(user, clip[0] / w, clip[1] / w, clip[2] / w);
}

void dsgx_fit_direction(double yaw_deg, double pitch_deg, double dir[3])
{
    double yaw = yaw_deg * PI / 180, pitch = pitch_deg * PI / 180;
    dir[0] = dsgx_fit_cos(pitch) * dsgx_fit_sin(yaw);
    dir[1] = dsgx_fit_sin(pitch);
    dir[2] = dsgx_fit_cos(pitch) * dsgx_fit_cos(yaw);
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The view basis for direction z (toward the eye), up +Y. @return false when z is vertical. */
static bool basis(const double z[3], double x[3], double y[3])
{
    /* x = up x z with up = (0, 1, 0) */
    x[0] = z[2];
    x[1] = 0;
    x[2] = -z[0];
    double len = dsgx_fit_sqrt(dot3(x, x));
    if (len < 1e-9) return false;
    for (int k = 0; k < 3; k++) x[k] /= len;
    y[0] = z[1] * x[2] - z[2] * x[1];
    y[1] = z[2] * x[0] - z[0] * x[2];
    y[2] = z[0] * x[1] - z[1] * x[0];
    return true;
}

/* The shift s centring the coordinates c[i] seen at depths d[i] = ez - pz > 0. */
static double centre(const double *c, const double *d, unsigned n, double lo, double hi)
{
    for (int it = 0; it < 100 && hi - lo > 1e-12 * (1 + (hi > 0 ? hi : -hi)); it++) {
        double s = 0.5 * (lo + hi), mx = -1e300, mn = 1e300;
        for (unsigned i = 0; i < n; i++) {
            double v = (c[i] - s) / d[i];
            if (v > mx) mx = v;
            if (v < mn) mn = v;
        }
        if (mx + mn > 0)
            lo = s;
        else
            hi = s;
    }
    return 0.5 * (lo + hi);
}

bool dsgx_fit_camera(const dsgx_fit_points *pts, const double dir[3], double tan_half_fovy,
                     double aspect, double fill, dsgx_fit_view *out)
{
    double z[3], x[3], y[3];
    double len = dsgx_fit_sqrt(dot3(dir, dir));
    if (len < 1e-9 || tan_half_fovy <= 0 || aspect <= 0 || fill <= 0 || fill > 1) return false;
    for (int k = 0; k < 3; k++) z[k] = dir[k] / len;
    if (!basis(z, x, y)) return false;
    /* the points in the view basis; no point: the unit cube's corners */
    static const double cube[8][3] = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                      {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {1, 1, 1}};
    unsigned n = pts && pts->n ? pts->n : 8;
    double *px = malloc(n * 4 * sizeof *px);
    if (!px) return false;
    double *py = px + n, *pz = py + n, *d = pz + n;
    double zmin = 0, zmax = 0, span = 0;
    for (unsigned i = 0; i < n; i++) {
        const double *p = pts && pts->n ? pts->p[i] : cube[i];
        px[i] = dot3(p, x);
        py[i] = dot3(p, y);
        pz[i] = dot3(p, z);
        if (!i || pz[i] < zmin) zmin = pz[i];
        if (!i || pz[i] > zmax) zmax = pz[i];
    }
    /* the nearest eye distance along z satisfying both axes */
    const double *c[2] = {px, py};
    double t[2] = {fill * tan_half_fovy * aspect, fill * tan_half_fovy}, ez = -1e300;
    double cmin[2] = {0, 0}, cmax[2] = {0, 0};
    for (int a = 0; a < 2; a++) {
        double A = -1e300, B = -1e300;
        for (unsigned i = 0; i < n; i++) {
            double u = c[a][i] + t[a] * pz[i], v = -c[a][i] + t[a] * pz[i];
            if (u > A) A = u;
            if (v > B) B = v;
            if (!i || c[a][i] < cmin[a]) cmin[a] = c[a][i];
            if (!i || c[a][i] > cmax[a]) cmax[a] = c[a][i];
        }
        double e = (A + B) / (2 * t[a]);
        if (e > ez) ez = e;
        if (cmax[a] - cmin[a] > span) span = cmax[a] - cmin[a];
    }
    if (zmax - zmin > span) span = zmax - zmin;
    if (span <= 0) span = 1; /* a single point: frame a unit around it */
    /* keep the nearest point in front of the eye (a point model, or one seen edge-on) */
    if (ez < zmax + 0.05 * span) ez = zmax + 0.05 * span;
    for (unsigned i = 0; i < n; i++) d[i] = ez - pz[i];
    double s[2];
    for (int a = 0; a < 2; a++) s[a] = centre(c[a], d, n, cmin[a], cmax[a]);
    double mid = 0.5 * (zmin + zmax);
    for (int k = 0; k < 3; k++) {
        double side = s[0] * x[k] + s[1] * y[k];
        out->eye[k] = side + ez * z[k];
        out->at[k] = side + mid * z[k];
    }
    out->near = (ez - zmax) * 0.95;
    out->far = (ez - zmin) * 1.05;
    double dist = ez - mid;
    if (out->near < dist * 0.01) out->near = dist * 0.01;
    free(px);
    return true;
}

void dsgx_fit_depth(const dsgx_fit_points *pts, dsgx_fit_view *v)
{
    double z[3] = {v->eye[0] - v->at[0], v->eye[1] - v->at[1], v->eye[2] - v->at[2]};
    double dist = dsgx_fit_sqrt(dot3(z, z));
    if (dist <= 0) dist = 1;
    for (int k = 0; k < 3; k++) z[k] /= dist;
    double dmin = 1e300, dmax = -1e300;
    for (unsigned i = 0; pts && i < pts->n; i++) {
        double e[3] = {v->eye[0] - pts->p[i][0], v->eye[1] - pts->p[i][1],
                       v->eye[2] - pts->p[i][2]};
        double dd = dot3(e, z);
        if (dd < dmin) dmin = dd;
        if (dd > dmax) dmax = dd;
    }
    if (dmax <= 0) { /* nothing in front of the eye: a unit-sized slab around the target */
        dmin = dist - 1;
        dmax = dist + 1;
    }
    v->near = dmin * 0.95;
    v->far = dmax * 1.05;
    if (v->near < dist * 0.01) v->near = dist * 0.01;
}
