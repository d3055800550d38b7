# tree_lib.sh: a commit's source tree and its program, for the scripts that
# build commits on the GPU machine (gpu_ab.sh, gpu_bisect.sh). Sourced; each
# function returns 1 on failure and prints nothing.

# mlab_tree_export REPO COMMIT DIR [DROP...]: the tree of COMMIT (git archive:
# tracked files only) in DIR, made afresh, the paths DROP (relative to it)
# removed (what weighs and is not needed to build: papers/reports, papers)
mlab_tree_export() {
  local repo=$1 commit=$2 dir=$3 d
  shift 3
  rm -rf "$dir" && mkdir -p "$dir" && git -C "$repo" archive "$commit" | tar -x -C "$dir" || return 1
  for d in "$@"; do rm -rf "${dir:?}/$d"; done
}

# mlab_tree_build SRC DIR COMMIT LOG JOBS [cmake args...]: SRC's program
# built in DIR (Release, the GPU back end $MLAB_GPU, default cuda, the
# results naming COMMIT; `--target mlabench` only), the log in LOG. The
# program is removed first: a stale one must never pass for a failed build
mlab_tree_build() {
  local src=$1 dir=$2 commit=$3 log=$4 jobs=$5
  shift 5
  rm -f "$dir/mlabench"
  cmake -S "$src" -B "$dir" -G Ninja -DMLAB_GPU="${MLAB_GPU:-cuda}" -DCMAKE_BUILD_TYPE=Release -DMLAB_COMMIT="$commit" \
    "$@" > "$log" 2>&1 && cmake --build "$dir" -j"$jobs" --target mlabench >> "$log" 2>&1
}
