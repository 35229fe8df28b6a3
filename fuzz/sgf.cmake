# fuzz/sgf.cmake: the SGF reader/writer/replay fuzzer (libFuzzer; `make fuzz`).
add_executable(fuzz_sgf fuzz_sgf.c)
target_link_libraries(fuzz_sgf PRIVATE kc_rules)
target_link_options(fuzz_sgf PRIVATE -fsanitize=fuzzer)
