# bench/score.cmake: bench_score: agreement with recorded results (tygem), time per
# position of the dead-stone proposal + count, and sample games for GNU Go (bench/score.sh).
add_executable(bench_score ${CMAKE_CURRENT_SOURCE_DIR}/bench_score.c)
target_link_libraries(bench_score PRIVATE kc_rules)
