# help_text.cmake: the program's own help, gathered from the built binary for the man
# page (gen_man.cmake) and the bash completion (gen_completion.cmake): the one source of
# truth is the text `kifucam --help` and `kifucam COMMAND --help` print, so neither file
# can drift from it. Included under cmake -P with -DKIFUCAM=path/to/kifucam.
# Sets KC_HELP (kifucam --help), KC_VERSION (kifucam --version), KC_COMMANDS (the
# subcommands in the order --help lists them), KC_SUMMARY_<cmd> (its line in that list)
# and KC_HELP_<cmd> (kifucam CMD --help). A command that fails or prints nothing stops
# the build.
if(NOT KIFUCAM)
  message(FATAL_ERROR "help_text.cmake: -DKIFUCAM=path/to/kifucam is required")
endif()

# OUT = the stdout of kifucam ARGS...; the sanitizer build's leak check is not wanted here.
function(kc_help_run out)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0 ${KIFUCAM} ${ARGN}
                  OUTPUT_VARIABLE text ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR text STREQUAL "")
    message(FATAL_ERROR "kifucam ${ARGN}: exit ${rc}, no help text: ${err}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

kc_help_run(KC_HELP --help)
kc_help_run(KC_VERSION --version)
string(STRIP "${KC_VERSION}" KC_VERSION)
# The command list: lines "  NAME  summary" after the usage line.
string(REGEX MATCHALL "\n  [a-z][a-z0-9-]* +[^\n]*" _lines "${KC_HELP}")
set(KC_COMMANDS)
foreach(_l IN LISTS _lines)
  string(REGEX REPLACE "^\n  ([a-z][a-z0-9-]*) +(.*)$" "\\1" _cmd "${_l}")
  string(REGEX REPLACE "^\n  ([a-z][a-z0-9-]*) +(.*)$" "\\2" _sum "${_l}")
  list(APPEND KC_COMMANDS ${_cmd})
  set(KC_SUMMARY_${_cmd} "${_sum}")
  kc_help_run(KC_HELP_${_cmd} ${_cmd} --help)
endforeach()
if(NOT KC_COMMANDS)
  message(FATAL_ERROR "help_text.cmake: kifucam --help lists no command")
endif()
