# bench/render.cmake: bench_render, frames per second of the footage renderer (bench/render.sh).
add_executable(bench_render ${CMAKE_CURRENT_SOURCE_DIR}/bench_render.c)
target_link_libraries(bench_render PRIVATE kc_render)
