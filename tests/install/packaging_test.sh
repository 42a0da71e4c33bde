#!/usr/bin/env bash
# Parallax as an installed desktop application (packaging/), checked on an already-built tree:
#
#   packaging_test.sh install    BUILD SOURCE   cmake --install into a temporary prefix: every
#                                               file in place, the installed programs run
#                                               (--version, parallax --help without a display,
#                                               parallax-cli info and render on a sample run),
#                                               the launcher and the metainfo validate
#   packaging_test.sh completion BUILD SOURCE   the bash completion knows every command the CLI
#                                               dispatches, and completes commands, options and
#                                               views in a real bash
#   packaging_test.sh deb        BUILD SOURCE   the CPack step alone: the .deb's control fields
#                                               (dependencies from dpkg-shlibdeps) and contents
set -euo pipefail

mode=$1
build=$(cd "$2" && pwd)
source_dir=$(cd "$3" && pwd)
app_id=org.parallax.Parallax
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
scratch=$(mktemp -d "${TMPDIR:-/tmp}/parallax-packaging.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

need_tool() {
  command -v "$1" > /dev/null || fail "$1 is missing: install $2 (tools/install-deps.sh)"
}

# The commands of parallax-cli's dispatcher (app/cli): `command == "NAME"` and registerCommand.
dispatched_commands() {
  grep -ohE 'command == "[a-z][a-z0-9-]*"|registerCommand\("[a-z][a-z0-9-]*"' \
    "$source_dir"/app/cli/*.cpp "$source_dir"/app/cli/*.h "$source_dir"/app/render/*.cpp \
    | sed -E 's/.*"([^"]*)".*/\1/' | grep -vx help | sort -u
}

# What the completion offers for the words given (the last one is being completed).
complete_words() {
  bash --norc --noprofile -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
    _parallax_cli
    printf "%s\n" "${COMPREPLY[@]}"' complete "$completion" parallax-cli "$@"
}

check_install() {
  local prefix=$scratch/prefix
  cmake --install "$build" --prefix "$prefix" > "$scratch/install.log" \
    || fail "cmake --install failed: $(cat "$scratch/install.log")"
  local share=$prefix/share
  for file in bin/parallax bin/parallax-cli bin/parallax-gen \
    "share/applications/$app_id.desktop" "share/metainfo/$app_id.metainfo.xml" \
    "share/mime/packages/$app_id.xml" "share/icons/hicolor/scalable/apps/$app_id.svg" \
    share/man/man1/parallax.1.gz share/man/man1/parallax-cli.1.gz \
    share/bash-completion/completions/parallax-cli; do
    [[ -e $prefix/$file ]] || fail "not installed: $file"
  done
  for size in 16 22 24 32 48 64 128 256; do
    local png=$share/icons/hicolor/${size}x${size}/apps/$app_id.png
    [[ -f $png ]] || fail "no ${size}x${size} icon"
  done

  # Every program says its version; the GUI's --help and --version need no display.
  for program in "$prefix"/bin/*; do
    local name
    name=$(basename "$program")
    local said
    said=$(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$program" --version) \
      || fail "$name --version failed"
    [[ $said == "$name $version" ]] || fail "$name --version said '$said'"
  done
  local help
  help=$(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$prefix/bin/parallax" --help) \
    || fail "parallax --help failed without a display"
  [[ $help == *"Usage: parallax "* ]] || fail "parallax --help: $help"
  local rc=0
  env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$prefix/bin/parallax" \
    2> "$scratch/no-display.txt" || rc=$?
  [[ $rc == 1 ]] && grep -q "no display" "$scratch/no-display.txt" \
    || fail "parallax without a display: exit $rc, $(cat "$scratch/no-display.txt")"

  # The installed CLI reads a run and draws a view headless.
  local run=$source_dir/sample-logs/imbalance
  "$prefix/bin/parallax-cli" info "$run" --cache-dir "$scratch/cache" > "$scratch/info.txt" \
    2> /dev/null || fail "installed parallax-cli info failed"
  grep -qx "pes: 12" "$scratch/info.txt" || fail "parallax-cli info: $(head -3 "$scratch/info.txt")"
  env -u DISPLAY -u QT_QPA_PLATFORM "$prefix/bin/parallax-cli" render usage "$run" \
    --cache-dir "$scratch/cache" --width 400 --height 300 -o "$scratch/usage.png" \
    || fail "installed parallax-cli render failed"
  [[ $(head -c 4 "$scratch/usage.png" | tail -c 3) == PNG ]] || fail "render wrote no PNG"

  # The man pages render, with every command's own help in parallax-cli's.
  if command -v man > /dev/null; then
    MANWIDTH=100 man -l "$share/man/man1/parallax-cli.1.gz" > "$scratch/man.txt" 2> /dev/null \
      || fail "man parallax-cli does not render"
    for section in NAME SYNOPSIS DESCRIPTION COMMANDS; do
      grep -q "^$section" "$scratch/man.txt" || fail "man parallax-cli has no $section"
    done
    grep -q "usage: parallax-cli histogram RUN" "$scratch/man.txt" \
      || fail "man parallax-cli lacks the histogram command's help"
    MANWIDTH=100 man -l "$share/man/man1/parallax.1.gz" | grep -q "PARALLAX_CACHE_DIR" \
      || fail "man parallax lacks the help text"
  fi

  need_tool appstreamcli appstream
  appstreamcli validate --no-net "$share/metainfo/$app_id.metainfo.xml" > "$scratch/as.txt" \
    || fail "appstreamcli validate: $(cat "$scratch/as.txt")"
  need_tool desktop-file-validate desktop-file-utils
  desktop-file-validate "$share/applications/$app_id.desktop" \
    || fail "desktop-file-validate found problems"
  grep -qx "Icon=$app_id" "$share/applications/$app_id.desktop" || fail "the launcher's icon"
}

check_completion() {
  completion=$build/packaging/help/parallax-cli
  [[ -f $completion ]] || fail "no generated completion at $completion"
  local offered
  offered=$(complete_words "")
  for command in $(dispatched_commands); do
    grep -qx -- "$command" <<< "$offered" \
      || fail "the bash completion lacks the command '$command' (is it in parallax-cli --help?)"
  done
  for option in --help --version; do
    grep -qx -- "$option" <<< "$offered" || fail "the completion lacks $option"
  done
  [[ $(complete_words ren) == render ]] || fail "'ren' completes to '$(complete_words ren)'"
  [[ $(complete_words histogram RUN --met) == --metric ]] || fail "histogram --met"
  grep -qx -- "--cache-dir" <<< "$(complete_words usage RUN --)" || fail "usage --"
  [[ $(complete_words render time-) == time-profile ]] || fail "render time-"
  grep -qx timeline <<< "$(complete_words render '')" || fail "render's views"
  # Files after the command: the sample runs' directory completes.
  (cd "$source_dir" && [[ $(complete_words info sample-l) == sample-logs ]]) \
    || fail "file names after a command"
}

check_deb() {
  need_tool dpkg-deb dpkg
  need_tool dpkg-shlibdeps dpkg-dev
  (cd "$build" && cpack -G DEB -B "$scratch/package" > "$scratch/cpack.log" 2>&1) \
    || fail "cpack failed: $(tail -5 "$scratch/cpack.log")"
  local deb=("$scratch"/package/parallax_"$version"_*.deb)
  [[ -f ${deb[0]} ]] || fail "no parallax_${version}_ARCH.deb in $(ls "$scratch/package")"
  dpkg-deb -I "${deb[0]}" > "$scratch/control.txt"
  for field in "Package: parallax" "Version: $version" "Section: science"; do
    grep -q "^ $field\$" "$scratch/control.txt" || fail "control lacks '$field'"
  done
  local depends
  depends=$(sed -n 's/^ Depends: //p' "$scratch/control.txt")
  for package in libc6 libstdc++6 zlib1g libqt6core6 libqt6gui6 libqt6widgets6 libqt6svg6; do
    [[ $depends == *"$package ("* ]] || fail "Depends lacks $package: $depends"
  done
  dpkg-deb -c "${deb[0]}" | awk '{print $6}' > "$scratch/contents.txt"
  for file in ./usr/bin/parallax ./usr/bin/parallax-cli ./usr/bin/parallax-gen \
    "./usr/share/applications/$app_id.desktop" "./usr/share/metainfo/$app_id.metainfo.xml" \
    "./usr/share/icons/hicolor/48x48/apps/$app_id.png" ./usr/share/man/man1/parallax.1.gz \
    ./usr/share/bash-completion/completions/parallax-cli; do
    grep -qx -- "$file" "$scratch/contents.txt" || fail "the package lacks $file"
  done
  ! grep -E 'tests|bench|\.a$' "$scratch/contents.txt" || fail "the package holds test files"
  # With the Python module in the package, what it imports is recommended.
  if grep -q '/dist-packages/parallax/' "$scratch/contents.txt"; then
    grep -q '^ Recommends: .*python3-pandas' "$scratch/control.txt" \
      || fail "the package has the Python module but does not recommend python3-pandas"
  fi
}

case $mode in
  install) check_install ;;
  completion) check_completion ;;
  deb) check_deb ;;
  *) fail "unknown mode $mode" ;;
esac
echo "ok: $mode"
