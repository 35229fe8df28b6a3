# tests/record.cmake: `kifucam record` end to end (footage rendered by `kifucam render`
# into a temporary folder, recorded, compared with the source game move for move) and its
# command-line contract, and the real gomrade frame sequence (skipped without
# ../shared/data). Drives the kifucam binary ($KIFUCAM_BIN).
kc_test(test_record
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/record/test_record.c
  LIBS kc_rules)
add_dependencies(test_record kifucam)
set_tests_properties(test_record PROPERTIES TIMEOUT 600)
