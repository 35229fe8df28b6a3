# bench/track.cmake: bench_track (vision tracking over rendered footage: false board_lost,
# a third of a cell followed back, hands; 1080p tracking speed). The truth reader comes
# from render/.
add_executable(bench_track ${CMAKE_CURRENT_SOURCE_DIR}/bench_track.c)
target_link_libraries(bench_track PRIVATE kc_vision kc_render m)
