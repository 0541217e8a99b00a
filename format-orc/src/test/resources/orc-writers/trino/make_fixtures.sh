#!/usr/bin/env bash
# Writes the Trino ORC writer's fixtures of format-orc's tests (run once; the build never runs it).
#
# Writer: io.trino:trino-orc 483 (Trino's own ORC writer), which needs Java 25. The class path
# comes from pom.xml beside this script (not a module of the build); TrinoFixtures.java runs as a
# single-file source program and writes the trino-types-<codec>.orc files beside it.
set -euo pipefail
cd "$(dirname "$0")"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
classpath="$(mktemp)"
trap 'rm -f "$classpath"' EXIT
mvn -B -q -f pom.xml dependency:build-classpath -Dmdep.outputFile="$classpath"
"$JAVA_HOME/bin/java" -cp "$(cat "$classpath")" TrinoFixtures.java .
