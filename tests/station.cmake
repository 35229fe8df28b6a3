# tests/station.cmake: the station — stabiliser, tracker, referee, record, driver —
# on scripted snapshot sequences (ASCII boards, occlusion masks, times).
kc_test(test_station_track SOURCES station/test_station_track.c LIBS kc_station kc_rules)
