# gen_man.cmake: writes the man page kifucam(1) from the built program's own help
# (help_text.cmake), at build time: cmake -DKIFUCAM=path/to/kifucam -DOUT=kifucam.1 -P
# gen_man.cmake. Every command's --help goes in whole, as printed (no fill), so the page
# says what --help says and nothing drifts; only the description, the exit status and
# "see also" below are written here.
cmake_minimum_required(VERSION 3.18)
include(${CMAKE_CURRENT_LIST_DIR}/help_text.cmake)
if(NOT OUT)
  message(FATAL_ERROR "gen_man.cmake: -DOUT=file is required")
endif()

# VAR = TEXT as roff text: backslashes, minus signs (options stay searchable and copy as
# ASCII), grave accents and apostrophes escaped, a line starting with a dot protected.
function(kc_roff var text)
  string(REPLACE "\\" "\\e" t "${text}")
  string(REPLACE "-" "\\-" t "${t}")
  string(REPLACE "`" "\\(ga" t "${t}")
  string(REPLACE "'" "\\(aq" t "${t}")
  string(REGEX REPLACE "\n\\." "\n\\\\&." t "\n${t}")
  string(REGEX REPLACE "^\n" "" t "${t}")
  set(${var} "${t}" PARENT_SCOPE)
endfunction()

kc_roff(usage "${KC_HELP}")
string(STRIP "${usage}" usage)
kc_roff(version "${KC_VERSION}")
set(m ".\\\" Generated at build time by app/gen_man.cmake from kifucam's --help: do not edit.\n")
string(APPEND m ".TH KIFUCAM 1 \"\" \"${version}\" \"User Commands\"\n")
string(APPEND m ".SH NAME\nkifucam \\- record and score Go games from a camera over the board\n")
string(APPEND m ".SH SYNOPSIS\n.B kifucam\n.I COMMAND\n.RI [ OPTIONS ]\n.br\n.B kifucam\n.I COMMAND\n.B \\-\\-help\n.br\n.B kifucam \\-\\-help\n.SH DESCRIPTION\n")
string(APPEND m "kifucam is a Go (weiqi, baduk) board recording and scoring station. A webcam looks down at a real board; kifucam finds the board and its grid, reads every point, turns the stream of views into moves, checks each move against the rules, writes the SGF record as it goes, serves a live overlay for streamers and counts the game at the end.\n")
string(APPEND m ".PP\nThe model that reads the points and the web pages are compiled into the program: it needs no other file at run time.\n")
string(APPEND m ".PP\nWhat\n.B kifucam \\-\\-help\nprints:\n.PP\n.EX\n${usage}\n.EE\n")
string(APPEND m ".SH COMMANDS\nEach section is what\n.BI \"kifucam \" COMMAND \" \\-\\-help\"\nprints.\n")
foreach(c IN LISTS KC_COMMANDS)
  kc_roff(sum "${KC_SUMMARY_${c}}")
  kc_roff(body "${KC_HELP_${c}}")
  string(STRIP "${body}" body)
  string(APPEND m ".SS kifucam ${c}\n${sum}\n.PP\n.EX\n${body}\n.EE\n")
endforeach()
string(APPEND m ".SH EXIT STATUS\n.TP\n.B 0\nsuccess\n.TP\n.B 1\nthe work ran but found a problem (no board in the image, an illegal move in a record)\n.TP\n.B 2\nbad usage, or unreadable or malformed input\n.PP\nEvery error is one line on standard error naming the command and what is wrong.\n")
string(APPEND m ".SH SEE ALSO\nThe README.md installed with the documentation (share/doc/kifucam under the installation prefix), and its docs/web.md and samples/README.md.\n")
file(WRITE "${OUT}.tmp" "${m}")
file(RENAME "${OUT}.tmp" "${OUT}")
