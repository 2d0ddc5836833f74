/*
 * autofit.h - the default camera of `dsgx render`: the model's points (every vertex the
 * geometry engine transforms, in world units) centred in the frame and filling it.
 *
 * The rule (documented in README.md "Rendering Nitro models" and `dsgx help render`): for a
 * view direction (unit vector from the model toward the eye; up is +Y), the eye is the
 * nearest point on that direction's line of sight from which every point lies within `fill`
 * (0.9: a 5% margin on each side) of the frame's half-width and half-height, and the view is
 * shifted sideways (direction unchanged) so that the points' extents are centred: the model
 * touches the margin in its limiting dimension (width or height, whichever the model's aspect
 * makes it) and is centred in the other. Points are measured, not read from the file's
 * bounding box, so animated poses, flat and degenerate models (a ring in XZ, a line) fit too:
 * a model with no extent in some axis still has extent in the view plane of a raised
 * three-quarter view. near/far enclose the points' depths with a 5% margin.
 *
 * Floating point, CLI side only: the results are converted once to 1.19.12 by the caller.
 */
#ifndef DSGX_AUTOFIT_H
#define DSGX_AUTOFIT_H

#include <stdbool.h>
#include <stdint.h>

#include "gx/gx.h"

/** At most this many points are kept (more vertices than any DS frame holds many times). */
#define DSGX_FIT_MAX_POINTS (1u << 20)

typedef struct dsgx_fit_points {
    double (*p)[3];
    unsigned n, cap;
    double lo[3], hi[3]; /**< bounds of the points (valid when n > 0) */
} dsgx_fit_points;

void dsgx_fit_points_init(dsgx_fit_points *pts);
void dsgx_fit_points_free(dsgx_fit_points *pts);
/** Add a point. @return false when out of memory or over DSGX_FIT_MAX_POINTS (ignored). */
bool dsgx_fit_points_add(dsgx_fit_points *pts, double x, double y, double z);
/** A gx_hooks.vertex callback (user = dsgx_fit_points *): adds clip.xyz / clip.w, which is the
 *  world position when the projection and camera are the identity. */
void dsgx_fit_vertex_hook(void *user, gx_engine *gx, const int32_t clip[4], const int32_t color5[3],
                          const int16_t texcoord[2]);

/** A camera: eye, target, and the near and far plane distances. */
typedef struct dsgx_fit_view {
    double eye[3], at[3], near, far;
} dsgx_fit_view;

/** Small maths without libm (the tools do not link it): Newton square root, Taylor sine. */
double dsgx_fit_sqrt(double x);
double dsgx_fit_sin(double radians);
double dsgx_fit_cos(double radians);

/** Unit direction from the target toward an eye at yaw/pitch degrees (yaw 0, pitch 0: on +Z;
 *  yaw 90: on +X; pitch 90: above). */
void dsgx_fit_direction(double yaw_deg, double pitch_deg, double dir[3]);
/**
 * The fitted camera for view direction dir (unit, not vertical), vertical half-angle tangent
 * tan_half_fovy, frame aspect (width / height) and fill fraction (0 < fill <= 1). With no
 * point (nothing drawn) the unit cube around the origin is fitted. @return false on bad
 * arguments.
 */
bool dsgx_fit_camera(const dsgx_fit_points *pts, const double dir[3], double tan_half_fovy,
                     double aspect, double fill, dsgx_fit_view *out);
/** near and far for a given eye and target (--eye/--at, --orbit with a distance): the depths
 *  of the points in front of the eye with a 5% margin; near at least 1% of |eye - at|. */
void dsgx_fit_depth(const dsgx_fit_points *pts, dsgx_fit_view *v);

#endif
