# tests/record.cmake: `kifucam record` end to end (footage rendered by `kifucam render`
# into a temporary folder, recorded, compared with the source game move for move) and its
# command-line contract, and the real gomrade frame sequence (skipped without
# ../shared/data). Drives the kifucam binary ($KIFUCAM_BIN).
kc_test(test_record
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/record/test_record.c
  LIBS kc_rules)
add_dependencies(test_record kifucam)
set_tests_properties(test_record PROPERTIES TIMEOUT 600)

# The 20 real games bench/record.sh records (../shared/data/games/tygem), their first 6
# moves rendered with each game's own seed and view and recorded: every record equal to
# its source move for move (skipped without ../shared/data).
kc_test(test_record_games
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/record/test_record_games.c)
add_dependencies(test_record_games kifucam)
set_tests_properties(test_record_games PROPERTIES TIMEOUT 900)

# The end signals read in scenes where they were missed: a camera from one side (the
# seats' corners on the other diagonal, a white stone on white cloth; both pass) and a
# dark wood table (black stones on dark wood; a resignation).
kc_test(test_record_signal
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/record/test_record_signal.c)
add_dependencies(test_record_signal kifucam)
set_tests_properties(test_record_signal PROPERTIES TIMEOUT 600)

# A hand reaching over a signal corner right after a move beside it (8 moves, seed 13):
# no end signal, no move taken back as a misread signal stone; the record equals its source.
kc_test(test_record_signal_undo
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/record/test_record_signal_undo.c)
add_dependencies(test_record_signal_undo kifucam)
set_tests_properties(test_record_signal_undo PROPERTIES TIMEOUT 600)

# The end signals read from pixels (vision/vis_outside.c) and taken by the referee
# (station/stn_signal.c) on drawn pictures: samples beside the corner's stones taken again
# (a signal stone put down there is read), and the seats moved by one signal on the other
# diagonal and moved back when play goes on.
kc_test(test_record_signal_unit
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/record/test_record_signal_unit.c
  LIBS kc_vision kc_station kc_rules m)
target_include_directories(test_record_signal_unit PRIVATE ${CMAKE_SOURCE_DIR})

# The rate a folder of frames is timed at: its own (the truth.txt kifucam render writes)
# without --fps, else 30 fps said on stderr; --fps wins. Grey frames, then rendered
# 15 fps footage whose moves' times are checked against its truth.
kc_test(test_record_rate
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/record/test_record_rate.c
  LIBS m)
add_dependencies(test_record_rate kifucam)
set_tests_properties(test_record_rate PROPERTIES TIMEOUT 600)

# A recording session as players meet it (issue 21): Ctrl-C prints the command that
# resumes, which picks up after the record's last KF[]; a resume whose board is not the
# record's is refused (exit 2, the file untouched).
kc_test(test_record_session
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/record/test_record_session.c)
add_dependencies(test_record_session kifucam)
set_tests_properties(test_record_session PROPERTIES TIMEOUT 600)
