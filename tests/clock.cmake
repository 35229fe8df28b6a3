# tests/clock.cmake: the game clock with a simulated time base (no waiting).
kc_test(test_clock SOURCES clock/test_clock.c LIBS kc_clock)
