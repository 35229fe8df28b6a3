/* vis_model.h: the built-in point reader's weights (vision/model/points.onnx) and stone
 * finder's (vision/model/centres.onnx), compiled in by vision/embed_model.cmake so that the
 * binary needs no file at run time. How the weights were made: vision/model/README.md.
 * Not public API: use vis_net_builtin() and vis_finder_builtin(). */
#ifndef KIFUCAM_VIS_MODEL_H
#define KIFUCAM_VIS_MODEL_H

#include <stddef.h>
#include <stdint.h>

extern const uint8_t vis_model_points[];
extern const size_t vis_model_points_len;
extern const uint8_t vis_model_centres[];
extern const size_t vis_model_centres_len;

#endif
