kc_test(test_calib_profile SOURCES calib/test_profile.c LIBS kc_calib)
