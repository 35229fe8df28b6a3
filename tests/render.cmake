# tests/render.cmake: the footage generator (render/): truth against the frames' pixels,
# determinism, the timeline's events, options and bad input.
kc_test(test_render
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/render/test_render.c
  LIBS kc_render)
