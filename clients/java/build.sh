#!/usr/bin/env bash
# Builds the Java client with the JDK and Jackson from Debian (no Maven Central) and, with
# `test`, runs its JUnit 5 tests (Debian's junit5 package) against VOUCH_URL / VOUCH_ADMIN_KEY.
#   clients/java/build.sh         -> build/vouch-client.jar
#   clients/java/build.sh test    -> also compiles and runs src/test
set -euo pipefail
cd "$(dirname "$0")"
JAVA_LIB=${JAVA_LIB:-/usr/share/java}
JACKSON="$JAVA_LIB/jackson-databind.jar:$JAVA_LIB/jackson-core.jar:$JAVA_LIB/jackson-annotations.jar"
for jar in ${JACKSON//:/ }; do
  [ -f "$jar" ] || { echo "build.sh: $jar is missing: apt-get install libjackson2-databind-java" >&2; exit 1; }
done

rm -rf build/classes build/test-classes
mkdir -p build/classes build/test-classes
javac --release 17 -parameters -Xlint:all -Werror -d build/classes -cp "$JACKSON" \
  $(find src/main/java -name '*.java')
jar --create --file build/vouch-client.jar -C build/classes .
echo "build.sh: build/vouch-client.jar" >&2
[ "${1:-}" = "test" ] || exit 0

CONSOLE="$JAVA_LIB/junit-platform-console-standalone.jar"
[ -f "$CONSOLE" ] || { echo "build.sh: $CONSOLE is missing: apt-get install junit5" >&2; exit 1; }
javac --release 17 -d build/test-classes -cp "build/classes:$JACKSON:$CONSOLE" \
  $(find src/test/java -name '*.java')
java -jar "$CONSOLE" --disable-banner --details=tree --fail-if-no-tests \
  -cp "build/classes:build/test-classes:$JACKSON" --select-package dev.vouch.client
