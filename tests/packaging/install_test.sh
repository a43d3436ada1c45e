#!/usr/bin/env bash
# Installing cuzk: `cmake --install` into a scratch prefix, and the .deb that
# `cpack -G DEB` builds, unpacked into a scratch root with dpkg-deb. Checks
# the binary runs, the systemd unit names the installed binary and config and
# asks for its runtime and cache directories, the config passes
# --check-config, the config is a conffile, and the docs are there.
#   install_test.sh BUILD_DIR WORKDIR
set -euo pipefail
build=$(realpath "$1")
work=$2
command -v dpkg-deb >/dev/null || { echo "SKIP: no dpkg-deb (not a Debian system)"; exit 77; }
rm -rf "$work" && mkdir -p "$work"
work=$(realpath "$work")
passed=0
failed=0
check() {  # check "description" command...
  local what=$1; shift
  if "$@" > "$work/last.log" 2>&1; then passed=$((passed + 1)); echo "  ok    $what"
  else failed=$((failed + 1)); echo "  FAIL  $what"; tail -5 "$work/last.log" | sed 's/^/        /'; fi
}
# The unit file's line KEY=VALUE, exactly.
has_line() { grep -qxF -- "$2" "$1"; }

echo "install: cmake --install into a scratch prefix"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
p=$work/prefix
check "bin/cuzk runs" "$p/bin/cuzk" version
check "the unit is installed" test -f "$p/lib/systemd/system/cuzk.service"
check "... and starts the installed binary with the installed config" \
  has_line "$p/lib/systemd/system/cuzk.service" "ExecStart=$p/bin/cuzk serve --config $p/etc/cuzk/cuzk.toml"
check "the service config is installed" test -f "$p/etc/cuzk/cuzk.toml"
check "the example config with every key" test -f "$p/share/doc/cuzk/config.example.toml"
echo "# changed by the administrator" >> "$p/etc/cuzk/cuzk.toml"
cmake --install "$build" --prefix "$work/prefix" > "$work/install2.log"
check "installing again keeps a changed config" grep -q "changed by the administrator" "$p/etc/cuzk/cuzk.toml"

echo "install: the .deb"
(cd "$build" && cpack -G DEB -B "$work/deb" > "$work/cpack.log" 2>&1) || { tail -20 "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/deb/cuzk_*.deb)
dpkg-deb -x "$deb" "$work/root"
dpkg-deb -e "$deb" "$work/control"
r=$work/root
unit=$r/lib/systemd/system/cuzk.service
check "usr/bin/cuzk runs" "$r/usr/bin/cuzk" version
# The package says which build it is, and so does the binary: the GPU build
# names the architectures it carries device code for.
if grep -q "^CUZK_HAVE_CUDA:.*=ON" "$build/CMakeCache.txt" 2>/dev/null ||
   "$r/usr/bin/cuzk" version | grep -q "^cuda: *on"; then
  check "the .deb says it is the GPU build" grep -q "GPU build" "$work/control/control"
  check "... and cuzk version names the GPU code it carries" \
    bash -c "'$r/usr/bin/cuzk' version | grep -qE '^cuda: +on, GPU code for sm_[0-9]+'"
  check "... with no libcudart to install (the runtime is linked in)" \
    bash -c "! ldd '$r/usr/bin/cuzk' | grep -q libcudart"
else
  check "the .deb says it is the CPU build" grep -q "CPU build" "$work/control/control"
fi
check "the unit starts /usr/bin/cuzk with /etc/cuzk/cuzk.toml" \
  has_line "$unit" "ExecStart=/usr/bin/cuzk serve --config /etc/cuzk/cuzk.toml"
check "... as the user and group cuzk" has_line "$unit" "User=cuzk"
check "... whose group may enter /run/cuzk" has_line "$unit" "RuntimeDirectoryMode=0750"
check "... seeing Curio's parameter directory, read-only" \
  has_line "$unit" "ReadOnlyPaths=-/var/tmp/filecoin-proof-parameters"
check "... without a private /tmp that would hide it" has_line "$unit" "PrivateTmp=no"
check "the user is made by sysusers.d" grep -q "^u cuzk " "$r/usr/lib/sysusers.d/cuzk.conf"
check "... or by postinst" grep -q "systemd-sysusers cuzk.conf" "$work/control/postinst"
check "... with its socket directory /run/cuzk" has_line "$unit" "RuntimeDirectory=cuzk"
check "... and its cache directory /var/cache/cuzk" has_line "$unit" "CacheDirectory=cuzk"
check "... stopped by SIGTERM (the daemon drains)" has_line "$unit" "KillSignal=SIGTERM"
check "... wanted by multi-user.target" has_line "$unit" "WantedBy=multi-user.target"
check "the config listens where the unit's runtime directory is" \
  grep -qxF 'listen = "unix:///run/cuzk/cuzk.sock"' "$r/etc/cuzk/cuzk.toml"
check "... shares its socket with the group cuzk" grep -qxF 'socket_group = "cuzk"' "$r/etc/cuzk/cuzk.toml"
check "... and caches in /var/cache/cuzk" grep -qxF 'dir = "/var/cache/cuzk"' "$r/etc/cuzk/cuzk.toml"
# The group cuzk is made when the package is installed (sysusers.d or
# postinst). Where it is not there, the config is checked with a group that
# is, and the shipped one must be refused naming the group, as the start would.
checked=$r/etc/cuzk/cuzk.toml
if ! getent group cuzk > /dev/null; then
  checked=$work/check.toml
  sed "s|^socket_group = \"cuzk\"\$|socket_group = \"$(id -gn)\"|" "$r/etc/cuzk/cuzk.toml" > "$checked"
  refused_naming_group() {
    local rc=0
    "$1" serve --config "$2" --check-config > "$work/group.err" 2>&1 || rc=$?
    [[ $rc -eq 2 ]] && grep -q 'socket_group: no group "cuzk"' "$work/group.err"
  }
  check "... refused by --check-config before the group cuzk exists, naming it" \
    refused_naming_group "$r/usr/bin/cuzk" "$r/etc/cuzk/cuzk.toml"
fi
check "... and passes --check-config" "$r/usr/bin/cuzk" serve --config "$checked" --check-config
check "it is a conffile" grep -qxF /etc/cuzk/cuzk.toml "$work/control/conffiles"
check "the package depends on the libraries it links" grep -q "^Depends: .*libc6" "$work/control/control"
check "docs and the .proto" test -f "$r/usr/share/doc/cuzk/daemon.md" -a -f "$r/usr/share/cuzk/cuzk.proto"
check "filecoin.md, which the unit names" test -f "$r/usr/share/doc/cuzk/filecoin.md"
check "maintainer scripts are executable" test -x "$work/control/postinst" -a -x "$work/control/prerm"
if command -v systemd-analyze >/dev/null; then
  # A copy whose ExecStart names the unpacked binary (verify checks that it exists).
  mkdir -p "$work/analyze"
  sed "s|^ExecStart=/usr/bin/cuzk|ExecStart=$r/usr/bin/cuzk|" "$unit" > "$work/analyze/cuzk.service"
  check "systemd-analyze verify accepts the unit" systemd-analyze verify --man=no "$work/analyze/cuzk.service"
fi
echo "install: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
