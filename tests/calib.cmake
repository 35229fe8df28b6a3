# tests/calib.cmake: calib/ tests.
#  test_calib_profile  the profile reader and writer, with broken files
#  calib_lens          lens calibration on generated distorted chessboard views: the camera
#                      recovered, the straightness of the lines before and after (printed)
kc_test(test_calib_profile SOURCES calib/test_profile.c LIBS kc_calib_profile)
kc_test(calib_lens SOURCES calib/test_lens.c LIBS kc_calib m)
