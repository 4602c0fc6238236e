#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# recipe-pydeps.sh DIR: put Debian 12's pure-Python dask and distributed (and what they need that a
# typical nsys machine's Python lacks) under DIR, for check-recipe.sh --pythonpath DIR/python on a
# machine that cannot install packages itself. Runs where apt-get reaches Debian's archive; the
# packages are unpacked (dpkg -x), never installed. Prints the folder to pass.
set -eu
dir=${1:?usage: recipe-pydeps.sh DIR}
pkgs="python3-dask python3-distributed python3-locket python3-partd python3-tblib python3-tornado python3-zict"
mkdir -p "$dir/debs" "$dir/root"
# shellcheck disable=SC2086 # one word per package
(cd "$dir/debs" && apt-get download $pkgs)
for deb in "$dir"/debs/*.deb; do
	dpkg -x "$deb" "$dir/root"
done
rm -rf "$dir/python"
mv "$dir/root/usr/lib/python3/dist-packages" "$dir/python"
rm -rf "$dir/root" "$dir/debs"
echo "recipe-pydeps: $(du -sh "$dir/python" | cut -f1) in $dir/python (check-recipe.sh --pythonpath $dir/python)"
