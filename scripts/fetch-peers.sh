#!/usr/bin/env bash
# Fetches the peers cuzk-peer-bench measures cuzk against, at pinned commits,
# into DIR (default .carry/peers, ignored by git, carried to the GPU machine):
# sppark and blst (sources) and ICICLE's icicle/ folder. Nothing of theirs
# enters this repository. scripts/device/peers.sh builds and runs them.
#   scripts/fetch-peers.sh [DIR]
# CUZK_PEERS_GIT=/path: take them from local clones instead of GitHub, at
# /path/OWNER+NAME (a git directory or work tree holding the pinned commit).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-.carry/peers}
mkdir -p "$dir"
# name  repository  commit  paths kept
fetch() {
  local name=$1 url=$2 commit=$3
  shift 3
  if [[ -f $dir/$name/.commit && $(cat "$dir/$name/.commit") == "$commit" ]]; then return; fi
  rm -rf "${dir:?}/$name"
  mkdir -p "$dir/$name"
  if [[ -n ${CUZK_PEERS_GIT:-} ]]; then
    local repo=${url#https://github.com/}
    local local_git=$CUZK_PEERS_GIT/${repo/\//+}
    [[ -d $local_git/repo ]] && local_git=$local_git/repo
    git -C "$local_git" archive "$commit" "$@" | tar x -C "$dir/$name"
  else
    local tmp
    tmp=$(mktemp -d)
    git -C "$tmp" init -q
    git -C "$tmp" fetch -q --depth 1 "$url" "$commit"
    git -C "$tmp" archive FETCH_HEAD "$@" | tar x -C "$dir/$name"
    rm -rf "$tmp"
  fi
  echo "$commit" >"$dir/$name/.commit"
  echo "fetch-peers: $name at ${commit:0:12}"
}
fetch sppark https://github.com/supranational/sppark 17278d74295392f9813f009300b257a688422b7a ec ff msm ntt util LICENSE
fetch blst https://github.com/supranational/blst dece82ea537b422890888bacde4034ca5b5a44d8 src build LICENSE
fetch icicle https://github.com/ingonyama-zk/open-icicle a1f8a74b4c604367b9e1eae41aca4d02687e96fc icicle LICENSE
du -sh "$dir"
