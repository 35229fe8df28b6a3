# tests/sgf.cmake: the SGF reader/writer, SGF <-> game, the tygem records (skipped when
# ../shared/data is absent), the `kifucam check` CLI contract, and the crashers the
# fuzzer found (tests/sgf/crashers/).
kc_test(test_sgf_parse SOURCES sgf/test_sgf_parse.c LIBS kc_rules)
kc_test(test_sgf_game SOURCES sgf/test_sgf_game.c LIBS kc_rules)
kc_test(test_sgf_tygem SOURCES sgf/test_sgf_tygem.c LIBS kc_rules)
kc_test(test_sgf_cli SOURCES sgf/test_sgf_cli.c LIBS kc_rules)
kc_test(test_sgf_oom SOURCES sgf/test_sgf_oom.c
  LIBS kc_rules "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc")
kc_test(test_sgf_crashers SOURCES sgf/test_sgf_crashers.c LIBS kc_rules)
target_compile_definitions(test_sgf_crashers PRIVATE
  KC_SGF_CRASHERS="${CMAKE_CURRENT_SOURCE_DIR}/sgf/crashers")
add_dependencies(test_sgf_cli kifucam)

# The independent naive check: `check --rules chinese` lists exactly the moves that
# recreate an earlier whole-board position (python3, all 15,473 tygem games, ~30 s).
find_program(KC_PYTHON3 python3)
if(KC_PYTHON3)
  add_test(NAME test_sgf_superko_naive
    COMMAND sh -c "d=\"\${KIFUCAM_SHARED:-\$KIFUCAM_SHARED_DEFAULT}/data/games/tygem\"; [ -d \"\$d\" ] || { echo 'SKIP: ../shared/data is absent'; exit 77; }; cd \"\$d\" && exec \"$0\" \"$1\" \"$2\" *.sgf"
      ${KC_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/sgf/naive_superko.py $<TARGET_FILE:kifucam>)
  set_tests_properties(test_sgf_superko_naive PROPERTIES
    ENVIRONMENT "KIFUCAM_SHARED=$ENV{KIFUCAM_SHARED};KIFUCAM_SHARED_DEFAULT=${KIFUCAM_SHARED_DEFAULT}"
    SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
