# bench/replay.cmake: bench_replay, moves per second replaying SGF records (bench/replay.sh).
add_executable(bench_replay bench_replay.c)
target_link_libraries(bench_replay PRIVATE kc_rules)
