# capture tests: the camera source against a scripted fake camera (libv4l2 and poll
# wrapped at link time), and the file sources on footage the tests write themselves.
set(KC_CAPTURE_WRAP
  -Wl,--wrap=v4l2_open,--wrap=v4l2_ioctl,--wrap=v4l2_mmap,--wrap=v4l2_munmap,--wrap=v4l2_close,--wrap=poll)
kc_test(capture_cam
  SOURCES capture/test_capture_cam.c capture/fake_v4l2.c
  LIBS kc_capture)
target_link_options(capture_cam PRIVATE ${KC_CAPTURE_WRAP})
kc_test(capture_files
  SOURCES capture/test_capture_files.c
  LIBS kc_capture)
# the JPEG decoder of the file and camera sources against OpenCV's
kc_test(capture_jpeg
  SOURCES capture/test_cap_jpeg.c
  LIBS kc_capture)
# the CLI: `kifucam devices` lists the cameras or says there are none, exit 0 either way
add_test(NAME capture_cli_devices COMMAND kifucam devices)
set_tests_properties(capture_cli_devices PROPERTIES
  PASS_REGULAR_EXPRESSION "no V4L2 camera found|/dev/video[0-9]+: ")
add_test(NAME capture_cli_devices_usage COMMAND kifucam devices --no-such-option)
set_tests_properties(capture_cli_devices_usage PROPERTIES WILL_FAIL TRUE)
# the file sources on the footage generator's output (folder, truth, video)
kc_test(capture_footage
  SOURCES capture/test_capture_footage.c
  LIBS kc_capture kc_render)
add_dependencies(capture_footage kifucam)
