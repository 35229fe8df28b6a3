# tests/score.cmake: counting (every preset on ASCII positions, the Chinese worked
# example), dead-stone proposal and Benson, the scoring session, and GNU Go's scoring
# and unconditional-life regressions (skipped visibly without ../shared/data).
kc_test(test_score_count SOURCES score/test_score_count.c LIBS kc_rules)
kc_test(test_score_life SOURCES score/test_score_life.c LIBS kc_rules)
kc_test(test_score_gnugo SOURCES score/test_score_gnugo.c LIBS kc_rules)
kc_test(test_score_cli SOURCES score/test_score_cli.c LIBS kc_rules)
add_dependencies(test_score_cli kifucam)
# `kifucam count PHOTO` and `score PHOTO` on the bundled frames (samples/frames)
kc_test(test_count_cli SOURCES score/test_count_cli.c LIBS kc_rules kc_vision)
add_dependencies(test_count_cli kifucam)
