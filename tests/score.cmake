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
# The correction page's changes as C calls (app/count_state.c, without HTTP): a point
# cycled, a group toggled, the marking carried over a fix, the prisoners, Accept's SGF read
# back and counted as `score` counts it, the bundled photo read again with other corners.
kc_test(test_count_state
  SOURCES score/test_count_state.c ${CMAKE_SOURCE_DIR}/app/count_state.c
          ${CMAKE_SOURCE_DIR}/app/photo.c ${CMAKE_SOURCE_DIR}/app/score_out.c
  LIBS kc_rules kc_vision kc_calib kc_capture PkgConfig::JANSSON)
target_include_directories(test_count_state PRIVATE ${CMAKE_SOURCE_DIR})
# `kifucam count PHOTO --serve` over loopback HTTP: the page, bad requests 4xx, a group
# toggled and a point fixed (then the same count as `count` with those options), Accept's
# record and exit 0, SIGTERM / Ctrl-C before Accept exit 1 with nothing written.
kc_test(test_count_serve SOURCES score/test_count_serve.c LIBS kc_rules kc_vision PkgConfig::JANSSON)
add_dependencies(test_count_serve kifucam)
set_tests_properties(test_count_serve PROPERTIES TIMEOUT 120)
