#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# recipe-pydeps.sh DIR [SUITE]: put Debian's pure-Python dask and distributed (and what they need that a
# typical nsys machine's Python lacks) under DIR, for check-recipe.sh --pythonpath DIR/python on a
# machine that cannot install packages itself. Runs where apt-get reaches Debian's archive; the
# packages are unpacked (dpkg -x), never installed. Prints the folder to pass.
# With SUITE (e.g. trixie), the packages come from that Debian suite instead, through a
# temporary package list: Debian 12's distributed 2022.12 cannot start a cluster on Python 3.12
# ("'str' object has no attribute 'decode'"), trixie's 2024.12 can.
set -eu
dir=${1:?usage: recipe-pydeps.sh DIR [SUITE]}
suite=${2:-}
pkgs="python3-dask python3-distributed python3-locket python3-partd python3-tblib python3-tornado python3-zict
	python3-heapdict python3-click python3-cloudpickle python3-fsspec python3-jinja2 python3-markupsafe
	python3-msgpack python3-packaging python3-sortedcontainers python3-toolz python3-urllib3 python3-yaml"
mkdir -p "$dir/debs" "$dir/root"
apt_opts=''
if [ -n "$suite" ]; then
	lists=$(mkdir -p "$dir/lists/partial" && cd "$dir/lists" && pwd)
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" \
		>"$dir/sources.list"
	apt_opts="-o Dir::Etc::SourceList=$(cd "$dir" && pwd)/sources.list -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists=$lists"
	# shellcheck disable=SC2086 # one word per option
	apt-get $apt_opts update -q
fi
# shellcheck disable=SC2086 # one word per package and option
(cd "$dir/debs" && apt-get $apt_opts download $pkgs)
for deb in "$dir"/debs/*.deb; do
	dpkg -x "$deb" "$dir/root"
done
rm -rf "$dir/python"
mv "$dir/root/usr/lib/python3/dist-packages" "$dir/python"
rm -rf "$dir/root" "$dir/debs" "$dir/lists" "$dir/sources.list"
echo "recipe-pydeps: $(du -sh "$dir/python" | cut -f1) in $dir/python (check-recipe.sh --pythonpath $dir/python)"
