# tests/reliability.cmake: fault injection (every allocation of an operation failed in
# turn, through -Wl,--wrap) and the regression inputs the fuzzers left (fuzz/README.md).
set(KC_OOM_WRAP "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup")
kc_test(test_rel_oom_rules SOURCES reliability/test_rel_oom_rules.c LIBS kc_rules ${KC_OOM_WRAP})
kc_test(test_rel_fuzz_profile SOURCES reliability/test_rel_fuzz_profile.c LIBS kc_calib_profile)
kc_test(test_rel_fuzz_vision SOURCES reliability/test_rel_fuzz_vision.c LIBS kc_vision m)
kc_test(test_rel_oom_track SOURCES reliability/test_rel_oom_track.c LIBS kc_station kc_rules ${KC_OOM_WRAP})
kc_test(test_rel_resume SOURCES reliability/test_rel_resume.c LIBS kc_rules)
add_dependencies(test_rel_resume kifucam)
kc_test(test_rel_safeio SOURCES reliability/test_rel_safeio.c LIBS kc_safeio)
kc_test(test_rel_attack SOURCES reliability/test_rel_attack.c)
add_dependencies(test_rel_attack kifucam)
set_tests_properties(test_rel_attack PROPERTIES TIMEOUT 600)
