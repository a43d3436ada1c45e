# Sourced by the device scripts: unpacks the carried Debian packages (.deb/,
# scripts/device/fetch-debs.sh) into a private prefix on the GPU machine and
# points CMake at it.
prefix=/tmp/cuzk-prefix
mkdir -p $prefix
for f in .deb/*.deb; do dpkg -x "$f" $prefix; done
export CMAKE_PREFIX_PATH=$prefix/usr:$prefix/usr/lib/x86_64-linux-gnu/cmake
