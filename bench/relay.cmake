# bench/relay.cmake: 50 (or N) stations relaying real games at once through mosquitto to
# `kifucam hub` (bench/relay.sh).
add_executable(bench_relay ${CMAKE_CURRENT_SOURCE_DIR}/bench_relay.c)
target_include_directories(bench_relay PRIVATE ${CMAKE_SOURCE_DIR}/tests)
target_link_libraries(bench_relay PRIVATE kc_relay kc_web kc_rules PkgConfig::JANSSON Threads::Threads)
