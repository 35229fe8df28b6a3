# gen_completion.cmake: writes the bash completion of kifucam from the built program's
# own help (help_text.cmake) into the template kifucam.bash.in, at build time:
# cmake -DKIFUCAM=path/to/kifucam -DOUT=kifucam.bash -P gen_completion.cmake.
# A command's options are the --words of its --help outside `quoted` references to other
# commands (hub's help names `kifucam record --relay`), and --help. An option written
# "--opt a|b|c" completes its value from those words.
cmake_minimum_required(VERSION 3.18)
include(${CMAKE_CURRENT_LIST_DIR}/help_text.cmake)
if(NOT OUT)
  message(FATAL_ERROR "gen_completion.cmake: -DOUT=file is required")
endif()

string(REPLACE ";" " " KC_COMMANDS_WORDS "${KC_COMMANDS}")
set(KC_OPT_CASES "")
set(KC_VAL_CASES "")
foreach(c IN LISTS KC_COMMANDS)
  string(REGEX REPLACE "`[^`\n]*`" "" help "${KC_HELP_${c}}")
  string(REGEX MATCHALL "--[a-z][a-z0-9-]*" opts "${help}")
  list(APPEND opts --help)
  list(REMOVE_DUPLICATES opts)
  string(REPLACE ";" " " words "${opts}")
  string(APPEND KC_OPT_CASES "        ${c}) opts='${words}' ;;\n")
  string(REGEX MATCHALL "--[a-z][a-z0-9-]*[ =][a-z0-9]+(\\|[a-z0-9]+)+" valued "${help}")
  set(seen "")
  foreach(v IN LISTS valued)
    string(REGEX REPLACE "^(--[a-z0-9-]+)[ =].*$" "\\1" opt "${v}")
    string(REGEX REPLACE "^--[a-z0-9-]+[ =]" "" values "${v}")
    string(REPLACE "|" " " values "${values}")
    if(NOT opt IN_LIST seen)
      list(APPEND seen ${opt})
      string(APPEND KC_VAL_CASES "        '${c} ${opt}') vals='${values}' ;;\n")
    endif()
  endforeach()
endforeach()
configure_file(${CMAKE_CURRENT_LIST_DIR}/kifucam.bash.in "${OUT}.tmp" @ONLY)
file(RENAME "${OUT}.tmp" "${OUT}")
