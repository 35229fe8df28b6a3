/* sgf_game.c: placeholder until the module lands. */
#include "rules/go_board.h"
