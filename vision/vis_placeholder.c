/* placeholder until the module lands */
int kc_vision_placeholder(void);
int kc_vision_placeholder(void) { return 0; }
