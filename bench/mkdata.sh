#!/usr/bin/env bash
# Build the benchmarks' data disk: an ext4 image (no journal; the guest mounts it read-only)
# holding the files the file workloads read.
#
#   bench/mkdata.sh IMAGE TREE_MB HOT_MB COLD_MB
#
#   tree/  TREE_MB of text in 64 KiB files, 100 to a directory (grep -r, seed 004)
#   hot/   HOT_MB in 1 MiB files: the phased workload's hot set, re-read in rounds
#   cold   COLD_MB in one file: the phased workload's stream, read once
#
# Contents are base64 of /dev/urandom (text for grep, incompressible). IMAGE.stamp holds the
# sizes and the hash of this script; a current image is not rebuilt.
set -euo pipefail

die() { echo "mkdata.sh: error: $*" >&2; exit 1; }
[[ $# -eq 4 ]] || die "usage: $0 IMAGE TREE_MB HOT_MB COLD_MB"
image=$1 tree_mb=$2 hot_mb=$3 cold_mb=$4
for v in tree_mb hot_mb cold_mb; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive integer, got '${!v}'"
done
self=$(readlink -f -- "${BASH_SOURCE[0]}")
stamp="$(sha256sum -- "$self" | cut -d' ' -f1) tree=$tree_mb hot=$hot_mb cold=$cold_mb"
if [[ -s $image && -f $image.stamp && $(<"$image.stamp") == "$stamp" ]]; then
	echo "mkdata.sh: $image is up to date ($stamp)" >&2
	exit 0
fi
command -v mke2fs >/dev/null || die "mke2fs not found: apt-get install e2fsprogs"
mkdir -p -- "$(dirname -- "$image")"
work=$(mktemp -d -- "$(dirname -- "$image")/.data.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
root=$work/root
mkdir -p "$root/tree" "$root/hot"
text() { (set +o pipefail; base64 -w 76 /dev/urandom | head -c "$1"); }
# One base64 stream per directory, cut by split: 100 files of 64 KiB each.
for ((d = 0; d * 100 < tree_mb * 16; d++)); do
	n=$((tree_mb * 16 - d * 100))
	((n <= 100)) || n=100
	mkdir -p "$root/tree/d$d"
	text $((n * 65536)) | split -b 65536 -a 3 -d --additional-suffix=.txt - "$root/tree/d$d/f"
done
text $((hot_mb * 1048576)) | split -b 1048576 -a 4 -d - "$root/hot/h"
text $((cold_mb * 1048576)) >"$root/cold"
size_mb=$(((tree_mb + hot_mb + cold_mb) * 105 / 100 + 64))
mke2fs -q -F -t ext4 -O ^has_journal -m 0 -L benchdata -E nodiscard,root_owner=0:0 -d "$root" \
	"$work/data.img" "${size_mb}M" || die "mke2fs -d $root failed"
mv -f -- "$work/data.img" "$image"
echo "$stamp" >"$image.stamp"
echo "mkdata.sh: built $image ($size_mb MB: tree $tree_mb, hot $hot_mb, cold $cold_mb MB)" >&2
