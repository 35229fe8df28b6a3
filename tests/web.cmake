# tests/web.cmake: the web server over loopback HTTP (cmocka), and the end-to-end browser
# test (chromium headless driven by playwright-core; skips with 77 when either is missing).
kc_test(test_web SOURCES web/test_web.c LIBS kc_web)
kc_test(test_web_state SOURCES web/test_web_state.c LIBS kc_web PkgConfig::JANSSON)

# A stand-in station: replays an SGF into the server and answers the console's actions
# (used by the browser test and the screenshots; docs/web.md shows how to try it).
add_executable(web_demo_server web/web_demo_server.c)
target_link_libraries(web_demo_server PRIVATE kc_web)

# The browser test: chromium headless + playwright-core (npm, installed by run.sh into
# tests/web/browser/node_modules). Screenshots land in the build folder (web-browser/);
# docs/overlay.png and docs/console.png are copies of them.
add_test(NAME web_browser
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/web/browser/run.sh $<TARGET_FILE:web_demo_server>
          ${CMAKE_CURRENT_BINARY_DIR}/web-browser)
set_tests_properties(web_browser PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)

# The same overlay against a real recording: run-record.sh renders 10 moves of footage and
# e2e-record.mjs records it (`kifucam record --serve --realtime`) with chromium watching
# /overlay: every move shown, in order, within 1 s of the record's event; 401 without token.
add_test(NAME web_browser_record
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/web/browser/run-record.sh $<TARGET_FILE:kifucam>
          ${CMAKE_CURRENT_BINARY_DIR}/web-browser-record)
set_tests_properties(web_browser_record PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180)

# The console's corner editor against `kifucam calibrate --serve`: run-calibrate.sh renders
# one frame of an empty board and e2e-calibrate.mjs drags the four corners (given 37-43 px
# wrong) onto the renderer's truth in chromium and accepts: the saved profile's corners
# within 2 px of the truth; 401 without token, 400 for corners outside the frame.
add_test(NAME web_browser_calibrate
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/web/browser/run-calibrate.sh $<TARGET_FILE:kifucam>
          ${CMAKE_CURRENT_BINARY_DIR}/web-browser-calibrate)
set_tests_properties(web_browser_calibrate PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180)

# The correction page of `kifucam count PHOTO --serve` (run-count.sh, e2e-count.mjs) on
# samples/frames/end-signals.png in chromium: the photo with its grid and handles, a
# corner dragged (the photo read again), the prisoners (B+0.5), a black group marked dead
# with a click (the count changes), a point corrected, 401 / 400, Accept: exit 0 and the
# record's RE, RU, KM, AB/AW, KD, TB/TW.
add_test(NAME web_browser_count
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/web/browser/run-count.sh $<TARGET_FILE:kifucam>
          ${CMAKE_CURRENT_BINARY_DIR}/web-browser-count)
set_tests_properties(web_browser_count PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180)
