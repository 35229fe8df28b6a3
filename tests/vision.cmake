# tests/vision.cmake: vision/ tests.
#  vision_reader         the learned point reader: the built-in weights read a rendered
#                        board and see a hand; bad model files; the board view; the
#                        decision and the occlusion pass
#  vision_unit           synthetic boards drawn in C: detection, classification, tracking
#  vision_cli            `kifucam detect`: formats, --corners, bad input and exit codes
#  vision_track_shift    tracking: a board bumped by a third of a cell is refined, an arm
#                        over most of the board is not a moved board, a move of cells is
#                        lost (synthetic boards)
#  vision_hands          hands over rendered footage (`kifucam render`): marked occluded,
#                        never read as stones
#  vision_border         the border watch (video): an arm across the border hides the
#                        edge points beside it; light, a still thing, an edge stone do not
#                        (synthetic boards)
#  vision_detect_side    cold board finding on rendered stills: full boards from the side,
#                        empty boards at 640x360 (`kifucam render` at test time)
#  vision_golden_data    the shared photo sets are readable (skips visibly without them)
#  vision_golden_<id>    one test per shared photo (automatic mode, 8 symmetries) and
#  vision_golden_corners_<id>  per gomrade photo with trusted corners (direct), each held
#                        to the mistakes recorded in tests/vision/golden_expected.txt
kc_test(vision_reader SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/vision/test_reader.c LIBS kc_vision kc_render m)
kc_test(vision_unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/vision/test_vision.c LIBS kc_vision m)
kc_test(vision_cli SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/vision/test_vision_cli.c LIBS kc_vision m)
kc_test(vision_golden_data SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/vision/test_golden.c LIBS kc_vision)
kc_test(vision_track_shift SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/vision/test_track_shift.c LIBS kc_vision m)
kc_test(vision_border SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/vision/test_border.c LIBS kc_vision m)
kc_test(vision_hands SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/vision/test_hands.c LIBS kc_vision kc_render)
set_tests_properties(vision_unit PROPERTIES TIMEOUT 300)
set_tests_properties(vision_hands PROPERTIES TIMEOUT 300)
kc_test(vision_detect_side SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/vision/test_detect_side.c LIBS kc_vision kc_render m)
set_tests_properties(vision_detect_side PROPERTIES TIMEOUT 300)

# the per-image tests, generated from the index.tsv files when the data is there
set(_kc_shared "$ENV{KIFUCAM_SHARED}")
if(NOT _kc_shared OR NOT EXISTS "${_kc_shared}/data")
  set(_kc_shared "${KIFUCAM_SHARED_DEFAULT}")
endif()
if(EXISTS "${_kc_shared}/data/photos")
  foreach(_set imago gomrade)
    set(_dir "${_kc_shared}/data/photos/${_set}")
    if(NOT EXISTS "${_dir}/index.tsv")
      continue()
    endif()
    # corners hold ';', CMake's list separator: carry them as '|' (test_golden.c turns
    # them back)
    file(READ "${_dir}/index.tsv" _text)
    string(REPLACE ";" "|" _text "${_text}")
    string(REPLACE "\r" "" _text "${_text}")
    string(REPLACE "\n" ";" _rows "${_text}")
    list(GET _rows 0 _head)
    string(REPLACE "\t" ";" _head "${_head}")
    list(FIND _head "id" _ci)
    list(FIND _head "image" _cm)
    list(FIND _head "truth" _ct)
    list(FIND _head "corners" _cc)
    list(FIND _head "corners_ok" _co)
    list(REMOVE_AT _rows 0)
    foreach(_row IN LISTS _rows)
      if(_row STREQUAL "")
        continue()
      endif()
      string(REPLACE "\t" ";" _f "${_row}")
      list(GET _f ${_ci} _id)
      list(GET _f ${_cm} _img)
      list(GET _f ${_ct} _tr)
      add_test(NAME vision_golden_${_id}
        COMMAND vision_golden_data ${_id} auto "${_dir}/${_img}" "${_dir}/${_tr}")
      set_tests_properties(vision_golden_${_id} PROPERTIES
        ENVIRONMENT "KIFUCAM_SOURCE=${CMAKE_SOURCE_DIR}" SKIP_RETURN_CODE 77 TIMEOUT 120)
      if(_cc GREATER -1 AND _co GREATER -1)
        list(GET _f ${_cc} _corners)
        list(GET _f ${_co} _ok)
        if(_ok STREQUAL "1")
          add_test(NAME vision_golden_corners_${_id}
            COMMAND vision_golden_data ${_id} corners "${_dir}/${_img}" "${_dir}/${_tr}" "${_corners}")
          set_tests_properties(vision_golden_corners_${_id} PROPERTIES
            ENVIRONMENT "KIFUCAM_SOURCE=${CMAKE_SOURCE_DIR}" SKIP_RETURN_CODE 77 TIMEOUT 120)
        endif()
      endif()
    endforeach()
  endforeach()
endif()

# The training data's ring labels (kifucam-traingen render --ring-hands 1): the same
# views and point labels as without, the ring covered under a hand or an arm on the border.
# And --knocked 2: the stones knocked halfway labelled covered on both points; photos
# --stone-size 1: a grid at half the spacing refused (on ../shared/data when there).
find_program(KC_PYTHON3 python3)
if(KC_PYTHON3)
  add_test(NAME test_traingen
    COMMAND ${KC_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/vision/test_traingen.py
            $<TARGET_FILE:kifucam-traingen>)
  set_tests_properties(test_traingen PROPERTIES TIMEOUT 600)
  # --far-shift: wrong grids moved by whole lines (apart: its renders take minutes under ASan)
  add_test(NAME test_traingen_far
    COMMAND ${KC_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/vision/test_traingen.py
            $<TARGET_FILE:kifucam-traingen> far)
  set_tests_properties(test_traingen_far PROPERTIES TIMEOUT 600)
  # every third-party module train/*.py imports comes from a package that
  # `scripts/bootstrap.sh train` installs (cv2 once did not: make train-folds stopped)
  add_test(NAME test_train_deps
    COMMAND ${KC_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/vision/test_train_deps.py)
endif()
