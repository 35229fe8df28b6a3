# fuzz/vision.cmake: the vision entry points fuzzer (bytes decoded as an image, and small
# raw images, through vis_detect / vis_classify / vis_track).
add_executable(fuzz_vision fuzz_vision.c)
target_link_libraries(fuzz_vision PRIVATE kc_vision)
target_link_options(fuzz_vision PRIVATE -fsanitize=fuzzer)
# clang++ -Wpedantic flags OpenCV's own headers (_Atomic in mat.inl.hpp): not our code.
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  target_compile_options(kc_cvbridge PRIVATE -Wno-c11-extensions)
endif()
