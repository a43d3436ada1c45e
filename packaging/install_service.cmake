# Runs at install time (cmake --install, and cpack's staging install), when
# CMAKE_INSTALL_PREFIX is the prefix being installed to: the unit names the
# installed binary and config. With prefix /usr (the .deb) the config goes to
# /etc and the unit to /lib/systemd/system; under any other prefix both stay
# inside it. An existing config is kept (it is the administrator's).
# Expects CUZK_PACKAGING_DIR (the sources) and CUZK_STAGING_DIR (in the build tree).
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(sysconfdir "/etc")
  set(unitdir "/lib/systemd/system")
  set(sysusersdir "/usr/lib/sysusers.d")
else()
  set(sysconfdir "${CMAKE_INSTALL_PREFIX}/etc")
  set(unitdir "${CMAKE_INSTALL_PREFIX}/lib/systemd/system")
  set(sysusersdir "${CMAKE_INSTALL_PREFIX}/lib/sysusers.d")
endif()
set(CUZK_BINDIR "${CMAKE_INSTALL_PREFIX}/bin")
set(CUZK_SYSCONFDIR "${sysconfdir}")
set(CUZK_DOCDIR "${CMAKE_INSTALL_PREFIX}/share/doc/cuzk")
set(staging "${CUZK_STAGING_DIR}")
configure_file("${CUZK_PACKAGING_DIR}/cuzk.service.in" "${staging}/cuzk.service" @ONLY)
configure_file("${CUZK_PACKAGING_DIR}/cuzk.toml" "${staging}/cuzk.toml" @ONLY)
file(INSTALL "${staging}/cuzk.service" DESTINATION "${unitdir}")
file(INSTALL "${CUZK_PACKAGING_DIR}/cuzk.sysusers" DESTINATION "${sysusersdir}" RENAME cuzk.conf)
if(EXISTS "$ENV{DESTDIR}${sysconfdir}/cuzk/cuzk.toml")
  message(STATUS "Keeping: $ENV{DESTDIR}${sysconfdir}/cuzk/cuzk.toml")
else()
  file(INSTALL "${staging}/cuzk.toml" DESTINATION "${sysconfdir}/cuzk")
endif()
