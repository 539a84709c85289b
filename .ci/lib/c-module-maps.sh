# Sourced by the scripts that run swiftc or swift-symbolgraph-extract by hand against a build's
# modules. `-I <bin>/Modules` holds Swift modules only; a module that imports one of the package's C
# targets (DelegateProxyKit imports CForwardingPath) also needs that target's module map.
#
# c_module_maps BIN: sets the array `cmaps` to `-Xcc -fmodule-map-file=<map>` for each C target
# of the build whose bin path is BIN.
c_module_maps() {
  cmaps=()
  local map
  for map in "$1"/*.build/module.modulemap; do
    if [ -f "$map" ]; then cmaps+=(-Xcc "-fmodule-map-file=$map"); fi
  done
}
