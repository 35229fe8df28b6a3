# tests/loop.cmake: the recording loop as a library (loop/rl_loop.h) driven frame by frame:
# a rendered clip (6 moves and both end signals) read by capture/ and fed to rl_feed, the
# sink's events checked; frames with no board. Renders with the kifucam binary ($KIFUCAM_BIN).
kc_test(test_loop SOURCES loop/test_loop.c LIBS kc_loop kc_capture)
add_dependencies(test_loop kifucam)
set_tests_properties(test_loop PROPERTIES TIMEOUT 300)
