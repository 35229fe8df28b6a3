# bench/station.cmake: bench_station — the station (stabiliser, tracker, referee, safe
# record) on real games played through the simulated camera of the station tests.
add_executable(bench_station ${CMAKE_CURRENT_SOURCE_DIR}/bench_station.c)
target_include_directories(bench_station PRIVATE ${CMAKE_SOURCE_DIR}/tests/station)
target_link_libraries(bench_station PRIVATE kc_station kc_rules)
