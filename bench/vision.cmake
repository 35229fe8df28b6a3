# bench/vision.cmake: bench_vision (accuracy on the shared photos, speed on 1080p frames,
# rendered footage and hands over it: the truth reader comes from render/).
add_executable(bench_vision ${CMAKE_CURRENT_SOURCE_DIR}/bench_vision.c)
target_link_libraries(bench_vision PRIVATE kc_vision kc_render)
