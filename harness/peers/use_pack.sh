# use_pack.sh: put the prebuilt FlashInfer pack (harness/peers/pack_flashinfer.sh)
# on PYTHONPATH, and point the FlashMLA peers at theirs, on a GPU machine
# without network. Source it from the
# repository root:
#   . harness/peers/use_pack.sh [PACKDIR]      (default .peers)
# It unpacks PACKDIR/flashinfer-*.tar.xz into $MLAB_PACK_SITE (default
# /tmp/mlab-site; once: a second call reuses it), installs apache-tvm-ffi from
# PACKDIR/wheels where the pack has it, prepends the site to PYTHONPATH and
# checks `import flashinfer` with $MLAB_PEER_PYTHON (default python3). It
# prints one line (the version and where it came from, or why not) and
# returns 0 when FlashInfer imports, 1 otherwise, leaving PYTHONPATH as it
# was (a script with arguments of its own names PACKDIR: sourcing passes
# the script's arguments on otherwise): without the pack `mlabench run --peers flashinfer` skips the FlashInfer
# peers as "not importable", so a suite run that forgot to carry .peers/
# says so here first. Where PACKDIR holds a FlashMLA pack too
# (harness/peers/pack_flashmla.sh: PACKDIR/flashmla/VERSION), it exports
# MLAB_FLASHMLA_DIR (the flashmla peers' libraries) and says so in a line of
# its own, whatever becomes of FlashInfer; the return value is FlashInfer's.
mlab_use_pack() {
  local dir=${1:-.peers} site=${MLAB_PACK_SITE:-/tmp/mlab-site} py=${MLAB_PEER_PYTHON:-python3} tarball v
  if [ -f "$dir/flashmla/VERSION" ]; then
    MLAB_FLASHMLA_DIR=$(cd "$dir/flashmla" && pwd) && export MLAB_FLASHMLA_DIR
    echo "use_pack: FlashMLA of $(cat "$dir/flashmla/VERSION") (MLAB_FLASHMLA_DIR=$MLAB_FLASHMLA_DIR)"
  fi
  tarball=$(ls "$dir"/flashinfer-*.tar.xz 2>/dev/null | head -1)
  if [ -z "$tarball" ]; then
    echo "use_pack: no FlashInfer pack in $dir (build it with harness/peers/pack_flashinfer.sh and carry it: README, Peers); the FlashInfer peers will be skipped"
    return 1
  fi
  if [ ! -e "$site/.mlab-pack-$(basename "$tarball")" ]; then
    mkdir -p "$site" && tar -xJf "$tarball" -C "$site" || { echo "use_pack: cannot unpack $tarball into $site"; return 1; }
    if ls "$dir"/wheels/apache_tvm_ffi-*.whl > /dev/null 2>&1; then
      "$py" -m pip install -q --no-index --no-deps --find-links "$dir/wheels" --target "$site" apache-tvm-ffi ||
        { echo "use_pack: cannot install apache-tvm-ffi from $dir/wheels into $site"; return 1; }
    fi
    touch "$site/.mlab-pack-$(basename "$tarball")"
  fi
  if ! v=$(PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}" "$py" -c 'import flashinfer; print(flashinfer.__version__)' 2>&1); then
    echo "use_pack: flashinfer from $tarball does not import with $py: ${v##*$'\n'}"
    return 1
  fi
  v=${v##*$'\n'}
  export PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}"
  echo "use_pack: flashinfer $v from $tarball (PYTHONPATH=$site)"
}
mlab_use_pack "$@"
