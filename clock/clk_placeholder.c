/* placeholder until the module lands */
int kc_clock_placeholder(void);
int kc_clock_placeholder(void) { return 0; }
