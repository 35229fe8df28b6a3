/* placeholder until the module lands */
int kc_render_placeholder(void);
int kc_render_placeholder(void) { return 0; }
