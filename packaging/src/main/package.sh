#!/bin/sh
# Run by Maven in the installer profile's package phase: builds the Linux app image and the .deb.
#   1. jlink: a runtime of the JDK's own modules only (httpclient5 has no real module descriptor, so
#      the jars stay on the class path, shipped as jpackage's --input)
#   2. jpackage --type app-image: the desktop app (/opt/braid/bin/Braid), with braid's command-line
#      launcher, jar, compiler directives and SQLite library added under lib/cli
#   3. jpackage --type deb: the menu entry and icon; the install script makes the launcher's class
#      archive (braid setup); uncompressed, as step 4 packs it again
#   4. dpkg-deb: adds what jpackage 17 cannot place outside /opt: /usr/bin/braid, the man pages and
#      the bash completion, so that dpkg owns them, and compresses with gzip (xz took ~4x as long)
# Usage: package.sh JDK TARGET CLI_TARGET GUI_TARGET MAN_DIR VERSION
set -eu
jdk=$1 target=$2 cli=$3 gui=$4 man=$5 version=${6%-SNAPSHOT}
src=$(dirname "$(readlink -f "$0")")
work="$target/jpackage"
rm -rf "$work" "$target/app" "$target"/*.deb
mkdir -p "$work/input" "$target/app"
step() { echo "package.sh: $* ($(date +%s))"; }

# the modules jdeps --print-module-deps finds in braid.jar and braid-gui.jar, and the ones found
# only at run time: jdk.crypto.ec (TLS key exchange), java.desktop (JavaFX's Swing bridge)
modules=java.base,java.desktop,java.naming,java.security.jgss,java.sql,jdk.crypto.ec,jdk.httpserver,jdk.jfr,jdk.net,jdk.unsupported,jdk.unsupported.desktop
step "jlink"
# --generate-cds-archive: the runtime's base class archive, which the launcher's archive extends
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --generate-cds-archive \
  --output "$work/runtime" > "$work/jlink.log"

step "app image"
cp "$gui/braid-gui.jar" "$work/input/"
"$jdk/bin/jpackage" --type app-image --name Braid --app-version "$version" --input "$work/input" \
  --main-jar braid-gui.jar --main-class dev.braid.gui.Main --runtime-image "$work/runtime" \
  --icon "$src/icons/braid.png" --description "Parallel ranged download manager" --dest "$target/app"
image="$target/app/Braid"
mkdir -p "$image/lib/cli"
cp -r "$cli/braid" "$cli/braid.jar" "$cli/braid-jit.json" "$image/lib/cli/"
[ -d "$cli/native" ] && cp -r "$cli/native" "$image/lib/cli/"
chmod 755 "$image/lib/cli/braid"

step "deb"
DPKG_DEB_COMPRESSOR_TYPE=none "$jdk/bin/jpackage" --type deb --app-image "$image" --name Braid --app-version "$version" \
  --linux-package-name braid --install-dir /opt --linux-shortcut --linux-menu-group "Network;FileTransfer" \
  --linux-app-category net --description "Parallel ranged download manager" --vendor Braid \
  --resource-dir "$src/deb" --dest "$work/deb"

step "repack"
tree="$work/tree"
dpkg-deb -R "$work"/deb/*.deb "$tree"
mkdir -p "$tree/usr/bin" "$tree/usr/share/man/man1" "$tree/usr/share/bash-completion/completions"
# relative, so that the link works in a folder the package is unpacked into as well
ln -s ../../opt/braid/lib/cli/braid "$tree/usr/bin/braid"
for page in "$man"/*.1; do
  gzip -9n < "$page" > "$tree/usr/share/man/man1/${page##*/}.gz"
done
JAVA_HOME="$tree/opt/braid/lib/runtime" "$tree/usr/bin/braid" completion bash > "$tree/usr/share/bash-completion/completions/braid"
deb="$target/braid_${version}_$(dpkg --print-architecture).deb"
fakeroot dpkg-deb -Zgzip --build "$tree" "$deb" > /dev/null
step "done: $deb"
