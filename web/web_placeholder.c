/* placeholder until the module lands */
int kc_web_placeholder(void);
int kc_web_placeholder(void) { return 0; }
