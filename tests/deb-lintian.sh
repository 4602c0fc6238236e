#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# deb-lintian.sh: build a Debian package from the release tarball the way a distribution would,
# with a minimal debian/ folder whose rules file is plain `dh $@`, then run lintian on the .deb
# and the .changes.  Passes when lintian reports no E: or W: tag, the plugin folder holds the
# executable (0755) beside the manifest (0644), and kvikio-nic.pc names that folder.
# Not part of make check (it needs debhelper, lintian and a minute); .ci/run's step `deb` runs it.
#
# Usage: tests/deb-lintian.sh TARBALL    (the kvikio-nic-VERSION.tar.gz of `make dist`)
# Env:   KN_DEB_WORK  scratch folder, kept (default: a temporary one, removed on success)
#        DEB_BUILD_OPTIONS  passed through (nocheck skips the test suite in dh_auto_test)
# Installs debhelper, lintian, fakeroot and dpkg-dev with apt-get when missing and root.
# Exit status: 0 clean; 1 a tag, a wrong file or a failed build; 2 usage; 77 tools missing.
set -eu

tarball=${1:-}
case $tarball in
/*.tar.gz) ;;
?*.tar.gz) tarball=$(pwd)/$tarball ;;
*) echo "usage: $0 kvikio-nic-VERSION.tar.gz" >&2; exit 2 ;;
esac
[ -r "$tarball" ] || { echo "deb-lintian.sh: cannot read $tarball" >&2; exit 2; }

# The tools, installed when missing if we may.
tools_missing() {
	for tool in dh dpkg-buildpackage lintian fakeroot; do
		command -v "$tool" >/dev/null 2>&1 || { echo "$tool"; return 0; }
	done
}
if [ -n "$(tools_missing)" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -q \
		--no-install-recommends debhelper lintian fakeroot dpkg-dev >/dev/null ||
		echo "deb-lintian.sh: apt-get could not install debhelper, lintian, fakeroot, dpkg-dev"
fi
if [ -n "$(tools_missing)" ]; then
	echo "deb-lintian.sh: SKIP: $(tools_missing) is missing (apt-get install debhelper lintian fakeroot dpkg-dev)"
	exit 77
fi

work=${KN_DEB_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/kn-deb.XXXXXX")}
mkdir -p "$work"
base=$(basename "$tarball" .tar.gz)   # kvikio-nic-0.1.0
version=${base#kvikio-nic-}
src=$work/$base
rm -rf "$src"
tar -C "$work" -xzf "$tarball"
[ -f "$src/configure" ] || { echo "deb-lintian.sh: $tarball has no $base/configure" >&2; exit 1; }

# ---- A minimal debian/ folder: only what policy requires, and `dh $@` --------------------------
mkdir -p "$src/debian/source"
echo "3.0 (quilt)" >"$src/debian/source/format"
maint="kvikio-nic developers <kvikio-nic@example.org>"
cat >"$src/debian/control" <<EOF
Source: kvikio-nic
Section: devel
Priority: optional
Maintainer: $maint
Build-Depends: debhelper-compat (= 13), check, pkg-config, libsqlite3-dev
Standards-Version: 4.6.2
Rules-Requires-Root: no

Package: kvikio-nic
Architecture: linux-any
Depends: \${shlibs:Depends}, \${misc:Depends}
Description: network interface bandwidth on the Nsight Systems timeline
 kvikio_nic_nsys_plugin is a plugin for NVIDIA Nsight Systems that samples
 the kernel's per-interface byte counters at a fixed interval and emits the
 receive and transmit rates as NVTX counters, one group per interface plus
 a total. Without Nsight Systems it prints the same samples as CSV.
 kvikio_nic_report summarizes the recorded bandwidth per interface, NVTX
 range and node.
EOF
printf '%%:\n\tdh $@\n' >"$src/debian/rules"
chmod 0755 "$src/debian/rules"
cat >"$src/debian/changelog" <<EOF
kvikio-nic ($version-1) unstable; urgency=medium

  * Package built by kvikio-nic's tests/deb-lintian.sh, not for upload.

 -- $maint  $(date -R -d "@${SOURCE_DATE_EPOCH:-$(stat -c %Y "$tarball")}")
EOF
# A first upload closes its ITP bug; this package is never uploaded and has none. The override
# is about this throwaway folder, not the upstream code, and lintian shows it (O:).
echo "kvikio-nic: initial-upload-closes-no-bugs" >"$src/debian/kvikio-nic.lintian-overrides"
cat >"$src/debian/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: kvikio-nic

Files: *
Copyright: 2026 The kvikio-nic authors
License: Apache-2.0

License: Apache-2.0
 On Debian systems, the full text of the Apache License, Version 2.0 can be
 found in /usr/share/common-licenses/Apache-2.0.
EOF

# ---- Build and lint ------------------------------------------------------------------------------
echo "deb-lintian.sh: dpkg-buildpackage -us -uc -b in $src"
if ! (cd "$src" && dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1; then
	tail -60 "$work/build.log"
	echo "deb-lintian.sh: dpkg-buildpackage failed; the log is $work/build.log" >&2
	exit 1
fi
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
deb=$work/kvikio-nic_${version}-1_$arch.deb
changes=$work/kvikio-nic_${version}-1_$arch.changes
failed=0

# The plugin folder: executable 0755 beside manifest 0644, where kvikio-nic.pc says.
dir=usr/lib/$multiarch/kvikio-nic/nsys-plugins/kvikio_nic
dpkg-deb -c "$deb" | tee "$work/contents" | grep "/kvikio-nic/\|pkgconfig"
grep -q "^-rwxr-xr-x .* \./$dir/kvikio_nic_nsys_plugin\$" "$work/contents" ||
	{ echo "deb-lintian.sh: no executable ./$dir/kvikio_nic_nsys_plugin" >&2; failed=1; }
grep -q "^-rw-r--r-- .* \./$dir/nsys-plugin.yaml\$" "$work/contents" ||
	{ echo "deb-lintian.sh: no non-executable ./$dir/nsys-plugin.yaml" >&2; failed=1; }
rm -rf "$work/root" && dpkg-deb -x "$deb" "$work/root"
pc=$work/root/usr/lib/$multiarch/pkgconfig/kvikio-nic.pc
for var in plugindir nsys_plugin_search_dir; do
	got=$(pkg-config --variable="$var" "$pc")
	echo "pkg-config --variable=$var: $got"
	case $var in plugindir) want=/$dir ;; *) want=$(dirname "/$dir") ;; esac
	[ "$got" = "$want" ] || { echo "deb-lintian.sh: $var is $got, not $want" >&2; failed=1; }
done

echo "deb-lintian.sh: lintian -I -E --pedantic --show-overrides $(basename "$deb") $(basename "$changes")"
lintian -I -E --pedantic --show-overrides "$deb" "$changes" >"$work/lintian.log" 2>&1 || true
cat "$work/lintian.log"
if grep -Eq '^[EW]: ' "$work/lintian.log"; then
	echo "deb-lintian.sh: lintian reports E: or W: tags (above)" >&2
	failed=1
else
	echo "deb-lintian.sh: lintian reports no E: or W: tag ($(grep -c '^[IPXO]: ' "$work/lintian.log" || true) informational, pedantic, experimental or overridden)"
fi
[ "$failed" = 0 ] || { echo "deb-lintian.sh: FAILED; scratch folder kept: $work" >&2; exit 1; }
[ -n "${KN_DEB_WORK:-}" ] || rm -rf "$work"
