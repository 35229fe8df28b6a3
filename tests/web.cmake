# tests/web.cmake: the web server over loopback HTTP (cmocka), and the end-to-end browser
# test (chromium headless driven by playwright-core; skips with 77 when either is missing).
kc_test(test_web SOURCES web/test_web.c LIBS kc_web)
