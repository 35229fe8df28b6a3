/* placeholder until the module lands */
int kc_station_placeholder(void);
int kc_station_placeholder(void) { return 0; }
