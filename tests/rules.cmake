# tests/rules.cmake: the rules core (board, rule presets, game) — cmocka tests from
# ASCII diagrams, plus a randomized test against a from-scratch liberty recount.
kc_test(test_rules_board SOURCES rules/test_board.c LIBS kc_rules)
kc_test(test_rules_game SOURCES rules/test_game.c LIBS kc_rules)
kc_test(test_rules_random SOURCES rules/test_random.c LIBS kc_rules)
# life and death: a race that is seki when the weaker chain moves first (go_semeai)
kc_test(test_life_race SOURCES rules/test_life_race.c LIBS kc_rules)
# life and death: groups without an eye enclosed by strong opponents (go_eyes)
kc_test(test_life_eyes SOURCES rules/test_life_eyes.c LIBS kc_rules)
# points as people and files write them (Q16 and pd), and the --dead calls (go_point)
kc_test(test_rules_point SOURCES rules/test_point.c LIBS kc_rules)
# a camera's reading settled before the count: --fix, unsure points, --prisoners (go_reading)
kc_test(test_rules_reading SOURCES rules/test_reading.c LIBS kc_rules)
