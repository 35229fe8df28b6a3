# bench/vision.cmake: bench_vision (accuracy on the shared photos, speed on 1080p frames).
add_executable(bench_vision ${CMAKE_CURRENT_SOURCE_DIR}/bench_vision.c)
target_link_libraries(bench_vision PRIVATE kc_vision)
