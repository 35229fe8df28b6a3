# bench/loop.cmake: bench_loop: the recording loop as a library (loop/rl_loop.h) over
# rendered footage, with no command line: moves right, the end, CPU per stage per frame.
add_executable(bench_loop ${CMAKE_CURRENT_SOURCE_DIR}/bench_loop.c)
target_link_libraries(bench_loop PRIVATE kc_loop kc_capture kc_render kc_rules)
