# fuzz/profile.cmake: the calibration profile reader (cal_profile_parse) fuzzer.
add_executable(fuzz_profile fuzz_profile.c)
target_link_libraries(fuzz_profile PRIVATE kc_calib_profile)
target_link_options(fuzz_profile PRIVATE -fsanitize=fuzzer)
