# tests/station.cmake: the station — stabiliser, tracker, referee, record, driver —
# on scripted snapshot sequences (ASCII boards, occlusion masks, times).
kc_test(test_station_track SOURCES station/test_station_track.c LIBS kc_station kc_rules)
kc_test(test_station_referee SOURCES station/test_station_referee.c LIBS kc_station kc_rules)
kc_test(test_station_align SOURCES station/test_station_align.c LIBS kc_station kc_rules)
# how a recording begins: the resumed frame, the resumed board judged, the handicap seen
kc_test(test_station_start SOURCES station/test_station_start.c LIBS kc_station kc_rules)
kc_test(test_station_stab SOURCES station/test_station_stab.c LIBS kc_station kc_rules)
kc_test(test_station_record SOURCES station/test_station_record.c LIBS kc_station kc_rules)
kc_test(test_station_replay SOURCES station/test_station_replay.c LIBS kc_station kc_rules)
kc_test(test_station_driver SOURCES station/test_station_driver.c LIBS kc_station kc_rules)
kc_test(test_station_signal SOURCES station/test_station_signal.c LIBS kc_station kc_rules)
kc_test(test_station_count SOURCES station/test_station_count.c LIBS kc_station kc_rules)
add_dependencies(test_station_count kifucam)
kc_test(test_station_clock SOURCES station/test_station_clock.c LIBS kc_station kc_clock kc_rules)
# the whole station under allocation failures (the hook of tests/reliability/oomhook.h)
kc_test(test_station_oom SOURCES station/test_station_oom.c LIBS kc_station kc_clock kc_rules
        "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup")
# the record on a full disk: write() and fsync() wrapped to fail with ENOSPC (this binary only)
kc_test(test_station_fulldisk SOURCES station/test_station_fulldisk.c LIBS kc_station kc_rules
        "-Wl,--wrap=write,--wrap=fsync")
