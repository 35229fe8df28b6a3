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
