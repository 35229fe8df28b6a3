# tests/rules.cmake: the rules core (board, rule presets, game) — cmocka tests from
# ASCII diagrams, plus a randomized test against a from-scratch liberty recount.
kc_test(test_rules_board SOURCES rules/test_board.c LIBS kc_rules)
kc_test(test_rules_game SOURCES rules/test_game.c LIBS kc_rules)
kc_test(test_rules_random SOURCES rules/test_random.c LIBS kc_rules)
