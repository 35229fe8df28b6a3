# tests/calib.cmake: calib/ tests.
#  test_calib_profile  the profile reader and writer, with broken files
#  calib_lens          lens calibration on generated distorted chessboard views: the camera
#                      recovered, the straightness of the lines before and after (printed)
#  calib_calibrate     the calibrate logic on rendered footage: one frame, rotation, given
#                      corners, camera moved (check, re-locate), light of another colour
kc_test(test_calib_profile SOURCES calib/test_profile.c LIBS kc_calib_profile)
kc_test(calib_lens SOURCES calib/test_lens.c LIBS kc_calib m)
kc_test(calib_calibrate SOURCES calib/test_calibrate.c LIBS kc_calib kc_render m)
set_tests_properties(calib_calibrate PROPERTIES TIMEOUT 300)
