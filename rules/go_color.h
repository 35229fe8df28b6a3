/* go_color.h: the one colour type of the project: what lies on a point, whose stone,
 * whose turn, whose clock, whose signal. Rules, vision (a snapshot's colours), station,
 * calib, clock and the CLI all speak it; nothing else defines these values.
 *
 * Invariants: GO_EMPTY is 0 (a zeroed array is an empty board, a zeroed side is nobody);
 * GO_BLACK and GO_WHITE are 1 and 2, so GO_OTHER swaps them and a side indexes an array
 * of 3 (index 0 unused or "nobody"); GO_OFF (3) is the rules' padding beyond the board's
 * edge and never a reading of the camera.
 *
 * Header only, no dependency: vision and clock include it without linking rules/.
 */
#ifndef KIFUCAM_GO_COLOR_H
#define KIFUCAM_GO_COLOR_H

typedef enum { GO_EMPTY = 0, GO_BLACK = 1, GO_WHITE = 2, GO_OFF = 3 } go_color_t;
#define GO_OTHER(c) ((go_color_t)(3 - (c)))

#endif
