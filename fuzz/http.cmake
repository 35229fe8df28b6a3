# fuzz/http.cmake: the web server's request handling, fuzzed over a loopback socket to
# one server started per process, plus the --serve parser and the state publisher.
add_executable(fuzz_http fuzz_http.c)
target_link_libraries(fuzz_http PRIVATE kc_web)
target_link_options(fuzz_http PRIVATE -fsanitize=fuzzer)
