/* placeholder until the module lands */
int kc_capture_placeholder(void);
int kc_capture_placeholder(void) { return 0; }
