# tests/cli.cmake: what the command line gives a user beyond the commands themselves:
# the man page and the bash completion generated from the program's own --help
# (app/gen_man.cmake, app/gen_completion.cmake), checked against that help. Drives the
# kifucam binary ($KIFUCAM_BIN).
kc_test(test_cli_docs SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/cli/test_cli_docs.c)
add_dependencies(test_cli_docs kifucam kifucam_man kifucam_completion)
target_compile_definitions(test_cli_docs PRIVATE
  KC_MAN_PAGE="${CMAKE_BINARY_DIR}/app/kifucam.1"
  KC_COMPLETION="${CMAKE_BINARY_DIR}/app/kifucam.bash")
