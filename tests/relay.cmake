# tests/relay.cmake: the relay (relay/): its parts alone (test_relay: the broker URL, the
# journal, the hub's board table), through a real mosquitto started by the test on a
# loopback port of its own (test_relay_broker: a broker restart, a network cut, a wrong
# password, a resumed journal), and end to end with the kifucam binary (test_relay_cli:
# `kifucam record --relay` of rendered footage and `kifucam hub`).
kc_test(test_relay SOURCES relay/test_relay.c LIBS kc_hub kc_relay PkgConfig::JANSSON)
kc_test(test_relay_broker SOURCES relay/test_relay_broker.c LIBS kc_hub kc_relay PkgConfig::JANSSON)
set_tests_properties(test_relay_broker PROPERTIES TIMEOUT 180)
kc_test(test_relay_cli SOURCES relay/test_relay_cli.c LIBS PkgConfig::JANSSON)
add_dependencies(test_relay_cli kifucam)
set_tests_properties(test_relay_cli PROPERTIES TIMEOUT 300)
