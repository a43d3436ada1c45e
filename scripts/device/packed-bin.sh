# Sourced by the device scripts that run the packed build: unpacks
# .carry/cuzk.tar.gz (scripts/device/pack.sh) into $bin on the GPU machine,
# afresh every time (a warm machine may still hold an earlier call's build),
# and points the loader at the libraries packed with it. CUZK_PACKED_BIN
# names another folder for it (tests/scripts/perf_guard_test.sh).
bin=${CUZK_PACKED_BIN:-/tmp/cuzk-bin}
rm -rf $bin && mkdir -p $bin && tar xzf .carry/cuzk.tar.gz -C $bin || { echo "no .carry/cuzk.tar.gz"; exit 2; }
export LD_LIBRARY_PATH=$bin/lib
