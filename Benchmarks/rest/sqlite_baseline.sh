# Sourced by run.sh: builds sqlite_read.c against the SQLite the server runs.
#
# build_sqlite_baseline OUTPUT links the object SwiftPM compiled for the release build
# (VaporCSQLite, sqlite-nio's amalgamation) when SCRATCH has one; otherwise it compiles the
# amalgamation from sqlite-nio's checkout with the defines sqlite-nio's Package.swift sets
# for every configuration (about a minute and a half on two cores).
build_sqlite_baseline() {
  local output=$1 object checkout defines
  object=$SCRATCH/release/VaporCSQLite.build/sqlite_nio_sqlite3.c.o
  for checkout in "$SCRATCH/checkouts/sqlite-nio" .build-release/checkouts/sqlite-nio .build/checkouts/sqlite-nio ""; do
    [ -f "$checkout/Sources/VaporCSQLite/include/sqlite_nio_sqlite3.h" ] && break
  done
  [ -n "$checkout" ] || { echo "no sqlite-nio checkout: run swift build once" >&2; exit 1; }
  local compiler=${CC:-$(command -v gcc || command -v clang)}
  local include=$checkout/Sources/VaporCSQLite/include
  if [ -f "$object" ]; then
    "$compiler" -O2 -pthread -I "$include" "$here/sqlite_read.c" "$object" -o "$output" -ldl -lm
  else
    defines=$(sed -n '/sqliteCSettings/,$p' "$checkout/Package.swift" | grep '\.define(' | grep -v '\.when(' |
      sed -E 's/.*\.define\("([A-Za-z0-9_]+)", to: "([^"]*)"\).*/-D\1=\2/; s/.*\.define\("([A-Za-z0-9_]+)"\).*/-D\1/')
    echo "compiling SQLite for the in-process baseline ($compiler -O2)…" >&2
    # shellcheck disable=SC2086
    "$compiler" -O2 -w -pthread $defines -I "$include" "$here/sqlite_read.c" \
      "$checkout/Sources/VaporCSQLite/sqlite_nio_sqlite3.c" -o "$output" -ldl -lm
  fi
}
