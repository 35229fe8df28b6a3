# tests/cli.cmake: what the command line gives a user beyond the commands themselves:
# the man page and the bash completion generated from the program's own --help
# (app/gen_man.cmake, app/gen_completion.cmake), checked against that help, and make
# install. Drives the kifucam binary ($KIFUCAM_BIN).
kc_test(test_cli_docs SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/cli/test_cli_docs.c)
add_dependencies(test_cli_docs kifucam kifucam_man kifucam_completion)
target_compile_definitions(test_cli_docs PRIVATE
  KC_MAN_PAGE="${CMAKE_BINARY_DIR}/app/kifucam.1"
  KC_COMPLETION="${CMAKE_BINARY_DIR}/app/kifucam.bash")

# make install's rules: this build tree installed under a DESTDIR and a PREFIX of the
# test's own; the files where a user looks for them, the installed program run from
# another folder (--help; detect on the installed sample frame), man -w and the completion.
kc_test(test_cli_install SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/cli/test_cli_install.c)
add_dependencies(test_cli_install kifucam kifucam-render kifucam_man kifucam_completion)
target_compile_definitions(test_cli_install PRIVATE
  KC_CMAKE="${CMAKE_COMMAND}" KC_BUILD_DIR="${CMAKE_BINARY_DIR}")
set_tests_properties(test_cli_install PROPERTIES TIMEOUT 300)
