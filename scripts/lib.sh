# Shell helpers the scripts source (not run on its own).

# apt_install_missing TAG PACKAGE...: installs those of the Debian packages that are not
# installed yet (with sudo unless root), saying so on stderr under TAG; does nothing when all
# are there, so scripts can call it on every run.
apt_install_missing() {
  local tag=$1
  shift
  local missing=() package
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$package")
  done
  [ "${#missing[@]}" -gt 0 ] || return 0
  echo "$tag: installing ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}
