# tests/calib.cmake: calib/ tests.
#  test_calib_profile  the profile reader and writer, with broken files
#  calib_lens          lens calibration on generated distorted chessboard views: the camera
#                      recovered, the straightness of the lines before and after (printed)
#  calib_calibrate     the calibrate logic on rendered footage: one frame, rotation, given
#                      corners, camera moved (check, re-locate), light of another colour
#  calib_cli           `kifucam calibrate` end to end: calibrate, --check (fits, moved, broken
#                      profiles), --corners/--rotate/--debug, --lens on a generated folder,
#                      --serve: the corners action over HTTP, the timeout, Ctrl-C
#  calib_lens_render   `kifucam render --chessboard 9x6` footage (the renderer's own lens)
#                      calibrated with `kifucam calibrate --lens 9x6`: camera and distortion
#                      against the truth, straightness of the Go grid before and after (printed)
#  calib_photos        the shared gomrade photos (skips without them): learned thresholds
#                      never worse than the defaults; a recording's profile fits its frames
kc_test(test_calib_profile SOURCES calib/test_profile.c LIBS kc_calib_profile)
kc_test(calib_lens SOURCES calib/test_lens.c LIBS kc_calib m)
kc_test(calib_calibrate SOURCES calib/test_calibrate.c LIBS kc_calib kc_render m)
set_tests_properties(calib_calibrate PROPERTIES TIMEOUT 300)
kc_test(calib_cli SOURCES calib/test_calibrate_cli.c LIBS kc_calib kc_render m)
add_dependencies(calib_cli kifucam)
set_tests_properties(calib_cli PROPERTIES TIMEOUT 300)
kc_test(calib_lens_render SOURCES calib/test_lens_render.c LIBS kc_calib kc_render m)
add_dependencies(calib_lens_render kifucam)
set_tests_properties(calib_lens_render PROPERTIES TIMEOUT 300)
kc_test(calib_photos SOURCES calib/test_photos.c LIBS kc_calib)
set_tests_properties(calib_photos PROPERTIES TIMEOUT 300)
