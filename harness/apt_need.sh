# apt_need.sh: sourced by the set-up scripts (setup.sh, amd_toolchain.sh).
# mlab_apt_need WHO PKG...: installs the Debian/Ubuntu packages not yet
# installed (apt-get, with sudo unless root), saying which on stderr as WHO.
mlab_apt_need() {
  local who=$1 missing="" p
  shift
  for p in "$@"; do
    # installed, not merely known (dpkg -s succeeds for a removed package's config files)
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] || missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  echo "$who: installing$missing" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
}
