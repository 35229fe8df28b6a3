# bench_capture: share of one core the capture path takes at 1080p30, on the fake camera
# of the capture tests (libv4l2 and poll wrapped at link time) and on video files.
add_executable(bench_capture
  ${CMAKE_CURRENT_SOURCE_DIR}/bench_capture.c
  ${CMAKE_SOURCE_DIR}/tests/capture/fake_v4l2.c)
target_include_directories(bench_capture PRIVATE ${CMAKE_SOURCE_DIR}/tests/capture)
target_link_libraries(bench_capture PRIVATE kc_capture)
target_link_options(bench_capture PRIVATE
  -Wl,--wrap=v4l2_open,--wrap=v4l2_ioctl,--wrap=v4l2_mmap,--wrap=v4l2_munmap,--wrap=v4l2_close,--wrap=poll)
