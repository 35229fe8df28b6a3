# bench/web.cmake: the web server under load (200 /events clients during a replayed game).
add_executable(bench_web ${CMAKE_CURRENT_SOURCE_DIR}/bench_web.c)
target_include_directories(bench_web PRIVATE ${CMAKE_SOURCE_DIR}/tests/web)
target_link_libraries(bench_web PRIVATE kc_web)
